"""A sync's fetch started before gitmem opens the repository: from the repository's own
files, before libgit2 is loaded.

``gitmem sync`` spends ~40 ms loading libgit2 and the store before it can start git's
fetch, and git's fetch is the part of a sync that grows with what the clone holds (its
connectivity walk reads every folder of the tree it already has: ~100 ms at 10,000
checkpoints) and with the network. So when the repository's files say plainly where its
git directory is and that the remote is configured there
(:func:`~gitmem.store.gitfiles.find_git_dirs`, :func:`~gitmem.store.gitfiles.names_remote`),
the sync lock is taken and the fetch started here, first; :class:`~gitmem.team.fetching.Fetching`
then takes both over once the store is open and the remote checked as before, or stops
git and lets the lock go when the store it opened is not the one started on. When the
files do not say it plainly, nothing starts here, and the sync goes on as ever.

Loads no libgit2 and none of the checking (a test holds that).
"""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from types import TracebackType

from gitmem.core.errors import GitmemError
from gitmem.store.fetchspec import start_fetch_in
from gitmem.store.files import locked
from gitmem.store.git import RunningGit
from gitmem.store.gitfiles import find_git_dirs, names_remote
from gitmem.store.watermarks import SYNC_LOCK


class Started:
    """The sync lock of a clone held, and *remote*'s memory being fetched into it, git
    run at *top* (a context manager: on leaving, git is stopped if it still runs and the
    lock let go; :class:`~gitmem.team.fetching.Fetching` holds one for the whole sync).

    Raises:
        UnwritableError: the lock cannot be made.
        GitError: git could not run.
    """

    def __init__(self, common_dir: Path, top: Path, remote: str) -> None:
        self.common_dir, self.top, self.remote = common_dir, top, remote
        self._held = ExitStack()
        self._held.enter_context(locked(common_dir / "gitmem", SYNC_LOCK))
        self._running: RunningGit | None = None
        try:
            self._running = start_fetch_in(top, remote)
        except BaseException:
            self._held.close()
            raise

    def fits(self, common_dir: Path, top: Path, remote: str) -> bool:
        """Whether this is the fetch a sync of *remote* would start on the repository
        whose git directory is *common_dir*, git run at *top*."""
        return (self.remote, self.top, self.common_dir) == (remote, top, common_dir)

    def first(self) -> RunningGit | None:
        """The fetch started with the lock, the first time it is asked for (its caller
        finishes it); None after that."""
        running, self._running = self._running, None
        return running

    def __enter__(self) -> Started:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()

    def stop(self) -> None:
        """Stop git, if it still runs here, and let the lock go (once: again, nothing).
        Raises nothing."""
        running, self._running = self._running, None
        try:
            if running is not None:
                running.stop()
        finally:
            self._held.close()


def start_early(start: str | Path, remote: str) -> Started | None:
    """The fetch of *remote*'s memory started, under the sync lock, for the repository
    holding *start*, when its files say plainly where its git directory is and that it
    configures *remote*; None otherwise, or when the lock or git cannot be had (the sync
    then takes them as ever and says what is wrong). Raises nothing."""
    try:
        dirs = find_git_dirs(start)
        if dirs is None or not names_remote(dirs.common_dir, remote):
            return None
        return Started(dirs.common_dir.resolve(), dirs.work_tree, remote)
    except (OSError, GitmemError):
        return None
