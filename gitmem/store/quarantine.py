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

QUARANTINE_FILE = "quarantine.json"
_KEPT = 500
"""Entries kept, the newest; a flood of bad records is counted, not listed forever."""
_FIELDS = ("path", "problem", "detail", "commit", "author", "remote")


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


def quarantine(local_dir: Path, remote: str, entries: Iterable[Mapping[str, Any]]) -> None:
    """Add *entries* (path, problem, detail, commit, author) that came from *remote*.
    Raises nothing: a clone that cannot write reports them only where they are met."""
    new = [{**{k: _text(e.get(k)) for k in _FIELDS}, "remote": remote} for e in entries]
    if not new:
        return
    paths = {e["path"] for e in new}
    kept = [e for e in quarantined(local_dir) if e["path"] not in paths] + new
    with contextlib.suppress(OSError):
        write_state(
            local_dir / QUARANTINE_FILE, {"version": 1, "paths": kept[-_KEPT:]}, sort_keys=True
        )


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None
