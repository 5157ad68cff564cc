"""The record history, newest first (``gitmem log``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gitmem.core.integrity import TrustRoots
from gitmem.core.records import Checkpoint
from gitmem.core.rewrites import resolve, rewrite_map
from gitmem.core.types import Sha256Hex
from gitmem.store.layout import record_path
from gitmem.store.repo import Store


@dataclass(frozen=True)
class HistoryEntry:
    type: str
    sha256: Sha256Hex
    session: str | None
    commit: str | None
    created: str | None
    writer: str | None
    verified: bool
    items: int | None
    captured_commit: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "sha256": self.sha256,
            "session": self.session,
            "commit": self.commit,
            "captured_commit": self.captured_commit,
            "created": self.created,
            "writer": self.writer,
            "verified": self.verified,
        }


def log_entries(store: Store, roots: TrustRoots) -> list[HistoryEntry]:
    """Every record, newest first, with whether it verified.

    ``commit`` follows amends and rebases (from verified rewrite events);
    ``captured_commit`` is the commit the record itself names.
    """
    checks = [
        (stored, roots.check(stored.address, stored.data, stored.receipt))
        for stored in store.read().records
    ]
    rewrites = rewrite_map(c.record for _, c in checks if c.ok and c.record is not None)
    entries: list[HistoryEntry] = []
    for stored, check in checks:
        record = check.record
        captured = None if record is None else record.commit
        entries.append(
            HistoryEntry(
                type=stored.type,
                sha256=stored.address,
                session=None if record is None else record.session,
                commit=resolve(captured, rewrites) if check.ok else captured,
                created=None if record is None else record.created,
                writer=None if record is None else record.writer,
                verified=check.ok,
                items=len(record.items) if isinstance(record, Checkpoint) else None,
                captured_commit=captured,
            )
        )
    # Newest first: the order commits of the ref added them, not the claimed times.
    rank = {path: n for n, path in enumerate(store.additions())}
    paths = {e.sha256: record_path(e.type, e.sha256) for e in entries}
    entries.sort(key=lambda e: rank.get(paths[e.sha256], len(rank)))
    return entries
