"""Wire gitmem into agent hosts: the briefing at session start, a capture when work stops
(and before a compaction), and (``--prompt-recall``) recall hits for each prompt.

Which files, events and entries each host gets is :mod:`gitmem.agents.host_specs`. Every
host runs the command through a shell with the event as JSON on stdin. A user-scope hook
runs in every folder, so the session-start command is ``brief --from-hook AGENT``, which
prints nothing outside a repository (every scope writes the same, so that a host that
runs the same command from two files once, Claude Code and Gemini CLI, runs it once).

We only ever touch handlers whose command is ours (:mod:`gitmem.agents.host_files`);
everything else in the file is kept as it was, and a file that is not valid JSON (or a
Codex ``config.toml`` that is not valid TOML) is refused and left untouched.
"""

from __future__ import annotations

import contextlib
import shlex
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gitmem.agents.host_files import (
    HOOK_TIMEOUT,
    entries_of,
    groups_of,
    hooks_table,
    is_gitmem_command,
    load_json,
    with_ours,
    without_ours,
    write_json,
)
from gitmem.agents.host_specs import (
    AGENTS,
    HOSTS,
    SCOPES,
    Host,
    hooks_turned_off,
    host_of,
    next_steps,
    settings_path,
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
    "hooks_turned_off",
    "install_agent",
    "install_host",
    "scope_states",
    "settings_path",
    "uninstall_agent",
    "uninstall_host",
]

DEFAULT_SCOPE = {name: host.default_scope for name, host in HOSTS.items()}
"""Where ``hooks install --agent`` writes unless told: a file only you use (the committed
project file would give every teammate without gitmem a hook error in every session)."""
PROMPT_EVENTS = frozenset(h.prompt.event for h in HOSTS.values() if h.prompt is not None)
COPILOT_VERSION = 1
"""The ``version`` a Copilot CLI hook file declares."""


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
    """Every session handler (start and captures) is there."""
    error: str | None = None


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
    ``CLAUDE_CONFIG_DIR``, ``CODEX_HOME``, ``COPILOT_HOME`` — or ``~``).

    Raises:
        InputError: unknown agent or scope; a settings file that is not valid JSON/TOML
            or not shaped like host settings; hooks turned off in the host's
            configuration (nothing would ever run); prompt recall for a host that does
            not read a prompt hook's output; a gitmem command that is neither
            ``…/gitmem`` nor ``<python> -m gitmem`` (uninstall could not recognise it).
    """
    host = host_of(agent)
    path = settings_path(agent, scope, repo, home)
    if prompt_recall and host.prompt is None:
        raise InputError(
            f"{host.label} does not read what a prompt hook prints (its documentation says "
            "the output of userPromptSubmitted is not processed): use the MCP server's "
            "`recall` tool there instead (docs/mcp.md)"
        )
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
    off = hooks_turned_off(agent, repo, home)
    if off is not None:
        raise InputError(
            f"{agent} hooks are turned off in {off}; gitmem leaves that choice to you: "
            "turn them on and run again"
        )
    versioned = host.flat and "version" not in data  # a Copilot CLI file declares it first
    base = {"version": COPILOT_VERSION, **data} if versioned else data
    merged = with_ours(base, host.handlers(prompt_recall), command, path, host.flat)
    if merged != data:
        write_json(path, merged)
    warnings = (
        (
            f"{path.relative_to(repo)} is usually committed: every teammate needs gitmem "
            f"installed, or their {host.label} sessions show a (non-blocking) hook error; "
            f"`--scope {host.default_scope}` keeps the hooks to yourself",
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
        next_steps(agent, scope),
        warnings,
    )


def uninstall_host(
    agent: str, repo: Path, scopes: Sequence[str], home: Path | None = None
) -> list[Path]:
    """Remove gitmem's handlers (session and prompt) from *agent*'s hook files of
    *scopes*; keep the rest. Groups and events that only held our handlers go too; a
    file left with nothing in it (a Copilot CLI file: nothing but its version) is
    deleted (and its folder, when empty).

    Returns the files written or deleted (empty when nothing changed).

    Raises:
        InputError: unknown agent or scope; a settings file that is not valid JSON or
            not shaped like host settings (left untouched).
    """
    host = host_of(agent)
    changed: list[Path] = []
    for scope in scopes:
        path = settings_path(agent, scope, repo, home)
        if not path.exists():
            continue
        data = load_json(path)
        remaining = without_ours(data, host.all_handlers(), path, host.flat)
        if remaining == data:
            continue
        if not _empty(host, remaining):
            write_json(path, remaining)
        else:
            path.unlink()
            with contextlib.suppress(OSError):  # not empty: other settings live there
                path.parent.rmdir()
        changed.append(path)
    return changed


def _empty(host: Host, data: dict[str, Any]) -> bool:
    """Whether nothing but what gitmem itself writes is left (a Copilot CLI file's
    version, an empty hooks table)."""
    rest = {k: v for k, v in data.items() if not (host.flat and k == "version")}
    return not rest or rest == {"hooks": {}}


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
    host = host_of(agent)
    states: list[ScopeState] = []
    for scope in host.scopes:
        path = settings_path(agent, scope, repo, home)
        if not path.exists():
            states.append(ScopeState(scope, path))
            continue
        try:
            events = hooks_table(load_json(path), path)
            found: dict[str, str] = {}
            for handler in host.all_handlers():
                if handler.event in found:
                    continue
                if host.flat:
                    entries = entries_of(events, handler.event, path)
                else:
                    entries = [
                        e for g in groups_of(events, handler.event, path) for e in g["hooks"]
                    ]
                for item in entries:
                    if handler.matches(item):
                        found[handler.event] = item[handler.key]
                        break
        except InputError as e:
            states.append(ScopeState(scope, path, error=str(e)))
            continue
        complete = all(w.event in found for w in host.session)
        states.append(ScopeState(scope, path, found, complete))
    return states


def agent_status(agent: str, repo: Path, home: Path | None = None) -> bool:
    """True when some scope holds every gitmem session handler for *agent* and hooks are
    not turned off.

    Raises:
        InputError: unknown agent; a settings file that is not valid JSON/TOML.
    """
    host_of(agent)
    if hooks_turned_off(agent, repo, home) is not None:
        return False
    for state in scope_states(agent, repo, home):
        if state.error is not None:
            raise InputError(state.error)
        if state.complete:
            return True
    return False
