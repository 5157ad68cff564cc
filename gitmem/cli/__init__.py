"""The command line: each command parses, calls one function, prints.

Errors: every :class:`~gitmem.core.errors.GitmemError` becomes one line on stderr and its
exit code (2 bad input, 3 integrity failure, 1 other negatives); anything else is a bug
and exits 70. A traceback is printed only with ``--verbose``. Commands live in one module
per family (:mod:`gitmem.cli.app` assembles them).

What runs on every commit, agent session and prompt skips all of that: ``gitmem
--version``, the git hooks' ``gitmem hook NAME …``, the agent hosts' ``gitmem capture
--from-hook AGENT``, ``gitmem brief --from-hook AGENT`` and ``gitmem recall --from-hook
AGENT``, and a plain ``gitmem brief`` or ``gitmem recall TERM…`` (no option) are
recognised here first and import only what they run (no click, no command families);
they fail as the command line does (:mod:`gitmem.cli.failures`). With ``GITMEM_SKIP`` set
(any value but empty or ``0``) every hook entry among them does nothing: the git hooks'
and the agent hosts' (``--from-hook``) — as in a host CLI gitmem runs to extract, whose
session must never brief, recall or capture through gitmem again.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from collections.abc import Callable

__all__ = ["main"]

_HOOK_NAMES = frozenset(
    {"post-commit", "post-rewrite", "pre-push", "push-memory", "capture-session", "index"}
)
_AGENTS = frozenset({"claude", "codex", "copilot", "gemini"})
"""The agent hosts (:data:`gitmem.brief.budget.HOSTS`; a test holds them equal)."""

YOUNG_COLLECTION_THRESHOLD = 50_000
"""Allocations between two collections of the youngest generation (Python's default is
700): a command's imports alone made ~40 collections that freed nothing (~5 ms of a warm
brief's ~150). Cycles are still collected, only less often."""


def main(argv: list[str] | None = None) -> None:
    """Console entry point (always exits). Run as the process's own command (no *argv*),
    it leaves the interpreter without a last collection (:func:`leaving`)."""
    args = sys.argv[1:] if argv is None else list(argv)
    gc.set_threshold(YOUNG_COLLECTION_THRESHOLD, *gc.get_threshold()[1:])
    _standard_streams()
    try:
        fast = fast_path(args)
        if fast is not None:
            fast()
            sys.exit(0)
        from gitmem.cli.app import run

        run(args)
    finally:
        if argv is None:
            leaving()


def _standard_streams() -> None:
    """A standard output or error the caller closed (Python then has None for it) is
    written to as ``/dev/null``: what a command says there is lost, not its exit code (a
    failure's one line went to None, and the command ended in 1 whatever it was).
    Raises nothing."""
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            with contextlib.suppress(OSError):
                setattr(sys, name, open(os.devnull, "w"))  # noqa: SIM115  (the process's)


def leaving() -> None:
    """On the way out of the process, no collection of cycles: the interpreter's last
    one walks every object the command's imports made, ~14 ms of a warm brief's ~145 of
    CPU, and nothing it could free matters once the process ends (its memory goes back
    whole). The objects are frozen out of the collector's sight; atexit handlers still run
    and every object is still released as the modules are torn down. Raises nothing."""
    gc.disable()
    gc.freeze()


def fast_path(args: list[str]) -> Callable[[], None] | None:
    """What to run for *args* without the command line's machinery, or None when they
    are not one of the fast forms (only exact forms: anything else, including every
    mistake, goes to the full command line and its messages). Raises nothing."""
    repo, rest, verbose = ".", args, False
    while (rest[:1] == ["-C"] and len(rest) >= 2) or rest[:1] == ["--verbose"]:
        if rest[0] == "-C":
            repo, rest = rest[1], rest[2:]
        else:
            rest, verbose = rest[1:], True
    if rest == ["--version"]:
        return _print_version
    hooked = (len(rest) >= 2 and rest[0] == "hook" and rest[1] in _HOOK_NAMES) or (
        len(rest) == 3 and rest[1] == "--from-hook" and rest[2] in _AGENTS
    )
    if hooked and os.environ.get("GITMEM_SKIP", "") not in ("", "0"):
        return _nothing
    if len(rest) >= 2 and rest[0] == "hook" and rest[1] in _HOOK_NAMES:
        name, hook_args = rest[1], rest[2:]

        def hook() -> None:
            from gitmem.hooks.run import run_hook

            run_hook(repo, name, hook_args)

        return hook
    if len(rest) == 3 and rest[:2] == ["capture", "--from-hook"] and rest[2] in _AGENTS:
        agent = rest[2]

        def from_hook() -> None:
            from gitmem.agents.host_event import dispatch

            dispatch(agent, repo, sys.stdin.read())

        return from_hook
    context = len(rest) == 3 and rest[0] in ("brief", "recall") and rest[1] == "--from-hook"
    if context and rest[2] in _AGENTS:
        return _context_hook(rest[0], rest[2], repo)
    if len(rest) == 3 and rest[:2] == ["brief", "--host"] and rest[2] in _AGENTS:
        return _plain("brief", (), repo, verbose, host=rest[2])
    if rest == ["brief"] or (
        rest[:1] == ["recall"] and len(rest) >= 2 and not any(a.startswith("-") for a in rest)
    ):
        return _plain(rest[0], tuple(rest[1:]), repo, verbose)
    return None


RECALL_LIMIT = 10
"""How many items ``gitmem recall`` shows unless ``--limit`` says otherwise."""


def _plain(
    command: str, terms: tuple[str, ...], repo: str, verbose: bool, host: str | None = None
) -> Callable[[], None]:
    """``gitmem brief`` (``--host HOST``) and ``gitmem recall TERM…`` with no option, as
    session starts and many prompts run them: the same functions the click commands
    call, and the same one line and exit code when they fail
    (:mod:`gitmem.cli.failures`)."""

    def plain() -> None:
        if sys.stdout.isatty():  # a person at a terminal: the full command line pages it
            from gitmem.cli.app import run

            host_args = ["--host", host] if host is not None else []
            run(["-C", repo, *(["--verbose"] if verbose else []), command, *host_args, *terms])
        from gitmem.cli.failures import fail
        from gitmem.store.home import gitmem_home
        from gitmem.store.repo import Store

        try:
            store = Store.discover(repo)
            if command == "brief":
                from gitmem.brief.budget import host_budget
                from gitmem.brief.emit import emit_brief

                budget = None if host is None else host_budget(host)
                text = emit_brief(store, gitmem_home(), "text", budget, as_of=None)
            else:
                from gitmem.agents.recall.render import emit_recall

                text = emit_recall(store, gitmem_home(), list(terms), RECALL_LIMIT, False, None)
        except Exception as e:  # every failure ends as the command line ends it
            fail(e, verbose)
        sys.stdout.write(text)
        sys.stdout.flush()

    return plain


def _context_hook(command: str, agent: str, repo: str) -> Callable[[], None]:
    """A host hook that prints context: the session-start brief, or a prompt's recall."""

    def context() -> None:
        from gitmem.agents.host_context import hook_brief, prompt_recall, read_event
        from gitmem.store.home import gitmem_home

        if command == "brief":
            text = hook_brief(agent, repo, gitmem_home(), read_event())
        else:
            text = prompt_recall(agent, repo, gitmem_home(), sys.stdin.read())
        sys.stdout.write(text)
        sys.stdout.flush()

    return context


def _nothing() -> None:
    """A hook entry under ``GITMEM_SKIP``."""


def _print_version() -> None:
    from gitmem import __version__

    print(f"gitmem, version {__version__}")
