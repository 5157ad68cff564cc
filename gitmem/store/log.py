"""An entry of the record history (``gitmem log``; :mod:`gitmem.lifecycle.log` lists them
newest first), and its ``-n`` / ``--since`` cuts."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from gitmem.core.errors import InputError
from gitmem.core.types import Sha256Hex


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
