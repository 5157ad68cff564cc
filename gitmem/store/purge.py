"""Purges in the store: finding them in a history, applying them to its commits, and
scrubbing what they removed from ``.git/gitmem/`` (the rules are :mod:`gitmem.core.purge`,
the command :mod:`gitmem.lifecycle.purge`).

**Finding.** A purge counts only when its event verifies under the reader's checker:
intact, and signed by a key the reader's trust roots vouch for. An intact purge by any
other key is listed (``untrusted``) but changes nothing: readers ignore it and sync
refuses the rewrite it stands for.

**Applying.** Every commit, from the root to the tip, is written again with its tree
edited (paths removed, paths replaced by other blobs) and its parents the edited
parents. Author, committer (their times included) and message are kept, except that a
commit which introduced a removed record gets :data:`RETITLED` as its message (a
capture's message names its session, which the removed record held). A commit whose
tree and parents stay the same is kept as it is, so the history before the first
removed path keeps its commit ids. The result depends only on the commits and the edit:
two clones that apply the same purge to the same commits write the same commits. That
is how sync recognises a teammate's purge (:mod:`gitmem.lifecycle.acceptance`).

**Scrubbing.** The local state is rebuildable, so it is scrubbed by what it is, not by
parsing each file's format: SQLite files (the index with its full-text table, any other)
are deleted whatever they hold (the next command rebuilds them from the purged ref);
line files (``*.jsonl``, ``*.log``: the emission ledger, the capture log) lose every line
that holds a needle; settings and positions (:data:`KEPT`) are never changed (one that
holds a needle is reported, for the user to edit); every other file that holds a needle
(raw model replies, staged chat imports, saved hook input) is deleted. A needle is
looked for as written, JSON-escaped, and folded as the ledger folds text.

This module decides nothing about what may be removed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

import pygit2

from gitmem.core.errors import FormatError, GitError, IntegrityError
from gitmem.core.folding import fold
from gitmem.core.integrity import UNTRUSTED_KEY, RecordCheck
from gitmem.core.items import Item, parse_item
from gitmem.core.purge import Purge, Purges, item_texts, needles, purge_of, resolve_snapshot
from gitmem.core.records import EVENT_PURGE, Event
from gitmem.core.types import GitOid, Sha256Hex, is_sha256_hex
from gitmem.store.files import atomic_write
from gitmem.store.git import last_line, run_git
from gitmem.store.layout import blob_bytes, content_path, record_path
from gitmem.store.repo import TRACKING_PREFIX, Store, StoredRecord
from gitmem.store.shape import by_name, counterpart, entry_at, stored_commit
from gitmem.store.watermarks import SYNC_LOCK

LOCK_FILE = SYNC_LOCK
"""One sync or purge at a time in a clone (``.git/gitmem/sync.lock``): a purge that moved
the ref in the middle of a sync would let that sync merge back what it removed."""
GC_COMMANDS = ("git reflog expire --expire=now --all", "git gc --prune=now")
"""What makes git drop the objects a purge left unreachable (every reflog of the
repository is expired: the reflogs still name the old tips)."""
RETITLED = "gitmem: commit rewritten by a purge"
KEPT = frozenset(
    {"config.json", "watermarks.json", "cursors.json", "release-seen.json", "purges.json"}
)
"""Settings and positions: written by people or by sync, never holding captured text."""
Checker = Callable[[StoredRecord], RecordCheck | None]
_MARKER = f'"event":"{EVENT_PURGE}"'.encode()
"""Every purge event's canonical bytes hold this; other events are never parsed here."""
_REBUILT = (".sqlite", ".sqlite-wal", ".sqlite-shm", ".sqlite-journal")
_LINES = (".jsonl", ".log")


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
    tree = stored_commit(store.repo, commit).tree
    entries: Sequence[tuple[str, pygit2.Object | None]]
    if since is None:
        entries = [(path, entry_at(tree, path)) for path in _purge_paths(store, commit, tree)]
    else:
        entries = _new_events(_events(tree), _events(stored_commit(store.repo, since).tree))
    stored = []
    for path, entry in entries:
        data = blob_bytes(store.repo, entry, path)
        _, fan, leaf = path.split("/")
        address = fan + leaf.removesuffix(".json")
        if data is not None and _MARKER in data and is_sha256_hex(address):
            receipt = _blob(store.repo, tree, content_path("receipts", Sha256Hex(address)))
            stored.append(StoredRecord("event", Sha256Hex(address), path, data, receipt))
    return purges_among(stored, checker)


PURGE_EVENTS_FILE = "purge-events.json"
"""The event paths of one commit's tree that hold a purge event (by their bytes; trust is
decided when they are read): another tree's are those it shares with it plus those among
the events it adds, so finding a tree's purges reads what moved, not every event."""


def _purge_paths(store: Store, commit: GitOid, tree: pygit2.Tree) -> list[str]:
    """The paths of *tree* (*commit*'s) that hold a purge event, from the last tree's.
    Raises nothing of its own."""
    cache = store.local_dir / PURGE_EVENTS_FILE
    try:
        data = json.loads(cache.read_text())
        seen, known = GitOid(str(data["commit"])), [str(p) for p in data["paths"]]
        older = _events(stored_commit(store.repo, seen).tree)
    except (OSError, ValueError, KeyError, TypeError, GitError):
        seen, known, older = None, [], None
    if seen == commit:
        return known
    kept = [p for p in known if _blob(store.repo, tree, p) is not None]
    added = [
        path
        for path, entry in _new_events(_events(tree), older)
        if _MARKER in (blob_bytes(store.repo, entry, path) or b"")
    ]
    paths = sorted({*kept, *added})
    with suppress(OSError):
        text = json.dumps({"commit": commit, "paths": paths})
        atomic_write(cache, text.encode(), 0o644)
    return paths


def purges_among(records: Iterable[StoredRecord], checker: Checker) -> Purges:
    """The purges among *records* (as read from one tree), each purge event checked
    with *checker*; other records are not parsed. Raises nothing."""
    found: list[Purge] = []
    untrusted: list[Purge] = []
    for stored in records:
        if stored.type != "event" or _MARKER not in stored.data:
            continue
        check = checker(stored)
        if check is None or not isinstance(check.record, Event):
            continue
        purge = purge_of(check.record, stored.address)
        if purge is None:
            continue
        if check.ok:
            found.append(purge)
        elif check.problem == UNTRUSTED_KEY:
            untrusted.append(purge)
    return Purges.of(found, untrusted)


def _events(tree: pygit2.Tree) -> pygit2.Tree | None:
    events = entry_at(tree, "events")
    return events if isinstance(events, pygit2.Tree) else None


def _new_events(
    events: pygit2.Tree | None, older: pygit2.Tree | None
) -> list[tuple[str, pygit2.Blob]]:
    """The events of *events* that *older* lacks (all of them without *older*), each its
    path and its entry (read from there: looking each path up again from the root cost
    more than reading its bytes, for the 20,000 events of a clone's first ``verify
    --since``); a fan-out folder both hold unchanged is skipped whole."""
    paths: list[tuple[str, pygit2.Blob]] = []
    fans = by_name(older)  # (each of 256 names looked up: the folder read once)
    for fan in events or ():
        name = fan.name or ""
        before = counterpart(older, fans, fan)
        if not isinstance(fan, pygit2.Tree) or (before is not None and before.id == fan.id):
            continue
        known = {e.name for e in before} if isinstance(before, pygit2.Tree) else set()
        for leaf in fan:
            address = name + (leaf.name or "").removesuffix(".json")
            if leaf.name not in known and isinstance(leaf, pygit2.Blob) and is_sha256_hex(address):
                paths.append((record_path("event", Sha256Hex(address)), leaf))
    return paths


def _blob(repo: pygit2.Repository, tree: pygit2.Tree, path: str) -> bytes | None:
    return blob_bytes(repo, entry_at(tree, path), path)


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


def apply_purges(store: Store, tip: GitOid, found: Sequence[Purge], source: GitOid) -> GitOid:
    """*tip*'s history with each purge of *found* applied, in order; *source* is a
    commit whose tree holds their redacted snapshots.

    Raises:
        IntegrityError: a redacted snapshot is missing from *source*.
        GitError: the history cannot be read or written.
    """
    tree = stored_commit(store.repo, source).tree
    for n, purge in enumerate(found):
        later = {old: new for p in found[n + 1 :] for old, new in p.snapshots.items()}
        tip = HistoryEditor(store.repo, edit_of(purge, tree, later)).edit(tip)
    return tip


def removed_texts(store: Store, commit: GitOid | None, found: Sequence[Purge]) -> tuple[str, ...]:
    """The words of the items *found* remove, as *commit*'s tree holds them (before the
    purge): what to scrub from local files. A clone that applies a teammate's purge
    never learns a purged string itself, only the items that held it. Raises GitError
    for an unknown *commit*."""
    if commit is None:
        return ()
    tree = stored_commit(store.repo, commit).tree
    items: list[Item | None] = []
    for purge in found:
        for address in purge.items:
            data = _blob(store.repo, tree, content_path("items", address))
            try:
                items.append(None if data is None else parse_item(data))
            except FormatError:
                continue
    return item_texts(items)


@dataclass(frozen=True)
class TreeEdit:
    """What a purge changes in every tree: paths to remove, paths to replace (old path
    → new path and the blob it holds), and the paths whose introducing commit is
    retitled."""

    remove: frozenset[str]
    replace: Mapping[str, tuple[str, pygit2.Oid]] = field(default_factory=dict)
    retitle: frozenset[str] = frozenset()

    @property
    def touched(self) -> frozenset[str]:
        """Every path whose presence makes a tree change."""
        return self.remove | frozenset(self.replace)


class HistoryEditor:
    """One :class:`TreeEdit` applied to every commit of any number of histories of one
    repository (see the module's rules); commits and trees already edited are
    remembered, so editing a tip and then one of its ancestors (or a descendant) costs
    only the new commits."""

    def __init__(self, repo: pygit2.Repository, edit: TreeEdit) -> None:
        self.repo = repo
        self.tree_edit = edit
        self._commits: dict[pygit2.Oid, pygit2.Oid] = {}
        self._trees: dict[pygit2.Oid, pygit2.Oid] = {}
        self._folders: dict[
            tuple[pygit2.Oid | None, frozenset[str], tuple[tuple[str, pygit2.Oid], ...]],
            pygit2.Oid,
        ] = {}

    def edit(self, tip: GitOid) -> GitOid:
        """The edited commit standing for *tip*.

        Raises:
            GitError: *tip* is not a commit, or the object database cannot be written.
        """
        try:
            start = pygit2.Oid(hex=tip)
            if start not in self._commits:
                sort = pygit2.enums.SortMode.TOPOLOGICAL | pygit2.enums.SortMode.REVERSE
                walker = self.repo.walk(start, sort)
                for done in self._commits:
                    walker.hide(done)
                for commit in walker:
                    self._commits[commit.id] = self._commit(commit)
            return GitOid(str(self._commits[start]))
        except (KeyError, ValueError, pygit2.GitError) as e:
            raise GitError(f"cannot apply a purge to the history of {tip[:12]}: {e}") from e

    def _commit(self, commit: pygit2.Commit) -> pygit2.Oid:
        tree = self._tree(commit.tree)
        parents = [self._commits.get(p, p) for p in commit.parent_ids]
        if tree == commit.tree_id and parents == list(commit.parent_ids):
            return commit.id
        message: str | bytes = commit.raw_message
        if self.tree_edit.retitle and self._introduces(commit):
            message = RETITLED + "\n"
        return self.repo.create_commit(
            None,
            commit.author,
            commit.committer,
            message,
            tree,
            parents,
            *([commit.message_encoding] if commit.message_encoding else []),
        )

    def _introduces(self, commit: pygit2.Commit) -> bool:
        here = {p for p in self.tree_edit.retitle if p in commit.tree}
        for parent in commit.parents:
            here -= {p for p in here if p in parent.tree}
        return bool(here)

    def _tree(self, tree: pygit2.Tree) -> pygit2.Oid:
        if tree.id not in self._trees:
            present = [p for p in self.tree_edit.touched if p in tree]
            if not present:
                self._trees[tree.id] = tree.id
            else:
                removed = set(present)
                added = [self.tree_edit.replace[p] for p in present if p in self.tree_edit.replace]
                added = [(path, oid) for path, oid in added if path not in tree]
                self._trees[tree.id] = self._edited(tree, removed, added)
        return self._trees[tree.id]

    def _edited(
        self,
        tree: pygit2.Tree | None,
        removed: set[str],
        added: list[tuple[str, pygit2.Oid]],
    ) -> pygit2.Oid:
        """*tree* without the paths *removed* and with *added*; a folder left empty goes.
        A folder edited the same way before is not written again (most commits share
        their fan-out folders with their parent)."""
        key = (None if tree is None else tree.id, frozenset(removed), tuple(sorted(added)))
        if key in self._folders:
            return self._folders[key]
        groups: dict[str, tuple[set[str], list[tuple[str, pygit2.Oid]]]] = {}
        builder = self.repo.TreeBuilder() if tree is None else self.repo.TreeBuilder(tree)
        for path in removed:
            head, sep, rest = path.partition("/")
            if sep:
                groups.setdefault(head, (set(), []))[0].add(rest)
            elif builder.get(head) is not None:
                builder.remove(head)
        for path, oid in added:
            head, sep, rest = path.partition("/")
            if sep:
                groups.setdefault(head, (set(), []))[1].append((rest, oid))
            elif builder.get(head) is None:
                builder.insert(head, oid, pygit2.enums.FileMode.BLOB)
        for name, (gone, new) in groups.items():
            existing = builder.get(name)
            subtree = existing if isinstance(existing, pygit2.Tree) else None
            if existing is not None and subtree is None:
                continue  # a file where a folder belongs: not ours to fix here
            edited = self._edited(subtree, gone, new)
            written = self.repo.get(edited)
            if isinstance(written, pygit2.Tree) and len(written) == 0:
                if existing is not None:
                    builder.remove(name)
            else:
                builder.insert(name, edited, pygit2.enums.FileMode.TREE)
        self._folders[key] = builder.write()
        return self._folders[key]


def purge_editor(store: Store, purge: Purge, redacted: Mapping[Sha256Hex, bytes]) -> HistoryEditor:
    """The editor that applies *purge* before its event is stored: *redacted* holds the
    copy of each snapshot it replaces (by the old address), written here as blobs.
    Raises pygit2.GitError when the object database cannot be written."""
    replace = {
        content_path("snapshots", old): (
            content_path("snapshots", new),
            store.repo.create_blob(redacted[old]),
        )
        for old, new in purge.snapshots.items()
    }
    return HistoryEditor(store.repo, purge_edit(purge, replace))


def edit_tracking(store: Store, editor: HistoryEditor) -> list[str]:
    """The tracking refs of *store*'s ref (``refs/gitmem-remotes/*/memory``) edited as
    *editor* edits, so no local ref reaches the removed objects any more; the refs
    changed.

    Raises:
        GitError: a history cannot be edited.
    """
    done: list[str] = []
    name = store.ref.rsplit("/", 1)[-1]
    for ref in store.refs(TRACKING_PREFIX):
        tip = store.at(ref).tip()
        if not ref.endswith(f"/{name}") or tip is None:
            continue
        edited = editor.edit(tip)
        if edited != tip:
            store.repo.references.create(ref, pygit2.Oid(hex=edited), force=True)
            done.append(ref)
    return done


def collect_garbage(store: Store) -> str | None:
    """Run :data:`GC_COMMANDS`; git's own line when one fails, else None. Raises
    nothing but what running git raises."""
    for command in GC_COMMANDS:
        done = run_git(store, *command.split()[1:])
        if done.returncode != 0:
            return f"`{command}` failed: {last_line(done.stderr)}"
    return None


@dataclass(frozen=True)
class Scrubbed:
    changed: tuple[str, ...]
    """Files written again without the lines that held a needle (relative to the folder)."""
    deleted: tuple[str, ...]
    left: tuple[str, ...]
    """Settings files that hold a needle: left for the user to edit."""


def forms(texts: Iterable[str]) -> tuple[bytes, ...]:
    """Every byte form to look for: each text as is, JSON-escaped, and folded. Empty
    forms are dropped. Raises nothing."""
    found: dict[bytes, None] = {}
    for text in texts:
        for form in (*needles(text), *needles(fold(text))):
            if form.strip():
                found[form.encode("utf-8")] = None
    return tuple(found)


def scrub_local(local_dir: Path, texts: Sequence[str]) -> Scrubbed:
    """Scrub *local_dir* of *texts* (the module's scrubbing rules). A file that cannot be read
    or written is left as it is. Raises nothing."""
    wanted = forms(texts)
    changed: list[str] = []
    deleted: list[str] = []
    left: list[str] = []
    if not local_dir.is_dir():
        return Scrubbed((), (), ())
    for path in sorted(p for p in local_dir.rglob("*") if p.is_file() and not p.is_symlink()):
        name = str(path.relative_to(local_dir))
        if path.name.endswith(_REBUILT):
            if _unlink(path):
                deleted.append(name)
            continue
        try:
            data = path.read_bytes()
        except OSError:
            continue
        if not any(form in data for form in wanted):
            continue
        if path.name in KEPT or path.name.endswith(".lock"):
            left.append(name)
        elif path.name.endswith(_LINES):
            kept = [line for line in data.splitlines(True) if not any(f in line for f in wanted)]
            try:
                atomic_write(path, b"".join(kept), os.stat(path).st_mode & 0o777)
            except OSError:
                continue
            changed.append(name)
        elif _unlink(path):
            deleted.append(name)
    return Scrubbed(tuple(changed), tuple(deleted), tuple(left))


def _unlink(path: Path) -> bool:
    try:
        path.unlink()
    except OSError:
        return False
    return True
