"""What a verbatim item shows beside its badge, checked by every reader and remembered.

A verbatim item's text is shown beside its badge only when its quote supports it
(:func:`gitmem.core.support.shown_text`); else its quote, the transcript's own words, is
shown. Capture stores items so, but a record a teammate or another version of gitmem wrote
may hold a text this version refuses, so the brief and recall check every verbatim item
they show. The check costs a fraction of a millisecond an item and its rules take ~15 ms
to import, at every session start: so each verdict is remembered by item address (an
item's bytes, its text and quote among them, hash to it) in ``wording.json`` beside the
index, under a fingerprint of the rules that reached it (the files of ``gitmem/core``):
a warm brief imports none of them, and a new gitmem checks everything again. Capture
records its own items' verdicts as it writes them. The file is a cache: unreadable, it
is read as empty; unwritable, it is not written.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from contextlib import suppress
from pathlib import Path

FILE = "wording.json"
MOST = 2_000
"""The most verdicts kept, the newest: a brief asks only for the items current now, and
reads the whole file at every session start (2,000 verdicts are ~150 KB)."""
_CORE = Path(__file__).resolve().parent.parent / "core"


@functools.cache
def rules() -> str:
    """A fingerprint of the rules: the name, size and time of each of gitmem's core
    modules (those that decide what a text may say beside its quote are among them), so
    that an edited or reinstalled gitmem checks again; read by one ``stat`` a file (a
    brief does not read their bytes). Raises nothing."""
    digest = hashlib.sha256()
    try:
        with os.scandir(_CORE) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                if entry.name.endswith(".py"):
                    info = entry.stat()
                    digest.update(f"{entry.name}:{info.st_size}:{info.st_mtime_ns};".encode())
    except OSError:
        return "unreadable"
    return digest.hexdigest()[:16]


def refused(local_dir: Path, items: Iterable[tuple[str, str, str]]) -> dict[str, tuple[str, str]]:
    """For the (address, text, quote) of verbatim *items*: address → (what is shown
    instead, why) for each whose quote does not support its text. Verdicts are read from
    and added to the cache in *local_dir*. Raises nothing."""
    wanted = {address: (text, quote) for address, text, quote in items if text != quote}
    known = _read(local_dir)
    missing = [address for address in wanted if address not in known]
    if missing:
        from gitmem.core.support import shown_text  # its rules' import is paid on a miss only

        for address in missing:
            text, quote = wanted[address]
            known[address] = shown_text(text, quote)[1] or ""
        _write(local_dir, known, missing)
    return {address: (wanted[address][1], known[address]) for address in wanted if known[address]}


def remember_verdicts(local_dir: Path, verdicts: Mapping[str, str | None]) -> None:
    """Record *verdicts* (address → why its text is not shown, None: it is) reached
    elsewhere (capture's). Raises nothing."""
    if verdicts:
        known = _read(local_dir)
        known.update((address, why or "") for address, why in verdicts.items())
        _write(local_dir, known, list(verdicts))


def _read(local_dir: Path) -> dict[str, str]:
    try:
        data = json.loads((local_dir / FILE).read_bytes())
    except (OSError, ValueError, RecursionError):  # deep nesting: too deep for the decoder
        return {}
    if not isinstance(data, dict) or data.get("rules") != rules():
        return {}
    verdicts = data.get("verdicts")
    if not isinstance(verdicts, dict):
        return {}
    return {a: w for a, w in verdicts.items() if isinstance(a, str) and isinstance(w, str)}


def _write(local_dir: Path, known: dict[str, str], new: list[str]) -> None:
    from gitmem.core.errors import GitmemError
    from gitmem.store.files import atomic_write

    for address in new:  # the verdicts just reached are the newest
        known[address] = known.pop(address)
    if len(known) > MOST:
        known = dict(list(known.items())[-MOST:])
    data = json.dumps({"rules": rules(), "verdicts": known}, separators=(",", ":"))
    with suppress(GitmemError, OSError):  # a cache not written is read as empty next time
        atomic_write(local_dir / FILE, data.encode(), 0o600)
