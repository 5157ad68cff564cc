"""The agent host's own CLI as the extractor (``claude``, ``codex``): its argument, stdin
and output contract, the fallback to the heuristic, non-recursion into gitmem's hooks,
and windows merged into one item per claim.

Both CLIs are scripted stand-ins on PATH (tests/fakes/host_cli.py), run as real
subprocesses, that follow the contract docs/extractors.md cites.
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import DATA, FAKES, Result
from helpers.capturing import capture

from gitmem.capture.extract import WINDOW_CHARS, windows
from gitmem.capture.folder import bulk_extractor
from gitmem.cli import fast_path
from gitmem.core.transcript import Message
from gitmem.store.capturelog import CaptureLog

Gm = Callable[..., Result]
SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
SESSION = (
    "We talked about the client.\n"
    "DECISION: keep the parser in src/parser.py.\n"
    f"The token is {SECRET} for now.\n"
    "TODO: write the sync command.\n"
)


class Hosts:
    """The stand-ins on PATH, and what each call showed them."""

    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.bin = tmp_path / "bin"
        self.bin.mkdir()
        self.log = tmp_path / "host-calls.jsonl"
        for host in ("claude", "codex"):
            script = self.bin / host
            script.write_text(
                f"#!/bin/sh\nexec {shlex.quote(sys.executable)} "
                f'{shlex.quote(str(FAKES / "host_cli.py"))} {host} "$@"\n'
            )
            script.chmod(0o755)
        monkeypatch.setenv("PATH", f"{self.bin}:{Path(sys.executable).parent}:/usr/bin:/bin")
        monkeypatch.setenv("HOST_CLI_LOG", str(self.log))
        self.monkeypatch = monkeypatch

    def mode(self, mode: str) -> None:
        self.monkeypatch.setenv("HOST_CLI_MODE", mode)

    def calls(self) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines()]


@pytest.fixture
def hosts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Hosts:
    return Hosts(tmp_path, monkeypatch)


def session(tmp_path: Path, text: str = SESSION) -> Path:
    path = tmp_path / "session.md"
    path.write_text(text)
    return path


def log_lines(repo: Path) -> list[dict[str, Any]]:
    return [
        {"outcome": e.outcome, **e.detail} for e in CaptureLog(repo / ".git" / "gitmem").entries()
    ]


def test_claude_is_asked_in_print_mode_with_the_masked_transcript_and_no_tools_or_hooks(
    initialised: Path, gm: Gm, hosts: Hosts, tmp_path: Path
) -> None:
    assert gm("config", "--repo", "claude.model", "sonnet").exit_code == 0
    data = capture(gm, session(tmp_path), None, "--extractor", "claude")
    assert {(i["kind"], i["trust"]) for i in data["items"]} == {
        ("decision", "verbatim"),
        ("open_loop", "verbatim"),
    }
    (call,) = hosts.calls()
    argv = call["argv"]
    assert argv[:3] == ["-p", "--output-format", "json"]
    assert argv[argv.index("--tools") + 1] == "" and "--strict-mcp-config" in argv
    assert "--no-session-persistence" in argv and argv[argv.index("--model") + 1] == "sonnet"
    assert json.loads(argv[argv.index("--settings") + 1]) == {"disableAllHooks": True}
    schema = json.loads(argv[argv.index("--json-schema") + 1])
    assert schema["required"] == ["items"]
    assert "You extract memory items" in argv[argv.index("--system-prompt") + 1]
    # What leaves the machine: the masked transcript, in an empty folder, hooks off.
    assert SECRET not in call["stdin"] and "[redacted:" in call["stdin"]
    assert "DECISION: keep the parser in src/parser.py." in call["stdin"]
    assert not Path(call["cwd"]).exists() and not Path(call["cwd"]).is_relative_to(initialised)
    assert call["skip"] == "1"
    (ok,) = [line for line in log_lines(initialised) if line["outcome"] == "ok"]
    usage = ok["model_usage"]
    assert ok["extractor"] == "claude" and usage["calls"] == 1 and usage["usd"] == 0.0125
    assert usage["input_bytes"] >= len(call["stdin"].encode()) and usage["output_bytes"] > 0
    assert usage["input_tokens"] > 0 and usage["output_tokens"] > 0


def test_codex_is_asked_in_exec_mode_with_a_strict_schema_file(
    initialised: Path, gm: Gm, hosts: Hosts, tmp_path: Path
) -> None:
    data = capture(gm, session(tmp_path), None, "--extractor", "codex")
    assert len(data["items"]) == 2 and all(i["trust"] == "verbatim" for i in data["items"])
    (call,) = hosts.calls()
    argv = call["argv"]
    assert argv[0] == "exec" and argv[-1] == "-"
    for flag in ("--json", "--ephemeral", "--skip-git-repo-check"):
        assert flag in argv
    assert argv[argv.index("--sandbox") + 1] == "read-only"
    assert argv[argv.index("-c") + 1] == "features.hooks=false"
    item = call["schema"]["properties"]["items"]["items"]
    assert item["additionalProperties"] is False
    assert (
        sorted(item["required"])
        == sorted(item["properties"])
        == [
            "kind",
            "quote",
            "text",
            "trust",
        ]
    )
    assert call["stdin"].startswith("You extract memory items")  # exec takes no system prompt
    assert SECRET not in call["stdin"] and call["skip"] == "1"
    status: Any = gm("status", "--json").json()
    run = status["last_model_run"]
    assert run["extractor"] == "codex" and run["usage"]["calls"] == 1 and run["fallback"] is None
    assert "last model run:" in gm("status").stdout


@pytest.mark.parametrize(
    ("mode", "reason"),
    [
        ("fail", "claude exited with status 1: Error: claude is not logged in"),
        ("chatty", "model output rejected"),
        ("error", "claude answered with an error"),
        ("missing", "command not found: claude"),
        ("slow", "claude timed out after 1 s"),
    ],
)
def test_a_host_that_cannot_answer_falls_back_to_the_heuristic_with_the_reason_logged(
    initialised: Path, gm: Gm, hosts: Hosts, tmp_path: Path, mode: str, reason: str
) -> None:
    if mode == "missing":
        (hosts.bin / "claude").unlink()
    hosts.mode(mode)
    assert gm("config", "--repo", "host.timeout", "1").exit_code == 0
    assert gm("config", "--repo", "extractor", "claude").exit_code == 0
    data = capture(gm, session(tmp_path), None, "--extractor", "claude")
    assert [i["text"] for i in data["items"]]  # the heuristic's items were stored
    lines = log_lines(initialised)
    (failed,) = [line for line in lines if line["outcome"] == "failed"]
    (ok,) = [line for line in lines if line["outcome"] == "ok"]
    assert reason in failed["error"] and failed["fallback"] == "heuristic"
    assert ok["extractor"] == "heuristic" and reason in ok["fallback"]
    status: Any = gm("status", "--json").json()
    assert reason in status["last_model_run"]["fallback"]
    doctor: Any = gm("doctor", "--json").json()
    (config,) = [c for c in doctor["checks"] if c["name"] == "config"]
    if mode == "missing":
        assert config["status"] == "warn" and "no claude on PATH" in config["detail"]
    else:
        assert "fell back to the heuristic" in config["detail"]


def test_the_child_session_never_runs_gitmems_hooks(
    initialised: Path, gm: Gm, hosts: Hosts, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A host that ignored its own switch and ran every gitmem hook still gets nothing:
    the environment marker every hook entry honours."""
    hosts.mode("hooks")
    transcript = session(tmp_path)
    monkeypatch.setenv("HOST_CLI_PATH", str(transcript))
    monkeypatch.setenv("HOST_CLI_GITMEM", json.dumps([sys.executable, "-m", "gitmem"]))
    monkeypatch.chdir(initialised)
    capture(gm, transcript, None, "--extractor", "claude")
    hooks = [c for c in hosts.calls() if "hook" in c]
    assert [h["hook"] for h in hooks] == ["brief", "capture", "recall"]
    assert all(h["code"] == 0 and h["stdout"] == "" for h in hooks)
    local = initialised / ".git" / "gitmem"
    assert not (local / "queue").exists()  # no capture was queued
    status: Any = gm("status", "--json").json()
    assert status["store"]["records"] == 1  # the one capture, nothing from the child


@pytest.mark.parametrize(
    "args",
    [
        ["capture", "--from-hook", "claude"],
        ["brief", "--from-hook", "codex"],
        ["recall", "--from-hook", "claude"],
        ["hook", "capture-session", "/tmp/x.jsonl"],
        ["-C", "/tmp", "hook", "post-commit", "abc"],
    ],
)
def test_every_hook_entry_does_nothing_under_gitmem_skip(
    monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    assert fast_path(args) is not None
    monkeypatch.setenv("GITMEM_SKIP", "1")
    skipped = fast_path(args)
    assert skipped is not None and skipped.__name__ == "_nothing"
    assert fast_path(["brief"]) is not None and fast_path(["brief"]).__name__ != "_nothing"  # type: ignore[union-attr]
    monkeypatch.setenv("GITMEM_SKIP", "0")
    assert fast_path(args).__name__ != "_nothing"  # type: ignore[union-attr]


def long_session(tmp_path: Path, early: str, late: str) -> tuple[Path, list[Message]]:
    """A session of four messages, each longer than half a window: *early* opens the
    first, *late* the last; the file, and its messages."""
    filler = "filler line that says nothing in particular\n" * 2_000
    said = [
        Message("user", early + filler),
        Message("assistant", filler),
        Message("user", filler),
        Message("assistant", late + filler),
    ]
    path = tmp_path / "long.json"
    path.write_text(json.dumps([{"role": m.role, "content": m.text} for m in said]))
    return path, said


def test_a_long_session_is_read_in_windows_whose_items_merge_to_the_last_word(
    initialised: Path, gm: Gm, hosts: Hosts, tmp_path: Path
) -> None:
    early = "DECISION: use httpx for the HTTP client.\nTODO: write the sync command.\n"
    early += "FACT: the retry limit is 3.\nTODO: profile the importer.\n"
    late = "DECISION: use requests instead of httpx for the HTTP client.\n"
    late += "FACT: the retry limit is 30.\nDone: the sync command is written and tested.\n"
    path, _ = long_session(tmp_path, early, late)
    assert path.stat().st_size > 2 * WINDOW_CHARS
    data = capture(gm, path, None, "--extractor", "claude")
    calls = hosts.calls()
    assert len(calls) >= 2
    assert "use httpx" in calls[0]["stdin"] and "instead of httpx" not in calls[0]["stdin"]
    assert "instead of httpx" in calls[-1]["stdin"]
    # each window is told its place: the last is the session's last word
    n = len(calls)
    for k, call in enumerate(calls, start=1):
        assert f"This transcript is part {k} of {n} of one session." in call["stdin"]
    assert "it is the session's end: what it says is the last word." in calls[-1]["stdin"]
    assert "later parts may still change or close what it says" in calls[0]["stdin"]
    # and what the earlier windows gave, so that a claim is not listed again
    assert "items already listed" not in calls[0]["stdin"]
    listed = '{"kind": "decision", "text": "use httpx for the HTTP client"}'
    assert all(listed in call["stdin"] for call in calls[1:])
    texts = sorted(i["text"] for i in data["items"])
    assert texts == [
        "profile the importer",
        "the retry limit is 30",
        "use requests instead of httpx for the HTTP client",
    ]
    (ok,) = [line for line in log_lines(initialised) if line["outcome"] == "ok"]
    assert ok["model_usage"]["calls"] == len(calls)


def test_a_session_longer_than_host_calls_has_its_start_read_by_the_heuristic(
    initialised: Path, gm: Gm, hosts: Hosts, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a bound on what one capture may spend: the model reads the newest windows (the
    # session's last word), the heuristic what comes before, and the two are merged
    monkeypatch.setenv("GITMEM_HOST_CALLS", "1")
    early = "TODO: profile the importer.\nDECISION: use httpx for the HTTP client.\n"
    late = "DECISION: use requests instead of httpx for the HTTP client.\n"
    path, said = long_session(tmp_path, early, late)
    data = capture(gm, path, None, "--extractor", "claude")
    (call,) = hosts.calls()
    assert "instead of httpx" in call["stdin"]
    assert "TODO: profile the importer." not in call["stdin"]  # not sent: read here
    n = len(windows(said))
    assert n > 1 and f"This transcript is part {n} of {n} of one session." in call["stdin"]
    # what the heuristic found before it is shown to the model as already listed
    assert '{"kind": "open_loop", "text": "Profile the importer."}' in call["stdin"]
    texts = sorted(i["text"] for i in data["items"])
    assert "use requests instead of httpx for the HTTP client" in texts
    assert not any("use httpx" in t and "instead" not in t for t in texts)  # the last word
    assert "Profile the importer." in texts
    (ok,) = [line for line in log_lines(initialised) if line["outcome"] == "ok"]
    assert ok["extractor"] == "claude" and ok["heuristic_windows"] == n - 1
    assert ok["model_usage"]["calls"] == 1
    status: Any = gm("status", "--json").json()
    assert status["last_model_run"]["heuristic_windows"] == n - 1
    assert f"the heuristic read {n - 1} of its part(s) (host.calls)" in gm("status").stdout


def test_a_cli_that_fails_mid_session_keeps_what_it_answered(
    initialised: Path, gm: Gm, hosts: Hosts, tmp_path: Path
) -> None:
    # the windows it answered are paid for and kept; the heuristic reads the window it
    # failed on and the rest, and it is not asked again for this session
    hosts.mode("fail-later")
    early = "DECISION: keep the parser in src/parser.py.\n"
    late = "DECISION: use requests instead of httpx for the HTTP client.\n"
    path, said = long_session(tmp_path, early, late)
    data = capture(gm, path, None, "--extractor", "claude")
    n = len(windows(said))
    assert len(hosts.calls()) == 2 < n
    texts = sorted(i["text"] for i in data["items"])
    assert "keep the parser in src/parser.py" in texts  # the model's, from window 1
    assert "Use requests instead of httpx for the HTTP client." in texts  # the heuristic's
    (ok,) = [line for line in log_lines(initialised) if line["outcome"] == "ok"]
    assert ok["extractor"] == "claude" and ok["heuristic_windows"] == n - 1
    assert "claude exited with status 1" in ok["fallback"]
    shown = gm("status").stdout
    assert f"the heuristic read {n - 1} of its part(s) (claude: model backend failed" in shown


def test_windows_keep_the_order_and_cut_at_message_boundaries() -> None:
    messages = [Message("user", "x" * 60), Message("assistant", "y" * 60), Message("user", "z")]
    assert windows(messages, limit=100) == [messages[:1], messages[1:]]
    assert windows([Message("user", "x" * 500)], limit=100) == [[Message("user", "x" * 500)]]
    assert windows([], limit=100) == [[]]


def test_hooks_install_sets_the_hosts_own_model_as_the_extractor(
    initialised: Path, gm: Gm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude-user"))
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-user"))
    done = gm("hooks", "install", "--agent", "claude", "--extractor", "claude", "--json")
    assert done.exit_code == 0, done.stderr
    data: Any = done.json()
    assert data["extractor"]["name"] == "claude"
    assert Path(data["extractor"]["file"]) == initialised / ".git" / "gitmem" / "config.json"
    assert gm("config", "extractor").stdout.startswith('extractor = "claude"')
    user = gm("hooks", "install", "--agent", "codex", "--extractor", "codex", "--json")
    assert user.exit_code == 0, user.stderr
    assert Path(user.json()["extractor"]["file"]).parent == tmp_path / "gitmem-home"  # type: ignore[index]
    refused = gm("hooks", "install", "--extractor", "claude")
    assert refused.exit_code == 2 and "go with --agent" in refused.stderr


def test_hooks_install_offers_the_host_model_while_captures_run_the_heuristic(
    initialised: Path, gm: Gm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude-user"))
    monkeypatch.setenv("COPILOT_HOME", str(tmp_path / "copilot-user"))
    offered = gm("hooks", "install", "--agent", "claude")
    assert offered.exit_code == 0, offered.stderr
    assert "Captures run the heuristic extractor" in offered.stdout
    assert "`gitmem config extractor claude`" in offered.stdout
    copilot = gm("hooks", "install", "--agent", "copilot")  # no extractor of its own
    assert copilot.exit_code == 0 and "extractor" not in copilot.stdout
    assert gm("config", "--repo", "extractor", "claude").exit_code == 0
    again = gm("hooks", "install", "--agent", "claude")
    assert again.exit_code == 0 and "heuristic" not in again.stdout


def test_a_value_set_where_another_source_wins_says_which_wins(
    initialised: Path, gm: Gm, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`hooks install --extractor claude` sets the repository's file: turning the model off
    again in your own file changes nothing here, and says so."""
    repo_file = initialised / ".git" / "gitmem" / "config.json"
    assert gm("config", "--repo", "extractor", "claude").exit_code == 0
    shadowed = gm("config", "extractor", "heuristic")
    assert shadowed.exit_code == 0  # written all the same: it holds in other repositories
    assert f'extractor = "claude" from {repo_file} wins here' in shadowed.stderr
    assert "`gitmem config --repo` sets it there" in shadowed.stderr
    assert gm("config", "extractor").stdout.startswith('extractor = "claude"')
    off = gm("config", "--repo", "extractor", "heuristic")
    assert off.exit_code == 0 and off.stderr == ""
    assert gm("config", "extractor").stdout.startswith('extractor = "heuristic"')
    monkeypatch.setenv("GITMEM_EXTRACTOR", "codex")
    env = gm("config", "--repo", "extractor", "claude")
    assert env.exit_code == 0 and 'extractor = "codex" from $GITMEM_EXTRACTOR' in env.stderr
    assert "--repo` sets" not in env.stderr


def test_a_chat_import_asks_the_host_cli_with_its_own_model_setting(
    initialised: Path, gm: Gm, hosts: Hosts
) -> None:
    assert gm("config", "--repo", "claude.model", "haiku").exit_code == 0
    chat = DATA / "chat" / "telegram_export.json"
    gm("import-chat", str(chat), "--extractor", "claude")
    (call,) = hosts.calls()
    assert call["argv"][call["argv"].index("--model") + 1] == "haiku"


def test_a_bulk_import_asks_no_model_unless_told_to(
    initialised: Path, gm: Gm, hosts: Hosts, tmp_path: Path
) -> None:
    # a backfill of past sessions would be one paid call (or more) per session: with a
    # model extractor configured, a folder is imported with the heuristic, and says so
    assert gm("config", "--repo", "extractor", "claude").exit_code == 0
    folder = tmp_path / "past"
    folder.mkdir()
    for n in range(3):
        (folder / f"s{n}.md").write_text(SESSION.replace("sync", f"sync {n}"))
    done = gm("import", str(folder))
    assert done.exit_code == 0, done.stderr
    assert hosts.calls() == []
    assert "importing 3 files with the heuristic" in done.stderr
    assert "`--extractor claude` uses it here" in done.stderr
    assert "3 captured" in done.stdout
    # named, it is used; and one file is imported as a capture is, with the configured one
    more = tmp_path / "more"
    more.mkdir()
    for n in range(2):
        (more / f"t{n}.md").write_text(SESSION.replace("sync", f"push {n}"))
    assert gm("import", str(more), "--extractor", "claude").exit_code == 0
    assert len(hosts.calls()) == 2
    single = tmp_path / "one.md"
    single.write_text(SESSION.replace("sync", "rebase"))
    one = gm("import", str(single))
    assert one.exit_code == 0 and "with the heuristic" not in one.stderr
    assert len(hosts.calls()) == 3


def test_bulk_extractor_keeps_what_costs_nothing_or_is_named() -> None:
    assert bulk_extractor(None, "heuristic", 50) == (None, None)
    assert bulk_extractor(None, "none", 50) == (None, None)
    assert bulk_extractor("codex", "claude", 50) == ("codex", None)
    assert bulk_extractor(None, "claude", 1) == (None, None)
    for model in ("claude", "codex", "command", "openai"):
        extractor, notice = bulk_extractor(None, model, 2)
        assert extractor == "heuristic" and notice is not None and f"'{model}'" in notice
