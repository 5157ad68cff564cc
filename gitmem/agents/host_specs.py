"""Each agent host gitmem wires, as data: its hook files per scope, the events it wires
and the shape of an entry there, how the host turns hooks off, and what to do next.

======== =================================== ================ ===========================
host     files (project · local · user)      session start    capture
======== =================================== ================ ===========================
claude   .claude/settings.json ·             SessionStart     SessionEnd, PreCompact
         .claude/settings.local.json ·
         ~/.claude/settings.json
codex    .codex/hooks.json · — ·             SessionStart     Stop (each turn),
         ~/.codex/hooks.json                                  SessionEnd, PreCompact
copilot  .github/hooks/gitmem.json · — ·     sessionStart     sessionEnd, preCompact
         ~/.copilot/hooks/gitmem.json
gemini   .gemini/settings.json · — ·         SessionStart     SessionEnd, PreCompress
         ~/.gemini/settings.json
======== =================================== ================ ===========================

``--prompt-recall`` adds ``UserPromptSubmit`` (Claude Code, Codex) or ``BeforeAgent``
(Gemini CLI); Copilot CLI does not read a ``userPromptSubmitted`` hook's output. docs/hooks.md
cites each host's documentation for every row.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from gitmem.agents.host_files import HOOK_TIMEOUT, Handler, load_json, load_jsonc, load_toml
from gitmem.core.errors import InputError

SCOPES = ("project", "local", "user")
CODEX_SESSION_END_TIMEOUT = 3
"""Codex gives a SessionEnd hook 1 s unless told, and at most 3."""


@dataclass(frozen=True)
class Wiring:
    """One hook gitmem adds to a host: the event and the gitmem words it runs."""

    event: str
    words: tuple[str, ...]
    older: tuple[tuple[str, ...], ...] = ()
    timeout: int = HOOK_TIMEOUT
    """Seconds."""
    name: str = ""
    """The hook's name, where the host names hooks (Gemini CLI)."""


@dataclass(frozen=True)
class Host:
    name: str
    label: str
    scopes: tuple[str, ...]
    default_scope: str
    session: tuple[Wiring, ...]
    """The session start first, then every capture: all of them make an install whole."""
    prompt: Wiring | None
    flat: bool = False
    """Copilot CLI lists an event's entries without matcher groups."""
    dedups: bool = False
    """The host runs a command found in two files once (Claude Code, Gemini CLI)."""

    def handler(self, wiring: Wiring) -> Handler:
        """The entry gitmem writes for *wiring*, in this host's shape."""
        if self.name == "copilot":
            extra: tuple[tuple[str, object], ...] = (("timeoutSec", wiring.timeout),)
            return Handler(wiring.event, wiring.words, wiring.older, "bash", extra)
        if self.name == "gemini":  # milliseconds, and a name for `/hooks enable|disable`
            extra = (("timeout", wiring.timeout * 1000), ("name", wiring.name))
            return Handler(wiring.event, wiring.words, wiring.older, "command", extra)
        return Handler(
            wiring.event, wiring.words, wiring.older, "command", (("timeout", wiring.timeout),)
        )

    def handlers(self, prompt: bool = False) -> list[Handler]:
        wirings = [*self.session, *([self.prompt] if prompt and self.prompt else [])]
        return [self.handler(w) for w in wirings]

    def all_handlers(self) -> list[Handler]:
        """Every handler gitmem may have written here (to find or remove them)."""
        return self.handlers(prompt=True)


def _wirings(agent: str, start: str, captures: tuple[str, ...]) -> tuple[Wiring, ...]:
    brief = Wiring(start, ("brief", "--from-hook", agent), (("brief",),), name="gitmem-brief")
    capture = ("capture", "--from-hook", agent)
    return (
        brief,
        *(
            Wiring(
                event,
                capture,
                timeout=CODEX_SESSION_END_TIMEOUT
                if (agent, event) == ("codex", "SessionEnd")
                else HOOK_TIMEOUT,
                name=f"gitmem-capture-{event.lower()}",
            )
            for event in captures
        ),
    )


def _recall(agent: str, event: str) -> Wiring:
    return Wiring(event, ("recall", "--from-hook", agent), name="gitmem-recall")


HOSTS: dict[str, Host] = {
    "claude": Host(
        "claude",
        "Claude Code",
        SCOPES,
        "local",
        _wirings("claude", "SessionStart", ("SessionEnd", "PreCompact")),
        _recall("claude", "UserPromptSubmit"),
        dedups=True,
    ),
    "codex": Host(
        "codex",
        "Codex",
        ("project", "user"),
        "user",
        _wirings("codex", "SessionStart", ("Stop", "SessionEnd", "PreCompact")),
        _recall("codex", "UserPromptSubmit"),
    ),
    "copilot": Host(
        "copilot",
        "Copilot CLI",
        ("project", "user"),
        "user",
        _wirings("copilot", "sessionStart", ("sessionEnd", "preCompact")),
        None,
        flat=True,
    ),
    "gemini": Host(
        "gemini",
        "Gemini CLI",
        ("project", "user"),
        "user",
        _wirings("gemini", "SessionStart", ("SessionEnd", "PreCompress")),
        _recall("gemini", "BeforeAgent"),
        dedups=True,
    ),
}
AGENTS = tuple(HOSTS)


def host_of(agent: str) -> Host:
    """Raises InputError: an agent gitmem does not know."""
    try:
        return HOSTS[agent]
    except KeyError:
        raise InputError(f"unknown agent {agent!r}; gitmem knows {', '.join(AGENTS)}") from None


def settings_path(agent: str, scope: str, repo: Path, home: Path | None = None) -> Path:
    """The hook file of *agent* for *scope*.

    Raises:
        InputError: an unknown agent or scope, or a scope the host does not have.
    """
    host = host_of(agent)
    if scope not in SCOPES:
        raise InputError(f"unknown scope {scope!r}; gitmem knows {', '.join(SCOPES)}")
    if scope not in host.scopes:
        project, user = (settings_path(agent, s, repo, home) for s in ("project", "user"))
        raise InputError(
            f"{agent} has no {scope} hook file: use --scope user ({user}, only you) or "
            f"--scope project ({project.relative_to(repo)}, committed)"
        )
    if agent == "claude":
        return {
            "project": repo / ".claude" / "settings.json",
            "local": repo / ".claude" / "settings.local.json",
            "user": config_dir("claude", home) / "settings.json",
        }[scope]
    if agent == "codex":
        folder = repo / ".codex" if scope == "project" else config_dir("codex", home)
        return folder / "hooks.json"
    if agent == "copilot":
        folder = repo / ".github" if scope == "project" else config_dir("copilot", home)
        return folder / "hooks" / "gitmem.json"
    folder = repo / ".gemini" if scope == "project" else config_dir("gemini", home)
    return folder / "settings.json"


_HOME_VARIABLES = {
    "claude": ("CLAUDE_CONFIG_DIR", ".claude"),
    "codex": ("CODEX_HOME", ".codex"),
    "copilot": ("COPILOT_HOME", ".copilot"),
    "gemini": ("", ".gemini"),
}


def config_dir(agent: str, home: Path | None = None) -> Path:
    """The host's folder in the user's home (*home*, else the host's own variable, else
    ``~``). Raises nothing."""
    variable, folder = _HOME_VARIABLES[agent]
    if home is not None:
        return home / folder
    configured = os.environ.get(variable) if variable else None
    return Path(configured) if configured else Path.home() / folder


def hooks_turned_off(agent: str, repo: Path, home: Path | None) -> Path | None:
    """The configuration file whose setting turns *agent*'s hooks off, or None.

    Raises:
        InputError: a Claude Code or Codex settings file that is not valid JSON/TOML.
    """
    verdict: tuple[bool, Path] | None = None
    if agent == "claude":
        # Later layers win: user, then project, then the project's local file.
        for path in (
            config_dir("claude", home) / "settings.json",
            repo / ".claude" / "settings.json",
            repo / ".claude" / "settings.local.json",
        ):
            value = load_json(path).get("disableAllHooks")
            if isinstance(value, bool):
                verdict = (value, path)
        return verdict[1] if verdict is not None and verdict[0] else None
    if agent == "codex":
        # `[features] hooks` (older releases: `codex_hooks`, now an alias); the project
        # layer overrides the user's.
        for path in (config_dir("codex", home) / "config.toml", repo / ".codex" / "config.toml"):
            features = load_toml(path).get("features")
            if not isinstance(features, dict):
                continue
            for key in ("codex_hooks", "hooks"):  # the canonical key last, so it wins
                value = features.get(key)
                if isinstance(value, bool):
                    verdict = (value, path)
        return verdict[1] if verdict is not None and not verdict[0] else None
    if agent == "copilot":
        # `disableAllHooks` at the top of a repository's settings skips every hook.
        for path in (
            repo / ".github" / "copilot" / "settings.json",
            repo / ".github" / "copilot" / "settings.local.json",
        ):
            if load_jsonc(path).get("disableAllHooks") is True:
                return path
        return None
    # Gemini CLI: `hooksConfig.enabled` (older releases: `tools.enableHooks`,
    # `hooks.enabled`); the project's settings override the user's.
    for path in (config_dir("gemini", home) / "settings.json", repo / ".gemini" / "settings.json"):
        data = load_jsonc(path)
        for table, key in (
            ("hooks", "enabled"),
            ("tools", "enableHooks"),
            ("hooksConfig", "enabled"),
        ):
            section = data.get(table)
            value = section.get(key) if isinstance(section, dict) else None
            if isinstance(value, bool):
                verdict = (value, path)
    return verdict[1] if verdict is not None and not verdict[0] else None


def next_steps(agent: str, scope: str) -> tuple[str, ...]:
    """What the user does in the host after an install. Raises nothing."""
    if agent == "claude":
        return (
            "Claude Code hooks run only in a trusted workspace: accept the workspace-trust "
            "dialog the first time Claude Code opens this folder.",
            "Claude Code picks up edits to its settings files while it runs; `/hooks` "
            "shows what is configured (read-only). Start a session: it opens with the brief.",
        )
    if agent == "codex":
        steps = [
            "Codex runs a new or changed hook only after you review and trust it: open Codex "
            "and run `/hooks`.",
        ]
        if scope == "project":
            steps.append("Codex reads a project's .codex/ folder only once you trust the project.")
        return tuple(steps)
    if agent == "copilot":
        return (
            "Copilot CLI loads its hooks when a session starts: start a new `copilot` session "
            "(repository hooks load in a folder you trusted).",
            "The brief reaches the model as the sessionStart hook's additionalContext; a "
            "session's transcript is captured when it ends (and before a compaction).",
        )
    return (
        "Gemini CLI reads a project's .gemini/settings.json only in a trusted folder; "
        "restart Gemini CLI, then `/hooks panel` shows gitmem's hooks.",
    )
