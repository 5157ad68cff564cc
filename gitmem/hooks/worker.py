"""One background capture per repository at a time: the hooks queue their work, and
one worker drains the queue in order.

``gitmem hook post-commit|post-rewrite|capture-session …`` append their line to the
queue (:mod:`gitmem.hooks.queue`; the ``sh`` scripts append it themselves and say so
in ``GITMEM_QUEUED``), then drain it unless a worker already runs: the worker holds
the queue's lock for as long as it drains, and sees every line appended meanwhile.
After it lets the lock go it looks once more, so a line appended in between is never
left behind: either it sees it, or the hook that appended it found the lock free and
started a worker itself.

The worker takes every line there is, claims the in-flight marker of each commit it
took (:mod:`gitmem.hooks.inflight`: killed, it leaves them for the next capture to
recover), and runs them in order. Consecutive commits of one rebase or ``git am``
(:data:`queue.NO_SERIES` aside, the same series and worktree) become one capture
(:func:`gitmem.hooks.capturing.capture_commits`), which still names every commit by a
checkpoint; while such a series is the last thing queued, the worker waits up to
:data:`SERIES_QUIET` seconds for its next commit. Each failure goes to the capture log
and never stops the lines after it.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from gitmem.core.errors import GitmemError
from gitmem.hooks import capturing, inflight, queue
from gitmem.hooks.queue import NO_SERIES, QUEUED_ENV, QueuedHook
from gitmem.hooks.run import run_logged
from gitmem.store.repo import Store

INPUT_DIR = "hook-input"
"""Where the post-rewrite script saves git's stdin (under ``.git/gitmem/``)."""
SERIES_QUIET = 0.5
"""Seconds without a new commit after which a rebase's commits queued so far are run."""
SERIES_WAIT = 30.0
"""Seconds a rebase's commits are held back at most, however fast new ones come."""
_POLL = 0.05


def post_commit(store: Store, sha: str) -> None:
    """``gitmem hook post-commit SHA``: queue the commit (unless the script did), then
    drain the queue unless a worker runs."""
    if not _queued_by_script():
        queue.append(store.local_dir, QueuedHook("post-commit", (series(store), sha), _tree(store)))
    drain(store)


def post_rewrite(store: Store, how: str, pairs_file: str) -> None:
    """``gitmem hook post-rewrite HOW FILE``: queue the rewrite (unless the script did;
    a *pairs_file* outside ``hook-input/`` is moved there first), then drain."""
    if not _queued_by_script():
        name = _into_input_dir(store.local_dir, Path(pairs_file))
        queue.append(store.local_dir, QueuedHook("post-rewrite", (how, name), _tree(store)))
    drain(store)


def capture_session(store: Store, path: str, session: str | None) -> None:
    """``gitmem hook capture-session PATH [SESSION]`` (an agent host's session ended):
    queue its capture, then drain."""
    fields = (session or NO_SERIES, str(Path(path).absolute()))
    queue.append(store.local_dir, QueuedHook("capture-session", fields, _tree(store)))
    drain(store)


def drain(store: Store) -> None:
    """Run every queued line, in order, unless another worker runs (then it will).
    Raises only what opening the lock raises: each line's failure is logged."""
    os.environ.pop(QUEUED_ENV, None)  # not for the git and model commands run below
    local = store.local_dir
    while True:
        with queue.worker_lock(local) as held:
            if not held:
                return
            while entries := _collect(local):
                for batch in batches(entries):
                    _run(store, batch)
        if not queue.pending(local):
            return  # else appended between our last look and the release: go again


def series(store: Store) -> str:
    """The series a commit made now belongs to: ``rebase`` while a rebase runs in this
    worktree, ``am`` while ``git am`` (or an apply-style rebase) does, else ``-``.
    Raises nothing."""
    gitdir = Path(store.repo.path)
    if (gitdir / "rebase-merge").is_dir():
        return "rebase"
    if (gitdir / "rebase-apply").is_dir():
        return "am"
    return NO_SERIES


def batches(entries: Sequence[QueuedHook]) -> list[list[QueuedHook]]:
    """*entries* in order, consecutive commits of one series (same series and worktree)
    together; every other line alone."""
    grouped: list[list[QueuedHook]] = []
    for entry in entries:
        if grouped and _joins(grouped[-1][-1], entry):
            grouped[-1].append(entry)
        else:
            grouped.append([entry])
    return grouped


def _joins(before: QueuedHook, entry: QueuedHook) -> bool:
    return (
        before.hook == entry.hook == "post-commit"
        and entry.fields[0] != NO_SERIES
        and before.fields[0] == entry.fields[0]
        and before.worktree == entry.worktree
    )


def _collect(local: Path) -> list[QueuedHook]:
    """Take what is queued, claiming each commit's marker; while a series is the last
    thing taken, keep taking until it has been quiet for :data:`SERIES_QUIET` seconds.
    Raises nothing."""
    taken: list[QueuedHook] = []
    began = quiet_since = time.monotonic()
    while True:
        entries, offset = queue.take(local)
        for entry in entries:
            if entry.hook == "post-commit":
                inflight.start(local, capturing.POST_COMMIT, entry.fields[1])
        queue.taken(local, offset)
        now = time.monotonic()
        if entries:
            taken += entries
            quiet_since = now
        if not taken or taken[-1].hook != "post-commit" or taken[-1].fields[0] == NO_SERIES:
            return taken
        if now - quiet_since >= SERIES_QUIET or now - began >= SERIES_WAIT:
            return taken
        time.sleep(_POLL)


def _run(store: Store, batch: list[QueuedHook]) -> None:
    """Run one batch under the hook lock (the capture functions take it); log any
    failure. Raises nothing."""
    first = batch[0]
    target = _store_for(first.worktree, store)
    if first.hook == "post-commit":
        shas = [e.fields[1] for e in batch]
        source = f"post-commit {' '.join(s[:12] for s in shas)}"
        try:
            run_logged(target, source, capturing.capture_commits, shas)
        finally:
            for sha in shas:
                inflight.finish(inflight.marker_path(store.local_dir, capturing.POST_COMMIT, sha))
    elif first.hook == "post-rewrite":
        how, name = first.fields
        pairs = store.local_dir / INPUT_DIR / Path(name).name
        try:
            run_logged(target, f"post-rewrite {how}", capturing.post_rewrite, how, str(pairs))
        finally:
            pairs.unlink(missing_ok=True)
    else:
        session, path = first.fields
        who = None if session == NO_SERIES else session
        run_logged(target, f"capture-session {path}", capturing.capture_session, path, who)


def _store_for(worktree: str, store: Store) -> Store:
    """The store seen from *worktree* (its branch, its transcripts), when it is a
    worktree of this repository; else *store*. Raises nothing."""
    try:
        found = Store.discover(worktree)
    except GitmemError:
        return store
    return found if found.common_dir == store.common_dir else store


def _tree(store: Store) -> str:
    return str(Path(store.repo.workdir or store.common_dir).resolve())


def _queued_by_script() -> bool:
    return bool(os.environ.get(QUEUED_ENV))


def _into_input_dir(local: Path, path: Path) -> str:
    """The name under ``hook-input/`` of the file *path*: moved there when it is
    elsewhere (the hook consumes the file it is handed, as it always did).

    Raises:
        OSError: it cannot be read or moved.
    """
    folder = local / INPUT_DIR
    if path.parent.resolve() == folder.resolve():
        return path.name
    folder.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix="post-rewrite.", dir=folder)
    with os.fdopen(fd, "wb") as handle:
        handle.write(path.read_bytes())
    path.unlink()
    return Path(name).name
