"""The memory ref's history read a commit at a time, newest first, without reading all
of it: how far one commit lies behind another along the first parents (the index is
built and advanced in steps along them), and what the newest commits added (the first
brief after a clone reads the newest checkpoints only). Git I/O that decides nothing.
"""

from __future__ import annotations

from collections.abc import Iterator

import pygit2

from gitmem.core.types import GitOid
from gitmem.store.repo import Store


def first_parents(
    store: Store, tip: GitOid, stop: GitOid | None, most: int
) -> tuple[list[GitOid], bool]:
    """*tip* and its first parents, newest first, down to *stop* (left out) or the root:
    at most *most* of them, and whether that reached *stop* (or the root, when *stop* is
    None). A *stop* that is not a first parent of *tip* is never reached. Raises nothing."""
    chain: list[GitOid] = []
    try:
        walker = store.repo.walk(pygit2.Oid(hex=tip), pygit2.enums.SortMode.NONE)
        walker.simplify_first_parent()
        for commit in walker:
            oid = GitOid(str(commit.id))
            if oid == stop:
                return chain, True
            if len(chain) >= most:
                return chain, False
            chain.append(oid)
    except (KeyError, ValueError, pygit2.GitError):
        return chain, False
    return chain, stop is None


def additions_newest_first(store: Store, tip: GitOid) -> Iterator[list[str]]:
    """The paths each commit of *tip*'s history added to its parent's tree, the newest
    commit first (by commit time, parents after children). A merge adds none of its own:
    what it joins is read where each side added it. Raises nothing; a history that
    cannot be read ends the walk."""
    try:
        walker = store.repo.walk(
            pygit2.Oid(hex=tip), pygit2.enums.SortMode.TOPOLOGICAL | pygit2.enums.SortMode.TIME
        )
        for commit in walker:
            if len(commit.parent_ids) > 1:
                continue
            if commit.parents:
                diff = commit.parents[0].tree.diff_to_tree(commit.tree)
            else:
                diff = commit.tree.diff_to_tree(swap=True)
            yield [d.new_file.path for d in diff.deltas if d.status_char() == "A"]
    except (KeyError, ValueError, pygit2.GitError):
        return
