"""Union merge of two histories of a gitmem ref.

Every path in a store is content-addressed, so two honest histories never disagree
about a path: the union of their trees is the merge. When the same path holds
different bytes on the two sides, someone edited a stored object; that is reported
as tampering and nothing is merged (a merge never picks a side in silence).

The ref moves only by compare-and-swap (:meth:`gitmem.store.repo.Store.compare_and_swap`),
and the whole merge is rebuilt on the new tip whenever another writer moved the ref
first, as :meth:`gitmem.store.repo.Store.append` does.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Literal, NamedTuple

import pygit2

from gitmem.core.errors import GitError, IntegrityError, NegativeResult
from gitmem.core.types import GitOid
from gitmem.store.git import make_tree
from gitmem.store.repo import Store, git_signature
from gitmem.store.shape import by_name, counterpart, stored_commit
from gitmem.store.treediff import tree_changes

_MAX_ATTEMPTS = 50

Outcome = Literal["up-to-date", "created", "fast-forward", "merged"]


class MergeConflict(IntegrityError):
    """The same path holds different bytes on the two sides: a stored object was edited."""

    def __init__(self, ref: str, paths: list[str]) -> None:
        shown = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
        super().__init__(
            f"{ref}: {len(paths)} path(s) hold different bytes on the two sides ({shown}); "
            "content-addressed paths never differ unless one side was edited, so nothing "
            "was merged"
        )
        self.paths = paths


class MergeResult(NamedTuple):
    outcome: Outcome
    before: GitOid | None
    after: GitOid


def union_tree(
    repo: pygit2.Repository, ours: pygit2.Tree | None, theirs: pygit2.Tree | None, prefix: str = ""
) -> tuple[pygit2.Oid | None, list[str]]:
    """The tree holding every path of *ours* and *theirs*, and the paths that conflict.

    A conflict is a path whose entries differ (other bytes, or a file on one side and
    a folder on the other). When there are conflicts the tree returned is unusable. A
    name that is not UTF-8 (a push may hold one) is carried as its bytes: pygit2 cannot
    write it, ``git mktree`` does.
    The folders that differ are merged in a loop, deepest first, not by recursion: a
    pushed tree may nest folders thousands deep, and Python's stack would end the sync.
    Raises pygit2.GitError only when the object database cannot be written.
    """
    if ours is None or theirs is None:
        chosen = ours if theirs is None else theirs
        return (None if chosen is None else chosen.id), []
    if ours.id == theirs.id:
        return ours.id, []
    conflicts: list[str] = []
    stack = [
        _Union(repo.TreeBuilder(ours), ours, by_name(ours), iter(list(theirs)), prefix, "", [])
    ]
    while True:
        top = stack[-1]
        entry = next(top.theirs, None)
        if entry is None:
            written = _with_raw(repo, top.builder.write(), top.raw)
            stack.pop()
            if not stack:
                return written, conflicts
            if written != top.ours.id:
                _insert(stack[-1], top.name, written, pygit2.enums.FileMode.TREE)
            continue
        name = entry.name or ""
        mine = counterpart(top.ours, top.named, entry)
        if mine is None:
            _insert(top, name, entry.id, entry.filemode)
        elif isinstance(mine, pygit2.Tree) and isinstance(entry, pygit2.Tree):
            if mine.id != entry.id:
                deeper = f"{top.prefix}{name}/"
                stack.append(
                    _Union(
                        repo.TreeBuilder(mine),
                        mine,
                        by_name(mine),
                        iter(list(entry)),
                        deeper,
                        name,
                        [],
                    )
                )
        elif mine.id != entry.id or mine.filemode != entry.filemode:
            conflicts.append(f"{top.prefix}{name}")


class _Union(NamedTuple):
    """A folder of :func:`union_tree` being merged: our side's builder, tree and entries
    by name, their entries still to take, where it is and its name in its parent."""

    builder: pygit2.TreeBuilder
    ours: pygit2.Tree
    named: dict[bytes, pygit2.Object]
    theirs: Iterator[pygit2.Object]
    prefix: str
    name: str
    raw: list[tuple[bytes, int, pygit2.Oid]]
    """Entries whose names are not UTF-8, added by :func:`_with_raw` once it is written."""


def _insert(folder: _Union, name: str, oid: pygit2.Oid, mode: int) -> None:
    """Add an entry to *folder*'s builder; one whose name is not UTF-8 (pygit2 reads each
    such byte as a lone surrogate and cannot write it back) waits for :func:`_with_raw`."""
    try:
        folder.builder.insert(name, oid, mode)
    except UnicodeEncodeError:
        folder.raw.append((name.encode("utf-8", "surrogateescape"), mode, oid))


def _with_raw(
    repo: pygit2.Repository, written: pygit2.Oid, raw: list[tuple[bytes, int, pygit2.Oid]]
) -> pygit2.Oid:
    """The tree *written* with the entries of *raw* added (each replacing an entry of its
    name), written by ``git mktree``, which takes a name's bytes.

    Raises:
        pygit2.GitError: git could not write the tree.
    """
    if not raw:
        return written
    tree = repo.get(written)
    assert isinstance(tree, pygit2.Tree)
    names = {name for name, _, _ in raw}
    kept = [(e.raw_name or b"", e.filemode, e.id) for e in tree if e.raw_name not in names]
    listing = b"".join(
        b"%06o %s %s\t%s\0" % (mode, _KINDS.get(mode, b"blob"), str(oid).encode(), name)
        for name, mode, oid in [*kept, *raw]
    )
    try:
        return pygit2.Oid(hex=make_tree(Path(repo.path), listing))
    except GitError as e:
        raise pygit2.GitError(str(e)) from e


_KINDS: dict[int, bytes] = {
    pygit2.enums.FileMode.TREE: b"tree",
    pygit2.enums.FileMode.COMMIT: b"commit",
}


def merge_into(store: Store, theirs: GitOid, message: str, author: str) -> MergeResult:
    """Union-merge the commit *theirs* into the store's ref; never forced, never lossy.

    Creates the ref when it does not exist, fast-forwards it when *theirs* descends
    from it, does nothing when it already holds *theirs*, and otherwise writes a merge
    commit (parents: the local tip, then *theirs*) whose tree is the union of both.

    Raises:
        MergeConflict: a path differs between the two sides (nothing is written).
        GitError: *theirs* is not a commit in this repository.
        NegativeResult: the ref kept moving under us for every attempt.
    """
    theirs_commit = stored_commit(store.repo, theirs)
    signature = git_signature(author)
    for attempt in range(_MAX_ATTEMPTS):
        local = store.tip()
        if local is None:
            if store.compare_and_swap(None, theirs, message):
                return MergeResult("created", None, theirs)
        elif store.is_ancestor(theirs, local):
            return MergeResult("up-to-date", local, local)
        elif store.is_ancestor(local, theirs):
            if store.compare_and_swap(local, theirs, message):
                return MergeResult("fast-forward", local, theirs)
        else:
            ours_commit = stored_commit(store.repo, local)
            tree, conflicts = union_tree(store.repo, ours_commit.tree, theirs_commit.tree)
            if conflicts:
                raise MergeConflict(store.ref, conflicts)
            assert tree is not None  # both sides have a tree
            merged = GitOid(
                str(
                    store.repo.create_commit(
                        None,
                        signature,
                        signature,
                        message,
                        tree,
                        [ours_commit.id, theirs_commit.id],
                    )
                )
            )
            if store.compare_and_swap(local, merged, message):
                return MergeResult("merged", local, merged)
        # Another writer moved the ref (or holds its lock): back off, rebuild on its tip.
        time.sleep(random.uniform(0.001, 0.005) * min(attempt + 1, 10))
    raise NegativeResult(
        f"{store.ref} kept moving or stayed locked; gave up merging after {_MAX_ATTEMPTS} attempts"
    )


def added_paths(
    repo: pygit2.Repository, ours: GitOid | None, theirs: GitOid
) -> frozenset[str] | None:
    """The paths *theirs* has and *ours* lacks (None: every path, when there is no
    *ours*). What a merge of *theirs* would bring in, so what must be checked first.

    Raises:
        GitError: either commit is not in this repository.
    """
    if ours is None:
        return None
    try:
        changes = tree_changes(stored_commit(repo, ours).tree, stored_commit(repo, theirs).tree)
    except pygit2.GitError as e:
        raise GitError(f"cannot read the trees of {ours[:12]} and {theirs[:12]}: {e}") from e
    return frozenset(changes.added)
