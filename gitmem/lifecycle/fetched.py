"""Memory fetched from the remotes, read together with the local ref before any merge.

With the fetch refspec ``gitmem init`` adds, a plain ``git fetch`` / ``git pull`` brings
each remote's ``refs/gitmem/*`` into ``refs/gitmem-remotes/<remote>/…`` and moves no local
ref. Readers (brief, recall, show, MCP, status) read the **view**: the local memory plus
every fetched memory tip the local history lacks that sync would accept
(:mod:`gitmem.lifecycle.acceptance`, the one place that decides it) without applying a
purge: a tip sync would take only by rewriting one side waits for ``gitmem sync``.

The view is one commit, written as an object only (no ref names it): parents the local
tip then the accepted tips, tree the union, a fixed author and a time taken from its
parents, so the same inputs always name the same commit and the index advances
incrementally. The next write makes it real: the compare-and-swap that moves the memory
ref from the view to the new commit moves it from the local tip, so the new commit is a
union merge exactly as sync makes one. Verdicts are cached per (local tip, fetched tip,
trust roots) in ``.git/gitmem/fetched.json``; the last view commit in
``.git/gitmem/fetched-view``: the next view is built on it while it holds the local tip,
so each fetch only adds what it brought.
"""

from __future__ import annotations

import contextlib
from typing import NamedTuple

import pygit2

from gitmem.core.errors import GitmemError
from gitmem.core.integrity import TrustRoots
from gitmem.core.types import GitOid
from gitmem.store.files import atomic_write, read_state, write_state
from gitmem.store.layout import RECORD_DIRS
from gitmem.store.merge import added_paths, union_tree
from gitmem.store.repo import MEMORY_REF, REFS_PREFIX, Store
from gitmem.store.shape import BrokenRef, commit_at, entry_at
from gitmem.store.watermarks import Watermarks, tracking_prefix

FETCHED_FILE = "fetched.json"
_MAX_VERDICTS = 32
_VIEW_AUTHOR = ("gitmem", "gitmem@gitmem.invalid")


class Fetched(NamedTuple):
    """A remote's fetched memory that the local history does not hold yet."""

    remote: str
    tip: GitOid
    records: int
    """How many records (checkpoints, events) it adds to the local memory."""
    problem: str | None
    """Why readers leave it out (None: it is in the view)."""


_LEAF = MEMORY_REF.removeprefix(REFS_PREFIX)


def tracking_memory(store: Store) -> dict[str, GitOid]:
    """Each remote's fetched memory tip (``refs/gitmem-remotes/<remote>/memory``).
    Raises nothing: an unreadable ref counts as absent."""
    found: dict[str, GitOid] = {}
    try:
        # Only configured remotes: a teammate's ref refs/gitmem/team/memory fetched from
        # origin lands at refs/gitmem-remotes/origin/team/memory, the name a remote
        # called "origin/team" would track.
        remotes = store.repo.remotes.names()
    except (pygit2.GitError, ValueError):
        return found
    for remote in filter(None, remotes):
        name = tracking_prefix(remote) + _LEAF
        with contextlib.suppress(GitmemError):
            tip = store.at(name).tip()
            if tip is not None:
                found[remote] = tip
    return found


def unmerged(store: Store, roots: TrustRoots) -> list[Fetched]:
    """Every fetched memory tip the local history lacks, with the verdict of the rule in
    the module docstring. Raises nothing (a tip that cannot be read is left out, with
    the reason)."""
    local = _local_tip(store)
    waiting = {
        remote: tip
        for remote, tip in tracking_memory(store).items()
        if local is None or not store.descends(tip, local)
    }
    if not waiting:  # the common case: everything fetched is merged already
        return []
    marks = Watermarks(store.local_dir)
    cache = _Verdicts(store, roots)
    found: list[Fetched] = []
    for remote, tip in sorted(waiting.items()):
        try:
            commit_at(store.repo, tracking_prefix(remote) + _LEAF, tip)
        except BrokenRef as e:  # a tag, a tree, a blob: sync says so too, and skips it
            found.append(Fetched(remote, tip, 0, str(e)))
            continue
        try:
            records = _records_added(store, local, tip)
        except (GitmemError, AssertionError):
            continue
        problem = cache.get(local, tip)
        if problem is None and not cache.has(local, tip):
            problem = _problem(store, roots, remote, tip, marks.get(remote, MEMORY_REF))
            cache.put(local, tip, problem)
        found.append(Fetched(remote, tip, records, problem))
    cache.save()
    return found


def view_of(store: Store, roots: TrustRoots) -> tuple[GitOid | None, list[Fetched]]:
    """The view's tip (the local tip itself when nothing fetched joins it) and what was
    fetched but is not merged yet. Raises nothing but what reading the local ref raises."""
    local = store.tip()
    pending = unmerged(store, roots)
    tips = [f.tip for f in pending if f.problem is None]
    # A fetched tip another one already holds adds nothing of its own.
    tips = [t for t in tips if not any(o != t and store.descends(t, o) for o in tips)]
    tips = list(dict.fromkeys(tips))
    if not tips:
        return local, pending
    if local is None and len(tips) == 1:
        return tips[0], pending
    # Built on the last view when it still holds the local tip, so that the index
    # advances from it rather than reading everything again after each fetch.
    base = _last_view(store)
    allowed = [t for t in [local, *tips] if t is not None]
    if base is None or not (
        (local is None or store.descends(local, base)) and _holds_only(store, base, allowed, _CHAIN)
    ):
        base = local
    tips = [t for t in tips if base is None or not store.descends(t, base)]
    if not tips:
        return base, pending
    view = _union_commit(store, [t for t in [base, *tips] if t is not None])
    _save_view(store, view)
    return view, pending


_VIEW_FILE = "fetched-view"
_CHAIN = 16


def _holds_only(store: Store, view: GitOid, allowed: list[GitOid], depth: int) -> bool:
    """Whether *view* is a view commit whose parents are each in the history of one of
    *allowed* (the local tip, the tips accepted now) or such a view again, at most
    *depth* deep: what it holds may then be read. Raises nothing."""
    commit = store.repo.get(view)
    if depth <= 0 or not isinstance(commit, pygit2.Commit):
        return False
    if commit.author.email != _VIEW_AUTHOR[1]:
        return False
    for parent in (GitOid(str(p)) for p in commit.parent_ids):
        if any(store.descends(parent, a) for a in allowed):
            continue
        if not _holds_only(store, parent, allowed, depth - 1):
            return False
    return True


def _last_view(store: Store) -> GitOid | None:
    try:
        text = (store.local_dir / _VIEW_FILE).read_text().strip()
    except OSError:
        return None
    if len(text) not in (40, 64) or any(c not in "0123456789abcdef" for c in text):
        return None
    return GitOid(text) if isinstance(store.repo.get(text), pygit2.Commit) else None


def _save_view(store: Store, view: GitOid) -> None:
    with contextlib.suppress(OSError):
        atomic_write(store.local_dir / _VIEW_FILE, (view + "\n").encode(), 0o644)


class StoreWithFetched(Store):
    """A store whose memory tip is the view (see the module docstring); writing to it
    merges what the view holds."""

    def __init__(self, store: Store, roots: TrustRoots) -> None:
        super().__init__(store.repo, store.ref)
        self._roots = roots
        self._seen: tuple[GitOid | None, GitOid | None] | None = None
        self.pending: list[Fetched] = []
        """What was fetched but is not in the local history, as of the last :meth:`tip`."""

    def local_tip(self) -> GitOid | None:
        """The memory ref's own tip. Raises GitError when it cannot be read."""
        return super().tip()

    def tip(self) -> GitOid | None:
        local = super().tip()
        if self._seen is None or self._seen[0] != local:
            view, self.pending = view_of(Store(self.repo, self.ref), self._roots)
            self._seen = (local, view)
        return self._seen[1]

    def compare_and_swap(self, old: GitOid | None, new: GitOid, message: str) -> bool:
        # A commit built on the view descends from the local tip and the fetched tips:
        # moving the ref from the local tip to it is the union merge.
        if self._seen is not None and old == self._seen[1] and old != self._seen[0]:
            old = self._seen[0]
        return super().compare_and_swap(old, new, message)


def with_fetched(store: Store, roots: TrustRoots) -> Store:
    """*store* read as the view, when it is the memory store; else *store* itself.
    Raises nothing."""
    if store.ref != MEMORY_REF or isinstance(store, StoreWithFetched):
        return store
    return StoreWithFetched(store, roots)


def _local_tip(store: Store) -> GitOid | None:
    return store.local_tip() if isinstance(store, StoreWithFetched) else store.tip()


def _records_added(store: Store, local: GitOid | None, tip: GitOid) -> int:
    paths = added_paths(store.repo, local, tip)
    if paths is None:
        tree = store.repo.get(tip)
        assert isinstance(tree, pygit2.Commit)
        return sum(
            len(fan)
            for name in RECORD_DIRS
            if isinstance(top := entry_at(tree.tree, name), pygit2.Tree)
            for fan in top
            if isinstance(fan, pygit2.Tree)
        )
    return sum(1 for p in paths if p.split("/", 1)[0] in RECORD_DIRS)


def _problem(
    store: Store,
    roots: TrustRoots,
    remote: str,
    tip: GitOid,
    mark: GitOid | None,
) -> str | None:
    """Why *tip* may not join the view (None: it may): sync's own decision
    (:mod:`gitmem.lifecycle.acceptance`), and a tip sync takes only by applying a purge
    waits for sync, the one command that rewrites."""
    # Only a fetched tip not yet judged needs the checker: every brief and recall of a
    # clone without one skips loading it.
    from gitmem.lifecycle.acceptance import Refused, decide
    from gitmem.store.verify import memory_checker

    sync = f"run `gitmem sync {remote}`"
    decision = decide(store, memory_checker(roots), remote, MEMORY_REF, tip, mark)
    if isinstance(decision, Refused):
        return f"{decision.reason}; {sync}" if decision.rewrite else f"{decision.reason}; not read"
    if decision.needs_sync:
        return f"a purge is on one side only; {sync} to apply it"
    return None


def _union_commit(store: Store, parents: list[GitOid]) -> GitOid:
    """The view commit of *parents* (the local tip first); deterministic. Raises
    GitError when the objects cannot be read or written."""
    from gitmem.core.errors import GitError

    try:
        commits = [store.repo.get(p) for p in parents]
        tree: pygit2.Oid | None = None
        times: list[int] = []
        for commit in commits:
            assert isinstance(commit, pygit2.Commit)
            times.append(commit.commit_time)
            current = None if tree is None else store.repo.get(tree)
            assert current is None or isinstance(current, pygit2.Tree)
            tree, _ = union_tree(store.repo, current, commit.tree)
        assert tree is not None
        signature = pygit2.Signature(*_VIEW_AUTHOR, time=max(times), offset=0)
        message = "gitmem: union with fetched memory\n"
        oids = [pygit2.Oid(hex=p) for p in parents]
        return GitOid(
            str(store.repo.create_commit(None, signature, signature, message, tree, oids))
        )
    except (pygit2.GitError, AssertionError, ValueError) as e:
        raise GitError(f"cannot write the view of fetched memory: {e}") from e


class _Verdicts:
    """``fetched.json``: the verdict on each (local tip, fetched tip) under one set of
    trust roots; a few dozen kept, the newest."""

    def __init__(self, store: Store, roots: TrustRoots) -> None:
        self.path = store.local_dir / FETCHED_FILE
        self.key = roots.digest()
        self.changed = False
        self.verdicts: dict[str, str | None] = {}
        data = read_state(self.path, max_depth=3)
        if isinstance(data, dict) and data.get("roots") == self.key:
            raw = data.get("verdicts")
            if isinstance(raw, dict):
                self.verdicts = {
                    str(k): v for k, v in raw.items() if v is None or isinstance(v, str)
                }

    @staticmethod
    def _name(local: GitOid | None, tip: GitOid) -> str:
        return f"{local or '-'}..{tip}"

    def has(self, local: GitOid | None, tip: GitOid) -> bool:
        return self._name(local, tip) in self.verdicts

    def get(self, local: GitOid | None, tip: GitOid) -> str | None:
        return self.verdicts.get(self._name(local, tip))

    def put(self, local: GitOid | None, tip: GitOid, problem: str | None) -> None:
        self.verdicts[self._name(local, tip)] = problem
        self.changed = True

    def save(self) -> None:
        if not self.changed:
            return
        kept = dict(list(self.verdicts.items())[-_MAX_VERDICTS:])
        with contextlib.suppress(OSError):  # a read-only clone: checked again next time
            write_state(self.path, {"version": 1, "roots": self.key, "verdicts": kept})


def unfetched_hint(store: Store) -> str | None:
    """One line for a clone that holds no memory and fetched none, while a remote
    probably has some (the project commits team trust, ``.gitmem/allowed_signers``, or
    ``gitmem init`` set the fetch refspec up): the command to run. None otherwise.
    Raises nothing."""
    try:
        if _local_tip(store) is not None or tracking_memory(store):
            return None
    except GitmemError:
        return None
    from gitmem.store.refspecs import has_fetch_refspec, usable_remotes  # a clone with none

    team = store.head_blob(".gitmem/allowed_signers") is not None
    for remote in usable_remotes(store):
        if not has_fetch_refspec(store, remote):
            if team:
                return (
                    f"{remote}'s memory (refs/gitmem/*) was never fetched here: run "
                    f"`gitmem init` (git fetch then brings it), then `git fetch {remote}`"
                )
        else:
            return f"nothing fetched from {remote} yet: run `git fetch {remote}`"
    return None
