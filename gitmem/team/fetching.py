"""A sync's fetch, started first: under the sync lock, before gitmem loads what checks what
comes (the checking modules, the trust roots, the author's key config), so git's fetch —
the network's time, and git's own connectivity walk of the tree the clone already holds,
which grows with it (~60 ms of CPU at 10,000 checkpoints, git's, not gitmem's) — runs
beside that instead of after it.

This module imports nothing of the checking: ``gitmem sync`` starts the fetch here, then
imports :mod:`gitmem.team.sync`, which finishes it (:meth:`Fetching.result`).
"""

from __future__ import annotations

import subprocess
from types import TracebackType

import pygit2

from gitmem.core.errors import InputError
from gitmem.store.git import git_top
from gitmem.store.refspecs import fetch_memory
from gitmem.store.repo import Store
from gitmem.store.watermarks import tracking_prefix
from gitmem.team.prefetch import Started


def check_remote(store: Store, remote: str) -> None:
    """Raises InputError unless *remote* is a configured remote with a usable name."""
    if remote not in store.repo.remotes.names():
        raise InputError(f"no remote named {remote!r} (see `git remote -v`)")
    if not pygit2.reference_is_valid_name(tracking_prefix(remote) + "memory"):
        raise InputError(f"remote name {remote!r} cannot name a ref namespace")


class Fetching:
    """The sync lock held and *remote*'s memory being fetched (a context manager: on
    leaving, git is stopped if it still runs, and the lock let go). One sync per clone
    at a time, as ever: the lock is taken before git starts. The fetch *early* started
    before the store was open (:mod:`gitmem.team.prefetch`) is taken over, lock and all,
    when it is this one; else it is stopped first.

    Raises:
        InputError: no such remote.
        UnwritableError: the lock cannot be made.
        GitError: git could not run.
    """

    def __init__(self, store: Store, remote: str, early: Started | None = None) -> None:
        self._store, self._remote = store, remote
        if early is not None:
            top, common = git_top(store).resolve(), store.common_dir.resolve()
            if not early.fits(common, top, remote):
                early.stop()
                early = None
        try:
            check_remote(store, remote)
        except BaseException:
            if early is not None:
                early.stop()
            raise
        self._started = early or Started(store.common_dir, git_top(store), remote)

    def result(self) -> subprocess.CompletedProcess[str]:
        """The fetch started first, once it ended; every later call fetches again (a
        sync that lost a push race).

        Raises:
            GitError: git could not run, or did not finish in time.
        """
        running = self._started.first()
        if running is not None:
            return running.finish()
        return fetch_memory(self._store, self._remote)

    def __enter__(self) -> Fetching:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._started.stop()
