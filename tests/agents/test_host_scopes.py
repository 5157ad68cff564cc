"""``hooks install --agent … --scope …`` (issue 16): which file, which command, what to do
next, and the hooks' commands run for real: the brief, and recall for each prompt."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import DATA, Gm
from helpers.capturing import capture_sample

from gitmem.agents.host_context import PROMPT_BUDGET, prompt_terms
from gitmem.core.quotes import fold
from gitmem.store.ledger import LEDGER_FILE


@pytest.fixture
def hosts_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Claude's and Codex's user folders, where the hosts' own variables say."""
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude-user"))
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-user"))
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    return tmp_path


@pytest.fixture
def captured(initialised: Path, gm: Gm) -> Path:
    capture_sample(gm)
    return initialised


def hook_commands(path: Path) -> dict[str, str]:
    data = json.loads(path.read_text())
    return {event: groups[0]["hooks"][0]["command"] for event, groups in data["hooks"].items()}


def run_hook(
    command: str, cwd: Path, stdin: str = "", **env: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        shlex.split(command),
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        check=False,
    )


def test_default_scopes_are_files_only_you_use(initialised: Path, gm: Gm, hosts_home: Path) -> None:
    claude = gm("hooks", "install", "--agent", "claude", "--json")
    assert claude.exit_code == 0, claude.stderr
    data: Any = claude.json()
    assert data["scope"] == "local" and data["changed"] is True
    assert data["file"] == str(initialised / ".claude" / "settings.local.json")
    assert not (initialised / ".claude" / "settings.json").exists()
    assert any("workspace-trust" in step for step in data["next_steps"])
    codex = gm("hooks", "install", "--agent", "codex", "--json").json()
    assert isinstance(codex, dict) and codex["scope"] == "user"
    assert codex["file"] == str(hosts_home / "codex-user" / "hooks.json")
    assert any("/hooks" in step for step in codex["next_steps"])
    assert not (initialised / ".codex").exists()
    again = gm("hooks", "install", "--agent", "claude")
    assert again.exit_code == 0 and again.stdout.startswith("already configured claude (local)")
    status = gm("hooks", "status", "--json").json()
    assert isinstance(status, dict)
    assert status["agents"] == {"claude": True, "codex": True, "copilot": False, "gemini": False}


def test_project_scope_warns_that_teammates_need_gitmem(
    initialised: Path, gm: Gm, hosts_home: Path
) -> None:
    result = gm("hooks", "install", "--agent", "claude", "--scope", "project")
    assert result.exit_code == 0
    assert (initialised / ".claude" / "settings.json").is_file()
    assert "every teammate needs gitmem" in result.stderr
    assert "--scope local" in result.stderr
    user = gm("hooks", "install", "--agent", "claude", "--scope", "user", "--json").json()
    assert isinstance(user, dict) and user["warnings"] == []
    assert Path(user["file"]) == hosts_home / "claude-user" / "settings.json"


def test_a_scope_the_host_lacks_is_refused(initialised: Path, gm: Gm, hosts_home: Path) -> None:
    result = gm("hooks", "install", "--agent", "codex", "--scope", "local")
    assert result.exit_code == 2 and result.stderr.startswith("gitmem: codex has no local")
    assert not (hosts_home / "codex-user").exists() and not (initialised / ".codex").exists()
    for args in (("--scope", "user"), ("--prompt-recall",)):
        refused = gm("hooks", "install", *args)
        assert refused.exit_code == 2 and "--agent" in refused.stderr


def test_the_command_falls_back_to_this_interpreter_and_says_so(
    initialised: Path, gm: Gm, hosts_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "other-bin"
    other.mkdir()
    (other / "gitmem").write_text("#!/bin/sh\nexit 0\n")
    (other / "gitmem").chmod(0o755)
    monkeypatch.setenv("PATH", f"{other}{os.pathsep}/usr/bin{os.pathsep}/bin")
    result = gm("hooks", "install", "--agent", "claude")
    assert result.exit_code == 0
    here = shlex.join([os.path.abspath(sys.executable), "-m", "gitmem"])
    assert f"hook command: {here} (the gitmem on PATH ({other / 'gitmem'}) is another" in (
        result.stdout
    )
    written = hook_commands(initialised / ".claude" / "settings.local.json")
    assert written["SessionStart"] == f"{here} brief --from-hook claude"
    ours = Path(sys.executable).parent
    if (ours / "gitmem").is_file():  # the venv's own script: plain `gitmem` is this install
        monkeypatch.setenv("PATH", f"{ours}{os.pathsep}/usr/bin{os.pathsep}/bin")
        data: Any = gm("hooks", "install", "--agent", "claude", "--json").json()
        assert data["command"] == "gitmem" and data["command_source"] == "path"
        written = hook_commands(initialised / ".claude" / "settings.local.json")
        # updated in place, not added
        assert written["SessionStart"] == "gitmem brief --from-hook claude"


def test_the_written_hooks_run_brief_and_user_scope_is_silent_outside_a_repo(
    captured: Path, gm: Gm, hosts_home: Path, tmp_path: Path
) -> None:
    gm("hooks", "install", "--agent", "codex")
    commands = hook_commands(hosts_home / "codex-user" / "hooks.json")
    assert commands["SessionStart"].endswith("brief --from-hook codex")
    inside = run_hook(commands["SessionStart"], captured)
    assert inside.returncode == 0 and inside.stdout.startswith("<gitmem-context")
    elsewhere = tmp_path / "not-a-repo"
    elsewhere.mkdir()
    outside = run_hook(commands["SessionStart"], elsewhere)
    assert (outside.returncode, outside.stdout, outside.stderr) == (0, "", "")


def test_claude_hooks_find_the_repository_from_claude_project_dir(
    captured: Path, gm: Gm, hosts_home: Path, tmp_path: Path
) -> None:
    gm("hooks", "install", "--agent", "claude", "--scope", "user")
    commands = hook_commands(hosts_home / "claude-user" / "settings.json")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shown = run_hook(commands["SessionStart"], elsewhere, CLAUDE_PROJECT_DIR=str(captured))
    assert shown.returncode == 0 and "Cache lives in .git/gitmem/" in shown.stdout


def test_prompt_recall_injects_badged_hits_within_budget_and_records_them(
    captured: Path, gm: Gm, hosts_home: Path
) -> None:
    result = gm("hooks", "install", "--agent", "claude", "--prompt-recall")
    assert result.exit_code == 0, result.stderr
    commands = hook_commands(captured / ".claude" / "settings.local.json")
    prompt = commands["UserPromptSubmit"]
    assert prompt.endswith("recall --from-hook claude")
    ledger = captured / ".git" / "gitmem" / LEDGER_FILE
    ledger.unlink(missing_ok=True)
    event = {"prompt": "Where does the cache live, and is it pushed?", "cwd": str(captured)}
    done = run_hook(prompt, captured, json.dumps(event))
    assert done.returncode == 0 and done.stderr == ""
    out = done.stdout
    assert out.startswith("<gitmem-context>\n") and out.endswith("</gitmem-context>\n")
    assert "[✓ verbatim] Cache lives in .git/gitmem/, never pushed" in out
    assert len(out.encode()) <= PROMPT_BUDGET
    assert fold("the cache lives in .git/gitmem/ and is never pushed") in ledger.read_text()
    nothing = run_hook(prompt, captured, json.dumps({"prompt": "zebra quokka", "cwd": "/"}))
    assert (nothing.returncode, nothing.stdout) == (0, "")
    broken = run_hook(prompt, captured, "{not json")
    assert (broken.returncode, broken.stdout, broken.stderr) == (0, "", "")


def test_prompt_recall_stays_within_its_budget_with_many_hits(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    items = [
        {
            "kind": "fact",
            "text": f"Tokenizer note {n}: " + "tokenizer detail " * 12,
            "trust": "inferred",
        }
        for n in range(30)
    ]
    (tmp_path / "many.json").write_text(json.dumps(items))
    assert (
        gm(
            "capture",
            "--transcript",
            str(DATA / "session.md"),
            "--items",
            str(tmp_path / "many.json"),
        ).exit_code
        == 0
    )
    event = json.dumps({"prompt": "what about the tokenizer?"})
    result = gm("recall", "--from-hook", "codex", input=event)
    assert result.exit_code == 0
    assert 0 < len(result.stdout.encode()) <= PROMPT_BUDGET
    assert result.stdout.count("[~ inferred] Tokenizer note") >= 2


def test_prompt_recall_takes_as_many_terms_as_recall() -> None:
    from gitmem.agents import host_context, recall

    assert host_context.MAX_TERMS == recall.MAX_TERMS
    assert len(prompt_terms(" ".join(f"word{n}" for n in range(100)))) == recall.MAX_TERMS


def test_prompt_terms_drop_stopwords_and_keep_numbers() -> None:
    terms = prompt_terms("What is the status of PR #214 and the tokenizer? The tokenizer!")
    assert terms == ["status", "#214", "tokenizer"]


def test_uninstall_removes_every_scope_unless_told(
    initialised: Path, gm: Gm, hosts_home: Path
) -> None:
    gm("hooks", "install", "--agent", "claude", "--prompt-recall")
    gm("hooks", "install", "--agent", "claude", "--scope", "user")
    one = gm("hooks", "uninstall", "--agent", "claude", "--scope", "user", "--json").json()
    assert one == {
        "agent": "claude",
        "removed_from": [str(hosts_home / "claude-user" / "settings.json")],
    }
    assert (initialised / ".claude" / "settings.local.json").exists()
    rest = gm("hooks", "uninstall", "--agent", "claude").stdout
    assert rest == f"removed gitmem from {initialised / '.claude' / 'settings.local.json'}\n"
    assert not (initialised / ".claude").exists()
    assert (
        gm("hooks", "uninstall", "--agent", "claude").stdout
        == "no gitmem hooks for claude to remove\n"
    )


def test_git_hooks_install_and_uninstall_json(initialised: Path, gm: Gm) -> None:
    installed: Any = gm("hooks", "install", "--json").json()
    assert {h["name"] for h in installed["git"]} == {"post-commit", "post-rewrite", "pre-push"}
    assert all(h["ours"] for h in installed["git"])
    removed: Any = gm("hooks", "uninstall", "--json").json()
    assert not any(h["ours"] for h in removed["git"])
