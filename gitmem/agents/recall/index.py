"""The recall index: every item of the memory's whole history in SQLite FTS5.

Local and rebuildable: ``.git/gitmem/recall.sqlite``, never pushed. The index is keyed
by the memory ref tip it was built from (and by the trust roots and this module's
format version, which also decide what it holds); when the ref has moved, the next
query rebuilds it from scratch, verifying records through the local verification
cache (:func:`gitmem.lifecycle.memory.load` with ``use_cache=True``). A rebuild writes a new file
and renames it over the old one, so a forgotten item's text never lingers in free
pages of an index built before the tombstone.

Forgotten items are never written to the index at all. Records that fail
verification are left out (their items are the brief's business, shown degraded).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable
from dataclasses import astuple, dataclass, fields
from pathlib import Path

from gitmem.core.errors import NegativeResult
from gitmem.core.integrity import TrustRoots
from gitmem.core.items import Trust
from gitmem.lifecycle.memory import load
from gitmem.lifecycle.replay import ItemState, MemoryState, current_status
from gitmem.store.repo import Store

INDEX_FILE = "recall.sqlite"
INDEX_VERSION = "gitmem/recall/1"

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE VIRTUAL TABLE items USING fts5(
    text, quote,
    id UNINDEXED, kind UNINDEXED, trust UNINDEXED, status UNINDEXED, epistemic UNINDEXED,
    checkpoint UNINDEXED, session UNINDEXED, last_seen UNINDEXED,
    tokenize = "unicode61 remove_diacritics 2"
);
"""


@dataclass(frozen=True)
class IndexedItem:
    """One row of the index: what a recall hit shows."""

    id: str
    kind: str
    text: str
    quote: str | None
    trust: str
    """The effective trust class: ``verbatim`` only with a verified quote."""
    status: str
    """``open``, ``resolved``, ``superseded`` or ``stale``."""
    epistemic: str
    """The governance status (REPORTED, INFERRED, VERIFIED, STALE, …)."""
    checkpoint: str
    """The checkpoint that first stored the item."""
    session: str
    """The session the item came from."""
    last_seen: str


COLUMNS = ", ".join(f.name for f in fields(IndexedItem))
"""The index's columns, in the order of :class:`IndexedItem`'s fields."""


@dataclass(frozen=True)
class IndexInfo:
    """What the index was built from."""

    tip: str | None
    items: int
    failed: int
    """Records that failed verification and were left out."""
    rebuilt: bool


def lifecycle_status(state: ItemState) -> str:
    """Where an item stands in its life, in one word."""
    if state.resolved:
        return "resolved"
    if state.superseded_by is not None:
        return "superseded"
    if not state.current:
        return "stale"
    return "open"


def rows(state: MemoryState) -> list[IndexedItem]:
    """The index rows of a replayed memory: every item but the forgotten ones. Pure."""
    found: list[IndexedItem] = []
    for item_state in state.items.values():
        if item_state.forgotten:
            continue  # a tombstone: not its text, not its id, nothing
        item = item_state.item
        quote = item_state.quote
        trust = item_state.trust
        if trust == Trust.VERBATIM and not quote:
            trust = Trust.UNTAGGED  # the badge is earned by a verified quote, never by the claim
        found.append(
            IndexedItem(
                id=item.id,
                kind=item.kind,
                text=item.text,
                quote=quote,
                trust=trust,
                status=lifecycle_status(item_state),
                epistemic=current_status(item_state),
                checkpoint=item_state.origin_checkpoint,
                session=item.origin_session,
                last_seen=item_state.last_seen,
            )
        )
    return found


def index_key(tip: str | None, roots: TrustRoots) -> str:
    """What an index must have been built from to be current."""
    return f"{INDEX_VERSION}:{tip or '-'}:{roots.digest()}"


def open_index(store: Store, roots: TrustRoots) -> tuple[sqlite3.Connection, IndexInfo]:
    """A read-only connection to an index that matches the ref's tip, rebuilt first when
    it does not (or cannot be read). The caller closes the connection.

    Raises:
        GitError: the memory ref cannot be read.
        NegativeResult: the index cannot be written.
    """
    path = store.local_dir / INDEX_FILE
    wanted = index_key(store.tip(), roots)
    current = _open_current(path, wanted)
    if current is not None:
        return current
    loaded = load(store, roots, use_cache=True)
    built = rows(loaded.state)
    tip = loaded.contents.tip
    try:
        _build(path, index_key(tip, roots), tip, built, len(loaded.failed()))
        connection = _connect(path)
    except (OSError, sqlite3.Error) as e:
        raise NegativeResult(f"cannot write the recall index {path}: {e}") from e
    return connection, IndexInfo(tip, len(built), len(loaded.failed()), True)


def _open_current(path: Path, wanted: str) -> tuple[sqlite3.Connection, IndexInfo] | None:
    if not path.is_file():
        return None
    try:
        connection = _connect(path)
    except sqlite3.Error:
        return None
    try:
        meta = dict(connection.execute("SELECT key, value FROM meta").fetchall())
        if meta.get("key") != wanted:
            connection.close()
            return None
        info = IndexInfo(
            meta.get("tip") or None,
            int(meta.get("items", "0")),
            int(meta.get("failed", "0")),
            False,
        )
    except (sqlite3.Error, ValueError):
        connection.close()
        return None  # unreadable or from another version: rebuilt from the store
    return connection, info


def _connect(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)


def _build(
    path: Path, key: str, tip: str | None, items: Iterable[IndexedItem], failed: int
) -> None:
    """Write a fresh index beside *path* and rename it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{INDEX_FILE}.{os.getpid()}")
    tmp.unlink(missing_ok=True)
    connection = sqlite3.connect(tmp)
    try:
        connection.executescript(_SCHEMA)
        rows = [astuple(row) for row in items]
        count = len(rows)
        with connection:
            connection.executemany(
                f"INSERT INTO items ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
            connection.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?)",
                [
                    ("key", key),
                    ("tip", tip or ""),
                    ("items", str(count)),
                    ("failed", str(failed)),
                ],
            )
    finally:
        connection.close()
    os.replace(tmp, path)
