"""The record history of ``gitmem log``, read from the index: each record's verdict as the
index keeps it (no signature checked again) and the order commits of the ref added them
(kept with its tip, grown by one ``git log`` of the new commits), so that the log does not
read every item blob, check every record and walk the whole history each time it runs."""

from __future__ import annotations

import json
from typing import Any

from gitmem.core.amends import resolve, rewrite_map
from gitmem.core.errors import FormatError
from gitmem.core.integrity import TrustRoots
from gitmem.core.records import REWRITE, Checkpoint, Record, parse_record
from gitmem.core.types import Sha256Hex
from gitmem.lifecycle.fetched import with_fetched
from gitmem.lifecycle.index import Index
from gitmem.store.history import record_additions
from gitmem.store.layout import record_path
from gitmem.store.log import HistoryEntry
from gitmem.store.parallel import gc_paused
from gitmem.store.repo import Store


def log_entries(store: Store, roots: TrustRoots) -> list[HistoryEntry]:
    """Every record, newest first, with whether it verified under *roots*.

    ``commit`` follows amends and rebases (from verified rewrite events);
    ``captured_commit`` is the commit the record itself names.

    Raises:
        GitError: the memory ref or its history cannot be read.
        IndexUnreadable: the index cannot be read even once rebuilt.
    """
    # The index every reader opens is the view's (the local memory and what was fetched
    # and not merged yet): opened on the local memory alone, it would be rebuilt here
    # and again by the next reader. The log is of the local memory: the view's other
    # records (fetched, merged by the next write or sync) are left out.
    with Index.open(with_fetched(store, roots), roots) as index:
        rows = index.records()
    with gc_paused():  # objects by the thousand, all kept: a collection frees nothing
        entries = _entries(rows)
    # Newest first: the order commits of the ref added them, not the claimed times.
    rank = {path: n for n, path in enumerate(record_additions(store))}
    paths = {e.sha256: record_path(e.type, e.sha256) for e in entries}
    local = store.addresses("checkpoints") | store.addresses("events")
    entries = [e for e in entries if e.sha256 in local]
    entries.sort(key=lambda e: rank.get(paths[e.sha256], len(rank)))
    return entries


def _entries(rows: list[tuple[str, str, str | None, bytes]]) -> list[HistoryEntry]:
    """An entry for each of *rows* (address, type, problem, bytes), in their order."""
    said = [_said(data, problem is None) for _, _, problem, data in rows]
    rewrites = rewrite_map(_rewrites(rows, said))
    entries: list[HistoryEntry] = []
    for (address, kind, problem, _), fields in zip(rows, said, strict=True):
        captured = None if fields is None else fields.get("commit")
        ok = problem is None
        entries.append(
            HistoryEntry(
                type=kind,
                sha256=Sha256Hex(address),
                session=None if fields is None else fields["session"],
                commit=resolve(captured, rewrites) if ok else captured,
                created=None if fields is None else fields["created"],
                writer=None if fields is None else fields["writer"],
                verified=ok,
                items=_items(fields),
                captured_commit=captured,
            )
        )
    return entries


def _said(data: bytes, verified: bool) -> dict[str, Any] | None:
    """The fields of a record's bytes, None when they are not a record. A verified
    record parsed when it was checked: its JSON is read as it is (a parse of every record
    of history would cost the log most of its time); any other is parsed in full."""
    if verified:
        fields: dict[str, Any] = json.loads(data)
        return fields
    try:
        record = parse_record(data)
    except FormatError:
        return None
    fields = {
        "type": record.type,
        "session": record.session,
        "commit": record.commit,
        "created": record.created,
        "writer": record.writer,
    }
    if isinstance(record, Checkpoint):
        fields["items"] = list(record.items)
    return fields


def _items(fields: dict[str, Any] | None) -> int | None:
    if fields is None or fields.get("type") != "checkpoint":
        return None
    return len(fields["items"])


def _rewrites(
    rows: list[tuple[str, str, str | None, bytes]], said: list[dict[str, Any] | None]
) -> list[Record]:
    """The verified rewrite events, parsed, in the order their folder holds them."""
    found: list[Record] = []
    for (_, _, problem, data), fields in zip(rows, said, strict=True):
        if problem is None and fields is not None and fields.get("event") == REWRITE:
            found.append(parse_record(data))
    return found
