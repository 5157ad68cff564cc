"""Wire gitmem into agent hosts: the briefing at session start, a capture when work stops,
and (``--prompt-recall``) recall hits for each prompt.

=========  ==========================================  ==============  ===============
host       file, per scope                             session start   capture
=========  ==========================================  ==============  ===============
claude     project ``.claude/settings.json``,          ``SessionStart``  ``SessionEnd``
           local ``.claude/settings.local.json``,
           user ``~/.claude/settings.json``
codex      project ``.codex/hooks.json``,              ``SessionStart``  ``Stop`` (every
           user ``~/.codex/hooks.json``                                  turn)
=========  ==========================================  ==============  ===============

Both hosts read the same hook shape, ``{"hooks": {EVENT: [{"matcher"?: …, "hooks":
[{"type": "command", "command": …, "timeout": …}]}]}}``, run the command through a
shell with the event as JSON on stdin, and add a session-start (or prompt-submit) hook's
plain stdout to the model's context. Codex has no session-end event: ``Stop`` fires when
a turn ends, so the capture runs once per turn (see docs/hooks.md for the limits of each
host). A user-scope hook runs in every folder, so its brief is ``brief --from-hook
AGENT``, which prints nothing outside a repository.

We only ever touch handlers whose command is ours (:mod:`gitmem.agents.host_files`);
everything else in the file is kept as it was, and a file that is not valid JSON (or a
Codex ``config.toml`` that is not valid TOML) is refused and left untouched.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gitmem.agents.host_files import (
    HOOK_TIMEOUT,
    Handler,
    groups_of,
    hooks_table,
    is_gitmem_command,
    load_json,
    load_toml,
    with_ours,
    without_ours,
    write_json,
)
from gitmem.core.errors import InputError
from gitmem.hooks.install import default_command

__all__ = [
    "AGENTS",
    "DEFAULT_SCOPE",
    "HOOK_TIMEOUT",
    "SCOPES",
    "Installed",
    "ScopeState",
    "agent_status",
    "hook_command",
    "install_agent",
    "install_host",
    "scope_states",
    "settings_path",
    "uninstall_agent",
    "uninstall_host",
]

AGENTS = ("claude", "codex")
SCOPES = ("project", "local", "user")
DEFAULT_SCOPE = {"claude": "local", "codex": "user"}
"""Where ``hooks install --agent`` writes unless told: a file only you use (the committed
project file would give every teammate without gitmem a hook error in every session)."""
_SCOPES_OF = {"claude": SCOPES, "codex": ("project", "user")}
_CAPTURE_EVENT = {"claude": "SessionEnd", "codex": "Stop"}
PROMPT_EVENT = "UserPromptSubmit"


@dataclass(frozen=True)
class Installed:
    """What ``hooks install --agent`` did: the file, whether it changed, the command it
    wrote and why that one, and what the user has to do next in the host."""

    agent: str
    scope: str
    path: Path
    changed: bool
    command: str
    command_source: str
    """``path``: the ``gitmem`` on PATH is this installation; ``interpreter``: it is not
    (or there is none), so this Python with ``-m gitmem``; ``given``: the caller's."""
    reason: str
    next_steps: tuple[str, ...]
    warnings: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "scope": self.scope,
            "file": str(self.path),
            "changed": self.changed,
            "command": self.command,
            "command_source": self.command_source,
            "reason": self.reason,
            "next_steps": list(self.next_steps),
            "warnings": list(self.warnings),
        }


@dataclass(frozen=True)
class ScopeState:
    """One scope's hook file for one agent, as found."""

    scope: str
    path: Path
    commands: dict[str, str] = field(default_factory=dict)
    """Event → the command of our handler there."""
    complete: bool = False
    """Every session handler (start and capture) is there."""
    error: str | None = None


def settings_path(agent: str, scope: str, repo: Path, home: Path | None = None) -> Path:
    """The hook file of *agent* for *scope*.

    Raises:
        InputError: an unknown agent or scope, or a scope the host does not have.
    """
    _check(agent)
    if scope not in SCOPES:
        raise InputError(f"unknown scope {scope!r}; gitmem knows {', '.join(SCOPES)}")
    if scope not in _SCOPES_OF[agent]:
        raise InputError(
            f"{agent} has no {scope} hook file: use --scope user (~/.codex/hooks.json, "
            "only you) or --scope project (.codex/hooks.json, committed)"
        )
    if agent == "claude":
        return {
            "project": repo / ".claude" / "settings.json",
            "local": repo / ".claude" / "settings.local.json",
            "user": _claude_home(home) / "settings.json",
        }[scope]
    return (
        repo / ".codex" / "hooks.json" if scope == "project" else _codex_home(home) / "hooks.json"
    )


def hook_command() -> tuple[list[str], str, str]:
    """The gitmem command to write into a host's hook file, which kind it is, and why:
    plain ``gitmem`` (``path``) when the one on PATH is this installation, so the file
    also works on a teammate's machine, else this Python with ``-m gitmem``
    (``interpreter``), which works whatever PATH an IDE or GUI launch gives the host."""
    on_path = shutil.which("gitmem")
    here = Path(sys.executable).absolute().parent
    if on_path is not None and Path(on_path).absolute().parent == here:
        return ["gitmem"], "path", f"the gitmem on PATH ({on_path}) is this installation"
    why = (
        "there is no gitmem on PATH"
        if on_path is None
        else f"the gitmem on PATH ({on_path}) is another installation"
    )
    return default_command(), "interpreter", why


def install_host(
    agent: str,
    repo: Path,
    scope: str,
    home: Path | None = None,
    gitmem_command: Sequence[str] | None = None,
    prompt_recall: bool = False,
) -> Installed:
    """Add gitmem's hooks to *agent*'s hook file for *scope*; idempotent (an older gitmem
    handler, another interpreter path, is updated in place, keeping any key the user
    added to it).

    *home* is the user's home folder (default: the host's own variable —
    ``CLAUDE_CONFIG_DIR``, ``CODEX_HOME`` — or ``~``).

    Raises:
        InputError: unknown agent or scope; a settings file that is not valid JSON/TOML
            or not shaped like host settings; hooks turned off in the host's
            configuration (nothing would ever run); a gitmem command that is neither
            ``…/gitmem`` nor ``<python> -m gitmem`` (uninstall could not recognise it).
    """
    path = settings_path(agent, scope, repo, home)
    if gitmem_command is None:
        command, source, reason = hook_command()
    else:
        command, source, reason = list(gitmem_command), "given", "the command given"
    if not is_gitmem_command(command):
        raise InputError(
            f"the gitmem command {shlex.join(command)!r} must be `<path>/gitmem` or "
            "`<python> -m gitmem`, so that uninstall can recognise what it wrote"
        )
    data = load_json(path)
    off = _hooks_turned_off(agent, repo, home)
    if off is not None:
        raise InputError(
            f"{agent} hooks are turned off in {off}; gitmem leaves that choice to you: "
            "turn them on and run again"
        )
    handlers = _handlers(agent, scope)
    if prompt_recall:
        handlers.append(_prompt_handler(agent))
    merged = with_ours(data, handlers, command, path)
    if merged != data:
        write_json(path, merged)
    warnings = (
        (
            f"{path.relative_to(repo)} is usually committed: every teammate needs gitmem "
            f"installed, or their {agent} sessions show a (non-blocking) hook error; "
            f"`--scope {DEFAULT_SCOPE[agent]}` keeps the hooks to yourself",
        )
        if scope == "project"
        else ()
    )
    return Installed(
        agent,
        scope,
        path,
        merged != data,
        shlex.join(command),
        source,
        reason,
        _next_steps(agent, scope),
        warnings,
    )


def uninstall_host(
    agent: str, repo: Path, scopes: Sequence[str], home: Path | None = None
) -> list[Path]:
    """Remove gitmem's handlers (session and prompt) from *agent*'s hook files of
    *scopes*; keep the rest. Groups and events that only held our handlers go too; a
    file left with nothing in it is deleted (and its folder, when empty).

    Returns the files written or deleted (empty when nothing changed).

    Raises:
        InputError: unknown agent or scope; a settings file that is not valid JSON or
            not shaped like host settings (left untouched).
    """
    changed: list[Path] = []
    for scope in scopes:
        path = settings_path(agent, scope, repo, home)
        if not path.exists():
            continue
        data = load_json(path)
        remaining = without_ours(data, [*_handlers(agent, scope), _prompt_handler(agent)], path)
        if remaining == data:
            continue
        if remaining:
            write_json(path, remaining)
        else:
            path.unlink()
            with contextlib.suppress(OSError):  # not empty: other settings live there
                path.parent.rmdir()
        changed.append(path)
    return changed


def install_agent(
    agent: str,
    repo: Path,
    home: Path | None = None,
    gitmem_command: Sequence[str] | None = None,
) -> list[Path]:
    """:func:`install_host` into the project scope; the files written (empty when
    nothing changed). Raises as :func:`install_host`."""
    done = install_host(agent, repo, "project", home, gitmem_command)
    return [done.path] if done.changed else []


def uninstall_agent(agent: str, repo: Path, home: Path | None = None) -> list[Path]:
    """:func:`uninstall_host` of the project scope. Raises as :func:`uninstall_host`."""
    return uninstall_host(agent, repo, ["project"], home)


def scope_states(agent: str, repo: Path, home: Path | None = None) -> list[ScopeState]:
    """Every scope's hook file of *agent* and our handlers in it. Raises InputError for
    an unknown agent only: a broken file is reported in its state."""
    _check(agent)
    states: list[ScopeState] = []
    for scope in _SCOPES_OF[agent]:
        path = settings_path(agent, scope, repo, home)
        if not path.exists():
            states.append(ScopeState(scope, path))
            continue
        try:
            events = hooks_table(load_json(path), path)
            found: dict[str, str] = {}
            for handler in [*_handlers(agent, scope), _prompt_handler(agent)]:
                for group in groups_of(events, handler.event, path):
                    for item in group["hooks"]:
                        if handler.matches(item) and handler.event not in found:
                            found[handler.event] = item["command"]
        except InputError as e:
            states.append(ScopeState(scope, path, error=str(e)))
            continue
        complete = all(h.event in found for h in _handlers(agent, scope))
        states.append(ScopeState(scope, path, found, complete))
    return states


def agent_status(agent: str, repo: Path, home: Path | None = None) -> bool:
    """True when some scope holds every gitmem session handler for *agent* and hooks are
    not turned off.

    Raises:
        InputError: unknown agent; a settings file that is not valid JSON/TOML.
    """
    _check(agent)
    if _hooks_turned_off(agent, repo, home) is not None:
        return False
    for state in scope_states(agent, repo, home):
        if state.error is not None:
            raise InputError(state.error)
        if state.complete:
            return True
    return False


def _handlers(agent: str, scope: str) -> list[Handler]:
    # Every scope reads the event (a compaction gets the short re-brief) and fits the
    # host's budget; a plain `brief` was written by earlier installs.
    start = Handler("SessionStart", ("brief", "--from-hook", agent), (("brief",),))
    return [start, Handler(_CAPTURE_EVENT[agent], ("capture", "--from-hook", agent))]


def _prompt_handler(agent: str) -> Handler:
    return Handler(PROMPT_EVENT, ("recall", "--from-hook", agent))


def _next_steps(agent: str, scope: str) -> tuple[str, ...]:
    if agent == "claude":
        return (
            "Claude Code hooks run only in a trusted workspace: accept the workspace-trust "
            "dialog the first time Claude Code opens this folder.",
            "Claude Code picks up edits to its settings files while it runs; `/hooks` "
            "shows what is configured (read-only). Start a session: it opens with the brief.",
        )
    steps = [
        "Codex runs a new or changed hook only after you review and trust it: open Codex "
        "and run `/hooks`.",
    ]
    if scope == "project":
        steps.append("Codex reads a project's .codex/ folder only once you trust the project.")
    return tuple(steps)


def _check(agent: str) -> None:
    if agent not in AGENTS:
        raise InputError(f"unknown agent {agent!r}; gitmem knows {', '.join(AGENTS)}")


# -- whether the host runs hooks at all ----------------------------------------------


def _hooks_turned_off(agent: str, repo: Path, home: Path | None) -> Path | None:
    """The configuration file whose setting turns *agent*'s hooks off, or None."""
    if agent == "claude":
        # Later layers win: user, then project, then the project's local file.
        layers = [
            _claude_home(home) / "settings.json",
            repo / ".claude" / "settings.json",
            repo / ".claude" / "settings.local.json",
        ]
        verdict: tuple[bool, Path] | None = None
        for path in layers:
            value = load_json(path).get("disableAllHooks")
            if isinstance(value, bool):
                verdict = (value, path)
        return verdict[1] if verdict is not None and verdict[0] else None
    # Codex: `[features] hooks` (older releases: `codex_hooks`, now an alias); the
    # project layer overrides the user's.
    verdict = None
    for path in (_codex_home(home) / "config.toml", repo / ".codex" / "config.toml"):
        features = load_toml(path).get("features")
        if not isinstance(features, dict):
            continue
        for key in ("codex_hooks", "hooks"):  # the canonical key last, so it wins
            value = features.get(key)
            if isinstance(value, bool):
                verdict = (value, path)
    return verdict[1] if verdict is not None and not verdict[0] else None


def _claude_home(home: Path | None) -> Path:
    if home is not None:
        return home / ".claude"
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(configured) if configured else Path.home() / ".claude"


def _codex_home(home: Path | None) -> Path:
    if home is not None:
        return home / ".codex"
    configured = os.environ.get("CODEX_HOME")
    return Path(configured) if configured else Path.home() / ".codex"
