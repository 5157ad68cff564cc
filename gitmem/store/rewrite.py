"""Rewrite a ref's history without some paths: how a purge is applied to commits.

Every commit, from the root to the tip, is written again with its tree edited (paths
removed, paths replaced by other blobs) and its parents the rewritten parents. Author,
committer (their times included) and message are kept, except that a commit which
introduced a removed record gets :data:`RETITLED` as its message (a capture's message
names its session, which the removed record held). A commit whose tree and parents stay
the same is kept as it is, so the history before the first removed path keeps its
commit ids.

The result depends only on the commits and the edit: two clones that apply the same
edit to the same commits write the same commits. That is how sync recognises a
teammate's purge (:mod:`gitmem.lifecycle.acceptance`). This module decides nothing about what
may be removed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import pygit2

from gitmem.core.errors import GitError
from gitmem.core.types import GitOid

RETITLED = "gitmem: commit rewritten by a purge"


@dataclass(frozen=True)
class TreeEdit:
    """What a rewrite changes in every tree: paths to remove, paths to replace (old path
    → new path and the blob it holds), and the paths whose introducing commit is
    retitled."""

    remove: frozenset[str]
    replace: Mapping[str, tuple[str, pygit2.Oid]] = field(default_factory=dict)
    retitle: frozenset[str] = frozenset()

    @property
    def touched(self) -> frozenset[str]:
        """Every path whose presence makes a tree change."""
        return self.remove | frozenset(self.replace)


class Rewriter:
    """One edit applied to any number of histories of one repository; commits and trees
    already rewritten are remembered, so rewriting a tip and then one of its ancestors
    (or a descendant) costs only the new commits."""

    def __init__(self, repo: pygit2.Repository, edit: TreeEdit) -> None:
        self.repo = repo
        self.edit = edit
        self._commits: dict[pygit2.Oid, pygit2.Oid] = {}
        self._trees: dict[pygit2.Oid, pygit2.Oid] = {}
        self._folders: dict[
            tuple[pygit2.Oid | None, frozenset[str], tuple[tuple[str, pygit2.Oid], ...]],
            pygit2.Oid,
        ] = {}

    def rewrite(self, tip: GitOid) -> GitOid:
        """The rewritten commit standing for *tip*.

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
            raise GitError(f"cannot rewrite the history of {tip[:12]}: {e}") from e

    def _commit(self, commit: pygit2.Commit) -> pygit2.Oid:
        tree = self._tree(commit.tree)
        parents = [self._commits.get(p, p) for p in commit.parent_ids]
        if tree == commit.tree_id and parents == list(commit.parent_ids):
            return commit.id
        message: str | bytes = commit.raw_message
        if self.edit.retitle and self._introduces(commit):
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
        here = {p for p in self.edit.retitle if p in commit.tree}
        for parent in commit.parents:
            here -= {p for p in here if p in parent.tree}
        return bool(here)

    def _tree(self, tree: pygit2.Tree) -> pygit2.Oid:
        if tree.id not in self._trees:
            present = [p for p in self.edit.touched if p in tree]
            if not present:
                self._trees[tree.id] = tree.id
            else:
                removed = set(present)
                added = [self.edit.replace[p] for p in present if p in self.edit.replace]
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
