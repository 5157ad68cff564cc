"""The index's file: its tables, opening it, telling a sound file from a damaged one,
and writing to it (:mod:`gitmem.lifecycle.index_build` fills it, :mod:`gitmem.lifecycle.index`
reads it).

A damaged file is a cache to rebuild, never an answer: anything opening or reading it
can raise (:data:`DAMAGE`: any SQLite error, and what a damaged row or header decodes to),
and the shape every writer keeps (:data:`SHAPE`, checked by :func:`sound`), which catches
damage SQLite reads past without a word.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path

from gitmem.core.errors import FormatError
from gitmem.core.folding import UNSPACED
from gitmem.core.shown import escaped_name

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records (
    address TEXT PRIMARY KEY, type TEXT NOT NULL, created TEXT NOT NULL,
    data BLOB NOT NULL, problem TEXT, detail TEXT NOT NULL,
    snapshot TEXT, commit_id TEXT, session TEXT,
    writer TEXT, key TEXT, named INTEGER);
CREATE INDEX IF NOT EXISTS records_snapshot ON records (snapshot);
CREATE INDEX IF NOT EXISTS records_session ON records (session);
CREATE INDEX IF NOT EXISTS records_commit ON records (commit_id);
CREATE TABLE IF NOT EXISTS blobs (address TEXT PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS named (
    address TEXT PRIMARY KEY, problem TEXT, detail TEXT NOT NULL, checkpoint TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS states (
    address TEXT PRIMARY KEY, current INTEGER NOT NULL, active INTEGER NOT NULL,
    last_seen TEXT NOT NULL, state TEXT NOT NULL, sessions TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS strays (path TEXT PRIMARY KEY);
-- Item blobs no record names, kept by every writer (a brief asks for them: finding them
-- by comparing blobs with named would read a row per item of history).
CREATE TABLE IF NOT EXISTS orphans (address TEXT PRIMARY KEY);
-- Recall ranks its hits by last_seen after rank: it is kept here too (a full-text row
-- is written whenever its state is), so a hit is not a lookup in states.
CREATE VIRTUAL TABLE IF NOT EXISTS recall USING fts5(
    text, quote, address UNINDEXED, last_seen UNINDEXED,
    tokenize = "porter unicode61 remove_diacritics 2");
-- What every brief asks, answered without reading a row per record of history.
CREATE INDEX IF NOT EXISTS records_by_type ON records (type);
CREATE INDEX IF NOT EXISTS records_failed ON records (problem) WHERE problem IS NOT NULL;
CREATE INDEX IF NOT EXISTS named_failed ON named (problem) WHERE problem IS NOT NULL;
CREATE INDEX IF NOT EXISTS states_current ON states (current, active);
CREATE INDEX IF NOT EXISTS states_last_seen ON states (last_seen);
"""


DAMAGE: tuple[type[Exception], ...] = (
    sqlite3.Error,
    ValueError,
    KeyError,
    TypeError,
    IndexError,
    OverflowError,
    FormatError,
)
"""What opening or reading a damaged index can raise: any SQLite error (not only its word
for damage: a flipped header byte can make the journal-mode pragma fail with an I/O error
or return bytes that are not UTF-8), and what a row whose bytes no longer decode raises
(a state, a blob or a record: JSON's errors are ValueErrors)."""


_UNSPACED_RE = re.compile(f"[{UNSPACED}\uf900-\ufaff]")
"""A character of Chinese, Japanese or Korean, whose words the full-text tokenizer cannot
tell apart: it takes a run of them as one token (Korean joins its particles to a word)."""


def searchable(text: str) -> str:
    """*text* as the recall table holds it, and as a search term is written against it:
    each Chinese, Japanese or Korean character a token of its own, so that "索引" finds
    "给订单表添加索引" (a quoted term is a phrase: its characters in a row), "인덱스"
    finds "인덱스를", and "PostgreSQL" finds "使用PostgreSQL". Other text is left as it is.
    Raises nothing."""
    if text.isascii() or _UNSPACED_RE.search(text) is None:
        return text
    return " ".join(_UNSPACED_RE.sub(r" \g<0> ", text).split())


def stray_rows(paths: Iterable[str]) -> list[tuple[str]]:
    """The rows of the strays table for *paths*: a pushed name may hold bytes that are
    not UTF-8 (read as lone surrogates), which SQLite cannot take. Raises nothing."""
    return [(escaped_name(path),) for path in paths]


def connect(path: Path | str) -> sqlite3.Connection:
    """A connection to the index at *path* (``:memory:`` works), its tables created."""
    connection = sqlite3.connect(path, timeout=30, isolation_level=None)
    connection.execute("PRAGMA secure_delete = ON")
    if path != ":memory:":
        journal_mode(connection, "WAL")
        # A cache: in WAL mode NORMAL never corrupts the file, it only may lose the last
        # transaction at a power cut, which the next command rebuilds from git anyway.
        connection.execute("PRAGMA synchronous=NORMAL")
    connection.executescript(SCHEMA)
    return connection


JOURNAL_PATIENCE = 30.0
"""Seconds a change of journal mode waits for the readers of the file to let go."""


def journal_mode(connection: sqlite3.Connection, mode: str) -> None:
    """Switch *connection*'s file to journal *mode*, waiting while another connection
    has it open (in WAL mode an open reader holds the file even between its reads).
    SQLite refuses the switch at once ("database is locked") rather than waiting as it
    does for a write, and a reader that takes no lock may have it open (a brief's quick
    look at the index's tip): a background build refused there fell back to an index in
    memory and left the file empty.

    Raises:
        sqlite3.Error: the switch still fails after :data:`JOURNAL_PATIENCE` seconds, or
            fails for another reason.
    """
    deadline = time.monotonic() + JOURNAL_PATIENCE
    while True:
        try:
            connection.execute(f"PRAGMA journal_mode={mode}")
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() >= deadline:
                raise
        time.sleep(0.01)


def discard(path: Path) -> None:
    """Remove the index's file at *path* and its write-ahead log."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


SHAPE = (
    "SELECT (SELECT COUNT(*) FROM records WHERE type = 'checkpoint'), "
    "(SELECT COUNT(*) FROM states WHERE current = 1), (SELECT MAX(rowid) FROM records), "
    "(SELECT MAX(rowid) FROM blobs), (SELECT MAX(rowid) FROM named), "
    "(SELECT MAX(rowid) FROM states), (SELECT MAX(rowid) FROM recall), "
    "(SELECT MAX(rowid) FROM orphans)"
)
"""What the index holds, in a form every writer keeps in the meta table: the rows the
brief counts anyway (checkpoints, current items) and each table's last row, so that
damage SQLite reads past without a word (a page of rows gone blank) is caught when the
index is opened, not shown as an empty memory. About 0.2 ms at 1,000 checkpoints in a
fresh process (counting every table's rows would be 2 ms)."""


def shape(db: sqlite3.Connection) -> str:
    """The values of :data:`SHAPE` now, as the meta table keeps them."""
    return json.dumps(list(db.execute(SHAPE).fetchone()))


def sound(connection: sqlite3.Connection, meta: Mapping[str, str]) -> bool:
    """Whether the tables still hold what their last writer left (:data:`SHAPE`)."""
    try:
        return meta.get("shape") == shape(connection)
    except DAMAGE:
        return False


def meta_value(db: sqlite3.Connection, key: str) -> str:
    """The meta table's value for *key* ("" when it has none)."""
    row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return "" if row is None else str(row[0])


def set_meta(db: sqlite3.Connection, values: Mapping[str, str]) -> None:
    """Set meta table values (in the caller's transaction)."""
    db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", list(values.items()))


@contextmanager
def transaction(connection: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction, taken at once (``BEGIN IMMEDIATE``); rolled back on any failure."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield connection
    except BaseException:
        with suppress(sqlite3.Error):  # a damaged file may refuse even that: the first error counts
            connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")
