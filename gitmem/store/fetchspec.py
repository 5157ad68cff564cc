"""git's fetch of a remote's memory into its tracking refs: the refspec, and git started
on a directory. Loads no libgit2, so that ``gitmem sync`` can start the fetch before it
opens the repository (:mod:`gitmem.team.prefetch`)."""

from __future__ import annotations

from pathlib import Path

from gitmem.store.git import RunningGit, start_git_in
from gitmem.store.gitfiles import REFS_PREFIX
from gitmem.store.watermarks import tracking_prefix


def fetch_refspec(remote: str) -> str:
    """The refspec that fetches *remote*'s ``refs/gitmem/*`` to its tracking refs."""
    return f"+{REFS_PREFIX}*:{tracking_prefix(remote)}*"


def start_fetch_in(directory: Path, remote: str) -> RunningGit:
    """``git fetch`` of *remote*'s ``refs/gitmem/*`` into its tracking refs (a mirror:
    forced, pruned; no tags, no FETCH_HEAD, no submodules), started on the repository
    at *directory* (see :func:`~gitmem.store.git.start_git_in`); its result is read when
    the caller finishes it.

    Raises:
        GitError: git could not run.
    """
    return start_git_in(
        directory,
        "fetch",
        "--quiet",
        "--no-tags",
        "--no-write-fetch-head",
        "--no-recurse-submodules",
        "--prune",
        remote,
        fetch_refspec(remote),
    )
