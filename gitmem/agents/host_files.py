"""The hook files of agent hosts as data: load them (refusing what is not JSON/TOML or
not shaped like host settings), merge gitmem's handlers in or out, write them atomically.

Two shapes exist: Claude Code, Codex and Gemini CLI group an event's handlers under
matchers (``{"hooks": {EVENT: [{"matcher"?: …, "hooks": [ENTRY, …]}]}}``); Copilot CLI
lists them flat (``{"version": 1, "hooks": {EVENT: [ENTRY, …]}}``, the command under
``bash``). A handler is ours when its command is a gitmem command (``<python> -m
gitmem`` or a program named ``gitmem``) followed by exactly one of the words a handler
lists; nothing else in a file is ever changed.
"""

from __future__ import annotations

import copy
import json
import re
import shlex
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gitmem.core import boundedjson
from gitmem.core.errors import InputError
from gitmem.store.files import atomic_write

HOOK_TIMEOUT = 30
"""Seconds a host may give our command. Claude Code otherwise gives all SessionEnd hooks
together 1.5 s; a per-hook timeout raises that budget."""

_NEW_FILE_MODE = 0o644


@dataclass(frozen=True)
class Handler:
    event: str
    words: tuple[str, ...]
    """The gitmem subcommand and its arguments, after the gitmem command itself."""
    older: tuple[tuple[str, ...], ...] = ()
    """Words an earlier install wrote for this event: still ours, replaced in place."""
    key: str = "command"
    """Where an entry holds its command (Copilot CLI: ``bash``)."""
    extra: tuple[tuple[str, Any], ...] = (("timeout", HOOK_TIMEOUT),)
    """The rest of a new entry, in order (its timeout, a name)."""

    def matches(self, item: Any) -> bool:
        return any(is_ours(item, w, self.key) for w in (self.words, *self.older))

    def entry(self, command: str) -> dict[str, Any]:
        """A new entry of this handler running *command*."""
        return {"type": "command", self.key: command, **dict(self.extra)}


def with_ours(
    data: dict[str, Any],
    handlers: Sequence[Handler],
    command: list[str],
    path: Path,
    flat: bool = False,
) -> dict[str, Any]:
    """*data* with each handler present once, running *command*: an existing one of ours
    is updated where it stands (keeping keys the user added), else one is appended (to
    the event's list itself when *flat*, Copilot CLI's shape).

    Raises:
        InputError: *data* is not shaped like host settings.
    """
    result = copy.deepcopy(data)
    events = hooks_table(result, path)
    result["hooks"] = events
    for handler in handlers:
        wanted = shlex.join([*command, *handler.words])
        if flat:
            events[handler.event] = _with_entry(
                entries_of(events, handler.event, path), handler, wanted
            )
            continue
        groups = groups_of(events, handler.event, path)
        found = False
        updated: list[Any] = []
        for group in groups:
            kept: list[Any] = []
            for item in group["hooks"]:
                if not handler.matches(item):
                    kept.append(item)
                elif not found:  # the first one is updated where it stands
                    kept.append({**item, "type": "command", handler.key: wanted})
                    found = True
            if kept or not group["hooks"]:
                updated.append({**group, "hooks": kept})
        if not found:
            updated.append({"hooks": [handler.entry(wanted)]})
        events[handler.event] = updated
    return result


def _with_entry(entries: list[Any], handler: Handler, wanted: str) -> list[Any]:
    updated: list[Any] = []
    found = False
    for item in entries:
        if not handler.matches(item):
            updated.append(item)
        elif not found:  # the first one is updated where it stands
            updated.append({**item, "type": "command", handler.key: wanted})
            found = True
    return updated if found else [*updated, handler.entry(wanted)]


def without_ours(
    data: dict[str, Any], handlers: Sequence[Handler], path: Path, flat: bool = False
) -> dict[str, Any]:
    """*data* without our handlers; groups and events left empty by that go too.

    Raises:
        InputError: *data* is not shaped like host settings.
    """
    if "hooks" not in data:
        return data
    result = copy.deepcopy(data)
    events = hooks_table(result, path)
    had_events = bool(events)
    for handler in handlers:
        if handler.event not in events:
            continue
        if flat:
            kept_entries = [
                e for e in entries_of(events, handler.event, path) if not handler.matches(e)
            ]
            if kept_entries:
                events[handler.event] = kept_entries
            else:
                del events[handler.event]
            continue
        groups = groups_of(events, handler.event, path)
        updated: list[Any] = []
        for group in groups:
            kept = [item for item in group["hooks"] if not handler.matches(item)]
            if kept or not group["hooks"]:
                updated.append({**group, "hooks": kept})
        if updated or not groups:
            events[handler.event] = updated
        else:
            del events[handler.event]
    if had_events and not events:
        del result["hooks"]
    return result


def hooks_table(data: dict[str, Any], path: Path) -> dict[str, Any]:
    """The ``hooks`` object of a settings file. Raises InputError when it is not one."""
    events = data.get("hooks", {})
    if not isinstance(events, dict):
        raise InputError(f"{path}: `hooks` is not an object; gitmem left the file untouched")
    return events


def groups_of(events: dict[str, Any], event: str, path: Path) -> list[dict[str, Any]]:
    """The matcher groups of one event. Raises InputError when they are malformed."""
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


def entries_of(events: dict[str, Any], event: str, path: Path) -> list[Any]:
    """The flat entry list of one event (Copilot CLI). Raises InputError when it is not a
    list of objects."""
    entries = events.get(event, [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise InputError(
            f"{path}: hooks.{event} is not a list of hook entries; gitmem left the file untouched"
        )
    return entries


def is_ours(item: Any, words: tuple[str, ...], key: str = "command") -> bool:
    """Whether a handler entry runs a gitmem command followed by exactly *words*."""
    if not isinstance(item, dict) or not isinstance(item.get(key), str):
        return False
    try:
        argv = shlex.split(item[key])
    except ValueError:
        return False
    n = len(words)
    return len(argv) > n and tuple(argv[-n:]) == words and is_gitmem_command(argv[:-n])


def is_gitmem_command(argv: Sequence[str]) -> bool:
    """``gitmem`` (any path to it) or ``<python> -m gitmem``, and nothing else."""
    if len(argv) == 1:
        return Path(argv[0]).name == "gitmem"
    return len(argv) == 3 and list(argv[1:]) == ["-m", "gitmem"]


def load_json(path: Path) -> dict[str, Any]:
    """A JSON settings file (empty when absent or blank).

    Raises:
        InputError: unreadable, not JSON, or not an object.
    """
    text = _read_text(path)
    if not text.strip():
        return {}
    try:
        data = boundedjson.loads(text)
    except ValueError as e:
        raise InputError(f"{path} is not valid JSON ({e}); gitmem left it untouched") from e
    if not isinstance(data, dict):
        raise InputError(f"{path} does not hold a JSON object; gitmem left it untouched")
    return data


def _read_text(path: Path) -> str:
    """*path*'s text, empty when it is absent. Raises InputError: unreadable, not UTF-8."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read {path}: {e}") from e


def load_toml(path: Path) -> dict[str, Any]:
    """A TOML config file (empty when absent).

    Raises:
        InputError: unreadable or not TOML.
    """
    text = _read_text(path)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"{path} is not valid TOML ({e}); gitmem left it untouched") from e


_JSONC = re.compile(r'"(?:\\.|[^"\\])*"|//[^\n]*|/\*.*?\*/|,(?=\s*[}\]])', re.DOTALL)
"""A JSON string (kept), or what JSONC adds to JSON: a comment, a trailing comma."""


def load_jsonc(path: Path) -> dict[str, Any]:
    """A settings file that may hold comments (Copilot CLI's and Gemini CLI's
    ``settings.json`` are JSONC), read for what gitmem only looks at: {} when absent or
    unreadable in any way (it is the host's to complain). Raises nothing."""
    try:
        text = path.read_text(encoding="utf-8")
        bare = _JSONC.sub(lambda m: m.group() if m.group().startswith('"') else "", text)
        data = boundedjson.loads(bare)
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Write *data* as indented JSON, atomically, keeping the mode of the file it replaces."""
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    try:
        mode = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = _NEW_FILE_MODE
    atomic_write(path, text.encode("utf-8"), mode, dir_mode=0o755)
