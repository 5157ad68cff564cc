"""The working repository's branches, as memory sees them: the branch a capture was
made on, and whether a branch's work is in the one checked out now."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

import pygit2

from gitmem.core.errors import GitError
from gitmem.core.types import GitOid
from gitmem.store.repo import Store


def head_branch(store: Store) -> str | None:
    """The branch checked out (``feature/x``), or None when HEAD is detached, unborn
    or unreadable. Raises nothing."""
    try:
        if store.repo.head_is_detached:
            return None
        name = store.repo.references["HEAD"].target
    except (pygit2.GitError, KeyError, ValueError):
        return None
    return name.removeprefix("refs/heads/") if isinstance(name, str) else None


class Place(NamedTuple):
    """Where an item stands against the branch checked out now: captured on *branch*,
    whose work is not in it (the brief marks it ``[on branch]`` and ranks it after)."""

    branch: str
    deleted: bool
    """The branch is gone without its work reaching the current one."""


class Branches:
    """Answers, for the captures of one item, whether its work is in the branch checked
    out now; one per brief (it remembers what it asked git). Raises nothing: what
    cannot be read counts as on the current branch, so nothing is hidden by accident."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.current = head_branch(store)
        self._head = _safe(store.head_commit)
        self._merged: dict[str, bool] = {}

    def place(self, captured: Iterable[tuple[str | None, str | None]]) -> Place | None:
        """None when the item is on the current line: one of its *captured* (branch,
        commit) pairs has no branch (a detached HEAD, a record from before branches
        were recorded), is the current branch, or its commit is in HEAD's history
        (merged); else the place of the latest pair."""
        last: tuple[str, str | None] | None = None
        for branch, commit in captured:
            if branch is None or branch == self.current or self._in_head(commit):
                return None
            last = (branch, commit)
        if last is None:
            return None
        branch = last[0]
        return Place(branch, deleted=not self._exists(branch))

    def _in_head(self, commit: str | None) -> bool:
        if commit is None or self._head is None:
            return commit is None
        if commit not in self._merged:
            try:
                self._merged[commit] = self._store.is_ancestor(GitOid(commit), self._head)
            except GitError:
                self._merged[commit] = False  # not in this clone: not in HEAD either
        return self._merged[commit]

    def _exists(self, branch: str) -> bool:
        try:
            return f"refs/heads/{branch}" in self._store.repo.references
        except (pygit2.GitError, ValueError):
            return True


def _safe(read: Callable[[], GitOid | None]) -> GitOid | None:
    try:
        return read()
    except (GitError, pygit2.GitError, ValueError):
        return None
