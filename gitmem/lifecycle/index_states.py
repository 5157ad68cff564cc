"""The index's item states: read back from its tables and written to them (one row a
state, its full-text row beside it), and what the index keeps of a replayed state
besides (the latest checkpoint, what trusted purges removed). Used by
:mod:`gitmem.lifecycle.index_build` when it fills or advances the index and by
:mod:`gitmem.lifecycle.index` when it answers.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from gitmem.core.errors import FormatError
from gitmem.core.integrity import RecordCheck
from gitmem.core.items import parse_item
from gitmem.core.purge import Purge
from gitmem.core.records import Event, parse_record
from gitmem.core.types import Sha256Hex
from gitmem.lifecycle.codec import decode_state, encode_state, event_addresses
from gitmem.lifecycle.index_file import meta_value, searchable
from gitmem.lifecycle.replay import ItemState, MemoryState


def state_meta(state: MemoryState) -> dict[str, str]:
    """What the index keeps of a replayed state beside the item states: the latest
    checkpoint and its session time, and what trusted purges removed (who, when) and redirected."""
    purged = {a: [p.writer, p.created, p.address] for a, p in sorted(state.purged.items())}
    return {
        "latest_checkpoint": state.latest_checkpoint or "",
        "newest": state.newest,
        "purged": json.dumps(purged),
        "replaced": json.dumps(dict(sorted(state.replaced.items()))),
    }


def stored_state(db: sqlite3.Connection, items: dict[str, ItemState]) -> MemoryState:
    """A replayed state as the index keeps it, with *items* as its item states."""
    purged = json.loads(meta_value(db, "purged") or "{}")
    return MemoryState(
        items,
        meta_value(db, "latest_checkpoint") or None,
        meta_value(db, "newest"),
        # The index keeps who purged each item, when, and by which event.
        {
            a: Purge((Sha256Hex(a),), address=e, writer=w, created=c)
            for a, (w, c, e) in purged.items()
        },
        json.loads(meta_value(db, "replaced") or "{}"),
    )


def load_states(db: sqlite3.Connection, addresses: Sequence[str]) -> dict[str, ItemState]:
    """The stored states of the items at *addresses* (those it has)."""
    rows = [
        row
        for address in addresses
        for row in db.execute(
            "SELECT s.state, b.data FROM states s JOIN blobs b USING (address) WHERE s.address = ?",
            (address,),
        )
    ]
    return decode_states(db, rows)


def decode_states(
    db: sqlite3.Connection, rows: Iterable[tuple[str, bytes]]
) -> dict[str, ItemState]:
    """The item states of (state, item blob) rows of the states table, keyed by item
    address; the events they name read from the records table once each."""
    decoded = [(json.loads(state), parse_item(data)) for state, data in rows]
    events = _events(db, {a for state, _ in decoded for a in event_addresses(state)})
    return {item.address: decode_state(state, item, events) for state, item in decoded}


def _events(db: sqlite3.Connection, addresses: Iterable[str]) -> dict[str, Event]:
    """The verified events at *addresses*, parsed."""
    found: dict[str, Event] = {}
    query = "SELECT address, data FROM records WHERE problem IS NULL AND address IN"
    for address, data in rows_at(db, query, sorted(addresses)):
        record = parse_record(data)
        if isinstance(record, Event):
            found[address] = record
    return found


def rows_at(db: sqlite3.Connection, query: str, addresses: Sequence[str]) -> Iterator[Any]:
    """The rows of *query* (which ends ``… IN``) for *addresses*, asked a few hundred at
    a time (SQLite allows a few hundred parameters at least)."""
    for start in range(0, len(addresses), _CHUNK):
        chunk = addresses[start : start + _CHUNK]
        yield from db.execute(f"{query} ({','.join('?' * len(chunk))})", chunk)


_CHUNK = 500


def save_states(db: sqlite3.Connection, changed: Iterable[ItemState]) -> None:
    """Write *changed* states and their full-text rows. A forgotten item has none, and
    the index is merged so that its words leave the index's segments too."""
    forgot = False
    for item_state in changed:
        address = item_state.id
        # An upsert keeps the state's rowid, which is also its full-text row's: FTS5
        # finds a row by rowid at once, by an unindexed column only by reading them all.
        (row,) = db.execute(
            "INSERT INTO states VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (address) DO UPDATE SET "
            "current = excluded.current, active = excluded.active, "
            "last_seen = excluded.last_seen, state = excluded.state, "
            "sessions = excluded.sessions RETURNING rowid",
            state_row(item_state),
        ).fetchone()
        db.execute("DELETE FROM recall WHERE rowid = ?", (row,))
        if not item_state.forgotten:
            db.execute(
                "INSERT INTO recall (rowid, text, quote, address, last_seen) "
                "VALUES (?, ?, ?, ?, ?)",
                (
                    row,
                    searchable(item_state.item.text),
                    searchable(item_state.quote or ""),
                    address,
                    item_state.last_seen,
                ),
            )
        forgot = forgot or item_state.forgotten
    if forgot:
        db.execute("INSERT INTO recall(recall) VALUES ('optimize')")


def state_row(state: ItemState) -> tuple[str, int, int, str, str, str]:
    """A state's columns of the states table, in their order."""
    return (
        state.id,
        int(state.current),
        int(state.active),
        state.last_seen,
        _STATE_JSON.encode(encode_state(state)),
        sessions_column({s.session for s in state.sightings}),
    )


_STATE_JSON = json.JSONEncoder(check_circular=False, separators=(",", ":"))
"""States are trees of plain values, written by the thousand in a rebuild: no cycle check,
no spaces."""


def sessions_column(sessions: Iterable[str]) -> str:
    """The sessions that sighted an item, as its ``sessions`` column holds them: each
    between newlines, so that one is found with ``instr`` without decoding a state."""
    return "".join(f"\n{session}" for session in sorted(sessions)) + "\n"


def row_check(row: Sequence[Any]) -> RecordCheck:
    """A stored verdict (address, problem, detail, record bytes) as a check."""
    address, problem, detail, data = row
    try:
        record = parse_record(data)
    except FormatError:
        record = None
    return RecordCheck(address, problem, detail, record)
