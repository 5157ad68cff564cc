"""Find the agent transcripts of a working tree, and remember how far each was captured.

Claude Code keeps one JSONL file per session in ``~/.claude/projects/<slug>/`` (the
slug is the project path with every non-alphanumeric character replaced by ``-``;
``$CLAUDE_CONFIG_DIR`` moves ``~/.claude``). Codex keeps rollouts in
``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`` whose first line names the ``cwd``
(``$CODEX_HOME`` moves ``~/.codex``). Copilot CLI keeps
``~/.copilot/session-state/<session>/events.jsonl`` (older: ``<session>.jsonl``), whose
``session.start`` event names the ``cwd`` (``$COPILOT_HOME`` moves ``~/.copilot``).
Gemini CLI keeps ``~/.gemini/tmp/<project>/chats/session-*.json`` (or ``.jsonl``), the
project folder named by the SHA-256 of the project's path, or holding a ``.project_root``
file that names it. Cursors live in ``.git/gitmem/cursors.json``.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from gitmem.core import boundedjson
from gitmem.core.transcript import Transcript
from gitmem.store.files import read_state, write_state

CURSORS_FILE = "cursors.json"
RECENT_SECONDS = 2 * 24 * 3600
"""Only transcripts touched this recently are candidates for a commit's capture."""


def claude_slug(path: Path) -> str:
    return re.sub(r"[^A-Za-z0-9]", "-", str(path))


def _home(environ: Mapping[str, str]) -> Path:
    return Path(environ.get("HOME") or Path.home())


def claude_sessions(workdir: Path, environ: Mapping[str, str]) -> list[Path]:
    root = Path(environ.get("CLAUDE_CONFIG_DIR") or _home(environ) / ".claude")
    folder = root / "projects" / claude_slug(workdir)
    return sorted(folder.glob("*.jsonl")) if folder.is_dir() else []


def codex_sessions(workdir: Path, environ: Mapping[str, str], days: int = 3) -> list[Path]:
    root = Path(environ.get("CODEX_HOME") or _home(environ) / ".codex") / "sessions"
    if not root.is_dir():
        return []
    today = datetime.now(UTC).date()
    found: list[Path] = []
    for back in range(days):
        day = today - timedelta(days=back)
        folder = root / f"{day.year:04d}" / f"{day.month:02d}" / f"{day.day:02d}"
        found += [p for p in folder.glob("rollout-*.jsonl") if _codex_cwd(p) == str(workdir)]
    return found


def codex_session_file(workdir: Path, session: str, environ: Mapping[str, str]) -> Path | None:
    """The recent Codex rollout of *workdir* whose session id is *session*."""
    for path in codex_sessions(workdir, environ):
        if _codex_meta(path).get("id") == session:
            return path
    return None


_SESSION_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")


def copilot_root(environ: Mapping[str, str]) -> Path:
    return Path(environ.get("COPILOT_HOME") or _home(environ) / ".copilot") / "session-state"


def copilot_session_file(session: str, environ: Mapping[str, str]) -> Path | None:
    """Copilot CLI's events of the session *session* (an id of letters, digits, ``.``,
    ``_`` and ``-`` only: a path never comes from a hook's event). Raises nothing."""
    if not _SESSION_ID.fullmatch(session) or ".." in session:
        return None
    root = copilot_root(environ)
    for path in (root / session / "events.jsonl", root / f"{session}.jsonl"):
        if path.is_file():
            return path
    return None


def copilot_sessions(
    workdir: Path, environ: Mapping[str, str], recent: float = RECENT_SECONDS
) -> list[Path]:
    """Recent Copilot CLI sessions whose ``session.start`` names *workdir* (all of a
    user's sessions live in one folder: only the recent ones are opened)."""
    root = copilot_root(environ)
    if not root.is_dir():
        return []
    cutoff = time.time() - recent
    found = [*root.glob("*/events.jsonl"), *root.glob("*.jsonl")]
    return [p for p in found if _mtime(p) >= cutoff and _copilot_cwd(p) == str(workdir)]


def gemini_root(environ: Mapping[str, str]) -> Path:
    return _home(environ) / ".gemini" / "tmp"


def gemini_sessions(workdir: Path, environ: Mapping[str, str]) -> list[Path]:
    """Gemini CLI chats of *workdir*'s project folders."""
    root = gemini_root(environ)
    if not root.is_dir():
        return []
    folders = {root / hashlib.sha256(str(workdir).encode()).hexdigest()}
    for marker in root.glob("*/.project_root"):
        try:
            if marker.read_text(encoding="utf-8").strip() == str(workdir):
                folders.add(marker.parent)
        except (OSError, UnicodeDecodeError):
            continue
    return [
        path
        for folder in sorted(folders)
        for pattern in ("session-*.json", "session-*.jsonl")
        for path in sorted((folder / "chats").glob(pattern))
    ]


def transcript_roots(environ: Mapping[str, str] | None = None) -> list[Path]:
    """The folders where the agent hosts keep their transcripts (whether they exist or
    not): what a transcript an agent names must lie under, besides the repository.
    Raises nothing."""
    env = os.environ if environ is None else environ
    return [
        Path(env.get("CLAUDE_CONFIG_DIR") or _home(env) / ".claude") / "projects",
        Path(env.get("CODEX_HOME") or _home(env) / ".codex") / "sessions",
        copilot_root(env),
        gemini_root(env),
    ]


def find_agent_transcripts(
    workdir: Path, environ: Mapping[str, str] | None = None, recent: float = RECENT_SECONDS
) -> list[Path]:
    """This working tree's recent Claude Code, Codex, Copilot CLI and Gemini CLI
    transcripts, newest first."""
    env = os.environ if environ is None else environ
    cutoff = time.time() - recent
    candidates = [
        *claude_sessions(workdir, env),
        *codex_sessions(workdir, env),
        *copilot_sessions(workdir, env),
        *gemini_sessions(workdir, env),
    ]
    recent_ones = [(p.stat().st_mtime, p) for p in candidates if _mtime(p) >= cutoff]
    return [p for _, p in sorted(recent_ones, reverse=True)]


class Cursors:
    """How much of each transcript (by absolute path) was captured already."""

    def __init__(self, local_dir: Path) -> None:
        self.path = local_dir / CURSORS_FILE
        # unreadable: every transcript is taken whole again, once
        data = read_state(self.path, max_depth=2, max_int_digits=18)
        self.positions: dict[str, int] = (
            {
                k: v
                for k, v in data.items()
                if isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
            }
            if isinstance(data, dict)
            else {}
        )

    def new_part(self, path: Path, transcript: Transcript) -> Transcript | None:
        """What *transcript* holds beyond its cursor (None when nothing new).

        Structured transcripts count messages; plain text counts characters. A
        transcript shorter than its cursor was replaced: it is taken whole.
        """
        done = self.positions.get(str(path.resolve()), 0)
        size = _size(transcript)
        if done > size:
            done = 0
        if done == size:
            return None
        if transcript.format == "text":
            text = transcript.messages[0].text if transcript.messages else ""
            rest = text[done:]
            if not rest.strip():
                return None
            return transcript.with_messages([replace(transcript.messages[0], text=rest)])
        return transcript.with_messages(transcript.messages[done:])

    def advance(self, path: Path, transcript: Transcript) -> None:
        self.positions[str(path.resolve())] = _size(transcript)

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_state(self.path, self.positions, sort_keys=True)


def _size(transcript: Transcript) -> int:
    if transcript.format == "text":
        return sum(len(m.text) for m in transcript.messages)
    return len(transcript.messages)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _codex_meta(path: Path) -> dict[str, object]:
    """The session_meta payload on a rollout's first line ({} when unreadable)."""
    try:
        with path.open(encoding="utf-8") as handle:
            first = handle.readline(1 << 20)
        data = boundedjson.loads(first)
    except (OSError, ValueError):
        return {}
    payload = data.get("payload", data) if isinstance(data, dict) else None
    return payload if isinstance(payload, dict) else {}


def _copilot_cwd(path: Path) -> str | None:
    """The ``cwd`` a Copilot CLI session's ``session.start`` (its first line) names."""
    try:
        with path.open(encoding="utf-8") as handle:
            data = boundedjson.loads(handle.readline(1 << 20))
    except (OSError, ValueError):
        return None
    event = data.get("data") if isinstance(data, dict) else None
    context = event.get("context") if isinstance(event, dict) else None
    cwd = context.get("cwd") if isinstance(context, dict) else None
    return cwd if isinstance(cwd, str) else None


def _codex_cwd(path: Path) -> str | None:
    cwd = _codex_meta(path).get("cwd")
    return cwd if isinstance(cwd, str) else None
