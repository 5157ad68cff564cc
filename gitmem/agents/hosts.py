"""Wire gitmem into agent hosts: the briefing at session start, a capture when work stops.

=========  ===========================  ==========================  =========================
host       file (in the project)        session start               capture
=========  ===========================  ==========================  =========================
claude     ``.claude/settings.json``    ``SessionStart`` → brief    ``SessionEnd`` → capture
codex      ``.codex/hooks.json``        ``SessionStart`` → brief    ``Stop`` (every turn)
=========  ===========================  ==========================  =========================

Both hosts read the same hook shape, ``{"hooks": {EVENT: [{"matcher"?: …, "hooks":
[{"type": "command", "command": …, "timeout": …}]}]}}``, run the command through a
shell with the event as JSON on stdin, and add a session-start hook's plain stdout to the
model's context. Codex has no session-end event: ``Stop`` fires when a turn ends, so the
capture runs once per turn (see docs/hooks.md for the limits of each host).

We only ever touch handlers whose command is ours, recognised by its words: a gitmem
command (``<python> -m gitmem`` or a program named ``gitmem``) followed by exactly
``brief`` or ``capture --from-hook <agent>``. Everything else in the file is kept as it was, and a
file that is not valid JSON (or a Codex ``config.toml`` that is not valid TOML) is
refused and left untouched. Writes are atomic (temp file + rename).
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import shlex
import shutil
import sys
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gitmem.core import boundedjson
from gitmem.core.errors import InputError
from gitmem.hooks.install import default_command
from gitmem.store.files import atomic_write

AGENTS = ("claude", "codex")
HOOK_TIMEOUT = 30
"""Seconds a host may give our command. Claude Code otherwise gives all SessionEnd hooks
together 1.5 s; a per-hook timeout raises that budget."""

_NEW_FILE_MODE = 0o644


@dataclass(frozen=True)
class _Handler:
    event: str
    words: tuple[str, ...]
    """The gitmem subcommand and its arguments, after the gitmem command itself."""


@dataclass(frozen=True)
class _Host:
    settings: str
    """The hook file, relative to the project folder."""
    handlers: tuple[_Handler, ...]


_HOSTS = {
    "claude": _Host(
        ".claude/settings.json",
        (
            _Handler("SessionStart", ("brief",)),
            _Handler("SessionEnd", ("capture", "--from-hook", "claude")),
        ),
    ),
    "codex": _Host(
        ".codex/hooks.json",
        (
            _Handler("SessionStart", ("brief",)),
            _Handler("Stop", ("capture", "--from-hook", "codex")),
        ),
    ),
}


def _portable_command() -> list[str]:
    """The command written into a host's project settings, which are often committed:
    plain ``gitmem`` when the one on PATH is this installation (so the file works on a
    teammate's machine too), else this Python with ``-m gitmem``."""
    on_path = shutil.which("gitmem")
    here = Path(sys.executable).absolute().parent
    if on_path is not None and Path(on_path).absolute().parent == here:
        return ["gitmem"]
    return default_command()


def install_agent(
    agent: str,
    repo: Path,
    home: Path | None = None,
    gitmem_command: Sequence[str] | None = None,
) -> list[Path]:
    """Add gitmem's session-start and capture hooks to *agent*'s project settings in *repo*.

    *home* is the user's home folder (default: the host's own variable —
    ``CLAUDE_CONFIG_DIR``, ``CODEX_HOME`` — or ``~``); it is only read, to see whether
    the user turned hooks off. Idempotent: a second install writes nothing. An older
    gitmem handler (another interpreter path) is updated in place, keeping any key the
    user added to it (a matcher on its group, a longer timeout).

    Returns the files written (empty when nothing changed).

    Raises:
        InputError: unknown agent; a settings file that is not valid JSON/TOML or not
            shaped like host settings; hooks turned off in the host's configuration
            (nothing would ever run); a gitmem command that is neither ``…/gitmem``
            nor ``<python> -m gitmem`` (uninstall could not recognise it).
    """
    host = _host(agent)
    command = _portable_command() if gitmem_command is None else list(gitmem_command)
    if not _is_gitmem_command(command):
        raise InputError(
            f"the gitmem command {shlex.join(command)!r} must be `<path>/gitmem` or "
            "`<python> -m gitmem`, so that uninstall can recognise what it wrote"
        )
    path = repo / host.settings
    data = _load_json(path)
    off = _hooks_turned_off(agent, repo, home)
    if off is not None:
        raise InputError(
            f"{agent} hooks are turned off in {off}; gitmem leaves that choice to you: "
            "turn them on and run again"
        )
    merged = _with_ours(data, host, command, path)
    if merged == data:
        return []
    _write_json(path, merged)
    return [path]


def uninstall_agent(agent: str, repo: Path, home: Path | None = None) -> list[Path]:
    """Remove gitmem's handlers from *agent*'s project settings in *repo*; keep the rest.

    Groups and events that only held our handlers go too; a file left with nothing in
    it is deleted (and its folder, when empty). *home* is accepted for symmetry with
    :func:`install_agent`; nothing outside the project is changed.

    Returns the files written or deleted (empty when nothing changed).

    Raises:
        InputError: unknown agent; a settings file that is not valid JSON or not shaped
            like host settings (left untouched).
    """
    host = _host(agent)
    path = repo / host.settings
    if not path.exists():
        return []
    data = _load_json(path)
    remaining = _without_ours(data, host, path)
    if remaining == data:
        return []
    if remaining:
        _write_json(path, remaining)
    else:
        path.unlink()
        with contextlib.suppress(OSError):  # not empty: other settings live there
            path.parent.rmdir()
    return [path]


def agent_status(agent: str, repo: Path, home: Path | None = None) -> bool:
    """True when every gitmem handler for *agent* is in place and hooks are not turned off.

    Raises:
        InputError: unknown agent; a settings file that is not valid JSON/TOML.
    """
    host = _host(agent)
    path = repo / host.settings
    if not path.exists() or _hooks_turned_off(agent, repo, home) is not None:
        return False
    data = _load_json(path)
    events = _hooks_table(data, path)
    found = [
        any(
            _is_ours(item, handler.words)
            for group in _groups(events, handler.event, path)
            for item in group["hooks"]
        )
        for handler in host.handlers
    ]
    return all(found)


# -- merging ----------------------------------------------------------------------


def _with_ours(data: dict[str, Any], host: _Host, command: list[str], path: Path) -> dict[str, Any]:
    result = copy.deepcopy(data)
    events = _hooks_table(result, path)
    result["hooks"] = events
    for handler in host.handlers:
        wanted = shlex.join([*command, *handler.words])
        groups = _groups(events, handler.event, path)
        found = False
        updated: list[Any] = []
        for group in groups:
            kept: list[Any] = []
            for item in group["hooks"]:
                if not _is_ours(item, handler.words):
                    kept.append(item)
                elif not found:  # the first one is updated where it stands
                    kept.append({**item, "type": "command", "command": wanted})
                    found = True
            if kept or not group["hooks"]:
                updated.append({**group, "hooks": kept})
        if not found:
            entry = {"type": "command", "command": wanted, "timeout": HOOK_TIMEOUT}
            updated.append({"hooks": [entry]})
        events[handler.event] = updated
    return result


def _without_ours(data: dict[str, Any], host: _Host, path: Path) -> dict[str, Any]:
    if "hooks" not in data:
        return data
    result = copy.deepcopy(data)
    events = _hooks_table(result, path)
    had_events = bool(events)
    for handler in host.handlers:
        if handler.event not in events:
            continue
        groups = _groups(events, handler.event, path)
        updated: list[Any] = []
        for group in groups:
            kept = [item for item in group["hooks"] if not _is_ours(item, handler.words)]
            if kept or not group["hooks"]:
                updated.append({**group, "hooks": kept})
        if updated or not groups:
            events[handler.event] = updated
        else:
            del events[handler.event]
    if had_events and not events:
        del result["hooks"]
    return result


def _hooks_table(data: dict[str, Any], path: Path) -> dict[str, Any]:
    events = data.get("hooks", {})
    if not isinstance(events, dict):
        raise InputError(f"{path}: `hooks` is not an object; gitmem left the file untouched")
    return events


def _groups(events: dict[str, Any], event: str, path: Path) -> list[dict[str, Any]]:
    groups = events.get(event, [])
    if not isinstance(groups, list):
        raise InputError(f"{path}: hooks.{event} is not a list; gitmem left the file untouched")
    for index, group in enumerate(groups):
        if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
            raise InputError(
                f"{path}: hooks.{event}[{index}] is not a group with a `hooks` list; "
                "gitmem left the file untouched"
            )
    return groups


def _is_ours(item: Any, words: tuple[str, ...]) -> bool:
    if not isinstance(item, dict) or not isinstance(item.get("command"), str):
        return False
    try:
        argv = shlex.split(item["command"])
    except ValueError:
        return False
    n = len(words)
    return len(argv) > n and tuple(argv[-n:]) == words and _is_gitmem_command(argv[:-n])


def _is_gitmem_command(argv: Sequence[str]) -> bool:
    """``gitmem`` (any path to it) or ``<python> -m gitmem``, and nothing else."""
    if len(argv) == 1:
        return Path(argv[0]).name == "gitmem"
    return len(argv) == 3 and list(argv[1:]) == ["-m", "gitmem"]


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
            value = _load_json(path).get("disableAllHooks")
            if isinstance(value, bool):
                verdict = (value, path)
        return verdict[1] if verdict is not None and verdict[0] else None
    # Codex: `[features] hooks` (older releases: `codex_hooks`, now an alias); the
    # project layer overrides the user's.
    verdict = None
    for path in (_codex_home(home) / "config.toml", repo / ".codex" / "config.toml"):
        features = _load_toml(path).get("features")
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


# -- files ----------------------------------------------------------------------------


def _host(agent: str) -> _Host:
    try:
        return _HOSTS[agent]
    except KeyError:
        raise InputError(f"unknown agent {agent!r}; gitmem knows {', '.join(AGENTS)}") from None


def _load_json(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read {path}: {e}") from e
    if not text.strip():
        return {}
    try:
        data = boundedjson.loads(text)
    except ValueError as e:
        raise InputError(f"{path} is not valid JSON ({e}); gitmem left it untouched") from e
    if not isinstance(data, dict):
        raise InputError(f"{path} does not hold a JSON object; gitmem left it untouched")
    return data


def _load_toml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read {path}: {e}") from e
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"{path} is not valid TOML ({e}); gitmem left it untouched") from e


def _write_json(path: Path, data: dict[str, Any]) -> None:
    """Write *data* as indented JSON, atomically, keeping the mode of the file it replaces."""
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    try:
        mode = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = _NEW_FILE_MODE
    atomic_write(path, text.encode("utf-8"), mode, dir_mode=0o755)
