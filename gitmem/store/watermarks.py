"""Watermarks: for each remote and ref, the last tip this clone accepted from, or pushed
to, that remote (``.git/gitmem/watermarks.json``, local, never pushed). A remote tip that
does not descend from its watermark rewrote or removed records there
(:mod:`gitmem.team.sync` reports it; :mod:`gitmem.lifecycle.fetched` leaves it out of what
readers see)."""

from __future__ import annotations

import re
from pathlib import Path

from gitmem.core.types import GitOid
from gitmem.store.files import read_state, write_state
from gitmem.store.gitfiles import TRACKING_PREFIX

WATERMARKS = "watermarks.json"
SYNC_LOCK = "sync.lock"
"""One sync (or purge, or pre-push watermark update) per clone at a time."""
_OID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


def tracking_prefix(remote: str) -> str:
    """Where *remote*'s ``refs/gitmem/*`` are fetched to: ``refs/gitmem-remotes/<remote>/``."""
    return f"{TRACKING_PREFIX}{remote}/"


class Watermarks:
    """The last tip accepted from (or pushed to) each remote, per ref."""

    def __init__(self, local_dir: Path) -> None:
        self.path = local_dir / WATERMARKS
        data = read_state(self.path, max_depth=4)  # unreadable: every remote as if first seen
        remotes = data.get("remotes", {}) if isinstance(data, dict) else {}
        if not isinstance(remotes, dict):
            remotes = {}
        self.marks: dict[str, dict[str, str]] = {
            str(r): {str(k): v for k, v in refs.items() if isinstance(v, str) and _OID.fullmatch(v)}
            for r, refs in remotes.items()
            if isinstance(refs, dict)
        }

    def get(self, remote: str, ref: str) -> GitOid | None:
        value = self.marks.get(remote, {}).get(ref)
        return None if value is None else GitOid(value)

    def refs(self, remote: str) -> list[str]:
        return sorted(self.marks.get(remote, {}))

    def set(self, remote: str, ref: str, tip: GitOid | None) -> None:
        refs = self.marks.setdefault(remote, {})
        if tip is None:
            refs.pop(ref, None)
        else:
            refs[ref] = tip

    def save(self) -> None:
        write_state(self.path, {"version": 1, "remotes": self.marks}, sort_keys=True)
