"""``gitmem capture --from-hook AGENT``: an agent host says a session ended (or is about
to be compacted).

The host's event (JSON on stdin: Claude Code's SessionEnd and PreCompact, Codex's Stop,
SessionEnd and PreCompact, Copilot CLI's sessionEnd and preCompact, Gemini CLI's
SessionEnd and PreCompress) names the transcript, or the session whose transcript the
host keeps where gitmem knows to look (Codex's Stop may carry no path; Copilot CLI's
sessionEnd carries none). The capture itself runs detached, from where the last capture
of that transcript stopped, so the host is never kept waiting and never sees an error.

Copilot CLI sends camelCase fields (``sessionId``, ``transcriptPath``); every other host,
and Copilot CLI's PascalCase events, snake_case: :func:`event_text` reads either.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gitmem.core import boundedjson
from gitmem.store.spawn import spawn_detached


def event_of(payload: str) -> dict[str, Any]:
    """The event JSON object of *payload* ({} when it is none). Raises nothing."""
    try:
        event = boundedjson.loads(payload) if payload.strip() else {}
    except ValueError:
        return {}
    return event if isinstance(event, dict) else {}


def event_text(event: Mapping[str, Any], name: str) -> str | None:
    """A string field of a host's event by its snake_case *name*, or its camelCase twin;
    None when absent or empty, or when it cannot be a path or an argument: a NUL, or a lone
    surrogate (a JSON escape such as ``\\ud800``), which made the capture hook end in a
    traceback. Raises nothing."""
    head, *rest = name.split("_")
    for key in (name, head + "".join(word.capitalize() for word in rest)):
        value = event.get(key)
        if isinstance(value, str) and value and _usable(value):
            return value
    return None


def _usable(value: str) -> bool:
    if "\0" in value:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def dispatch(agent: str, repo: str, payload: str) -> None:
    """Start the background capture the event asks for. Never raises."""
    event = event_of(payload)
    transcript, session, cwd = _fields(agent, event)
    if transcript is None:
        return
    argv = ["-C", cwd or repo, "hook", "capture-session", transcript]
    spawn_detached([*argv, session] if session else argv)


def _fields(agent: str, event: dict[str, Any]) -> tuple[str | None, str | None, str | None]:
    session, cwd = event_text(event, "session_id"), event_text(event, "cwd")
    path = event_text(event, "transcript_path")
    if path is None and session is not None:
        found: Path | None = None
        if agent == "codex" and cwd:
            # Codex's Stop event may carry no transcript path: find the rollout by its id.
            from gitmem.capture.sessions import codex_session_file

            found = codex_session_file(Path(cwd), session, os.environ)
        elif agent == "copilot":
            # Copilot CLI's sessionEnd names the session only.
            from gitmem.capture.sessions import copilot_session_file

            found = copilot_session_file(session, os.environ)
        path = None if found is None else str(found)
    return path, session, cwd
