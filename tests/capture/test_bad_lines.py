"""One bad line in an agent's session is skipped and counted, from the command line and
from a hook, never fatal to the session (docs/transcripts.md, "Malformed lines")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from helpers import TESTS, git

from gitmem.hooks.capturing import post_commit
from gitmem.store.capturelog import CaptureLog
from gitmem.store.repo import Store

DATA = TESTS / "data" / "transcripts"
DEEP = "[" * 5000 + "]" * 5000
BAD_LINES = {
    "deeply nested": '{"type":"user","uuid":"x","sessionId":"s","message":' + DEEP + "}",
    "a huge integer": '{"type":"user","uuid":"x","sessionId":"s","n":' + "9" * 5000 + "}",
    "a lone surrogate role": (
        '{"type":"user","uuid":"x","sessionId":"s","message":{"role":"\\ud800",'
        '"content":"we keep the retry loop"}}'
    ),
}


def with_line(tmp_path: Path, fixture: str, line: str) -> Path:
    path = tmp_path / fixture
    shutil.copy(DATA / fixture, path)
    lines = path.read_text(encoding="utf-8").splitlines()
    lines.insert(3, line)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


DEEP_CODEX = (
    '{"timestamp":"t","type":"response_item","payload":{"type":"function_call",'
    '"name":"shell","arguments":' + DEEP + "}}"
)


@pytest.mark.parametrize(
    ("fixture", "line"),
    [
        ("claude_session.jsonl", BAD_LINES["deeply nested"]),
        ("codex_rollout.jsonl", DEEP_CODEX),
    ],
)
def test_a_deeply_nested_line_is_skipped_with_a_warning(
    gm: Any, initialised: Path, tmp_path: Path, fixture: str, line: str
) -> None:
    path = with_line(tmp_path, fixture, line)
    result = gm("capture", "--transcript", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.count("\n") == 1
    assert (
        "warning" in result.stderr and "skipped 1 bad line (line 4 is not usable" in result.stderr
    )
    entry = CaptureLog(Store.discover(initialised).local_dir).entries(1)[0]
    assert entry.outcome == "ok" and entry.detail["skipped_lines"] == 1


@pytest.mark.parametrize("why", sorted(BAD_LINES))
def test_a_hook_still_captures_a_session_with_a_bad_line(
    initialised: Path, gm: Any, tmp_path: Path, why: str
) -> None:
    path = with_line(tmp_path, "claude_session.jsonl", BAD_LINES[why])
    assert gm("config", "--repo", "transcript", str(path)).exit_code == 0
    sha = git(initialised, "rev-parse", "HEAD").strip()
    post_commit(Store.discover(initialised), sha, environ={})
    entries = gm("log", "--json").json()
    assert isinstance(entries, list)
    (checkpoint,) = [e for e in entries if e["commit"] == sha]
    assert checkpoint["session"] == "7d1c2f0e-4b7a-4c55-9a1e-2f4f0c3b9e61"  # the session's own
    assert "\\ud800" not in json.dumps(gm("brief", "--format", "json").json())


TEXT = {"type": "input_text", "text": "We pin pygit2 to 1.19 for now."}
WRONG_PARTS = {
    "codex message": {
        "timestamp": "2026-02-11T08:01:12Z",
        "type": "response_item",
        "payload": {"type": "message", "role": "user", "content": [{"type": ["x"]}, TEXT]},
    },
    "codex tool output": {
        "timestamp": "2026-02-11T08:01:13Z",
        "type": "response_item",
        "payload": {"type": "function_call_output", "call_id": "c", "output": [{"type": 7}]},
    },
    "claude message": {
        "type": "user",
        "uuid": "u",
        "sessionId": "s",
        "message": {"role": "user", "content": [{"type": {"a": 1}}, {**TEXT, "type": "text"}]},
    },
}


@pytest.mark.parametrize("place", sorted(WRONG_PARTS))
def test_a_content_part_whose_type_is_not_a_string_is_skipped_with_a_warning(
    gm: Any, initialised: Path, tmp_path: Path, place: str
) -> None:
    good = WRONG_PARTS["claude message" if place.startswith("claude") else "codex message"]
    lines = [json.dumps(good), json.dumps(WRONG_PARTS[place])]
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = gm("capture", "--transcript", str(path))
    assert result.exit_code == 0, result.stderr
    assert "a content part whose type is not a string" in result.stderr
    assert result.stderr.count("\n") == 1


def test_a_generic_json_part_whose_type_is_a_list_is_skipped_with_a_warning(
    gm: Any, initialised: Path, tmp_path: Path
) -> None:
    path = tmp_path / "chat.json"
    content = [{"type": ["text"], "text": "x"}, {"type": "text", "text": "We pin pygit2."}]
    path.write_text(json.dumps([{"role": "user", "content": content}]), encoding="utf-8")
    result = gm("capture", "--transcript", str(path))
    assert result.exit_code == 0, result.stderr
    assert "item 1 has a content part whose type is not a string" in result.stderr
