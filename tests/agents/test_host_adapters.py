"""Every agent host, fed the hook input its documentation describes, gets the output it
reads: the format, the field, and a size within its cap in its own unit. The hooks run as
the host runs them (the installed command, through a shell, the event on stdin), and a
capture hook's detached capture lands a checkpoint of that session.

The inputs are the documented ones (docs/hooks.md cites each page):
Claude Code https://code.claude.com/docs/en/hooks, Codex
https://developers.openai.com/codex/hooks, Copilot CLI
https://docs.github.com/en/copilot/reference/hooks-reference, Gemini CLI
https://geminicli.com/docs/hooks/reference.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers import DATA, Gm
from helpers.polling import wait_for

from gitmem.agents.host_specs import HOSTS
from gitmem.brief.budget import HOST_CAPS, REBRIEF_SHARE, host_budget

pytestmark = pytest.mark.slow  # every test runs the hooks as real subprocesses

SESSION = "5b2f0c1e-aaaa-4bbb-8ccc-0123456789ab"
EARLIER = "0f0f0f0f-earlier-session"


@pytest.fixture
def hosts_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every host's user folder in the test's own home."""
    home = tmp_path / "user"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / ".claude"))
    monkeypatch.setenv("CODEX_HOME", str(home / ".codex"))
    monkeypatch.setenv("COPILOT_HOME", str(home / ".copilot"))
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    return home


@pytest.fixture
def memory(initialised: Path, gm: Gm, tmp_path: Path) -> Path:
    """A repository with memory of two sessions: an earlier one with many items (so a
    brief must leave some out), and SESSION with one decision and one open loop."""
    earlier = [
        {
            "kind": "decision",
            "text": f"Keep a3f9c2d1e0b7{n:04x} in src/pkg_{n}/mod.py (PR #{n}): the reader "
            "checks every receipt before it trusts a record, and the writer signs the exact "
            "bytes it stores, never a re-serialised copy",
        }
        for n in range(40)
    ]
    mine = [
        {"kind": "decision", "text": "The fetcher retries at most 3 times"},
        {"kind": "open_loop", "text": "Decide whether 502 responses retry"},
        {"kind": "belief", "text": "The proxy strips retry headers"},
    ]
    transcript = tmp_path / "t.md"
    transcript.write_text("a session\n")
    for session, items in ((EARLIER, earlier), (SESSION, mine)):
        path = tmp_path / f"{session}.json"
        path.write_text(json.dumps(items))
        done = gm(
            "capture", "--transcript", str(transcript), "--items", str(path), "--session", session
        )
        assert done.exit_code == 0, done.stderr
    return initialised


def installed(gm: Gm, agent: str, *args: str) -> dict[str, Any]:
    done = gm("hooks", "install", "--agent", agent, "--json", *args)
    assert done.exit_code == 0, done.stderr
    data = done.json()
    assert isinstance(data, dict)
    return data


def commands_of(agent: str, path: Path) -> dict[str, str]:
    """Event → the command installed for it, read the way the host reads its file."""
    data = json.loads(path.read_text())
    if HOSTS[agent].flat:
        return {event: entries[0]["bash"] for event, entries in data["hooks"].items()}
    return {event: groups[0]["hooks"][0]["command"] for event, groups in data["hooks"].items()}


def run_hook(command: str, cwd: Path, event: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    """As the hosts run a command hook: through a shell, the event as JSON on stdin."""
    return subprocess.run(
        ["sh", "-c", command],
        cwd=cwd,
        input=json.dumps(event),
        capture_output=True,
        text=True,
        env=dict(os.environ),
        check=False,
    )


def start_event(agent: str, repo: Path, source: str = "startup") -> dict[str, Any]:
    """The documented SessionStart input of each host."""
    if agent == "copilot":  # camelCase; timestamp in milliseconds
        return {"sessionId": SESSION, "timestamp": 1763629200000, "cwd": str(repo), "source": "new"}
    event = {
        "session_id": SESSION,
        "cwd": str(repo),
        "hook_event_name": "SessionStart",
        "source": source,
    }
    if agent == "claude":
        event |= {"transcript_path": str(repo / "t.jsonl"), "model": "claude-sonnet-4-6"}
    if agent == "codex":
        event |= {"transcript_path": None, "model": "gpt-5.1-codex"}
    if agent == "gemini":
        event |= {"transcript_path": str(repo / "t.json"), "timestamp": "2026-11-21T10:00:00Z"}
    return event


def context_of(agent: str, stdout: str) -> str:
    """What the host adds to the model's context from a SessionStart hook's stdout."""
    if agent in ("claude", "codex"):
        assert not stdout.lstrip().startswith("{")  # plain stdout, not parsed as JSON
        return stdout
    document = json.loads(stdout)  # JSON and nothing else
    if agent == "copilot":
        assert set(document) == {"additionalContext"}
        return str(document["additionalContext"])
    assert document["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    return str(document["hookSpecificOutput"]["additionalContext"])


@pytest.mark.parametrize("agent", HOSTS)
def test_the_session_start_hook_gives_each_host_the_brief_it_reads_within_its_cap(
    agent: str, memory: Path, gm: Gm, hosts_home: Path
) -> None:
    data = installed(gm, agent)
    start = HOSTS[agent].session[0].event
    command = commands_of(agent, Path(data["file"]))[start]
    done = run_hook(command, memory, start_event(agent, memory))
    assert done.returncode == 0, done.stderr
    context = context_of(agent, done.stdout)
    assert context.startswith("<gitmem-context>\n") and "gitmem brief" in context
    cap, budget = HOST_CAPS[agent], host_budget(agent)
    assert budget.cost(context) <= budget.limit < cap.limit
    # 43 long items never fit: the last line says how many were left out and how to see them
    last = context.splitlines()[-2]
    assert "more item(s) not shown" in last and "`gitmem brief --budget 0`" in last


@pytest.mark.parametrize("agent", ["claude", "codex"])
def test_after_a_compaction_the_host_gets_this_sessions_short_re_brief(
    agent: str, memory: Path, gm: Gm, hosts_home: Path
) -> None:
    data = installed(gm, agent)
    command = commands_of(agent, Path(data["file"]))["SessionStart"]
    done = run_hook(command, memory, start_event(agent, memory, source="compact"))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "<gitmem-context>" and lines[-1] == "</gitmem-context>"
    assert "after the compaction: 2 decision(s) and open loop(s)" in lines[1]
    assert "The fetcher retries at most 3 times" in done.stdout
    assert "Decide whether 502 responses retry" in done.stdout
    assert "proxy strips" not in done.stdout  # a belief: not what a summary loses first
    assert "a3f9c2d1e0b7" not in done.stdout  # the earlier session's: already briefed
    budget = host_budget(agent)
    assert budget.cost(done.stdout) <= budget.limit // REBRIEF_SHARE


def end_event(agent: str, repo: Path, transcript: Path | None, session: str) -> dict[str, Any]:
    """The documented session-end input of each host."""
    if agent == "copilot":  # no transcript path: the session is found by its id
        return {
            "sessionId": session,
            "timestamp": 1763629500000,
            "cwd": str(repo),
            "reason": "user_exit",
        }
    event = {
        "session_id": session,
        "transcript_path": str(transcript),
        "cwd": str(repo),
        "hook_event_name": "SessionEnd",
        "reason": "exit" if agent == "gemini" else "other",
    }
    return event


@pytest.mark.parametrize(
    ("agent", "fixture", "session"),
    [
        ("copilot", "copilot-events.jsonl", "9a7c1e52-3f0b-4d6e-8b21-5c4d7e0a9f13"),
        ("gemini", "gemini-session.json", "5d1f0e8a-2b3c-4d5e-9f60-718293a4b5c6"),
    ],
)
def test_the_session_end_hook_captures_the_hosts_own_transcript(
    agent: str, fixture: str, session: str, initialised: Path, gm: Gm, hosts_home: Path
) -> None:
    if agent == "copilot":
        transcript = hosts_home / ".copilot" / "session-state" / session / "events.jsonl"
    else:
        transcript = hosts_home / ".gemini" / "tmp" / "project" / "chats" / "session-1.json"
    transcript.parent.mkdir(parents=True)
    transcript.write_bytes((DATA / "hosts" / fixture).read_bytes())
    data = installed(gm, agent)
    capture = next(e for e in HOSTS[agent].session if e.words[0] == "capture").event
    command = commands_of(agent, Path(data["file"]))[capture]
    done = run_hook(command, initialised, end_event(agent, initialised, transcript, session))
    assert done.returncode == 0 and done.stdout == "", done.stderr

    def captured() -> list[Any]:
        entries = gm("log", "--json").json()
        assert isinstance(entries, list)
        return [e for e in entries if e["session"] == session and e["verified"]]

    wait_for(captured, seconds=60)


@pytest.mark.parametrize("agent", HOSTS)
def test_each_host_captures_before_a_compaction(
    agent: str, gm: Gm, initialised: Path, hosts_home: Path
) -> None:
    data = installed(gm, agent)
    events = commands_of(agent, Path(data["file"]))
    compact = {
        "claude": "PreCompact",
        "codex": "PreCompact",
        "copilot": "preCompact",
        "gemini": "PreCompress",
    }[agent]
    assert events[compact].endswith(f"capture --from-hook {agent}")


def test_gemini_cli_gets_prompt_recall_as_its_before_agent_context(
    memory: Path, gm: Gm, hosts_home: Path
) -> None:
    data = installed(gm, "gemini", "--prompt-recall")
    command = commands_of("gemini", Path(data["file"]))["BeforeAgent"]
    event = {
        "session_id": SESSION,
        "transcript_path": str(memory / "t.json"),
        "cwd": str(memory),
        "hook_event_name": "BeforeAgent",
        "timestamp": "2026-11-21T10:00:00Z",
        "prompt": "how many times does the fetcher retry?",
    }
    done = run_hook(command, memory, event)
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)["hookSpecificOutput"]
    assert output["hookEventName"] == "BeforeAgent"
    assert "retries at most 3 times" in output["additionalContext"]
    assert len(output["additionalContext"].encode()) <= 2_000


def test_copilot_cli_gets_no_prompt_hook_it_would_not_read(
    gm: Gm, initialised: Path, hosts_home: Path
) -> None:
    refused = gm("hooks", "install", "--agent", "copilot", "--prompt-recall")
    assert refused.exit_code == 2 and "userPromptSubmitted" in refused.stderr
    assert not (hosts_home / ".copilot" / "hooks").exists()
    assert gm("hooks", "install", "--agent", "copilot", "--scope", "local").exit_code == 2


def test_a_copilot_cli_hook_file_is_gitmems_own_and_goes_whole(
    gm: Gm, initialised: Path, hosts_home: Path
) -> None:
    data = installed(gm, "copilot", "--scope", "project")
    path = initialised / ".github" / "hooks" / "gitmem.json"
    assert data["file"] == str(path) and data["warnings"]
    document = json.loads(path.read_text())
    assert document["version"] == 1 and set(document["hooks"]) == {
        "sessionStart",
        "sessionEnd",
        "preCompact",
    }
    done = gm("hooks", "uninstall", "--agent", "copilot", "--scope", "project")
    assert done.exit_code == 0 and not path.exists()


def test_gemini_cli_with_its_hooks_turned_off_is_refused(
    gm: Gm, initialised: Path, hosts_home: Path
) -> None:
    settings = initialised / ".gemini" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(
        '{\n  // hooks off for this project\n  "hooksConfig": {"enabled": false},\n}\n'
    )
    refused = gm("hooks", "install", "--agent", "gemini")
    assert refused.exit_code == 2 and "turned off" in refused.stderr
    assert str(settings) in refused.stderr
    assert not (hosts_home / ".gemini" / "settings.json").exists()
