"""The one place gitmem runs the git command itself (fetch, push, config, gc): everything
else reads and writes objects through pygit2."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from gitmem.core.errors import GitError

if TYPE_CHECKING:  # this module loads no libgit2: a sync starts its fetch before that
    from gitmem.store.repo import Store

BOUNDED = {
    "core.deltaBaseCacheLimit": "16m",
    "core.packedGitWindowSize": "4m",
    "core.packedGitLimit": "64m",
}
"""What a git that walks the memory's whole history holds of the object database: git
keeps up to 96 MB of delta bases, and maps a pack into memory in windows of 1 GB, every
page it touched counted as its own (``git log --raw`` of 50,000 checkpoints, the
append-only check of ``gitmem verify``, peaked at 268 MB; bounded, 97 MB and no slower).
The bounds :mod:`gitmem.store.repo` sets for libgit2, for git."""


def run_git(
    store: Store, *args: str, timeout: float = 600, bounded: bool = False
) -> subprocess.CompletedProcess[str]:
    """Run git on the store's repository (never prompting), with :data:`BOUNDED` memory
    when *bounded*; the caller reads the result.

    Raises:
        GitError: git is not installed or did not finish in time.
    """
    return start_git(store, *args, bounded=bounded).finish(timeout)


class RunningGit:
    """git started on the store's repository, its output read when :meth:`finish` is
    called: what this process does meanwhile runs beside it."""

    def __init__(self, process: subprocess.Popen[str], args: tuple[str, ...]) -> None:
        self._process, self._args = process, args
        self._done = False

    def finish(self, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        """Wait for git and read what it said (the caller reads the result).

        Raises:
            GitError: git did not finish in time.
        """
        try:
            out, err = self._process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired as e:
            self.stop()
            raise GitError(f"git {self._args[0]} could not run: {e}") from e
        self._done = True
        return subprocess.CompletedProcess(self._process.args, self._process.returncode, out, err)

    def stop(self) -> None:
        """Stop git if it still runs, and reap it (nothing once it finished). Raises
        nothing."""
        if self._done:
            return
        self._done = True
        if self._process.poll() is None:
            self._process.kill()
        self._process.communicate()


def start_git(store: Store, *args: str, bounded: bool = False) -> RunningGit:
    """Start git on the store's repository (never prompting), with :data:`BOUNDED`
    memory when *bounded*.

    Raises:
        GitError: git is not installed.
    """
    return start_git_in(git_top(store), *args, bounded=bounded)


def git_top(store: Store) -> Path:
    """Where git runs on the store's repository: the top of its work tree, as git itself
    runs (relative remote URLs, ``../remote.git``, resolve from there), or its git
    directory when it has none."""
    return Path(store.repo.workdir or store.common_dir)


def start_git_in(directory: Path, *args: str, bounded: bool = False) -> RunningGit:
    """:func:`start_git` on the repository at *directory* (the top of its work tree, or
    its git directory when it has none), before any :class:`Store` of it is opened.

    Raises:
        GitError: git is not installed.
    """
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0"}
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        env.pop(name, None)
    if bounded:  # settings given in the environment, after any the caller's gives there
        given = env.get("GIT_CONFIG_COUNT", "0")
        count = int(given) if given.isdigit() else 0
        for n, (key, value) in enumerate(BOUNDED.items(), count):
            env[f"GIT_CONFIG_KEY_{n}"], env[f"GIT_CONFIG_VALUE_{n}"] = key, value
        env["GIT_CONFIG_COUNT"] = str(count + len(BOUNDED))
    try:
        process = subprocess.Popen(
            ["git", "-C", str(directory), *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            # What git prints may hold bytes a push put there that are not UTF-8 (a path,
            # an author): read as pygit2 reads names, each such byte a lone surrogate, never
            # a UnicodeDecodeError (every reader of that memory exited 70).
            errors="surrogateescape",
            env=env,
        )
    except OSError as e:
        raise GitError(f"git {args[0]} could not run: {e}") from e
    return RunningGit(process, args)


def make_tree(git_dir: Path, listing: bytes) -> str:
    """``git mktree -z`` of *listing* in the repository at *git_dir*: the id of the tree.
    Names go as bytes (pygit2 writes only names that are UTF-8).

    Raises:
        GitError: git could not run or refused the listing.
    """
    try:
        done = subprocess.run(
            ["git", "--git-dir", str(git_dir), "mktree", "-z"],
            input=listing,
            capture_output=True,
            check=False,
            timeout=600,
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        raise GitError(f"git mktree could not run: {e}") from e
    if done.returncode != 0:
        raise GitError(f"git mktree: {last_line(done.stderr.decode('utf-8', 'replace'))}")
    return done.stdout.decode("ascii", "replace").strip()


def last_line(text: str) -> str:
    """git's own sentence from its stderr: the first ``fatal:``/``error:`` line, else
    the last line."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for line in lines:
        for prefix in ("fatal: ", "error: "):
            if line.startswith(prefix):
                return line.removeprefix(prefix)
    return lines[-1] if lines else "no message"
