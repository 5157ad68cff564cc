"""The index: what memory says now, kept in one local SQLite file.

``.git/gitmem/memory.sqlite`` (local, never pushed) holds, as of one tip of the memory ref
and under one set of trust roots: every record with its verdict, every item blob with
its verdict, the replayed state of every item (:mod:`gitmem.lifecycle.codec`) and a
full-text table (SQLite FTS5, porter stemming) of the items' text and quotes.

- **Incremental.** When the tip has only moved forward, the trees are diffed from the last
  tip seen: only the new paths are read, new records verified once, and replayed onto
  the stored state (a record older than what was already replayed, as a sync can bring,
  replays everything again from the stored records, without verifying them again).
- **Rebuilt** on a rewrite (a purge), on other trust roots (the key holds the roots'
  digest), on a format change — and whenever the file is missing, corrupt or unreadable:
  it is a cache.
- **Never the last word on what is rendered.** The brief verifies everything it shows
  straight from the git objects (:mod:`gitmem.brief.emit`); this index only says what
  there is to show, so that the brief does not grow with history.

Writers hold ``memory.lock`` while they update the file; every reader gets a consistent
view from one transaction.
"""

from __future__ import annotations

import contextlib
import functools
import json
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple, TypeVar

from gitmem.core.errors import FormatError, GitmemError
from gitmem.core.integrity import ItemCheck, RecordCheck, TrustRoots
from gitmem.core.items import Item, parse_item
from gitmem.core.records import EVENT_PURGE, REWRITE, Checkpoint, parse_record
from gitmem.core.types import GitOid, Sha256Hex
from gitmem.lifecycle.index_build import brought_up_to_date, rebuild, rebuilt_file
from gitmem.lifecycle.index_file import DAMAGE, connect
from gitmem.lifecycle.index_states import (
    decode_states,
    load_states,
    row_check,
    sessions_column,
    stored_state,
)
from gitmem.lifecycle.replay import ItemState, MemoryState
from gitmem.store.files import locked
from gitmem.store.layout import record_path
from gitmem.store.repo import Store
from gitmem.store.roots import keep_purges

# The file's name and the version in its key are stored bytes: they keep the words of the
# format that wrote them ("memory", "read model"), whatever the code calls the index.
INDEX_FILE = "memory.sqlite"
INDEX_VERSION = "gitmem/read-model/13"
LOCK_FILE = "memory.lock"


_NO_ITEMS: tuple[Item, ...] = ()


class FailedRecord(NamedTuple):
    """A stored record that failed its check, and the item blobs it names (unchecked)."""

    path: str
    type: str
    check: RecordCheck
    """Its verdict; its parsed record only when its items were read."""
    items: tuple[Item, ...]
    writer: str | None = None
    """Who its bytes say wrote it (None: they do not parse)."""
    key: str | None = None
    created: str = ""
    """Where it stands in time (:func:`~gitmem.core.records.record_time`)."""
    named: int | None = None
    """How many items it names, for a checkpoint whose bytes parse."""


class FailedItem(NamedTuple):
    """An item blob a genuine checkpoint names that is missing, edited or unreadable."""

    check: ItemCheck
    checkpoint: Sha256Hex
    record: Checkpoint
    item: Item | None
    """What its bytes hold, when they parse (trusted for nothing)."""


Q = TypeVar("Q", bound=Callable[..., Any])

_NOT_WRITABLE: tuple[type[Exception], ...] = (OSError, *DAMAGE)
"""A file this user cannot write, or that fails even rebuilt: the index lives in memory."""


def _healing(query: Q) -> Q:
    """*query*, which rebuilds the index's file and asks again once when the file turns
    out damaged under it (a cache: corrupt it and the next command rebuilds it, even
    when SQLite only notices on a page this command reads). Anything reading it raises
    (:data:`~gitmem.lifecycle.index_file.DAMAGE`) is damage; when the rebuilt file fails
    too, the error says so in one line."""

    @functools.wraps(query)
    def asked(self: Index, *args: Any, **kwargs: Any) -> Any:
        try:
            return query(self, *args, **kwargs)
        except DAMAGE:
            self._rebuild()
        try:
            return query(self, *args, **kwargs)
        except DAMAGE as error:
            raise IndexUnreadable(error) from error

    return asked  # type: ignore[return-value]


class IndexUnreadable(GitmemError):
    """The index could not be read even once rebuilt (a bug, or a disk that fails)."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(
            f"the index .git/gitmem/{INDEX_FILE} cannot be read even after a rebuild "
            f"({type(error).__name__}: {error}); remove it and try again"
        )


class Index:
    """An up-to-date index of one store, under one set of trust roots."""

    def __init__(
        self,
        connection: sqlite3.Connection,
        rebuilt: bool,
        heal: Callable[[], sqlite3.Connection] | None = None,
    ) -> None:
        self._db = connection
        self._heal = heal
        self.rebuilt = rebuilt
        """Whether the index was built from scratch to answer (else: reused, advanced)."""
        self.tip: GitOid | None = GitOid(self._meta("tip") or "") or None
        """The memory ref's tip the index is as of."""

    @classmethod
    def open(cls, store: Store, roots: TrustRoots) -> Index:
        """The index of *store*, brought up to date with its tip first.

        Raises:
            GitError: the memory ref cannot be read.
        """
        path = store.local_dir / INDEX_FILE
        key = index_key(store, roots)

        def in_memory() -> sqlite3.Connection:
            connection = connect(":memory:")
            rebuild(connection, store, roots, key)
            return connection

        def afresh() -> sqlite3.Connection:
            try:
                with locked(store.local_dir, LOCK_FILE):
                    return rebuilt_file(path, store, roots, key)
            except _NOT_WRITABLE:
                return in_memory()

        try:
            with locked(store.local_dir, LOCK_FILE):
                index = cls(*brought_up_to_date(path, store, roots, key), heal=afresh)
        except _NOT_WRITABLE:
            # A repository this user cannot write to, or a file that fails even rebuilt:
            # the index lives in memory for now.
            index = cls(in_memory(), True, heal=in_memory)
        index._keep_purges(store, roots)
        return index

    def _keep_purges(self, store: Store, roots: TrustRoots) -> None:
        """Remember each purge this index applies, so that it stays applied here should
        its key be revoked later (:attr:`TrustRoots.kept`). Raises nothing."""
        try:
            purged = json.loads(self._meta("purged") or "{}")
            new = {str(mark[2]) for mark in purged.values()} - roots.kept
        except (sqlite3.Error, ValueError, TypeError, IndexError, AttributeError):
            return  # a damaged index: the next command rebuilds it, and keeps them then
        if new:
            keep_purges(store, new)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _rebuild(self) -> None:
        """Replace a damaged file by a fresh rebuild (an index opened without a way to
        rebuild raises a DatabaseError instead)."""
        if self._heal is None:
            # An error's words are output: they stay as they were printed before the rename.
            raise sqlite3.DatabaseError("the read model is damaged and cannot be rebuilt")
        with contextlib.suppress(sqlite3.Error):
            self._db.close()
        self._db = self._heal()
        self.rebuilt = True

    # -- what the brief, recall, show and the writers ask -----------------------------

    @_healing
    def state(self, current_only: bool = False, prefix: str | None = None) -> MemoryState:
        """The replayed item states (only the current ones: open and not aged out, what
        the brief shows and the next capture carries; with *prefix*, only the items whose
        id starts with it: what finding one item costs), their items attached."""
        clauses, values = ["current = 1"] if current_only else [], []
        if prefix is not None:  # ids are lowercase hex: all below "~" after the prefix
            clauses.append("s.address >= ? AND s.address < ?")
            values += [prefix, prefix + "~"]
        where = "".join(f" {'AND' if n else 'WHERE'} {c}" for n, c in enumerate(clauses))
        rows = self._db.execute(
            f"SELECT s.state, b.data FROM states s JOIN blobs b USING (address){where}", values
        ).fetchall()
        return stored_state(self._db, decode_states(self._db, rows))

    @_healing
    def counts(self) -> tuple[int, int, str | None]:
        """(checkpoints stored, open items that aged out, the latest time an item was
        seen)."""
        checkpoints = self._one("SELECT COUNT(*) FROM records WHERE type = 'checkpoint'")
        stale = self._one("SELECT COUNT(*) FROM states WHERE active = 1 AND current = 0")
        latest = self._one("SELECT MAX(last_seen) FROM states")
        return int(checkpoints), int(stale), latest or None

    @_healing
    def totals(self) -> dict[str, int]:
        """How many records, failing records, items and current items the index holds."""
        return {
            "records": int(self._one("SELECT COUNT(*) FROM records")),
            "failed_records": int(
                self._one("SELECT COUNT(*) FROM records WHERE problem IS NOT NULL")
            ),
            "items": int(self._one("SELECT COUNT(*) FROM states")),
            "current_items": int(self._one("SELECT COUNT(*) FROM states WHERE current = 1")),
        }

    @_healing
    def checkpoint_of(
        self, snapshot: str | None = None, commit: str | None = None, session: str | None = None
    ) -> str | None:
        """The first genuine checkpoint with every one given of: the source snapshot
        *snapshot*, the commit *commit*, the session *session* (None: there is none)."""
        wanted = {"snapshot": snapshot, "commit_id": commit, "session": session}
        given = {column: value for column, value in wanted.items() if value is not None}
        where = "".join(f" AND {column} = ?" for column in given)
        # `+type`: without statistics SQLite would take the index on type, every
        # checkpoint of history, over the one on the column asked (a capture asks this).
        row = self._db.execute(
            "SELECT address FROM records WHERE problem IS NULL AND +type = 'checkpoint'"
            f"{where} ORDER BY created LIMIT 1",
            tuple(given.values()),
        ).fetchone()
        return None if row is None else str(row[0])

    @_healing
    def check(self, address: str) -> RecordCheck | None:
        """The verdict on the record at *address* (None: no such record)."""
        return self._check(address)

    def _check(self, address: str) -> RecordCheck | None:
        row = self._db.execute(
            "SELECT address, problem, detail, data FROM records WHERE address = ?", (address,)
        ).fetchone()
        return None if row is None else row_check(row)

    @_healing
    def failed(
        self, per_writer: int | None = None, in_all: int | None = None
    ) -> list[FailedRecord]:
        """Every record that failed its check, newest first, with the item blobs it names;
        with *per_writer* and *in_all*, only for each writer's newest *per_writer* failed
        checkpoints, and *in_all* of them at most (a checkpoint names every open item,
        carried or new, so a writer's newest say what is open now; the brief shows those
        degraded, and counts every failure however many there are: a failed record's
        writer is whatever its bytes say, so the total is capped too)."""
        rows = self._db.execute(
            "SELECT address, problem, detail, type, created, writer, key, named FROM records "
            "WHERE problem IS NOT NULL ORDER BY created DESC, address"
        ).fetchall()
        failed = []
        items: dict[str, Item | None] = {}  # many failed checkpoints name the same items
        expanded: dict[str, int] = {}  # writer -> failed checkpoints read so far
        every = per_writer is None and in_all is None
        for address, problem, detail, kind, created, writer, key, named in rows:
            check, found = RecordCheck(address, problem, detail, None), _NO_ITEMS
            done = expanded.get(writer, 0)
            wanted = (
                named is not None
                and (per_writer is None or done < per_writer)
                and (in_all is None or sum(expanded.values()) < in_all)
            )
            if every or wanted:  # only these are parsed: the brief's work stays bounded
                check = self._check(address) or check
            if wanted and isinstance(check.record, Checkpoint):
                found, expanded[writer] = self._readable(check.record.named, items), done + 1
            failed.append(
                FailedRecord(
                    record_path(kind, address), kind, check, found, writer, key, created, named
                )
            )
        return failed

    @_healing
    def records(self) -> list[tuple[str, str, str | None, bytes]]:
        """(address, type, problem, bytes) of every record, checkpoints first, each type
        in address order (the order their folders hold them)."""
        rows = self._db.execute(
            "SELECT address, type, problem, data FROM records "
            "ORDER BY type != 'checkpoint', type, address"
        ).fetchall()
        return [(str(a), str(t), p, bytes(d)) for a, t, p, d in rows]

    @_healing
    def records_at(self, addresses: Sequence[str]) -> list[tuple[str, str, str | None, bytes]]:
        """(address, type, problem, bytes) of the records at *addresses* that the index
        holds, in no particular order."""
        found: list[tuple[str, str, str | None, bytes]] = []
        for at in range(0, len(addresses), 500):  # SQLite's bound on a statement's values
            part = addresses[at : at + 500]
            marks = ", ".join("?" * len(part))
            rows = self._db.execute(
                f"SELECT address, type, problem, data FROM records WHERE address IN ({marks})",
                part,
            ).fetchall()
            found += [(str(a), str(t), p, bytes(d)) for a, t, p, d in rows]
        return found

    @_healing
    def rewrites(self) -> list[bytes]:
        """The bytes of every verified rewrite event (an amend or a rebase of the commits
        records name), in address order: what resolving a record's commit needs, read
        without reading every record."""
        rows = self._db.execute(
            "SELECT data FROM records WHERE type = 'event' AND problem IS NULL "
            "AND json_extract(data, '$.event') = ? ORDER BY address",
            (REWRITE,),
        ).fetchall()
        return [bytes(data) for (data,) in rows]

    @_healing
    def failed_count(self) -> int:
        """How many records failed their check."""
        return int(self._one("SELECT COUNT(*) FROM records WHERE problem IS NOT NULL"))

    @_healing
    def failed_items(self) -> list[FailedItem]:
        """Item blobs genuine checkpoints name that are missing, edited or unreadable."""
        rows = self._db.execute(
            "SELECT n.address, n.problem, n.detail, n.checkpoint, r.data FROM named n "
            "JOIN records r ON r.address = n.checkpoint "
            "WHERE n.problem IS NOT NULL AND r.problem IS NULL"
        ).fetchall()
        found = []
        for address, problem, detail, checkpoint, data in rows:
            record = parse_record(data)
            assert isinstance(record, Checkpoint)
            readable = self._readable([address])
            found.append(
                FailedItem(
                    ItemCheck(address, problem, detail, None),
                    checkpoint,
                    record,
                    readable[0] if readable else None,
                )
            )
        return found

    @_healing
    def strays(self) -> tuple[str, ...]:
        """Paths that are not content of the layout: outside it, or entries that are not
        plain files (a symlink, an executable)."""
        return tuple(p for (p,) in self._db.execute("SELECT path FROM strays ORDER BY path"))

    @_healing
    def orphans(self) -> tuple[str, ...]:
        """Item blobs no record names (never shown: nothing vouches for them)."""
        return tuple(a for (a,) in self._db.execute("SELECT address FROM orphans ORDER BY address"))

    @_healing
    def failed_purges(self) -> list[tuple[str, str, bytes]]:
        """(address, problem, bytes) of every purge event that failed its check: intact
        ones by keys no root of the reader trusts among them, whose removals count for
        nothing here."""
        # `+type`: the failed records, not every event of history (SQLite, without
        # statistics, would take the index on type)
        return self._db.execute(
            "SELECT address, problem, data FROM records WHERE +type = 'event' AND problem IS "
            "NOT NULL AND instr(data, CAST(? AS BLOB)) > 0 ORDER BY created, address",
            (f'"event":"{EVENT_PURGE}"',),
        ).fetchall()

    @_healing
    def search(self, query: str, limit: int) -> tuple[int, list[ItemState]]:
        """How many items' text or quote match the FTS5 *query*, and the states of the
        best *limit* of them (best rank first, then the most recently seen)."""
        (total,) = self._db.execute(
            "SELECT COUNT(*) FROM recall WHERE recall MATCH ?", (query,)
        ).fetchone()
        rows = self._db.execute(
            "SELECT address FROM recall WHERE recall MATCH ? "
            "ORDER BY rank, last_seen DESC, address LIMIT ?",
            (query, limit),
        ).fetchall()
        found = load_states(self._db, [address for (address,) in rows])
        return int(total), [found[address] for (address,) in rows if address in found]

    @_healing
    def searchable(self) -> int:
        """How many items the full-text table holds (every one but the forgotten)."""
        return int(self._one("SELECT COUNT(*) FROM recall"))

    @_healing
    def sighted_in(self, session: str) -> bool:
        """Whether some item was sighted in *session* (stored from it, not carried)."""
        row = self._db.execute(
            "SELECT 1 FROM states WHERE instr(sessions, ?) > 0 LIMIT 1",
            (sessions_column([session]),),
        ).fetchone()
        return row is not None

    @_healing
    def states_of(self, addresses: Sequence[str]) -> dict[str, ItemState]:
        """The states of the items at *addresses* (unknown addresses left out)."""
        return load_states(self._db, addresses)

    @_healing
    def readable(self, addresses: Iterable[str]) -> tuple[Item, ...]:
        """The item blobs at *addresses* that are stored and parse (unchecked: what their
        bytes hold), in order. Raises nothing."""
        return self._readable(addresses)

    def _readable(
        self, addresses: Iterable[str], seen: dict[str, Item | None] | None = None
    ) -> tuple[Item, ...]:
        """The items at *addresses* that are stored and parse; *seen* keeps those read
        (or found missing) across calls."""
        seen, addresses = ({} if seen is None else seen), list(addresses)
        for address in addresses:
            if address not in seen:
                seen[address] = self._read_item(address)
        return tuple(item for a in addresses if (item := seen[a]) is not None)

    def _read_item(self, address: str) -> Item | None:
        row = self._db.execute("SELECT data FROM blobs WHERE address = ?", (address,)).fetchone()
        if row is None:
            return None
        try:
            return parse_item(row[0])
        except FormatError:
            return None

    def _meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def _one(self, sql: str) -> Any:
        return self._db.execute(sql).fetchone()[0]


def index_key(store: Store, roots: TrustRoots) -> str:
    """What the local index file is kept for: its format, the ref and the trust roots.
    Raises nothing."""
    return f"{INDEX_VERSION}\n{store.ref}\n{roots.digest()}"


def memory_state(
    store: Store, roots: TrustRoots, current_only: bool = False, prefix: str | None = None
) -> MemoryState:
    """:meth:`Index.state` of an up-to-date index, which is closed again.

    Raises:
        GitError: the memory ref cannot be read.
    """
    with Index.open(store, roots) as index:
        return index.state(current_only, prefix)
