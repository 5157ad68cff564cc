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
