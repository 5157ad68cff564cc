"""The purges a history holds, and the tree edit each one is.

A purge counts only when its event verifies under the reader's checker: intact, and
signed by a key the reader's trust roots vouch for. An intact purge by any other key is
listed (``untrusted``) but changes nothing: readers ignore it and sync refuses the
rewrite it stands for. Applying a purge to a history is :mod:`gitmem.store.rewrite`
with the edit :func:`edit_of` makes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import pygit2

from gitmem.core.errors import FormatError, GitError, IntegrityError
from gitmem.core.integrity import UNTRUSTED_KEY, RecordCheck
from gitmem.core.items import Item, parse_item
from gitmem.core.purge import Purge, PurgeMark, item_texts, purge_of, resolve_snapshot
from gitmem.core.records import EVENT_PURGE, Event, sortable_time
from gitmem.core.types import GitOid, Sha256Hex, is_sha256_hex
from gitmem.store.layout import content_path, record_path
from gitmem.store.repo import Store, StoredRecord
from gitmem.store.rewrite import Rewriter, TreeEdit
from gitmem.store.watermarks import SYNC_LOCK

LOCK_FILE = SYNC_LOCK
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


def purges_at(
    store: Store, commit: GitOid | None, checker: Checker, since: GitOid | None = None
) -> Purges:
    """The purge events stored in *commit*'s tree, each checked with *checker*; with
    *since*, only those *since*'s tree does not hold (found by diffing the two trees,
    which skips every folder they share: a sync asks this of large stores).

    Raises:
        GitError: either commit is not a commit of the repository.
    """
    if commit is None:
        return Purges()
    tree = _tree_of(store, commit)
    older = None if since is None else _events(_tree_of(store, since))
    paths = _event_paths(_events(tree), older)
    stored = []
    for path in paths:
        data = _blob(tree, path)
        _, fan, leaf = path.split("/")
        address = fan + leaf.removesuffix(".json")
        if data is not None and _MARKER in data and is_sha256_hex(address):
            receipt = _blob(tree, content_path("receipts", Sha256Hex(address)))
            stored.append(StoredRecord("event", Sha256Hex(address), path, data, receipt))
    return purges_among(stored, checker)


def purges_among(records: Iterable[StoredRecord], checker: Checker) -> Purges:
    """The purges among *records* (as read from one tree), each purge event checked
    with *checker*; other records are not parsed. Raises nothing."""
    found: list[Found] = []
    untrusted: list[Found] = []
    for stored in records:
        if stored.type != "event" or _MARKER not in stored.data:
            continue
        check = checker(stored)
        if check is None or not isinstance(check.record, Event):
            continue
        purge = purge_of(check.record)
        if purge is None:
            continue
        if check.ok:
            found.append(Found(stored.address, check.record, purge))
        elif check.problem == UNTRUSTED_KEY:
            untrusted.append(Found(stored.address, check.record, purge))
    return Purges.of(found, untrusted)


def _events(tree: pygit2.Tree) -> pygit2.Tree | None:
    try:
        events = tree["events"]
    except KeyError:
        return None
    return events if isinstance(events, pygit2.Tree) else None


def _event_paths(events: pygit2.Tree | None, older: pygit2.Tree | None) -> list[str]:
    """The event paths of *events* that *older* lacks (all of them without *older*); a
    fan-out folder both hold unchanged is skipped whole."""
    paths: list[str] = []
    for fan in events or ():
        name = fan.name or ""
        try:
            before = None if older is None else older[name]
        except KeyError:
            before = None
        if not isinstance(fan, pygit2.Tree) or (before is not None and before.id == fan.id):
            continue
        known = {e.name for e in before} if isinstance(before, pygit2.Tree) else set()
        for leaf in fan:
            address = name + (leaf.name or "").removesuffix(".json")
            if leaf.name not in known and isinstance(leaf, pygit2.Blob) and is_sha256_hex(address):
                paths.append(record_path("event", Sha256Hex(address)))
    return paths


def _tree_of(store: Store, commit: GitOid) -> pygit2.Tree:
    """The tree of *commit*. Raises GitError when it is not a commit stored here."""
    try:
        obj = store.repo.get(commit)
    except (ValueError, pygit2.GitError) as e:
        raise GitError(f"cannot read commit {commit[:12]}: {e}") from e
    if not isinstance(obj, pygit2.Commit):
        raise GitError(f"{commit[:12]} is not a commit in this repository")
    return obj.tree


def _blob(tree: pygit2.Tree, path: str) -> bytes | None:
    try:
        entry = tree[path]
    except KeyError:
        return None
    return entry.data if isinstance(entry, pygit2.Blob) else None


def edit_of(
    purge: Purge, tree: pygit2.Tree, later: Mapping[Sha256Hex, Sha256Hex] | None = None
) -> TreeEdit:
    """The tree edit that applies *purge*; *tree* holds the redacted snapshots it names
    (the tree its event is in). With *later*, the replacements of purges applied after
    it: a copy that a later purge redacted again is gone from *tree*, so the copy that
    stands for it now goes in its place (the same tree once both are applied).

    Raises:
        IntegrityError: a redacted snapshot the purge names is not in *tree*.
    """
    replace: dict[str, tuple[str, pygit2.Oid]] = {}
    for old, new in purge.snapshots.items():
        path = content_path("snapshots", resolve_snapshot(later or {}, new))
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
    tree = _tree_of(store, source)
    for n, f in enumerate(found):
        later = {old: new for g in found[n + 1 :] for old, new in g.purge.snapshots.items()}
        tip = Rewriter(store.repo, edit_of(f.purge, tree, later)).rewrite(tip)
    return tip


def removed_texts(store: Store, commit: GitOid | None, found: Sequence[Found]) -> tuple[str, ...]:
    """The words of the items *found* remove, as *commit*'s tree holds them (before the
    rewrite): what to scrub from local files. A clone that applies a teammate's purge
    never learns a purged string itself, only the items that held it. Raises GitError
    for an unknown *commit*."""
    if commit is None:
        return ()
    tree = _tree_of(store, commit)
    items: list[Item | None] = []
    for f in found:
        for address in f.purge.items:
            data = _blob(tree, content_path("items", address))
            try:
                items.append(None if data is None else parse_item(data))
            except FormatError:
                continue
    return item_texts(items)
