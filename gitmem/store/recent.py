"""The memory ref's history read a commit at a time, without reading all of it: the
first parents of a commit and where to stop along them every so many records (the index
is built and advanced in steps along them), and what the newest commits added (the
first brief after a clone reads the newest checkpoints only). Git I/O that decides
nothing.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from itertools import count

import pygit2

from gitmem.core.types import GitOid
from gitmem.store.layout import RECORD_DIRS
from gitmem.store.repo import Store
from gitmem.store.shape import entry_at
from gitmem.store.treediff import tree_changes


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


def additions_newest_first(
    store: Store, tip: GitOid, folders: tuple[str, ...] = tuple(RECORD_DIRS)
) -> Iterator[list[str]]:
    """The paths under *folders* each commit of *tip*'s history added to its parent's
    tree, the newest commit first: by commit time, each after the child it was reached
    from. A merge adds none of its own: what it joins is read where each side added it.

    Read lazily, a commit at a time: the walk holds the commits it has reached, not the
    whole history (a sorted walk of libgit2's reads every commit before its first), and
    of each tree only the folders that differ (``tree_changes``), never every fan-out
    folder of the store. Raises nothing; a history that cannot be read ends the walk."""
    try:
        first = store.repo[pygit2.Oid(hex=tip)]
        if not isinstance(first, pygit2.Commit):
            return
        order = count()
        queue: list[tuple[int, int, pygit2.Commit]] = [(-first.commit_time, next(order), first)]
        reached = {first.id}
        while queue:
            commit = heapq.heappop(queue)[2]
            parents = commit.parents
            for parent in parents:
                if parent.id not in reached:
                    reached.add(parent.id)
                    heapq.heappush(queue, (-parent.commit_time, next(order), parent))
            if len(parents) <= 1:
                yield _added(parents[0].tree if parents else None, commit.tree, folders)
    except (KeyError, ValueError, pygit2.GitError):
        return


def _added(old: pygit2.Tree | None, new: pygit2.Tree, folders: tuple[str, ...]) -> list[str]:
    """The files under *folders* that *new* holds and *old* did not."""
    added: list[str] = []
    for folder in folders:
        now = entry_at(new, folder)
        if not isinstance(now, pygit2.Tree):
            continue
        was = None if old is None else entry_at(old, folder)
        if isinstance(was, pygit2.Tree) and was.id == now.id:
            continue
        before = was if isinstance(was, pygit2.Tree) else None
        added += (f"{folder}/{path}" for path in tree_changes(before, now).added)
    return sorted(added)


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
