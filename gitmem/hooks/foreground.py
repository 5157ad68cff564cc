"""The pre-push hook's first look: whether nothing at all is to be done, read from a few
files before pygit2 loads.

git waits for the pre-push hook, and on most pushes memory owes nothing: no capture in
flight, every ``refs/gitmem/*`` tip already what the remote held when last fetched, no
``sync_on_push``. :func:`settled` finds that from the refs' files
(:mod:`gitmem.store.gitfiles`), the capture markers and the settings, without loading
pygit2 (the hook's floor). It answers True only when the full decision
(:func:`gitmem.hooks.push.pre_push`) would say nothing and start nothing; whatever it
cannot read for certain, it leaves to that decision. Cheap to import: no pygit2.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path

from gitmem.core.errors import GitmemError
from gitmem.hooks import inflight
from gitmem.store.gitfiles import (
    REFS_PREFIX,
    TRACKING_PREFIX,
    find_git_dirs,
    is_shared_ref,
    names_remote,
    read_refs,
)

GUARD = "GITMEM_IN_PRE_PUSH"
"""Set while the hook runs: a git push started inside it must not run the hook again."""
UNTOLD_FILE = "untold.json"
"""``.git/gitmem/untold.json``: what detached carries said, per remote, until the next
push's foreground says it."""

_pushed: list[str] | None = None


def settled(repo: str, remote: str | None, url: str | None) -> bool:
    """Whether the pre-push hook has nothing to do in the repository at *repo* for a
    push to *remote*: inside gitmem's own push, a push that names memory refs, or
    nothing owed and nothing to say, as read from files. False when the full decision
    must be made. Raises nothing."""
    if os.environ.get(GUARD) or names_memory(pushed_lines()):
        return True
    try:
        return _nothing_owed(repo, remote)
    except Exception:  # anything unexpected: the full decision reads it through pygit2
        return False


def names_memory(lines: list[str]) -> bool:
    """Whether git's pre-push lines push (or delete) a ``refs/gitmem/`` ref. Raises
    nothing."""
    return any(
        len(words) == 4 and words[2].startswith(REFS_PREFIX)
        for words in (line.split() for line in lines)
    )


def pushed_lines() -> list[str]:
    """git's pre-push lines on stdin, read once per process (the first look and the full
    decision both ask). Raises nothing."""
    global _pushed
    if _pushed is None:
        _pushed = _stdin()
    return _pushed


def capture_in_flight(local_dir: Path) -> bool:
    """Whether a post-commit capture is pending or running (its commit's checkpoint must
    go with the push). Raises nothing."""
    now = time.time()
    return any(m.hook == "post-commit" and not m.dead(now) for m in inflight.markers(local_dir))


def _nothing_owed(repo: str, remote: str | None) -> bool:
    """The full decision's steps in its order, each answered from files: False as soon
    as one is owed or unsure."""
    dirs = find_git_dirs(repo)
    if dirs is None or remote is None:
        return False
    local_dir = dirs.common_dir / "gitmem"
    if (local_dir / UNTOLD_FILE).exists() or capture_in_flight(local_dir):
        return False
    there = f"{TRACKING_PREFIX}{remote}/"
    refs = read_refs(dirs.common_dir, (REFS_PREFIX, there))
    if refs is None:
        return False
    mine = {name: tip for name, tip in refs.items() if is_shared_ref(name)}
    if not mine:
        return True  # no memory: nothing to carry
    if not names_remote(dirs.common_dir, remote):
        return False
    if any(refs.get(there + name.removeprefix(REFS_PREFIX)) != tip for name, tip in mine.items()):
        return False
    from gitmem.store.config import load_settings
    from gitmem.store.home import gitmem_home

    with contextlib.suppress(GitmemError):
        return not load_settings(gitmem_home(), local_dir).get("sync_on_push")
    return False


def _stdin() -> list[str]:
    try:
        if sys.stdin is None or sys.stdin.isatty():
            return []
        return sys.stdin.read(1 << 20).splitlines()
    except (OSError, ValueError):
        return []
