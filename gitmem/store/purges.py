"""The purges a history holds, and the tree edit each one is.

A purge counts only when its event verifies under the reader's checker: intact, and
signed by a key the reader's trust roots vouch for. An intact purge by any other key is
listed (``untrusted``) but changes nothing: readers ignore it and sync refuses the
rewrite it stands for. Applying a purge to a history is :mod:`gitmem.store.rewrite`
with the edit :func:`edit_of` makes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import pygit2

from gitmem.core.errors import FormatError, IntegrityError
from gitmem.core.integrity import UNTRUSTED_KEY, RecordCheck
from gitmem.core.items import Item, parse_item
from gitmem.core.purge import Purge, PurgeMark, item_texts, purge_of
from gitmem.core.records import EVENT_PURGE, Event, sortable_time
from gitmem.core.types import GitOid, Sha256Hex, is_sha256_hex
from gitmem.store.repo import Store, StoredRecord, content_path, record_path
from gitmem.store.rewrite import Rewriter, TreeEdit

LOCK_FILE = "sync.lock"
"""One sync or purge at a time in a clone (``.git/gitmem/sync.lock``): a purge that moved
the ref in the middle of a sync would let that sync merge back what it removed."""
Checker = Callable[[StoredRecord], RecordCheck | None]
_MARKER = f'"event":"{EVENT_PURGE}"'.encode()
"""Every purge event's canonical bytes hold this; other events are never parsed here."""


@dataclass(frozen=True)
class Found:
    """One purge event as stored: its address, the event and what it lists."""

    address: Sha256Hex
    event: Event
    purge: Purge

    @property
    def mark(self) -> PurgeMark:
        return PurgeMark(self.event.writer, self.event.created, self.address)

    @property
    def path(self) -> str:
        return record_path("event", self.address)


@dataclass(frozen=True)
class Purges:
    """The purges of one history that count (verified, trusted), in replay order, and
    the intact ones by keys no root of this reader trusts."""

    found: tuple[Found, ...] = ()
    untrusted: tuple[Found, ...] = ()
    items: dict[Sha256Hex, PurgeMark] = field(default_factory=dict)
    snapshots: dict[Sha256Hex, Sha256Hex] = field(default_factory=dict)
    records: frozenset[Sha256Hex] = frozenset()

    @classmethod
    def of(cls, found: Sequence[Found], untrusted: Sequence[Found] = ()) -> Purges:
        ordered = sorted(found, key=lambda f: (sortable_time(f.event.created), f.address))
        items: dict[Sha256Hex, PurgeMark] = {}
        snapshots: dict[Sha256Hex, Sha256Hex] = {}
        records: set[Sha256Hex] = set()
        for f in ordered:
            items.update((address, f.mark) for address in f.purge.items)
            snapshots.update(f.purge.snapshots)
            records.update(f.purge.records)
        return cls(tuple(ordered), tuple(untrusted), items, snapshots, frozenset(records))


def purges_at(store: Store, commit: GitOid | None, checker: Checker) -> Purges:
    """The purge events stored in *commit*'s tree, each checked with *checker*.

    Raises:
        GitError: *commit* is not a commit of the repository.
    """
    if commit is None:
        return Purges()
    tree = store.commit_tree(commit)
    found: list[Found] = []
    untrusted: list[Found] = []
    for address, data in _purge_events(tree):
        receipt = _blob(tree, content_path("receipts", address))
        stored = StoredRecord("event", address, record_path("event", address), data, receipt)
        check = checker(stored)
        if check is None or not isinstance(check.record, Event):
            continue
        purge = purge_of(check.record)
        if purge is None:
            continue
        if check.ok:
            found.append(Found(address, check.record, purge))
        elif check.problem == UNTRUSTED_KEY:
            untrusted.append(Found(address, check.record, purge))
    return Purges.of(found, untrusted)


def _purge_events(tree: pygit2.Tree) -> list[tuple[Sha256Hex, bytes]]:
    try:
        events = tree["events"]
    except KeyError:
        return []
    found: list[tuple[Sha256Hex, bytes]] = []
    if not isinstance(events, pygit2.Tree):
        return found
    for fan in events:
        if not isinstance(fan, pygit2.Tree):
            continue
        for leaf in fan:
            name = leaf.name or ""
            address = (fan.name or "") + name.removesuffix(".json")
            if not isinstance(leaf, pygit2.Blob) or not is_sha256_hex(address):
                continue
            data = leaf.data
            if _MARKER in data:
                found.append((Sha256Hex(address), data))
    return found


def _blob(tree: pygit2.Tree, path: str) -> bytes | None:
    try:
        entry = tree[path]
    except KeyError:
        return None
    return entry.data if isinstance(entry, pygit2.Blob) else None


def edit_of(purge: Purge, tree: pygit2.Tree) -> TreeEdit:
    """The tree edit that applies *purge*; *tree* holds the redacted snapshots it names
    (the tree its event is in).

    Raises:
        IntegrityError: a redacted snapshot the purge names is not in *tree*.
    """
    replace: dict[str, tuple[str, pygit2.Oid]] = {}
    for old, new in purge.snapshots.items():
        path = content_path("snapshots", new)
        try:
            replace[content_path("snapshots", old)] = (path, tree[path].id)
        except KeyError as e:
            raise IntegrityError(
                f"the purge names a redacted snapshot {new[:12]}… that is not stored"
            ) from e
    return purge_edit(purge, replace)


def purge_edit(purge: Purge, replace: Mapping[str, tuple[str, pygit2.Oid]]) -> TreeEdit:
    """The tree edit of *purge*: its items, and its records with their receipts, removed;
    each old snapshot path replaced as *replace* says (path → new path and blob); the
    commits that introduced a removed record retitled. Raises nothing."""
    records = [record_path(kind, a) for a in purge.records for kind in ("checkpoint", "event")]
    remove = {content_path("items", a) for a in purge.items}
    remove |= {*records, *(content_path("receipts", a) for a in purge.records)}
    return TreeEdit(frozenset(remove), dict(replace), frozenset(records))


def apply_purges(store: Store, tip: GitOid, found: Sequence[Found], source: GitOid) -> GitOid:
    """*tip*'s history with each purge of *found* applied, in order; *source* is a
    commit whose tree holds their redacted snapshots.

    Raises:
        IntegrityError: a redacted snapshot is missing from *source*.
        GitError: the history cannot be read or written.
    """
    tree = store.commit_tree(source)
    for f in found:
        tip = Rewriter(store.repo, edit_of(f.purge, tree)).rewrite(tip)
    return tip


def removed_texts(store: Store, commit: GitOid | None, found: Sequence[Found]) -> tuple[str, ...]:
    """The words of the items *found* remove, as *commit*'s tree holds them (before the
    rewrite): what to scrub from local files. A clone that applies a teammate's purge
    never learns a purged string itself, only the items that held it. Raises GitError
    for an unknown *commit*."""
    if commit is None:
        return ()
    tree = store.commit_tree(commit)
    items: list[Item | None] = []
    for f in found:
        for address in f.purge.items:
            data = _blob(tree, content_path("items", address))
            try:
                items.append(None if data is None else parse_item(data))
            except FormatError:
                continue
    return item_texts(items)


def pending(store: Store, target: GitOid | None, found: Sequence[Found]) -> tuple[Found, ...]:
    """The purges of *found* whose event *target*'s tree does not hold yet: those a
    history at *target* has still to apply. Raises GitError for an unknown *target*."""
    if target is None:
        return ()
    tree = store.commit_tree(target)
    return tuple(f for f in found if f.path not in tree)
