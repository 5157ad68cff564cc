"""Agent-host settings: gitmem's hooks go in, everything else stays, and they come out again."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import TESTS

from gitmem.agents.hosts import AGENTS, HOOK_TIMEOUT, agent_status, install_agent, uninstall_agent
from gitmem.core.errors import InputError

DATA = TESTS / "data" / "agents"
COMMAND = [sys.executable, "-m", "gitmem"]
SETTINGS = {
    "claude": ".claude/settings.json",
    "codex": ".codex/hooks.json",
    "copilot": ".github/hooks/gitmem.json",
    "gemini": ".gemini/settings.json",
}
SESSION_EVENTS = {
    "claude": ("SessionStart", "SessionEnd", "PreCompact"),
    "codex": ("SessionStart", "Stop", "SessionEnd", "PreCompact"),
    "copilot": ("sessionStart", "sessionEnd", "preCompact"),
    "gemini": ("SessionStart", "SessionEnd", "PreCompress"),
}
"""What each host's documentation names the events gitmem wires (docs/hooks.md)."""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "project"
    path.mkdir()
    return path


@pytest.fixture
def user_home(tmp_path: Path) -> Path:
    path = tmp_path / "user-home"
    path.mkdir()
    return path


def place(src: str, dest: Path) -> bytes:
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(DATA / src, dest)
    return dest.read_bytes()


def commands(settings: dict[str, Any], event: str) -> list[str]:
    if settings.get("version") == 1:  # Copilot CLI: a flat list, the command under `bash`
        return [h["bash"] for h in settings["hooks"].get(event, [])]
    return [h["command"] for group in settings["hooks"].get(event, []) for h in group["hooks"]]


def ours(agent: str) -> dict[str, str]:
    start, *captures = SESSION_EVENTS[agent]
    found = {start: shlex.join([*COMMAND, "brief", "--from-hook", agent])}
    return found | {e: shlex.join([*COMMAND, "capture", "--from-hook", agent]) for e in captures}


def entry(agent: str, event: str, command: str) -> dict[str, Any]:
    """The entry each host's documentation describes (timeouts: Gemini CLI counts
    milliseconds, Copilot CLI says timeoutSec, Codex allows SessionEnd 3 s at most)."""
    if agent == "copilot":
        return {"type": "command", "bash": command, "timeoutSec": HOOK_TIMEOUT}
    if agent == "gemini":
        name = "gitmem-brief" if event == "SessionStart" else f"gitmem-capture-{event.lower()}"
        return {"type": "command", "command": command, "timeout": 30_000, "name": name}
    timeout = 3 if (agent, event) == ("codex", "SessionEnd") else HOOK_TIMEOUT
    return {"type": "command", "command": command, "timeout": timeout}


# -- install into a project with no settings ----------------------------------------------


@pytest.mark.parametrize("agent", AGENTS)
def test_install_into_an_empty_project(agent: str, project: Path, user_home: Path) -> None:
    assert not agent_status(agent, project, user_home)

    written = install_agent(agent, project, user_home, COMMAND)

    path = project / SETTINGS[agent]
    assert written == [path]
    settings = json.loads(path.read_text())
    for event, command in ours(agent).items():
        wanted = entry(agent, event, command)
        assert settings["hooks"][event] == [wanted if agent == "copilot" else {"hooks": [wanted]}]
    assert set(settings["hooks"]) == set(ours(agent))
    assert ("version" in settings) == (agent == "copilot")
    assert agent_status(agent, project, user_home)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644


@pytest.mark.parametrize("agent", AGENTS)
def test_install_twice_writes_nothing_the_second_time(
    agent: str, project: Path, user_home: Path
) -> None:
    install_agent(agent, project, user_home, COMMAND)
    path = project / SETTINGS[agent]
    first = path.read_bytes()

    assert install_agent(agent, project, user_home, COMMAND) == []

    assert path.read_bytes() == first


@pytest.mark.parametrize("agent", AGENTS)
def test_uninstall_removes_a_file_only_we_wrote(agent: str, project: Path, user_home: Path) -> None:
    install_agent(agent, project, user_home, COMMAND)
    path = project / SETTINGS[agent]

    assert uninstall_agent(agent, project, user_home) == [path]

    assert not path.exists()
    assert not path.parent.exists()
    assert not agent_status(agent, project, user_home)
    assert uninstall_agent(agent, project, user_home) == []


@pytest.mark.parametrize("agent", AGENTS)
def test_the_commands_run_through_a_shell(agent: str, project: Path, tmp_path: Path) -> None:
    """The command strings are valid shell, even with a space in the gitmem path."""
    program = tmp_path / "with space" / "gitmem"
    program.parent.mkdir()
    program.write_text('#!/bin/sh\necho "$@"\ncat\n')
    program.chmod(0o755)
    install_agent(agent, project, tmp_path, [str(program)])
    settings = json.loads((project / SETTINGS[agent]).read_text())

    for event in ours(agent):
        (command,) = commands(settings, event)
        done = subprocess.run(
            ["sh", "-c", command], input='{"session_id": "s"}', capture_output=True, text=True
        )
        words = (
            f"brief --from-hook {agent}"
            if event == SESSION_EVENTS[agent][0]
            else f"capture --from-hook {agent}"
        )
        assert done.stdout == f'{words}\n{{"session_id": "s"}}'


# -- install into existing settings ---------------------------------------------------


def test_claude_keeps_every_existing_key_and_hook(project: Path, user_home: Path) -> None:
    path = project / ".claude" / "settings.json"
    place("claude-settings.json", path)
    original = json.loads(path.read_text())

    install_agent("claude", project, user_home, COMMAND)

    settings = json.loads(path.read_text())
    assert list(settings) == list(original)
    assert {k: v for k, v in settings.items() if k != "hooks"} == {
        k: v for k, v in original.items() if k != "hooks"
    }
    assert settings["hooks"]["PreToolUse"] == original["hooks"]["PreToolUse"]
    assert settings["hooks"]["Stop"] == original["hooks"]["Stop"]
    # Their SessionStart group (with look-alike commands) is untouched; ours comes after.
    assert settings["hooks"]["SessionStart"][0] == original["hooks"]["SessionStart"][0]
    assert commands(settings, "SessionStart")[-1] == ours("claude")["SessionStart"]
    assert commands(settings, "SessionEnd") == [ours("claude")["SessionEnd"]]
    assert agent_status("claude", project, user_home)


@pytest.mark.parametrize(
    ("agent", "fixture"), [("claude", "claude-settings.json"), ("codex", "codex-hooks.json")]
)
def test_uninstall_gives_back_what_was_there(
    agent: str, fixture: str, project: Path, user_home: Path
) -> None:
    path = project / SETTINGS[agent]
    original = place(fixture, path)
    install_agent(agent, project, user_home, COMMAND)
    installed = path.read_bytes()

    assert install_agent(agent, project, user_home, COMMAND) == []
    assert path.read_bytes() == installed

    assert uninstall_agent(agent, project, user_home) == [path]

    assert json.loads(path.read_bytes()) == json.loads(original)
    assert not agent_status(agent, project, user_home)


def test_codex_keeps_its_own_stop_hook_beside_ours(project: Path, user_home: Path) -> None:
    path = project / ".codex" / "hooks.json"
    original = json.loads(place("codex-hooks.json", path))

    install_agent("codex", project, user_home, COMMAND)

    settings = json.loads(path.read_text())
    assert settings["hooks"]["PreToolUse"] == original["hooks"]["PreToolUse"]
    assert settings["hooks"]["Stop"][0] == original["hooks"]["Stop"][0]
    assert commands(settings, "Stop") == [
        "python3 .codex/hooks/stop.py",
        ours("codex")["Stop"],
    ]


def test_an_older_gitmem_handler_is_updated_in_place(project: Path, user_home: Path) -> None:
    path = project / ".claude" / "settings.json"
    old = "/old/venv/bin/python -m gitmem brief"
    mine = {"matcher": "startup|resume", "hooks": [{"type": "command", "command": old}]}
    path.parent.mkdir()
    path.write_text(json.dumps({"hooks": {"SessionStart": [mine]}}))

    install_agent("claude", project, user_home, COMMAND)

    start = json.loads(path.read_text())["hooks"]["SessionStart"]
    assert start == [
        {**mine, "hooks": [{"type": "command", "command": ours("claude")["SessionStart"]}]}
    ]


def test_a_duplicate_of_ours_is_folded_into_one(project: Path, user_home: Path) -> None:
    path = project / ".claude" / "settings.json"
    twice = {"hooks": [{"type": "command", "command": "gitmem brief"}]}
    path.parent.mkdir()
    path.write_text(json.dumps({"hooks": {"SessionStart": [twice, twice]}}))

    install_agent("claude", project, user_home, COMMAND)

    settings = json.loads(path.read_text())
    assert commands(settings, "SessionStart") == [ours("claude")["SessionStart"]]


def test_the_file_mode_is_kept(project: Path, user_home: Path) -> None:
    path = project / ".claude" / "settings.json"
    place("claude-settings.json", path)
    path.chmod(0o600)

    install_agent("claude", project, user_home, COMMAND)

    assert stat.S_IMODE(path.stat().st_mode) == 0o600


# -- refusals -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("agent", "fixture", "content"),
    [
        ("claude", "claude-settings-malformed.json", None),
        ("claude", None, '{"hooks": ["SessionStart"]}'),
        ("claude", None, '{"hooks": {"SessionStart": {"hooks": []}}}'),
        ("codex", None, '{"hooks": {"Stop": [{"command": "x"}]}}'),
        ("codex", None, "[1, 2]"),
    ],
)
def test_malformed_settings_are_refused_and_left_untouched(
    agent: str, fixture: str | None, content: str | None, project: Path, user_home: Path
) -> None:
    path = project / SETTINGS[agent]
    if fixture is not None:
        before = place(fixture, path)
    else:
        path.parent.mkdir(parents=True)
        path.write_text(content or "")
        before = path.read_bytes()

    for action in (
        lambda: install_agent(agent, project, user_home, COMMAND),
        lambda: uninstall_agent(agent, project, user_home),
        lambda: agent_status(agent, project, user_home),
    ):
        with pytest.raises(InputError, match=re.escape(str(path))):
            action()
        assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]


def test_unknown_agent(project: Path) -> None:
    with pytest.raises(InputError, match="unknown agent 'cursor'"):
        install_agent("cursor", project)


def test_a_command_uninstall_could_not_recognise_is_refused(project: Path) -> None:
    with pytest.raises(InputError, match="recognise"):
        install_agent("claude", project, project, ["/usr/local/bin/gm"])
    assert not (project / ".claude").exists()


def test_claude_hooks_turned_off_by_the_user(project: Path, user_home: Path) -> None:
    user = user_home / ".claude" / "settings.json"
    user.parent.mkdir()
    user.write_text('{"disableAllHooks": true}')

    with pytest.raises(InputError, match=r"turned off in .*settings\.json"):
        install_agent("claude", project, user_home, COMMAND)
    assert not (project / ".claude").exists()

    local = project / ".claude" / "settings.local.json"
    local.parent.mkdir()
    local.write_text('{"disableAllHooks": false}')
    install_agent("claude", project, user_home, COMMAND)
    assert agent_status("claude", project, user_home)

    local.write_text('{"disableAllHooks": true}')
    assert not agent_status("claude", project, user_home)


# -- Codex configuration ------------------------------------------------------------


def test_codex_config_is_read_never_written(project: Path, user_home: Path) -> None:
    config = user_home / ".codex" / "config.toml"
    before = place("codex-config.toml", config)

    install_agent("codex", project, user_home, COMMAND)

    assert config.read_bytes() == before
    assert agent_status("codex", project, user_home)


def test_codex_hooks_turned_off_are_respected(project: Path, user_home: Path) -> None:
    config = user_home / ".codex" / "config.toml"
    place("codex-config-hooks-off.toml", config)

    with pytest.raises(InputError, match=r"codex hooks are turned off in .*config\.toml"):
        install_agent("codex", project, user_home, COMMAND)
    assert not (project / ".codex").exists()

    # The project's layer overrides the user's.
    project_config = project / ".codex" / "config.toml"
    project_config.parent.mkdir()
    project_config.write_text("[features]\nhooks = true\n")
    install_agent("codex", project, user_home, COMMAND)
    assert agent_status("codex", project, user_home)

    project_config.write_text("[features]\ncodex_hooks = false\n")
    assert not agent_status("codex", project, user_home)


def test_codex_home_comes_from_the_environment(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    codex_home = tmp_path / "codex-home"
    place("codex-config-hooks-off.toml", codex_home / "config.toml")
    monkeypatch.setenv("CODEX_HOME", str(codex_home))

    with pytest.raises(InputError, match=re.escape(str(codex_home))):
        install_agent("codex", project, gitmem_command=COMMAND)


def test_malformed_codex_config_is_refused(project: Path, user_home: Path) -> None:
    config = user_home / ".codex" / "config.toml"
    before = place("codex-config-malformed.toml", config)

    with pytest.raises(InputError, match="not valid TOML"):
        install_agent("codex", project, user_home, COMMAND)

    assert config.read_bytes() == before
    assert not (project / ".codex").exists()


def test_the_default_command_is_portable_when_gitmem_is_on_path(
    project: Path, user_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir = Path(sys.executable).absolute().parent
    if not (bin_dir / "gitmem").exists():
        pytest.skip("gitmem is not installed as a script beside this Python")
    monkeypatch.setenv("PATH", str(bin_dir))
    install_agent("claude", project, home=user_home)
    settings = json.loads((project / SETTINGS["claude"]).read_text())
    assert commands(settings, "SessionStart") == ["gitmem brief --from-hook claude"]
    monkeypatch.setenv("PATH", "/nonexistent")
    uninstall_agent("claude", project, home=user_home)
    install_agent("claude", project, home=user_home)
    settings = json.loads((project / SETTINGS["claude"]).read_text())
    assert commands(settings, "SessionStart") == [ours("claude")["SessionStart"]]
