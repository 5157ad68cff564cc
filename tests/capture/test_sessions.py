"""Sessions are the unit of time (issue 13): a checkpoint keeps its transcript's own
time, backfilled sessions never age today's items, a growing transcript is one session,
and a capture that adds nothing writes nothing."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

from helpers import Gm
from helpers.capturing import brief_items, capture, session_file, stored_checkpoint

from gitmem.store.repo import Store

NOW = datetime.now(UTC)


def inferred(gm: Gm, path: Path, text: str) -> str:
    data = capture(gm, path, [{"kind": "belief", "text": text, "trust": "inferred"}])
    assert data["written"]
    (stored,) = data["items"]
    return str(stored["id"])


def test_a_checkpoint_records_its_transcripts_own_time(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    said = NOW - timedelta(days=40)
    path = session_file(tmp_path, "old", [("user", "We will keep the cache local.")], said)
    data = capture(gm, path)
    stored = stored_checkpoint(initialised, data["checkpoint"])
    assert stored["transcript_time"].startswith(said.strftime("%Y-%m-%dT%H:%M"))
    assert stored["created"] > stored["transcript_time"]  # captured today, said 40 days ago


def test_a_plain_file_takes_its_mtime(initialised: Path, gm: Gm, tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_text("We will keep the cache local.\n")
    written = (NOW - timedelta(days=3)).timestamp()
    os.utime(path, (written, written))
    stored = stored_checkpoint(initialised, capture(gm, path)["checkpoint"])
    assert stored["transcript_time"][:10] == (NOW - timedelta(days=3)).strftime("%Y-%m-%d")


def test_a_backfill_does_not_age_todays_items(initialised: Path, gm: Gm, tmp_path: Path) -> None:
    today = session_file(tmp_path, "today", [("user", "Look at the flaky test.")], NOW)
    kept = inferred(gm, today, "The flaky test depends on the clock")
    # Fifteen past sessions imported afterwards: each is older than today's session, so
    # none of them is "a later session that did not corroborate it".
    past = tmp_path / "past"
    past.mkdir()
    for n in range(15):
        when = NOW - timedelta(days=90 - n)
        session_file(past, f"past-{n}", [("user", f"Chatter number {n} about lunch.")], when)
    assert gm("import", str(past)).exit_code == 0
    assert kept in brief_items(gm)
    shown = gm("show", kept[:8], "--json").json()
    assert isinstance(shown, dict) and shown["status"] != "STALE"


def test_later_sessions_still_age_an_inferred_item(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    first = session_file(tmp_path, "first", [("user", "Look at the flaky test.")], NOW)
    kept = inferred(gm, first, "The flaky test depends on the clock")
    for n in range(11):
        when = NOW + timedelta(hours=n + 1)
        later = session_file(tmp_path, f"later-{n}", [("user", f"Chatter {n}.")], when)
        capture(gm, later)
    assert kept not in brief_items(gm)
    shown = gm("show", kept[:8], "--json").json()
    assert isinstance(shown, dict) and shown["status"] == "STALE"
    assert "other sessions" in shown["events"][-1]["reason"]


def test_twelve_captures_of_one_growing_session_are_one_session(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    first = session_file(tmp_path, "first", [("user", "Look at the flaky test.")], NOW)
    kept = inferred(gm, first, "The flaky test depends on the clock")
    lines: list[tuple[str, str]] = []
    sessions = set()
    for turn in range(12):
        lines += [("user", f"Step {turn}, please."), ("assistant", f"Let me do step {turn}.")]
        path = session_file(tmp_path, "growing", lines, NOW + timedelta(hours=1))
        data = capture(gm, path)
        sessions.add(data["session"])
    assert sessions == {"growing"}
    assert kept in brief_items(gm)  # one later session, not twelve
    shown = gm("show", kept[:8], "--json").json()
    assert isinstance(shown, dict) and shown["status"] != "STALE"


def test_the_same_transcript_again_writes_nothing(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    path = session_file(tmp_path, "s", [("user", "We will keep the cache local.")], NOW)
    first = capture(gm, path)
    tip = Store.discover(initialised).tip()
    again = gm("capture", "--transcript", str(path))
    assert again.exit_code == 0, again.stderr
    assert f"already captured (checkpoint {first['checkpoint']})" in again.stdout
    assert Store.discover(initialised).tip() == tip
    data = capture(gm, path)
    assert data["written"] is False and data["checkpoint"] == first["checkpoint"]
    assert data["skipped"].startswith("already captured")


def test_an_empty_transcript_is_refused_and_writes_nothing(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    tip = Store.discover(initialised).tip()
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    summary_only = tmp_path / "summary.jsonl"
    summary = {"type": "summary", "summary": "Earlier work", "leafUuid": "c0a8e7d2-5f14"}
    summary_only.write_text(json.dumps(summary) + "\n")  # Claude Code's title line only
    for path in (empty, summary_only):
        for json_flag in ([], ["--json"]):
            result = gm("capture", "--transcript", str(path), *json_flag)
            assert result.exit_code == 2 and result.stdout == ""
            assert result.stderr == (
                f"gitmem: transcript {path.name} is not a conversation: it holds no "
                + ("text" if path == empty else "message")
                + "\n"
            )
    assert Store.discover(initialised).tip() == tip


def test_a_part_that_adds_nothing_to_a_known_session_writes_nothing(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    lines = [("user", "We will keep the cache local.")]
    path = session_file(tmp_path, "s", lines, NOW)
    capture(gm, path)
    tip = Store.discover(initialised).tip()
    lines.append(("assistant", "Sure."))
    data = capture(gm, session_file(tmp_path, "s", lines, NOW))
    assert data["written"] is False and "nothing" in data["skipped"]
    assert Store.discover(initialised).tip() == tip
