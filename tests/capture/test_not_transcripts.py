"""A file that is no conversation is never captured as an empty checkpoint.

`gitmem capture` refuses it (one line on stderr, exit 2, nothing written); `gitmem
import` skips it with a note and counts it (exit 2 when nothing was importable); a hook
writes nothing, says why in the capture log and never fails. A real session with a few
bad lines is still captured (docs/transcripts.md, "Malformed lines").
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import DATA, Gm, git
from helpers.polling import wait_for

from gitmem.hooks.capturing import capture_session, post_commit
from gitmem.store.capturelog import CaptureLog
from gitmem.store.repo import Store

CLAUDE = DATA / "transcripts" / "claude_session.jsonl"
SESSION = "7d1c2f0e-4b7a-4c55-9a1e-2f4f0c3b9e61"
"""The session id claude_session.jsonl names."""


def claude_record(**fields: Any) -> str:
    return json.dumps({"type": "user", "uuid": "u", "sessionId": "s", **fields})


TOOL_ONLY = "\n".join(
    [
        claude_record(
            uuid="a",
            type="assistant",
            message={
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "t", "name": "Bash", "input": {"c": "ls"}}],
            },
        ),
        claude_record(
            uuid="b",
            message={
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t", "content": "README.md"}],
            },
        ),
    ]
)
NOT_CONVERSATIONS = {
    "JSON lines of no known format": ("log.jsonl", b'{"level": "info"}\n{"level": "warn"}\n'),
    "torn JSON lines throughout": ("s.jsonl", b'{"type":"user","sessionId":"s","mess\n{"ty\n'),
    "prose named as JSON lines": ("s.jsonl", b"this is not json\nnor is this\n"),
    "a pretty-printed JSON object": ("package.json", b'{\n  "name": "pkg"\n}\n'),
    "a JSON list of no messages": ("notes.md", b'[{"name": "x"}, {"name": "y"}]\n'),
    "text with binary bytes": ("dump.txt", b"PK\x03\x04\x00\x00 some words\n"),
    "an empty file": ("empty.md", b""),
    "only blank lines": ("blank.md", b"  \n\n\t\n"),
    "an empty JSON list": ("chat.json", b"[]\n"),
    "a Claude Code title line only": ("t.jsonl", (claude_record(type="summary") + "\n").encode()),
    "tool calls and output only": ("tools.jsonl", TOOL_ONLY.encode() + b"\n"),
}


def gitmem_process(
    repo: Path, *args: str, input: str | None = None
) -> subprocess.CompletedProcess[str]:
    """gitmem run in *repo* as a process of its own, given a minute: one that blocks fails
    on its deadline instead of hanging the suite."""
    command = [sys.executable, "-m", "gitmem", "-C", str(repo), *args]
    return subprocess.run(
        command, input=input, capture_output=True, text=True, env=os.environ, timeout=60
    )


def written(folder: Path, case: str) -> Path:
    """The file of *case* (:data:`NOT_CONVERSATIONS`) written into *folder*."""
    name, data = NOT_CONVERSATIONS[case]
    path = folder / name
    path.write_bytes(data)
    return path


def memory_tip(repo: Path) -> str:
    return git(repo, "for-each-ref", "--format=%(objectname)", "refs/gitmem/memory").strip()


@pytest.mark.parametrize("case", sorted(NOT_CONVERSATIONS))
@pytest.mark.parametrize("as_json", [False, True])
def test_capture_refuses_a_file_that_is_no_conversation(
    initialised: Path, gm: Gm, tmp_path: Path, case: str, as_json: bool
) -> None:
    path = written(tmp_path, case)
    before = memory_tip(initialised)
    result = gm("capture", "--transcript", str(path), *(["--json"] if as_json else []))
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stdout == ""
    assert result.stderr.startswith("gitmem: transcript ") and result.stderr.count("\n") == 1
    assert path.name in result.stderr
    assert memory_tip(initialised) == before
    assert CaptureLog(Store.discover(initialised).local_dir).entries() == []


def test_the_refusal_says_what_the_file_is(initialised: Path, gm: Gm, tmp_path: Path) -> None:
    said = {}
    for case in ("JSON lines of no known format", "an empty file", "tool calls and output only"):
        path = written(tmp_path, case)
        said[case] = gm("capture", "--transcript", str(path)).stderr
    assert "is not a transcript of any supported host" in said["JSON lines of no known format"]
    assert "--format text" in said["JSON lines of no known format"]
    assert "is not a conversation: it holds no text" in said["an empty file"]
    assert "no words of the user or the assistant" in said["tool calls and output only"]


@pytest.mark.parametrize(
    ("name", "data", "what"),
    [
        ("numbers.json", b"[1, 2, 3]\n", "JSON of no known format"),
        ("lines.jsonl", b'1\n"two"\n[3]\n', "JSON of no known format"),
        ("prose.jsonl", b"this is not json\n", "not JSON, though named as JSON"),
    ],
)
def test_a_file_named_as_json_is_told_apart_by_whether_it_is_json(
    initialised: Path, gm: Gm, tmp_path: Path, name: str, data: bytes, what: str
) -> None:
    (tmp_path / name).write_bytes(data)
    result = gm("capture", "--transcript", str(tmp_path / name))
    assert result.exit_code == 2
    assert result.stderr.rstrip().endswith(f"{what} (--format text stores it as plain text)")


def test_forcing_text_still_stores_any_text(initialised: Path, gm: Gm, tmp_path: Path) -> None:
    path = written(tmp_path, "JSON lines of no known format")
    result = gm("capture", "--transcript", str(path), "--format", "text", "--json")
    assert result.exit_code == 0, result.stderr
    assert result.json()["written"] is True  # type: ignore[index]


def test_explicit_items_need_no_conversation(initialised: Path, gm: Gm, tmp_path: Path) -> None:
    (tmp_path / "empty.md").write_bytes(b"")
    items = json.dumps([{"kind": "decision", "text": "Keep the cache local"}])
    result = gm("capture", "--transcript", str(tmp_path / "empty.md"), "--items", "-", input=items)
    assert result.exit_code == 0, result.stderr
    empty = gm("capture", "--transcript", str(tmp_path / "empty.md"), "--items", "-", input="[]")
    assert empty.exit_code == 2 and "is not a conversation" in empty.stderr


def with_bad_lines_first(tmp_path: Path, bad: int) -> Path:
    """claude_session.jsonl with *bad* torn lines before its records."""
    path = tmp_path / "session.jsonl"
    torn = '{"type":"user","sessionId":"x","message":{"role":"us\n'
    path.write_text(torn * bad + CLAUDE.read_text(encoding="utf-8"), encoding="utf-8")
    return path


@pytest.mark.parametrize("bad", [1, 3])
def test_a_session_whose_first_lines_are_torn_is_still_that_session(
    initialised: Path, gm: Gm, tmp_path: Path, bad: int
) -> None:
    """Detection samples the first lines; when too many of them are bad to decide, the
    format they name is read whole, by its own rule (bad lines fewer than records)."""
    result = gm("capture", "--transcript", str(with_bad_lines_first(tmp_path, bad)), "--json")
    assert result.exit_code == 0, result.stderr
    assert result.json()["session"] == SESSION  # type: ignore[index]
    assert f"skipped {bad} bad line" in result.stderr


def test_a_session_with_as_many_bad_lines_as_records_is_refused(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    """Its first lines name the format; read whole, it does not fit it."""
    torn = '{"type":"user","sessionId":"x","message":{"role":"us'
    records = CLAUDE.read_text(encoding="utf-8").splitlines()
    path = tmp_path / "session.jsonl"
    path.write_text("".join(f"{torn}\n{record}\n" for record in records), encoding="utf-8")
    result = gm("capture", "--transcript", str(path))
    assert result.exit_code == 2
    assert result.stderr == (
        "gitmem: transcript session.jsonl is not a Claude Code session: line 1 is not JSON\n"
    )


# --- import ------------------------------------------------------------------------------


def bad_files(folder: Path, cases: list[str]) -> None:
    folder.mkdir(exist_ok=True)
    for n, case in enumerate(cases):
        name, data = NOT_CONVERSATIONS[case]
        (folder / f"{n}-{name}").write_bytes(data)


def test_import_skips_what_is_no_conversation_with_a_note(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    folder = tmp_path / "sessions"
    shutil.copytree(DATA / "transcripts", folder)
    cases = ["JSON lines of no known format", "an empty file", "tool calls and output only"]
    bad_files(folder, cases)
    result = gm("import", str(folder))
    assert result.exit_code == 0, result.stderr
    notes = [line for line in result.stdout.splitlines() if line.startswith("  - ")]
    assert len(notes) == 3 and all(": skipped: transcript " in line for line in notes)
    assert result.stdout.splitlines()[-1] == (
        "5 captured, 3 skipped (already stored or nothing to keep; 3 not a transcript), "
        "0 failed (8 files)"
    )
    data = gm("import", str(folder), "--json").json()
    assert isinstance(data, dict)
    assert (data["captured"], data["skipped"], data["failed"]) == (0, 8, 0)
    refused = [f for f in data["files"] if "not a" in (f["reason"] or "")]
    assert len(refused) == 3 and {f["status"] for f in refused} == {"skipped"}
    assert all(f["checkpoint"] is None and f["error"] is None for f in refused)
    log = gm("log", "--json").json()
    assert isinstance(log, list) and len(log) == 5


def test_an_import_that_finds_nothing_importable_is_bad_input(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    folder = tmp_path / "junk"
    bad_files(folder, ["JSON lines of no known format", "an empty JSON list"])
    before = memory_tip(initialised)
    result = gm("import", str(folder), "--json")
    assert result.exit_code == 2
    assert (
        result.stderr
        == f"gitmem: nothing to import in {folder}: none of its 2 files is a transcript\n"
    )
    data = result.json()
    assert isinstance(data, dict) and (data["skipped"], data["captured"]) == (2, 0)
    empty = tmp_path / "empty"
    empty.mkdir()
    none = gm("import", str(empty))
    assert none.exit_code == 2 and none.stderr.startswith(f"gitmem: nothing to import in {empty}")
    assert memory_tip(initialised) == before


def test_an_import_of_one_file_that_is_no_transcript_is_bad_input(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    path = written(tmp_path, "JSON lines of no known format")
    before = memory_tip(initialised)
    result = gm("import", str(path))
    assert result.exit_code == 2
    assert result.stderr.startswith("gitmem: nothing to import: transcript ")
    assert len(result.stderr.splitlines()) == 1
    assert memory_tip(initialised) == before


def test_an_import_of_stored_transcripts_only_is_still_done(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    folder = tmp_path / "sessions"
    shutil.copytree(DATA / "transcripts", folder)
    assert gm("import", str(folder)).exit_code == 0
    bad_files(folder, ["an empty file"])
    assert gm("import", str(folder)).exit_code == 0  # all stored already, one not a transcript


# --- hooks -------------------------------------------------------------------------------


def log_of(repo: Path) -> list[Any]:
    return CaptureLog(Store.discover(repo).local_dir).entries()


@pytest.mark.parametrize("case", ["JSON lines of no known format", "an empty file"])
def test_a_commit_hook_writes_nothing_for_a_file_that_is_no_conversation(
    initialised: Path, gm: Gm, tmp_path: Path, case: str
) -> None:
    path = written(tmp_path, case)
    assert gm("config", "--repo", "transcript", str(path)).exit_code == 0
    sha = git(initialised, "rev-parse", "HEAD").strip()
    post_commit(Store.discover(initialised), sha, environ={})  # raises nothing
    entries = gm("log", "--json").json()
    assert isinstance(entries, list)
    (checkpoint,) = entries  # the commit's message, never an empty checkpoint of the file
    assert checkpoint["session"] == f"commit-{sha[:12]}" and checkpoint["commit"] == sha
    skipped = [e for e in log_of(initialised) if e.outcome == "skipped"]
    assert len(skipped) == 1 and path.name in skipped[0].detail["reason"]
    assert not [e for e in log_of(initialised) if e.outcome == "failed"]


def test_a_session_end_writes_nothing_for_a_file_that_is_no_conversation(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    path = written(tmp_path, "tool calls and output only")
    before = memory_tip(initialised)
    capture_session(Store.discover(initialised), str(path), "s-1")  # raises nothing
    assert memory_tip(initialised) == before
    (entry,) = log_of(initialised)
    assert entry.outcome == "skipped" and "is not a conversation" in entry.detail["reason"]


@pytest.mark.slow
def test_a_host_hook_given_a_file_that_is_no_conversation_logs_it_and_exits_0(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    """Through the real entry point, in processes of its own: `gitmem capture
    --from-hook` starts the detached capture, which writes nothing and logs why."""
    path = written(tmp_path, "torn JSON lines throughout")
    event = {"session_id": "s-bad", "transcript_path": str(path), "cwd": str(initialised)}
    done = gitmem_process(initialised, "capture", "--from-hook", "claude", input=json.dumps(event))
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    (entry,) = wait_for(lambda: [e for e in log_of(initialised) if e.outcome == "skipped"])
    assert "is not a transcript of any supported host" in entry.detail["reason"]
    assert memory_tip(initialised) == ""


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_capture_refuses_a_pipe_or_a_device_without_reading_it(
    initialised: Path, tmp_path: Path, kind: str
) -> None:
    # A pipe with no writer blocks whoever opens it; /dev/zero never ends. A real
    # process, so that a capture that blocks fails here on its deadline instead of hanging.
    if kind == "fifo":
        path = tmp_path / "session.jsonl"
        os.mkfifo(path)
    else:
        path = Path("/dev/zero")
    before = memory_tip(initialised)
    done = gitmem_process(initialised, "capture", "--transcript", str(path))
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"gitmem: transcript is not a regular file (a pipe or a device): {path}\n"
    assert memory_tip(initialised) == before
