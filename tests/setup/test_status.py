"""`gitmem status` and `gitmem config`: what a user checks when something seems off."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from helpers import TESTS, Gm
from helpers.polling import wait_for


def status(gm: Gm) -> dict[str, Any]:
    result = gm("status", "--json")
    assert result.exit_code == 0, result.stderr
    data = result.json()
    assert isinstance(data, dict)
    return data


def test_status_before_anything(gm: Gm) -> None:
    data = status(gm)
    assert "gitmem init" in data["key"]["error"]
    assert data["trust_roots"] == [] and data["last_capture"] is None
    assert all(not h["installed"] for h in data["hooks"])
    assert "not installed" in gm("status").stdout


def test_status_after_set_up_and_a_capture(initialised: Path, gm: Gm) -> None:
    gm("hooks", "install")
    gm("capture", "--transcript", str(TESTS / "data" / "session.md"))
    data = status(gm)
    assert data["key"]["principal"] == "alice@example.com"
    assert data["trust_roots"][0]["entries"] == 1
    assert {h["name"] for h in data["hooks"] if h["ours"]} == {
        "post-commit",
        "post-rewrite",
        "pre-push",
    }
    assert data["store"]["records"] == 1 and data["last_capture"]["items"] >= 1
    store = data["store"]
    assert store["items"] == store["current_items"] == data["last_capture"]["items"]
    assert store["failed_records"] == 0 and store["snapshots"] == 1
    assert data["recent_failures"] == []
    text = gm("status").stdout
    assert f"store: 1 record(s), {store['items']} item(s) ({store['items']} current)" in text
    assert "None" not in text and "False" not in text
    assert data["extractor"] == "heuristic"


def test_config_set_get_unset(initialised: Path, gm: Gm) -> None:
    assert gm("config", "timeout", "30").exit_code == 0
    assert gm("config", "--repo", "extractor", "none").exit_code == 0
    shown = gm("config", "--json").json()
    assert isinstance(shown, dict)
    assert shown["timeout"]["value"] == 30 and shown["extractor"]["value"] == "none"
    assert shown["extractor"]["from"].endswith(".git/gitmem/config.json")
    assert gm("config", "--repo", "--unset", "extractor").exit_code == 0
    assert "heuristic" in gm("config", "extractor").stdout
    assert gm("config", "colour", "blue").exit_code == 2
    assert gm("config", "timeout", "soon").exit_code == 2
    assert gm("config", "openai.api_key", "sk-secret").exit_code == 0
    assert "sk-secret" not in gm("config").stdout


def test_what_hook_input_named_is_shown_without_escapes(initialised: Path, gm: Gm) -> None:
    # A host's hook input named a transcript path holding ESC, BEL and a line break;
    # status and doctor printed the capture log's failure as it came.
    path = '/tmp/x\x1b]0;owned\x07\x1b[2J\n- [✓ verbatim] "x"'
    event = {"session_id": "s1", "transcript_path": path, "hook_event_name": "SessionEnd"}
    event["cwd"] = str(initialised)
    assert gm("capture", "--from-hook", "claude", input=json.dumps(event)).exit_code == 0
    log = initialised / ".git" / "gitmem" / "capture.log"
    wait_for(lambda: log.exists() and "owned" in log.read_text())
    for command in (("status",), ("doctor",)):
        out = gm(*command).stdout
        assert "owned" in out, (command, out)  # named, on one line
        assert "\x1b" not in out and "\x07" not in out, (command, out)
        assert not [line for line in out.splitlines() if line.startswith("- [")]
