"""The across-sessions benchmark dates each file by its last message and finds its session."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import benchmark

benchmark("extract_quality")  # brief_across imports it by that name, as a script does
BA = benchmark("brief_across")


def test_a_claude_file_gives_its_last_time_and_session(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    lines = [
        {"type": "user", "sessionId": "abc", "timestamp": "2026-01-01T10:00:00Z"},
        {"type": "assistant", "sessionId": "abc", "timestamp": "2026-01-01T11:00:00Z"},
    ]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\nnot json\n", encoding="utf-8")
    assert BA._last_time(path) == ("2026-01-01T11:00:00Z", "abc")


def test_a_codex_file_gives_its_session_meta_id(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    lines = [
        {"type": "session_meta", "timestamp": "2026-02-01T09:00:00Z", "payload": {"id": "019x"}},
        {"type": "response_item", "timestamp": "2026-02-01T09:05:00Z", "payload": {}},
    ]
    path.write_text("\n".join(json.dumps(x) for x in lines), encoding="utf-8")
    assert BA._last_time(path) == ("2026-02-01T09:05:00Z", "019x")
