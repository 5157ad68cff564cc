"""Keeping the index's file current: rebuilt from the tip's tree, or advanced by
the paths the ref added since the last tip it saw (:mod:`gitmem.lifecycle.index` reads it).

A rebuild always starts a fresh file (the old one is removed first), and deletes are
written with ``secure_delete``, so text that left the memory (a purge, a forgotten item's
full-text row) does not linger in free pages.
"""

from __future__ import annotations

import itertools
import json
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from pathlib import Path
from typing import NamedTuple

import pygit2

from gitmem.core.errors import FormatError
from gitmem.core.integrity import RecordCheck, TrustRoots, check_item
from gitmem.core.items import Item
from gitmem.core.purge import purge_of
from gitmem.core.records import (
    EVENT_PURGE,
    Checkpoint,
    Event,
    Record,
    parse_record,
    record_time,
)
from gitmem.core.types import GitOid, Sha256Hex
from gitmem.lifecycle.index_checks import (
    ItemChecks,
    genuine_items,
    keep_orphans,
    verdict_of,
    verify_into,
)
from gitmem.lifecycle.index_file import (
    DAMAGE,
    connect,
    discard,
    journal_mode,
    meta_value,
    searchable,
    set_meta,
    shape,
    sound,
    stray_rows,
    transaction,
)
from gitmem.lifecycle.index_states import (
    load_states,
    rows_at,
    save_states,
    state_meta,
    state_row,
    stored_state,
)
from gitmem.lifecycle.late import dangling, replay_late
from gitmem.lifecycle.replay import MemoryState, Replayable, follow_replaced, replay
from gitmem.store.asof import PinnedStore
from gitmem.store.layout import (
    RECORD_DIRS,
    parse_path,
    plain_file_bytes,
    receipt_path,
    record_path,
)
from gitmem.store.parallel import Background, gc_paused
from gitmem.store.recent import records_at, stops_between
from gitmem.store.repo import Store, StoreContents, StoredRecord
from gitmem.store.shape import odd_entry


def brought_up_to_date(
    path: Path, store: Store, roots: TrustRoots, key: str
) -> tuple[sqlite3.Connection, bool]:
    """The index at *path*, up to date with the ref's tip, and whether it was rebuilt
    (a missing, corrupt or foreign file is rebuilt: it is a cache). The caller holds the
    writers' lock.

    Raises:
        GitError: the memory ref cannot be read.
        OSError, sqlite3.Error: the file cannot be written even afresh.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    connection: sqlite3.Connection | None = None
    try:
        connection = connect(path)
        meta = dict(connection.execute("SELECT key, value FROM meta").fetchall())
    except DAMAGE:
        meta = {}  # damaged, or something else: rebuilt below
    if connection is not None and meta.get("key") == key and sound(connection, meta):
        seen = GitOid(meta.get("tip") or "") or None
        tip = store.tip()
        if seen == tip:
            return connection, False
        try:
            added = None if seen is None or tip is None else store.additions_since(seen, tip)
            if added is not None and seen is not None and tip is not None:
                far = sum(1 for p in added if p.split("/", 1)[0] in RECORD_DIRS) > STEP
                if not (far and _stepped(connection, store, roots, seen, tip)):
                    _advance(connection, store, roots, tip, added)
                return connection, False
        except DAMAGE:
            pass  # a damaged file is rebuilt below
    if connection is not None:
        with suppress(sqlite3.Error):
            connection.close()
    return rebuilt_file(path, store, roots, key), True


def rebuilt_file(path: Path, store: Store, roots: TrustRoots, key: str) -> sqlite3.Connection:
    """A fresh index at *path* (whatever was there removed first), rebuilt: a large
    store's in steps (see :data:`LARGE`). The caller holds the writers' lock."""
    discard(path)
    connection = connect(path)
    tip = store.tip()
    stops = (
        []
        if tip is None or records_at(store, tip) <= LARGE
        else stops_between(store, None, tip, STEP)
    )
    if len(stops) > 1:
        rebuild(connection, PinnedStore(store, stops[0]), roots, key)
        _advance_through(connection, store, roots, stops)
    else:
        rebuild(connection, store, roots, key)
    return connection


LARGE = 6000
"""Records above which a fresh index is built in steps along the ref's first parents
(each step a whole index of the commit it reaches, written in one transaction): memory
bounded by a step at any size, and a build killed midway goes on from its last step
rather than from nothing. A fresh build of fewer runs in one go, on two cores, faster."""
STEP = 3000
"""Records a step adds at most (unless one commit adds more: a merge of a long history)."""


def _stepped(
    connection: sqlite3.Connection, store: Store, roots: TrustRoots, seen: GitOid, tip: GitOid
) -> bool:
    """Advance the index from *seen* to *tip* in steps of :data:`STEP` records along the
    first parents; False (nothing done) when *seen* is not a first parent of *tip*."""
    stops = stops_between(store, seen, tip, STEP)
    if not stops:
        return False
    _advance_through(connection, store, roots, [seen, *stops])
    return True


def _advance_through(
    connection: sqlite3.Connection, store: Store, roots: TrustRoots, stops: Sequence[GitOid]
) -> None:
    """Advance an index of ``stops[0]`` to each next stop in turn (each a descendant)."""
    for before, stop in itertools.pairwise(stops):
        added = store.additions_since(before, stop)
        if added is None:
            raise ValueError(f"{stop[:12]} does not descend from {before[:12]}")
        _advance(connection, store, roots, stop, added)


def rebuild(connection: sqlite3.Connection, store: Store, roots: TrustRoots, key: str) -> None:
    """Fill an empty index from the tip's tree: every record verified, every item
    checked, the whole history replayed.

    Raises:
        BrokenRef: the ref is symbolic or points at something that is not a commit.
    """
    contents, read_items = store.read_deferred()
    rebuild_from(connection, contents, read_items, roots, key)


@gc_paused()  # it keeps everything it makes until it is written
def rebuild_from(
    connection: sqlite3.Connection,
    contents: StoreContents,
    read_items: Callable[[], dict[Sha256Hex, bytes]],
    roots: TrustRoots,
    key: str,
) -> None:
    """:func:`rebuild` from *contents* read already (their item blobs by *read_items*,
    asked once the record checks have started). Raises nothing of its own."""
    records = list(contents.records)
    hoped: _Replayed | None = None
    # A fresh file has nothing to roll back to: its pages are written once, not through
    # the write-ahead log and again into the file. Without a journal a commit is not
    # atomic (its pages are written in file order, the key's among the first), so the key
    # goes in last, in a transaction of its own once everything else is in the file: a
    # crash at any moment leaves a file without its key, which the next command rebuilds.
    # Nor is it synced (a sync of its ~25 MB at 1,000 checkpoints costs a disk's time):
    # a power cut before the system writes it back can tear it, and a torn fresh file is
    # one SQLite finds damaged (the pages never written read as zeros, or lie past its
    # end), which the next command that meets the damage rebuilds.
    journal_mode(connection, "OFF")
    connection.execute("PRAGMA synchronous=OFF")
    # The record checks (an Ed25519 signature each: most of a rebuild's work) go to a
    # forked child when there are many (a first brief after a clone). Meanwhile this
    # process checks the item blobs, replays the records it expects to hold (those that
    # parse and name a key the roots list) and writes what does not wait for the
    # verdicts, then checks the records the child has not claimed yet. That replay stands
    # only if exactly those records hold; otherwise what holds is replayed and written
    # again.
    with Background(verdict_of(roots), records) as pending, transaction(connection) as db:
        misfits = [*contents.strays, *(path for path, _ in contents.odd_entries)]
        db.executemany("INSERT INTO strays VALUES (?)", stray_rows(misfits))
        blobs = read_items()  # while the child checks the records
        db.executemany("INSERT INTO blobs VALUES (?, ?)", list(blobs.items()))
        item_checks = {a: check_item(a, data) for a, data in blobs.items()}
        genuine = {a: c.item for a, c in item_checks.items() if c.item is not None}
        if pending.forked:
            parsed = [_parsed(r.data) for r in records]
            listed = roots.listed_keys()
            hoped = _replayed(
                [
                    Replayable(r.address, p)
                    for r, p in zip(records, parsed, strict=True)
                    if p is not None and p.key in listed
                ],
                genuine,
            )
            _write_whole(db, hoped)
            checks = [
                RecordCheck(r.address, problem, detail, p if parses else None)
                for r, (problem, detail, parses), p in zip(
                    records, pending.result(), parsed, strict=True
                )
            ]
        else:
            checks = [roots.check(r.address, r.data, r.receipt, r.type) for r in records]
        items = ItemChecks(db, blobs)
        items.known(item_checks)
        good = verify_into(db, records, roots, items, checks)
        # what was just verified and parsed is replayed as it is, not read back
        if hoped is None or hoped.addresses != [r.address for r in good]:
            _write_whole(db, _replayed(good, genuine))
        keep_orphans(db, blobs)
        set_meta(db, {"tip": contents.tip or "", "shape": shape(db)})
    journal_mode(connection, "WAL")
    with transaction(connection) as db:
        set_meta(db, {"key": key})
    # into the file now, unsynced, rather than at close with a sync of everything
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.execute("PRAGMA synchronous=NORMAL")  # what every later writer keeps


def _checks(stored: Sequence[StoredRecord], roots: TrustRoots) -> list[RecordCheck]:
    """Each of *stored* checked under *roots*: on two cores when there are many (a step
    of a large build, a sync of thousands), the parse left here."""
    with Background(verdict_of(roots), stored) as pending:
        if not pending.forked:
            return [roots.check(r.address, r.data, r.receipt, r.type) for r in stored]
        parsed = [_parsed(r.data) for r in stored]
        return [
            RecordCheck(r.address, problem, detail, p if parses else None)
            for r, (problem, detail, parses), p in zip(
                stored, pending.result(), parsed, strict=True
            )
        ]


def _parsed(data: bytes) -> Record | None:
    """*data* parsed, its canonical form left to the child's check (a record that does not
    parse there is taken as unparsed, whatever this gave)."""
    try:
        return parse_record(data, form_checked=True)
    except FormatError:
        return None


def _advance(
    connection: sqlite3.Connection,
    store: Store,
    roots: TrustRoots,
    tip: GitOid,
    added: Mapping[str, pygit2.Object],
) -> None:
    """Only what the ref added since the last tip (each path with its entry of the tip's
    tree): new records verified and replayed."""
    kinds: dict[str, list[tuple[str, Sha256Hex]]] = {d: [] for d in RECORD_DIRS}
    blobs: list[tuple[str, Sha256Hex]] = []
    receipts: set[Sha256Hex] = set()
    strays: list[str] = []
    for path in added:
        place = parse_path(path)
        if place is None:
            strays.append(path)
        elif place[0] in RECORD_DIRS:
            kinds[place[0]].append((path, place[1]))
        elif place[0] == "items":
            blobs.append((path, place[1]))
        elif place[0] == "receipts":
            receipts.add(place[1])
    wanted = [p for group in kinds.values() for p, _ in group] + [p for p, _ in blobs]
    data = {
        path: found
        for path in wanted + [receipt_path(d) for d in receipts]
        if (found := plain_file_bytes(store.repo, added.get(path), path)) is not None
    }
    # a symlink, say: never read as content
    strays += [path for path, entry in added.items() if odd_entry(entry.filemode)]
    with transaction(connection) as db:
        db.executemany("INSERT OR IGNORE INTO strays VALUES (?)", stray_rows(strays))
        late = {a for (a,) in db.execute("SELECT address FROM named WHERE problem IS NOT NULL")}
        db.executemany(
            "INSERT OR REPLACE INTO blobs VALUES (?, ?)",
            [(a, data[p]) for p, a in blobs if p in data],
        )
        # an item blob rewritten in place (same path, other bytes): its verdict changes
        edited = [a for p, a in blobs if p in data and _recheck_named(db, a, data[p])]
        stored, rechecked = _stored(db, kinds, receipts, data)
        before = meta_value(db, "replayed_until")
        fresh = verify_into(db, stored, roots, checks=_checks(stored, roots))
        # An item or a receipt that arrived after the record naming it changes history:
        # replay it all again. So does a record older than what was replayed already (a
        # sync, an import of past sessions), unless it commutes with what came after it.
        late_item = any(a in late for _, a in blobs) or bool(edited)
        out_of_order = any(record_time(r.record) < before for r in fresh if before)
        # A purge (merged in by a sync) removes states and redirects quote sources: rare.
        purge = any(isinstance(r.record, Event) and r.record.event == EVENT_PURGE for r in fresh)
        if late_item or rechecked or purge or not _replay_onto(db, fresh, out_of_order):
            _replay_all(db)
        keep_orphans(db, [a for p, a in blobs if p in data])
        set_meta(db, {"tip": tip, "shape": shape(db)})


def _recheck_named(db: sqlite3.Connection, address: Sha256Hex, data: bytes) -> bool:
    """Check the item blob at *address* again now that it holds *data*; whether its
    verdict changed (True: what was replayed from it no longer holds)."""
    row = db.execute("SELECT problem FROM named WHERE address = ?", (address,)).fetchone()
    if row is None:
        return False
    verdict = check_item(address, data)
    db.execute(
        "UPDATE named SET problem = ?, detail = ? WHERE address = ?",
        (verdict.problem, verdict.detail, address),
    )
    return bool(row[0] != verdict.problem)


def _stored(
    db: sqlite3.Connection,
    kinds: Mapping[str, list[tuple[str, Sha256Hex]]],
    receipts: set[Sha256Hex],
    data: Mapping[str, bytes],
) -> tuple[list[StoredRecord], bool]:
    """The records to (re)check: every new one, and any earlier one whose receipt only
    arrived now (then True)."""
    stored: dict[Sha256Hex, StoredRecord] = {}
    for directory, found in kinds.items():
        kind = RECORD_DIRS[directory]
        for path, address in found:
            if path in data:
                receipt = data.get(receipt_path(address))
                stored[address] = StoredRecord(kind, address, path, data[path], receipt)
    rechecked = False
    for address in receipts - set(stored):
        row = db.execute("SELECT type, data FROM records WHERE address = ?", (address,)).fetchone()
        if row is not None:
            rechecked = True
            stored[address] = StoredRecord(
                row[0],
                address,
                record_path(row[0], address),
                row[1],
                data.get(receipt_path(address)),
            )
    return list(stored.values()), rechecked


def _replay_all(db: sqlite3.Connection) -> None:
    """Replay every record that holds, from the stored bytes (verdicts kept): at once up
    to :data:`LARGE` records, else a batch at a time in replay order, each onto the
    states the batches before it left (memory bounded by a batch at any size)."""
    order = db.execute("SELECT created, address FROM records WHERE problem IS NULL").fetchall()
    if len(order) <= LARGE:
        records = [
            Replayable(address, parse_record(data))
            for address, data in db.execute(
                "SELECT address, data FROM records WHERE problem IS NULL"
            )
        ]
        _write_whole(db, _replayed(records, genuine_items(db)))
        return
    db.execute("DELETE FROM states")
    db.execute("DELETE FROM recall")
    set_meta(db, {"replayed_until": "", "dangling": "[]", **state_meta(MemoryState({}, None))})
    order.sort()
    for start in range(0, len(order), _BATCH):
        wanted = [address for _, address in order[start : start + _BATCH]]
        found = dict(rows_at(db, "SELECT address, data FROM records WHERE address IN", wanted))
        _replay_onto(db, [Replayable(a, parse_record(found[a])) for a in wanted], late=False)
    replaced = json.loads(meta_value(db, "replaced") or "{}")
    if replaced:  # a purge redirects quote sources, the states it did not touch too
        every = [address for (address,) in db.execute("SELECT address FROM states")]
        for start in range(0, len(every), _BATCH):
            states = load_states(db, every[start : start + _BATCH])
            follow_replaced(states.values(), replaced)
            save_states(db, states.values())


_BATCH = 2000
"""Records replayed at once when a large index is replayed again in batches."""


class _Replayed(NamedTuple):
    """The replay of a whole history, ready to be written."""

    addresses: list[str]
    """The records replayed, in the order given."""
    state: MemoryState
    rows: list[tuple[str, int, int, str, str, str]]
    """Its item states' rows of the states table, in the state's order."""
    until: str
    """The time of the newest record replayed."""
    dangling: set[str]
    """The items its events named while no state held them (:func:`late.dangling`)."""


def _replayed(records: Sequence[Replayable], items: Mapping[Sha256Hex, Item]) -> _Replayed:
    state = replay(records, items)
    return _Replayed(
        [r.address for r in records],
        state,
        [state_row(s) for s in state.items.values()],
        max((record_time(r.record) for r in records), default=""),
        dangling(records, state),
    )


def _write_whole(db: sqlite3.Connection, replayed: _Replayed) -> None:
    """Replace every state by *replayed*'s."""
    states = list(replayed.state.items.values())
    db.execute("DELETE FROM states")
    db.execute("DELETE FROM recall")
    # Emptied tables: each state's rowid (its full-text row's too) is its place here,
    # so every row goes in with one statement a table.
    db.executemany(
        "INSERT INTO states (rowid, address, current, active, last_seen, state, sessions) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(rowid, *row) for rowid, row in enumerate(replayed.rows, 1)],
    )
    db.executemany(
        "INSERT INTO recall (rowid, text, quote, address, last_seen) VALUES (?, ?, ?, ?, ?)",
        [
            (rowid, searchable(s.item.text), searchable(s.quote or ""), s.id, s.last_seen)
            for rowid, s in enumerate(states, 1)
            if not s.forgotten
        ],
    )
    if any(s.forgotten for s in states):
        db.execute("INSERT INTO recall(recall) VALUES ('optimize')")
    meta = {"replayed_until": replayed.until, "dangling": json.dumps(sorted(replayed.dangling))}
    set_meta(db, {**meta, **state_meta(replayed.state)})


def _replay_onto(db: sqlite3.Connection, fresh: Sequence[Replayable], late: bool) -> bool:
    """Replay records newer than everything replayed so far onto the states they touch;
    with *late*, some are older (:mod:`gitmem.lifecycle.late`): False, writing nothing,
    when those do not commute with what was replayed after them."""
    if not fresh:
        return True
    touched: set[str] = set()
    for entry in fresh:
        record = entry.record
        if isinstance(record, Checkpoint):
            touched.update(record.named)
        elif isinstance(record, Event):
            if record.item is not None:
                touched.add(record.item)
            batch = record.extra.get("items")
            if isinstance(batch, dict):
                touched.update(str(k) for k in batch)
            purge = purge_of(record, Sha256Hex(entry.address))
            if purge is not None:
                touched.update(purge.items)
    onto = stored_state(db, load_states(db, sorted(touched)))
    items = genuine_items(db, touched)
    skipped = set(json.loads(meta_value(db, "dangling") or "[]"))
    if late and not replay_late(fresh, items, onto, skipped):
        return False
    state = onto if late else replay(fresh, items, onto=onto)
    save_states(db, [state.items[a] for a in touched if a in state.items])
    for address in touched & state.purged.keys():
        db.execute(
            "DELETE FROM recall WHERE rowid = (SELECT rowid FROM states WHERE address = ?)",
            (address,),
        )
        db.execute("DELETE FROM states WHERE address = ?", (address,))
    newest = max(record_time(r.record) for r in fresh)
    until = max(newest, meta_value(db, "replayed_until"))
    skipped |= dangling(fresh, state)
    meta = {"replayed_until": until, "dangling": json.dumps(sorted(skipped))}
    set_meta(db, {**meta, **state_meta(state)})
    return True
