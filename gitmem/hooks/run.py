"""What the git hooks and agent-host hooks run, detached from the command that fired them.

Every entry point here swallows its own failures: a hook never breaks a git command
and never prints into one. Failures go to the capture log, where ``gitmem status``
shows them.

This module is the hooks' entry: ``gitmem hook NAME ARGS…`` comes here without the
command line's machinery (:func:`gitmem.cli.main`), and imports only the hook it runs.
Started by a script that queued its line (``GITMEM_QUEUED``), it first tries the
queue's worker lock (:mod:`gitmem.hooks.queue`) and leaves at once when another worker
holds it, before importing anything slow.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from gitmem.core.errors import GitmemError
from gitmem.hooks.detach import leave_caller
from gitmem.hooks.queue import QUEUED_ENV, hold_early

if TYPE_CHECKING:
    from gitmem.store.repo import Store

HookAction = Callable[..., None]
"""A hook's work: called with the store and the hook's own arguments."""

HOOKS: dict[str, tuple[str, str, int]] = {
    "post-commit": ("gitmem.hooks.worker", "post_commit", 1),
    "post-rewrite": ("gitmem.hooks.worker", "post_rewrite", 2),
    "pre-push": ("gitmem.hooks.push", "pre_push", 2),
    "push-memory": ("gitmem.hooks.push", "push_memory", 2),
    "capture-session": ("gitmem.hooks.worker", "capture_session", 2),
    "index": ("gitmem.hooks.indexing", "build_index", 0),
}
"""Each hook: the module and function doing its work, and how many arguments it takes."""
FOREGROUND = frozenset({"pre-push"})
"""Hooks git waits for (memory must go with the push): they keep the caller's terminal."""
FIRST_LOOK: dict[str, tuple[str, str]] = {"pre-push": ("gitmem.hooks.foreground", "settled")}
"""Hooks that may find from a few files, before the store opens (pygit2 is most of a
hook's start), that there is nothing to do: called with the repository's path and the
hook's arguments, True to stop there."""


def run_hook(repo: str, name: str, args: Sequence[str]) -> None:
    """Run the hook *name* with git's *args* in the repository at *repo*: leave the
    caller first (none of git's descriptors held, a session of our own), log any
    failure. Raises nothing; an unknown *name* does nothing."""
    if name not in HOOKS:
        return
    if name not in FOREGROUND:
        leave_caller()
    queued = os.environ.get(QUEUED_ENV)
    if queued and not hold_early(Path(queued).absolute()):
        return  # the script queued this run's line, and the running worker takes it
    module, function, arity = HOOKS[name]
    padded = (list(args) + [None] * arity)[:arity]
    if name in FIRST_LOOK and _settled(repo, name, padded):
        return
    try:
        func = getattr(importlib.import_module(module), function)
    except Exception:  # a broken install: a hook still never breaks git
        return
    run_safely(repo, f"{name} {' '.join(args)}".strip(), func, *padded)


def _settled(repo: str, name: str, args: list[str | None]) -> bool:
    """The hook's first look (:data:`FIRST_LOOK`). Raises nothing: a broken install
    leaves the decision to the hook itself."""
    module, function = FIRST_LOOK[name]
    try:
        return bool(getattr(importlib.import_module(module), function)(repo, *args))
    except Exception:
        return False


def run_safely(repo: str, source: str, func: HookAction, *args: object) -> int:
    """Run a hook action in the repository at *repo*; log any failure; always return 0.
    Raises nothing."""
    from gitmem.store.repo import Store  # after the early lock: the import takes time

    try:
        store = Store.discover(repo)
    except GitmemError:
        return 0
    run_logged(store, source, func, *args)
    return 0


def run_logged(store: Store, source: str, func: HookAction, *args: object) -> None:
    """Run a hook action on *store*; log any failure. Raises nothing."""
    try:
        func(store, *args)
    except GitmemError as e:
        _log_failure(store, source, str(e))
    except Exception as e:  # a hook must never break the command that fired it
        _log_failure(store, source, f"internal error: {type(e).__name__}: {e}")


def _log_failure(store: Store, source: str, error: str) -> None:
    from gitmem.store.capturelog import CaptureLog

    CaptureLog(store.local_dir).write("failed", masked(source), error=masked(error))


def masked(text: str) -> str:
    """*text* with its secrets masked: a path or an error can name one, and the capture
    log must not keep it."""
    from gitmem.capture.masking.labels import mask_label

    return mask_label(text).text
