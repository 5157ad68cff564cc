"""The capture log: ``.git/gitmem/capture.log``, one JSON line per capture attempt.

Local and never pushed. It is where hooks report (they never print into a git
command), where a model's raw output is kept before anything parses it, and what
``gitmem status`` reads to show the last capture and recent failures. Raw model
bytes are stored beside it, by hash, in ``.git/gitmem/raw/``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

from gitmem.core import boundedjson
from gitmem.store.files import atomic_write

LOG_FILE = "capture.log"
RAW_DIR = "raw"
_MAX_BYTES = 2_000_000
_KEEP_LINES = 2_000


class LogEntry(NamedTuple):
    time: str
    outcome: str  # "ok", "failed" or "skipped"
    source: str
    detail: Mapping[str, Any]

    @property
    def error(self) -> str | None:
        value = self.detail.get("error")
        return value if isinstance(value, str) else None


class CaptureLog:
    """Append-only JSON lines under a repository's local folder."""

    def __init__(self, local_dir: Path) -> None:
        self.dir = local_dir
        self.path = local_dir / LOG_FILE

    def keep_raw(self, raw: bytes) -> str:
        """Store a model's raw output by its SHA-256 (before parsing) and return the hash.
        Never raises: bytes that cannot be kept still have their hash, for the record."""
        digest = hashlib.sha256(raw).hexdigest()
        target = self.dir / RAW_DIR / digest
        try:
            if not target.exists():
                atomic_write(target, raw, 0o600)
        except OSError:
            pass
        return digest

    def write(self, outcome: str, source: str, **detail: Any) -> None:
        """Append one entry. Never raises: a log that cannot be written is not fatal."""
        entry = {"time": _now(), "outcome": outcome, "source": source, **detail}
        line = json.dumps(entry, ensure_ascii=False, sort_keys=True) + "\n"
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            # O_APPEND writes of one line are atomic enough for concurrent hooks.
            with open(self.path, "a", encoding="utf-8") as handle:
                handle.write(line)
            if self.path.stat().st_size > _MAX_BYTES:
                self._trim()
        except OSError:
            pass

    def entries(self, limit: int | None = None) -> list[LogEntry]:
        """The newest entries first (all of them, or the last *limit*)."""
        try:
            lines = self.path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return []
        found: list[LogEntry] = []
        for line in reversed(lines):
            try:
                data = boundedjson.loads(line, max_depth=8)
            except ValueError:
                continue  # a torn or corrupt line: the log is local state
            if not isinstance(data, dict):
                continue
            found.append(
                LogEntry(
                    time=str(data.pop("time", "")),
                    outcome=str(data.pop("outcome", "")),
                    source=str(data.pop("source", "")),
                    detail=data,
                )
            )
            if limit is not None and len(found) >= limit:
                break
        return found

    def _trim(self) -> None:
        lines = self.path.read_text(encoding="utf-8").splitlines(keepends=True)
        atomic_write(self.path, "".join(lines[-_KEEP_LINES:]).encode("utf-8"), 0o600)


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
