"""The record history of ``gitmem log``, read from the index: each record's verdict as the
index keeps it (no signature checked again) and the order commits of the ref added them
(kept with its tip, grown by one ``git log`` of the new commits), so that the log does not
read every item blob, check every record and walk the whole history each time it runs."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import pygit2

from gitmem.core.amends import resolve, rewrite_map
from gitmem.core.errors import FormatError
from gitmem.core.integrity import TrustRoots
from gitmem.core.records import Checkpoint, parse_record
from gitmem.core.types import Sha256Hex
from gitmem.lifecycle.fetched import with_fetched
from gitmem.lifecycle.index import Index
from gitmem.store.history import record_additions
from gitmem.store.layout import parse_path, record_path
from gitmem.store.log import HistoryEntry, recent
from gitmem.store.parallel import gc_paused
from gitmem.store.repo import Store
from gitmem.store.shape import Paths


def log_entries(
    store: Store, roots: TrustRoots, limit: int | None = None, since: datetime | None = None
) -> list[HistoryEntry]:
    """Every record, newest first, with whether it verified under *roots*; with *limit*
    and *since*, the first *limit* of them created at or after *since*
    (:func:`~gitmem.store.log.recent`).

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
        # Newest first: the order commits of the ref added them, not the claimed times
        # (a path that a merge brings in again keeps the place of the commit that added
        # it first).
        rank = {path: n for n, path in enumerate(record_additions(store))}
        if limit is not None and since is None:  # a time can leave out any record: all read
            newest = _newest(store, index, sorted(rank, key=rank.__getitem__), limit)
            if newest is not None:
                return newest
        rows = index.records()
        rewrites = _rewrites(index)
    with gc_paused():  # objects by the thousand, all kept: a collection frees nothing
        entries = _entries(rows, rewrites)
    paths = {e.sha256: record_path(e.type, e.sha256) for e in entries}
    local = store.addresses("checkpoints") | store.addresses("events")
    entries = [e for e in entries if e.sha256 in local]
    entries.sort(key=lambda e: rank.get(paths[e.sha256], len(rank)))
    return recent(entries, limit, since)


def _newest(store: Store, index: Index, order: list[str], limit: int) -> list[HistoryEntry] | None:
    """The first *limit* records of *order* (paths, newest first) that the tip holds and
    the index knows, read a few at a time rather than every record of history (``gitmem
    log -n 20`` at 10,000 checkpoints: 0.19 s, not 0.97 s); None when *order* runs out
    first (the records it does not name come after it: the whole log then)."""
    tip = store.tip()
    if tip is None:
        return []
    commit = store.repo.get(tip)
    held = Paths(commit.tree if isinstance(commit, pygit2.Commit) else None)
    rewrites = _rewrites(index)
    found: list[HistoryEntry] = []
    for at in range(0, len(order), 2 * limit + 50):
        part = [p for p in order[at : at + 2 * limit + 50] if held(p) is not None]
        places = [place for place in map(parse_path, part) if place is not None]
        rows = {row[0]: row for row in index.records_at([a for _, a in places])}
        wanted = [rows[a] for _, a in places if a in rows]
        found += _entries(wanted, rewrites)
        if len(found) >= limit:
            return found[:limit]
    return None


def _entries(
    rows: list[tuple[str, str, str | None, bytes]], rewrites: dict[str, str]
) -> list[HistoryEntry]:
    """An entry for each of *rows* (address, type, problem, bytes), in their order, its
    commit followed through *rewrites*."""
    entries: list[HistoryEntry] = []
    for address, kind, problem, data in rows:
        fields = _said(data, problem is None)
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


def _rewrites(index: Index) -> dict[str, str]:
    """Old commit → new commit, from the verified rewrite events the index holds."""
    return rewrite_map(parse_record(data) for data in index.rewrites())
