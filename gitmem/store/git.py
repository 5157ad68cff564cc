"""The one place gitmem runs the git command itself (fetch, push, config, gc): everything
else reads and writes objects through pygit2."""

from __future__ import annotations

import os
import subprocess

from gitmem.core.errors import GitError
from gitmem.store.repo import Store


def run_git(store: Store, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run git on the store's repository (never prompting); the caller reads the result.

    Raises:
        GitError: git is not installed or did not finish in time.
    """
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0"}
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"):
        env.pop(name, None)
    try:
        return subprocess.run(
            # From the top of the work tree, as git itself runs: relative remote URLs
            # (`../remote.git`) resolve from there.
            ["git", "-C", str(store.repo.workdir or store.common_dir), *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=timeout,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        raise GitError(f"git {args[0]} could not run: {e}") from e


def last_line(text: str) -> str:
    """git's own sentence from its stderr: the first ``fatal:``/``error:`` line, else
    the last line."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for line in lines:
        for prefix in ("fatal: ", "error: "):
            if line.startswith(prefix):
                return line.removeprefix(prefix)
    return lines[-1] if lines else "no message"
