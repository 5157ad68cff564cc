"""Find the agent transcripts of a working tree, and remember how far each was captured.

Claude Code keeps one JSONL file per session in ``~/.claude/projects/<slug>/`` (the
slug is the project path with every non-alphanumeric character replaced by ``-``;
``$CLAUDE_CONFIG_DIR`` moves ``~/.claude``). Codex keeps rollouts in
``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`` whose first line names the ``cwd``
(``$CODEX_HOME`` moves ``~/.codex``). Cursors live in ``.git/gitmem/cursors.json``.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from gitmem.core import boundedjson
from gitmem.core.transcript import Transcript
from gitmem.store.files import atomic_write

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


def find_agent_transcripts(
    workdir: Path, environ: Mapping[str, str] | None = None, recent: float = RECENT_SECONDS
) -> list[Path]:
    """This working tree's recent Claude Code and Codex transcripts, newest first."""
    env = os.environ if environ is None else environ
    cutoff = time.time() - recent
    candidates = [*claude_sessions(workdir, env), *codex_sessions(workdir, env)]
    recent_ones = [(p.stat().st_mtime, p) for p in candidates if _mtime(p) >= cutoff]
    return [p for _, p in sorted(recent_ones, reverse=True)]


class Cursors:
    """How much of each transcript (by absolute path) was captured already."""

    def __init__(self, local_dir: Path) -> None:
        self.path = local_dir / CURSORS_FILE
        try:
            data = boundedjson.loads(self.path.read_bytes(), max_depth=2, max_int_digits=18)
        except (OSError, ValueError):
            data = {}  # unreadable: every transcript is taken whole again, once
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
        data = json.dumps(self.positions, indent=1, sort_keys=True) + "\n"
        atomic_write(self.path, data.encode(), 0o644)


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


def _codex_cwd(path: Path) -> str | None:
    cwd = _codex_meta(path).get("cwd")
    return cwd if isinstance(cwd, str) else None
