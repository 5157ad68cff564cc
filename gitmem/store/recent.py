"""The memory ref's history read a commit at a time, without reading all of it: the
first parents of a commit and where to stop along them every so many records (the index
is built and advanced in steps along them), and what the newest commits added (the
first brief after a clone reads the newest checkpoints only). Git I/O that decides
nothing.
"""

from __future__ import annotations

from collections.abc import Iterator

import pygit2

from gitmem.core.types import GitOid
from gitmem.store.layout import RECORD_DIRS
from gitmem.store.repo import Store
from gitmem.store.shape import entry_at


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


def stops_between(store: Store, seen: GitOid | None, tip: GitOid, step: int) -> list[GitOid]:
    """The first parents of *tip* after *seen* (from the root, without it) to stop at,
    the last *tip*: each the furthest that adds at most *step* records to the one before,
    or the next one when it alone adds more (found by bisection: a first parent holds no
    more records than its child). None when *seen* is not a first parent of *tip*.
    Raises nothing."""
    newest_first, found = first_parents(store, tip, seen, 1 << 30)
    if not found or not newest_first:
        return []
    chain = newest_first[::-1]
    stops: list[GitOid] = []
    at, held = -1, 0 if seen is None else records_at(store, seen)
    while at < len(chain) - 1:
        low, high = at + 1, len(chain) - 1
        while low < high:
            middle = (low + high + 1) // 2
            if records_at(store, chain[middle]) - held <= step:
                low = middle
            else:
                high = middle - 1
        at, held = low, records_at(store, chain[low])
        stops.append(chain[low])
    return stops


def records_at(store: Store, commit: GitOid) -> int:
    """How many records *commit*'s tree holds (its fan-out folders counted, not read).
    Raises nothing: an unreadable commit holds none."""
    try:
        found = store.repo.get(commit)
    except (ValueError, pygit2.GitError):
        return 0
    if not isinstance(found, pygit2.Commit):
        return 0
    count = 0
    for directory in RECORD_DIRS:
        top = entry_at(found.tree, directory)
        if isinstance(top, pygit2.Tree):
            count += sum(len(fan) for fan in top if isinstance(fan, pygit2.Tree))
    return count
