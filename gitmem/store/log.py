"""The record history, newest first (``gitmem log``), and its ``-n`` / ``--since`` cuts."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from gitmem.core.amends import resolve, rewrite_map
from gitmem.core.errors import InputError
from gitmem.core.integrity import TrustRoots
from gitmem.core.records import Checkpoint
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
        (stored, roots.check(stored.address, stored.data, stored.receipt, stored.type))
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


_SPAN = re.compile(r"(\d{1,6})\s*(m|min|h|d|w)")
_UNIT = {"m": 60, "min": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def parse_since(text: str, now: datetime) -> datetime:
    """The start of ``log --since TEXT``: a span back from *now* (``30m``, ``12h``,
    ``3d``, ``2w``), a date (its first moment, UTC) or an ISO 8601 time (without a zone:
    UTC).

    Raises:
        InputError: none of these.
    """
    text = text.strip()
    span = _SPAN.fullmatch(text)
    if span is not None:
        return now - timedelta(seconds=int(span[1]) * _UNIT[span[2]])
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as e:
        raise InputError(
            f"--since takes a span (3d, 12h, 2w), a date (2026-01-05) or an ISO 8601 time, "
            f"not {text!r}"
        ) from e
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def recent(
    entries: list[HistoryEntry], limit: int | None, since: datetime | None
) -> list[HistoryEntry]:
    """The first *limit* of *entries* (newest first) created at or after *since*; a record
    without a readable time is left out once *since* is given."""
    if since is not None:
        start = since
        entries = [e for e in entries if (_created(e) or datetime.min.replace(tzinfo=UTC)) >= start]
    return entries if limit is None else entries[:limit]


def _created(entry: HistoryEntry) -> datetime | None:
    if entry.created is None:
        return None
    try:
        when = datetime.fromisoformat(entry.created.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when
