"""What sync took from a remote that failed its checks: ``.git/gitmem/quarantine.json``.

A path a remote added that fails its own check (an edited or unsigned record, a stray
file) is taken with the rest, so one bad push never freezes a team's exchange, and it is
never read as genuine. This file remembers each one — the remote it came from, the
commit that added it and who that commit says made it — so that ``status`` and the brief
can say so long after the sync that met it. Local, never pushed; deleting it forgets the
attribution, never the check (every reader checks every record again).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from gitmem.store.files import read_state, write_state
from gitmem.store.gitfiles import MEMORY_REF

QUARANTINE_FILE = "quarantine.json"
KEPT = 500
"""Entries kept, the newest; a flood of bad records is counted, not listed forever (the
file says how many it let go, :func:`let_go`, and a count of it is then a bound,
:func:`how_many`)."""
_FIELDS = ("path", "problem", "detail", "commit", "author", "remote", "ref")


def quarantined(local_dir: Path) -> list[dict[str, str | None]]:
    """The quarantined paths, oldest first. Raises nothing (an unreadable file: none)."""
    data = read_state(local_dir / QUARANTINE_FILE, max_depth=4)
    entries = data.get("paths") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return []
    return [
        {k: _text(e.get(k)) for k in _FIELDS}
        for e in entries
        if isinstance(e, dict) and isinstance(e.get("path"), str)
    ]


def let_go(local_dir: Path) -> int:
    """How many entries the file let go to keep :data:`KEPT`. Raises nothing."""
    data = read_state(local_dir / QUARANTINE_FILE, max_depth=4)
    count = data.get("let_go") if isinstance(data, dict) else None
    return count if isinstance(count, int) and count > 0 else 0


def how_many(shown: int, let_go: int) -> str:
    """*shown* as the brief and status print a count of quarantined paths: exact, or
    "500+" when entries were let go (they may still be stored). Raises nothing."""
    return f"{shown}+" if let_go else str(shown)


def quarantine(
    local_dir: Path, remote: str, entries: Iterable[Mapping[str, Any]], ref: str = MEMORY_REF
) -> None:
    """Add *entries* (path, problem, detail, commit, author) that came from *remote*'s
    *ref*. Raises nothing: a clone that cannot write reports them only where they are
    met."""
    new = [{**{k: _text(e.get(k)) for k in _FIELDS}, "remote": remote, "ref": ref} for e in entries]
    if not new:
        return
    paths = {(e["ref"], e["path"]) for e in new}
    kept = [e for e in quarantined(local_dir) if (e["ref"] or MEMORY_REF, e["path"]) not in paths]
    kept += new
    dropped = let_go(local_dir) + max(0, len(kept) - KEPT)
    state = {"version": 1, "paths": kept[-KEPT:], "let_go": dropped}
    with contextlib.suppress(OSError):
        write_state(local_dir / QUARANTINE_FILE, state, sort_keys=True)


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None
