"""Scrub ``.git/gitmem/`` after a purge: no local file keeps what the purge removed.

The local state is rebuildable, so it is scrubbed by what it is, not by parsing each
file's format:

- SQLite files (the index with its full-text table, any other) are deleted whatever they hold: the
  next command rebuilds them from the purged ref;
- line files (``*.jsonl``, ``*.log``: the emission ledger, the capture log) lose every
  line that holds a needle;
- settings and positions (:data:`KEPT`) are never changed; one that holds a needle is
  reported, for the user to edit;
- every other file that holds a needle (raw model replies, staged chat imports, saved
  hook input) is deleted.

A needle is looked for as written, JSON-escaped, and folded as the ledger folds text.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from gitmem.core.folding import fold
from gitmem.core.purge import needles as escaped_forms
from gitmem.store.files import atomic_write

KEPT = frozenset({"config.json", "watermarks.json", "cursors.json", "release-seen.json"})
"""Settings and positions: written by people or by sync, never holding captured text."""
_REBUILT = (".sqlite", ".sqlite-wal", ".sqlite-shm", ".sqlite-journal")
_LINES = (".jsonl", ".log")


@dataclass(frozen=True)
class Scrubbed:
    changed: tuple[str, ...]
    """Files rewritten without the lines that held a needle (relative to the folder)."""
    deleted: tuple[str, ...]
    left: tuple[str, ...]
    """Settings files that hold a needle: left for the user to edit."""


def forms(texts: Iterable[str]) -> tuple[bytes, ...]:
    """Every byte form to look for: each text as is, JSON-escaped, and folded. Empty
    forms are dropped. Raises nothing."""
    found: dict[bytes, None] = {}
    for text in texts:
        for form in (*escaped_forms(text), *escaped_forms(fold(text))):
            if form.strip():
                found[form.encode("utf-8")] = None
    return tuple(found)


def scrub_local(local_dir: Path, texts: Sequence[str]) -> Scrubbed:
    """Scrub *local_dir* of *texts* (see the module's rules). A file that cannot be read
    or written is left as it is. Raises nothing."""
    wanted = forms(texts)
    changed: list[str] = []
    deleted: list[str] = []
    left: list[str] = []
    if not local_dir.is_dir():
        return Scrubbed((), (), ())
    for path in sorted(p for p in local_dir.rglob("*") if p.is_file() and not p.is_symlink()):
        name = str(path.relative_to(local_dir))
        if path.name.endswith(_REBUILT):
            if _unlink(path):
                deleted.append(name)
            continue
        try:
            data = path.read_bytes()
        except OSError:
            continue
        if not any(form in data for form in wanted):
            continue
        if path.name in KEPT or path.name.endswith(".lock"):
            left.append(name)
        elif path.name.endswith(_LINES):
            kept = [line for line in data.splitlines(True) if not any(f in line for f in wanted)]
            try:
                atomic_write(path, b"".join(kept), os.stat(path).st_mode & 0o777)
            except OSError:
                continue
            changed.append(name)
        elif _unlink(path):
            deleted.append(name)
    return Scrubbed(tuple(changed), tuple(deleted), tuple(left))


def _unlink(path: Path) -> bool:
    try:
        path.unlink()
    except OSError:
        return False
    return True
