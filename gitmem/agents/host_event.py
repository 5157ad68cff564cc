"""``gitmem capture --from-hook AGENT``: an agent host says a session ended.

The host's event (JSON on stdin: Claude Code's SessionEnd, Codex's Stop) names the
transcript;
the capture itself runs detached, from where the last capture of that transcript
stopped, so the host is never kept waiting and never sees an error.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from gitmem.core import boundedjson
from gitmem.hooks.detach import spawn_detached


def dispatch(agent: str, repo: str, payload: str) -> None:
    """Start the background capture the event asks for. Never raises."""
    try:
        event = boundedjson.loads(payload) if payload.strip() else {}
    except ValueError:
        return
    if not isinstance(event, dict):
        return
    transcript, session, cwd = _fields(agent, event)
    if transcript is None:
        return
    argv = ["-C", cwd or repo, "hook", "capture-session", transcript]
    spawn_detached([*argv, session] if session else argv)


def _fields(agent: str, event: dict[str, Any]) -> tuple[str | None, str | None, str | None]:
    def text(key: str) -> str | None:
        value = event.get(key)
        return value if isinstance(value, str) and value else None

    session, cwd = text("session_id"), text("cwd")
    path = text("transcript_path")
    if path is None and agent == "codex" and session and cwd:
        # Codex's Stop event may carry no transcript path: find the rollout by its id.
        from gitmem.capture.sessions import codex_session_file

        found = codex_session_file(Path(cwd), session, os.environ)
        path = None if found is None else str(found)
    return path, session, cwd
