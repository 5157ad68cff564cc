"""The working repository's branches, as memory sees them: the branch a capture was
made on, and whether a branch's work is in the one checked out now."""

from __future__ import annotations

import pygit2

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
