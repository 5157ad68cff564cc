"""What the git hooks and agent-host hooks run, detached from the command that fired them.

Every entry point here swallows its own failures: a hook never breaks a git command
and never prints into one. Failures go to the capture log, where ``gitmem status``
shows them.

This module is the hooks' entry: ``gitmem hook NAME ARGS…`` comes here without the
command line's machinery (:func:`gitmem.cli.main`), and imports only the hook it runs.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from pathlib import Path

from gitmem.core.errors import GitmemError
from gitmem.hooks.detach import leave_caller
from gitmem.store.repo import Store

HookAction = Callable[..., None]
"""A hook's work: called with the store and the hook's own arguments."""

HOOKS: dict[str, tuple[str, str, int]] = {
    "post-commit": ("gitmem.hooks.capturing", "post_commit", 1),
    "post-rewrite": ("gitmem.hooks.capturing", "post_rewrite", 2),
    "pre-push": ("gitmem.hooks.push", "pre_push", 2),
    "capture-session": ("gitmem.hooks.capturing", "capture_session", 2),
}
"""Each hook: the module and function doing its work, and how many arguments it takes."""
FOREGROUND = frozenset({"pre-push"})
"""Hooks git waits for (memory must go with the push): they keep the caller's terminal."""


def run_hook(repo: str, name: str, args: Sequence[str]) -> None:
    """Run the hook *name* with git's *args* in the repository at *repo*: leave the
    caller first (none of git's descriptors held, a session of our own), log any
    failure. Raises nothing; an unknown *name* does nothing."""
    if name not in HOOKS:
        return
    if name not in FOREGROUND:
        leave_caller()
    module, function, arity = HOOKS[name]
    padded = (list(args) + [None] * arity)[:arity]
    try:
        try:
            func = getattr(importlib.import_module(module), function)
        except Exception:  # a broken install: a hook still never breaks git
            return
        run_safely(repo, f"{name} {' '.join(args)}".strip(), func, *padded)
    finally:
        if name == "post-rewrite" and len(args) >= 2:
            Path(args[1]).unlink(missing_ok=True)  # git's stdin, saved by the script


def run_safely(repo: str, source: str, func: HookAction, *args: object) -> int:
    """Run a hook action; log any failure; always return 0. Raises nothing."""
    try:
        store = Store.discover(repo)
    except GitmemError:
        return 0
    try:
        func(store, *args)
    except GitmemError as e:
        _log_failure(store, source, str(e))
    except Exception as e:  # a hook must never break the command that fired it
        _log_failure(store, source, f"internal error: {type(e).__name__}: {e}")
    return 0


def _log_failure(store: Store, source: str, error: str) -> None:
    from gitmem.store.capturelog import CaptureLog

    CaptureLog(store.local_dir).write("failed", masked(source), error=masked(error))


def masked(text: str) -> str:
    """*text* with its secrets masked: a path or an error can name one, and the capture
    log must not keep it."""
    from gitmem.capture.masking.documents import mask_label

    return mask_label(text).text
