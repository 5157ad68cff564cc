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
from typing import Literal, NamedTuple

import pygit2

from gitmem.core.errors import GitError, IntegrityError, NegativeResult
from gitmem.core.types import GitOid
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
    a folder on the other, or a name that is not UTF-8, which pygit2 cannot write). When
    there are conflicts the tree returned is unusable.
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
    stack = [_Union(repo.TreeBuilder(ours), ours, by_name(ours), iter(list(theirs)), prefix, "")]
    while True:
        top = stack[-1]
        entry = next(top.theirs, None)
        if entry is None:
            written = top.builder.write()
            stack.pop()
            if not stack:
                return written, conflicts
            if written != top.ours.id:
                try:
                    stack[-1].builder.insert(top.name, written, pygit2.enums.FileMode.TREE)
                except UnicodeEncodeError:
                    conflicts.append(top.prefix.removesuffix("/"))
            continue
        name = entry.name or ""
        mine = counterpart(top.ours, top.named, entry)
        if mine is None:
            try:
                top.builder.insert(name, entry.id, entry.filemode)
            except UnicodeEncodeError:  # a pushed name that is not UTF-8: pygit2 cannot
                conflicts.append(f"{top.prefix}{name}")  # write it (every reader ended 70)
        elif isinstance(mine, pygit2.Tree) and isinstance(entry, pygit2.Tree):
            if mine.id != entry.id:
                deeper = f"{top.prefix}{name}/"
                stack.append(
                    _Union(
                        repo.TreeBuilder(mine), mine, by_name(mine), iter(list(entry)), deeper, name
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
