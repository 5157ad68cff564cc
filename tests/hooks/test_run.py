"""Capture on commit, through the real installed hooks, git and detached processes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import DATA, Gm, commit, git
from helpers.polling import wait_carried, wait_for

pytestmark = (
    pytest.mark.slow
)  # real git commands fire the real hooks and wait for their detached captures


def log_json(gm: Gm) -> list[dict[str, Any]]:
    data = gm("log", "--json").json()
    assert isinstance(data, list)
    return data


def test_commit_message_is_captured_with_its_commit(hooked: Path, gm: Gm) -> None:
    sha = commit(hooked, "Fix tokenizer depth\n\nTODO: port the old tokenizer error messages\n")
    (entry,) = wait_for(lambda: [e for e in log_json(gm) if e["commit"] == sha])
    assert entry["type"] == "checkpoint" and entry["session"] == f"commit-{sha[:12]}"
    brief = gm("brief").stdout
    assert "port the old tokenizer error messages" in brief
    assert gm("verify").exit_code == 0


def test_agent_transcript_is_captured_from_where_it_stopped(
    hooked: Path, gm: Gm, tmp_path: Path
) -> None:
    transcript = tmp_path / "session.jsonl"
    shutil.copy(DATA / "transcripts" / "claude_session.jsonl", transcript)
    assert gm("config", "--repo", "transcript", str(transcript)).exit_code == 0
    first = commit(hooked, "first change")
    (entry,) = wait_for(lambda: [e for e in log_json(gm) if e["commit"] == first])
    assert not entry["session"].startswith("commit-")  # the agent's session, not the message

    second = commit(hooked, "second change, nothing new said")
    (entry,) = wait_for(lambda: [e for e in log_json(gm) if e["commit"] == second])
    assert entry["session"] == f"commit-{second[:12]}"  # nothing new: the message instead

    line = json.loads(transcript.read_text().splitlines()[-1])
    line.update(
        uuid="new-uuid-1",
        message={
            "role": "user",
            "content": [
                {"type": "text", "text": "Decision: we ship the parser on Friday after review."}
            ],
        },
    )
    with transcript.open("a") as handle:
        handle.write(json.dumps(line) + "\n")
    third = commit(hooked, "third change")
    (entry,) = wait_for(lambda: [e for e in log_json(gm) if e["commit"] == third])
    snapshot = json.loads(gm("brief", "--format", "json").stdout)
    decided = [i for i in snapshot["items"] if "Friday" in i["text"]]
    assert decided and decided[0]["checkpoint"] == entry["sha256"]


def test_amend_keeps_memory_pointing_at_the_new_commit(hooked: Path, gm: Gm) -> None:
    old = commit(hooked, "Decision: keep the cache local\n")
    wait_for(lambda: [e for e in log_json(gm) if e["commit"] == old])
    git(hooked, "commit", "-q", "--amend", "-m", "Decision: keep the cache local (amended)")
    new = git(hooked, "rev-parse", "HEAD").strip()
    events = wait_for(lambda: [e for e in log_json(gm) if e["type"] == "event"])
    assert events[0]["verified"]
    entries = wait_for(
        lambda: [e for e in log_json(gm) if e["captured_commit"] == old and e["commit"] == new]
    )
    assert entries[0]["type"] == "checkpoint"
    # `log -n` reads only the newest records, and still follows the amend
    whole = log_json(gm)
    for count in range(len(whole) + 2):
        assert gm("log", "-n", str(count), "--json").json() == whole[:count]


def brief_texts(gm: Gm) -> dict[str, dict[str, Any]]:
    data = json.loads(gm("brief", "--format", "json").stdout)
    return {item["text"]: item for item in data["items"]}


def retired(repo: Path) -> list[dict[str, Any]]:
    """The capture log's post-rewrite entries (the positive signal that it finished)."""
    log = repo / ".git" / "gitmem" / "capture.log"
    lines = log.read_text().splitlines() if log.exists() else []
    return [e for e in map(json.loads, lines) if "retired" in e]


def test_an_amend_retires_the_old_messages_decision(hooked: Path, gm: Gm) -> None:
    old = commit(hooked, "Decision: keep the cache local\n")
    wait_for(lambda: [e for e in log_json(gm) if e["commit"] == old])
    assert brief_texts(gm)["Keep the cache local"]["trust"] == "verbatim"
    git(hooked, "commit", "-q", "--amend", "-m", "Decision: keep the cache in Redis")
    (done,) = wait_for(lambda: retired(hooked))
    assert done["retired"] == 1
    shown = brief_texts(gm)
    assert "Keep the cache local" not in shown  # never a current verbatim decision again
    assert shown["Keep the cache in Redis"]["trust"] == "verbatim"
    superseded = [e for e in log_json(gm) if e["type"] == "event"]
    assert superseded and all(e["verified"] for e in superseded)


def test_an_amend_that_keeps_its_message_keeps_its_decision_once(hooked: Path, gm: Gm) -> None:
    old = commit(hooked, "Decision: keep the cache local\n")
    wait_for(lambda: [e for e in log_json(gm) if e["commit"] == old])
    (hooked / "more.txt").write_text("more\n")
    git(hooked, "add", "more.txt")
    git(hooked, "commit", "-q", "--amend", "--no-edit")
    new = git(hooked, "rev-parse", "HEAD").strip()
    wait_for(lambda: retired(hooked))
    wait_for(lambda: [e for e in log_json(gm) if e["captured_commit"] == new])
    shown = [i for t, i in brief_texts(gm).items() if t == "Keep the cache local"]
    assert len(shown) == 1 and shown[0]["trust"] == "verbatim"
    assert shown[0]["origin_session"] == f"commit-{new[:12]}"


def test_a_rebase_retires_each_rewritten_messages_items_once(hooked: Path, gm: Gm) -> None:
    git(hooked, "checkout", "-q", "-b", "topic")
    first = commit(hooked, "Decision: parse dates with the stdlib\n", path="a.txt")
    second = commit(hooked, "TODO: port the date tests\n", path="b.txt")
    wait_for(lambda: {first, second} <= {e["commit"] for e in log_json(gm)})
    git(hooked, "checkout", "-q", "main")
    commit(hooked, "unrelated change on main\n", path="c.txt")
    git(hooked, "checkout", "-q", "topic")
    git(hooked, "rebase", "-q", "main")
    (done,) = wait_for(lambda: retired(hooked))
    assert done["retired"] == 2
    texts = [t for t in brief_texts(gm) if "date" in t.lower()]
    assert sorted(texts) == ["Parse dates with the stdlib", "Port the date tests"]  # once each


def test_skip_turns_the_hooks_off(hooked: Path, gm: Gm, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITMEM_SKIP", "1")
    skipped = commit(hooked, "Decision: nobody records this\n")
    monkeypatch.delenv("GITMEM_SKIP")
    recorded = commit(hooked, "Decision: this one is recorded\n")
    # The positive signal: the later commit's capture has landed.
    wait_for(lambda: [e for e in log_json(gm) if e["commit"] == recorded])
    assert [e["commit"] for e in log_json(gm)] == [recorded]
    assert skipped != recorded


def test_a_failing_capture_never_breaks_the_commit(repo: Path, gm: Gm) -> None:
    # No `gitmem init`: the detached capture fails for want of a key.
    assert gm("hooks", "install").exit_code == 0
    sha = commit(repo, "a commit with no key around\n")
    assert git(repo, "rev-parse", "HEAD").strip() == sha

    def failure() -> list[dict[str, Any]]:
        data = gm("status", "--json").json()
        assert isinstance(data, dict)
        return list(data["recent_failures"])

    (entry,) = wait_for(failure)
    assert "gitmem init" in entry["error"]


def test_pre_push_pushes_memory(hooked: Path, gm: Gm, tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(hooked, "remote", "add", "origin", str(remote))
    sha = commit(hooked, "Decision: memory travels with pushes\n")
    wait_for(lambda: [e for e in log_json(gm) if e["commit"] == sha])
    # A push that names refs/gitmem/ itself is the user's: the hook stays out of it.
    skipped = subprocess.run(
        [sys.executable, "-m", "gitmem", "-C", str(hooked), "hook", "pre-push", "origin", "x"],
        input=f"refs/gitmem/memory {'1' * 40} refs/gitmem/memory {'0' * 40}\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert skipped.returncode == 0 and "refs/gitmem/memory" not in git(remote, "for-each-ref")
    # Issue 14 changed the default: every push carries memory (it used to need
    # sync_on_push). What the hook runs, run to its end:
    hook = subprocess.run(
        [
            sys.executable,
            "-m",
            "gitmem",
            "-C",
            str(hooked),
            "hook",
            "pre-push",
            "origin",
            str(remote),
        ],
        input="",
        capture_output=True,
        text=True,
        check=False,
    )
    assert hook.returncode == 0, hook.stderr
    wait_carried(hooked)  # the foreground started the carry detached
    mine = git(hooked, "rev-parse", "refs/gitmem/memory").strip()
    assert mine in git(remote, "for-each-ref", "refs/gitmem/")
    # With sync_on_push, a push syncs (fetch, check, merge, push), detached.
    assert gm("config", "--repo", "sync_on_push", "true").exit_code == 0
    sha = commit(hooked, "Decision: sync on every push\n")
    git(hooked, "push", "-q", "origin", "HEAD:refs/heads/main")
    wait_carried(hooked)
    mine = git(hooked, "rev-parse", "refs/gitmem/memory").strip()
    assert mine in git(remote, "for-each-ref", "refs/gitmem/")
    assert sha in {e["commit"] for e in log_json(gm)}


def test_an_agent_session_end_is_captured_in_the_background(initialised: Path, gm: Gm) -> None:
    transcript = DATA / "transcripts" / "claude_session.jsonl"
    event = {
        "session_id": "s-end",
        "transcript_path": str(transcript),
        "cwd": str(initialised),
        "hook_event_name": "SessionEnd",
        "reason": "exit",
    }
    result = gm("capture", "--from-hook", "claude", input=json.dumps(event))
    assert result.exit_code == 0 and result.stdout == "" and result.stderr == ""
    (entry,) = wait_for(lambda: [e for e in log_json(gm) if e["session"] == "s-end"])
    assert entry["verified"]
    again = gm("capture", "--from-hook", "claude", input="not json at all")
    assert again.exit_code == 0 and again.stdout == "" and again.stderr == ""


@pytest.mark.parametrize("agent", ["claude", "codex", "copilot", "gemini"])
@pytest.mark.parametrize(
    "fields",
    [
        {"session_id": "\ud800", "transcript_path": "/tmp/\ud800"},
        {"sessionId": "\ud800"},
        {"session_id": "a\x00b", "transcript_path": "/tmp/a\x00b", "cwd": "/tmp/\x00"},
    ],
    ids=["lone-surrogate", "camel-case-surrogate", "nul"],
)
def test_a_hosts_event_that_names_no_usable_path_is_silent(
    initialised: Path, agent: str, fields: dict[str, str]
) -> None:
    # A JSON escape of a lone surrogate (or a NUL) cannot be a path or an argument: the
    # capture hook ended in a traceback, printed into the host's output, exit 1.
    event = {"hook_event_name": "SessionEnd", "cwd": str(initialised), **fields}
    done = subprocess.run(
        [sys.executable, "-m", "gitmem", "capture", "--from-hook", agent],
        input=json.dumps(event),
        capture_output=True,
        text=True,
        cwd=initialised,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
