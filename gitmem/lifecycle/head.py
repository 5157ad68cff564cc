"""The first brief after a clone costs what one screen costs: read from the newest
checkpoints while the index of the whole memory is built in the background.

A clone of a team-year of memory (10,000 checkpoints) has no index yet, and building
one checks every record of history: many seconds. A brief does not wait for that.
:func:`open_for_brief` gives it the whole index when it is up to date or can be brought
up cheaply (and :func:`open_if_quick` gives ``status`` and ``doctor`` that index or
nothing); otherwise the **head**: the records the newest commits of the ref added,
read back until they hold :data:`HEAD_CHECKPOINTS` checkpoints and the one that first
stored each item those name (at most :data:`HEAD_MOST`), checked exactly as a build
checks them (each record under the reader's roots, each item blob against its address)
into an index in memory, and replayed. The brief renders from it, checks every line it
renders again from the git objects as every brief does, and says it was read from the
newest checkpoints only: what older history adds (corroborations, events, items no
newer checkpoint carries, the counts) shows once the index is whole. Meanwhile
:func:`build_in_background` starts ``gitmem hook index`` detached, which builds it (in
steps that a killed process goes on from, :mod:`gitmem.lifecycle.index_build`).
"""

from __future__ import annotations

import contextlib
import fcntl
import heapq
import sqlite3
from typing import NamedTuple

from gitmem.core.canonical import decode_unchecked
from gitmem.core.errors import FormatError
from gitmem.core.integrity import TrustRoots
from gitmem.core.records import Checkpoint, parse_as, sortable_time
from gitmem.core.types import GitOid, Sha256Hex
from gitmem.lifecycle import index_build
from gitmem.lifecycle.index import INDEX_FILE, INDEX_VERSION, LOCK_FILE, Index, index_key
from gitmem.lifecycle.index_file import connect
from gitmem.store.layout import RECORD_DIRS, content_path, parse_path, receipt_path
from gitmem.store.recent import additions_newest_first
from gitmem.store.repo import Store, StoreContents, StoredRecord
from gitmem.store.spawn import spawn_detached

HEAD_CHECKPOINTS = 20
"""The newest checkpoints a brief read without the whole index holds at least."""
HEAD_MOST = 400
"""Checkpoints it reads at most, looking for the first to store each item those carry."""
EVENTS_MOST = 4 * HEAD_MOST
"""Events it reads at most (those the commits it reads added, the newest first)."""
CHUNK = 500
"""Records read at a time from a commit that adds more than a head holds."""
QUICK = 1500
"""Records an index may be behind and still be brought up before a brief."""


class Head(NamedTuple):
    """The newest checkpoints, checked and replayed into an index in memory."""

    window: Index
    """The index of the newest checkpoints (in memory)."""
    read: int
    """How many checkpoints it holds."""
    stored: int
    """How many the store holds."""


def open_for_brief(store: Store, roots: TrustRoots) -> Index | Head:
    """The up-to-date index of *store*, when it is, or can be brought up (or built) in
    about a screen's time; else the :class:`Head`, and the whole index is left to build
    (:func:`build_in_background`). The caller closes what it gets.

    Raises:
        GitError: the memory ref cannot be read.
    """
    if _quick(store, roots):
        return Index.open(store, roots)
    return read_head(store, roots)


def open_if_quick(store: Store, roots: TrustRoots) -> Index | None:
    """The up-to-date index of *store* when it is whole or cheap to make whole (as
    :func:`open_for_brief` judges); else None, and the whole index is left to build in
    the background (:func:`build_in_background`). For a reader that reports on memory
    rather than shows it (``status``, ``doctor``): the command after a clone of a
    team-year does not wait for its history. The caller closes what it gets.

    Raises:
        GitError: the memory ref cannot be read.
    """
    if _quick(store, roots):
        return Index.open(store, roots)
    build_in_background(store)
    return None


def _quick(store: Store, roots: TrustRoots) -> bool:
    """Whether the index is whole, or is cheap to make whole now. Raises GitError when
    the memory ref cannot be read."""
    tip = store.tip()
    if tip is None:
        return True
    meta = _peek(store)
    if meta.get("key") == index_key(store, roots) and meta.get("tip"):
        seen = GitOid(meta["tip"])
        if seen == tip:
            return True
        added = store.added_since(seen, tip)
        if added is not None:
            return sum(1 for p in added if p.split("/", 1)[0] in RECORD_DIRS) <= QUICK
    return stored_records(store) <= index_build.LARGE


def stored_records(store: Store) -> int:
    """How many records (checkpoints and events) the tip's tree holds, counted without
    reading them. Raises GitError when the ref is not at a commit."""
    return sum(store.count(directory) for directory in RECORD_DIRS)


def _peek(store: Store) -> dict[str, str]:
    """The index file's key and tip, read without its writers' lock (nothing when there
    is no file, or none SQLite can read). Raises nothing."""
    path = store.local_dir / INDEX_FILE
    if not path.is_file():
        return {}
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            rows = db.execute("SELECT key, value FROM meta WHERE key IN ('key', 'tip')")
            return {str(k): str(v) for k, v in rows}
    except (sqlite3.Error, ValueError):
        return {}


def read_head(store: Store, roots: TrustRoots) -> Head:
    """The :class:`Head` of *store* (see the module).

    Raises:
        GitError: the memory ref cannot be read.
    """
    tip = store.tip()
    records: list[str] = []
    named: set[Sha256Hex] = set()
    added: set[Sha256Hex] = set()
    read = events = 0
    for paths in [] if tip is None else additions_newest_first(store, tip):
        by_folder: dict[str, list[str]] = {}
        for path in paths:
            place = parse_path(path)
            if place is not None and place[0] in RECORD_DIRS:
                by_folder.setdefault(place[0], []).append(path)
        found = _newest(store, tip, by_folder.get("checkpoints", []), HEAD_MOST - read)
        kept = _newest(store, tip, by_folder.get("events", []), EVENTS_MOST - events)
        records += [*found, *kept]
        events += len(kept)
        for data in found.values():
            checkpoint = parse_as(data, Checkpoint)
            if checkpoint is not None:
                named.update(Sha256Hex(a) for a in checkpoint.named)
                added.update(Sha256Hex(a) for a in checkpoint.items)
                read += 1
        if read >= HEAD_MOST or (read >= HEAD_CHECKPOINTS and named <= added):
            break
    contents = _contents(store, tip, records)
    wanted = {content_path("items", a): a for a in sorted(named)}
    blobs = {wanted[p]: data for p, data in store.read_paths(wanted, tip).items()}
    connection = connect(":memory:")
    index_build.rebuild_from(connection, contents, lambda: blobs, roots, f"{INDEX_VERSION}\nhead")
    return Head(Index(connection, rebuilt=True), read, store.count("checkpoints"))


def _newest(store: Store, tip: GitOid | None, paths: list[str], most: int) -> dict[str, bytes]:
    """The records at *paths* (as *tip* holds them) created last, *most* of them at most:
    all of them when they are that few, else read :data:`CHUNK` at a time and the bytes
    of the older ones let go (one commit may add any number of records: a head holds
    :data:`HEAD_MOST` checkpoints whatever it adds). Raises GitError when the ref points
    at something that is not a commit."""
    if most <= 0:
        return {}
    if len(paths) <= most:
        return store.read_paths(paths, tip)
    newest: list[tuple[str, str, bytes]] = []  # a heap: the oldest kept on top
    for start in range(0, len(paths), CHUNK):
        for path, data in store.read_paths(paths[start : start + CHUNK], tip).items():
            heapq.heappush(newest, (_created(data), path, data))
            if len(newest) > most:
                heapq.heappop(newest)
    return {path: data for _, path, data in sorted(newest, reverse=True)}


def _created(data: bytes) -> str:
    """When the record *data* says it was made, in a form that sorts; "" (the oldest)
    when it says nothing readable. Raises nothing."""
    try:
        value = decode_unchecked(data)
        created = value.get("created") if isinstance(value, dict) else None
        return sortable_time(created) if isinstance(created, str) else ""
    except (FormatError, ValueError):
        return ""


def _contents(store: Store, tip: GitOid | None, paths: list[str]) -> StoreContents:
    """The records at *paths* (as the tip holds them) with their receipts."""
    places = [(p, parse_path(p)) for p in dict.fromkeys(paths)]
    wanted = [(p, place) for p, place in places if place is not None]
    data = store.read_paths(
        [p for p, _ in wanted] + [receipt_path(place[1]) for _, place in wanted], tip
    )
    stored = tuple(
        StoredRecord(RECORD_DIRS[place[0]], place[1], p, data[p], data.get(receipt_path(place[1])))
        for p, place in wanted
        if p in data
    )
    receipts = frozenset(r.address for r in stored if r.receipt is not None)
    return StoreContents(tip, stored, {}, frozenset(), receipts, ())


def build_in_background(store: Store) -> None:
    """Start ``gitmem hook index`` detached, which brings the index of *store* up to
    date (builds it whole), unless a process holds the index's writers' lock already.
    Raises nothing."""
    local = store.local_dir
    with contextlib.suppress(OSError):
        local.mkdir(parents=True, exist_ok=True)
        with open(local / LOCK_FILE, "a") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return  # a build (or another writer) runs: it will bring the index up
            fcntl.flock(handle, fcntl.LOCK_UN)
        spawn_detached(["-C", str(store.repo.workdir or store.common_dir), "hook", "index"])
