"""``gitmem doctor``: named checks, each with its fix; exit 1 when one fails (issue 16)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import Gm, git
from helpers.capturing import capture_sample

from gitmem.setup.demo import run_demo
from gitmem.store.capturelog import CaptureLog

NAMES = [
    "key",
    "trust_roots",
    "config",
    "git_hooks",
    "claude_hooks",
    "codex_hooks",
    "copilot_hooks",
    "gemini_hooks",
    "travel",
    "read_model",
    "captures",
    "brief_size",
]


@pytest.fixture(autouse=True)
def _host_homes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude-user"))
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-user"))
    monkeypatch.setenv("COPILOT_HOME", str(tmp_path / "copilot-user"))
    # The hook files these tests write name this interpreter (``python -m gitmem``), as
    # they do wherever the gitmem on PATH is not this installation: with its virtual
    # environment activated, plain ``gitmem`` was written, and a test that hides PATH
    # found it unresolved (agents.hosts.hook_command).
    here = str(Path(sys.executable).absolute().parent)
    kept = [
        p
        for p in os.environ.get("PATH", "").split(os.pathsep)
        if p and str(Path(p).absolute()) != here
    ]
    monkeypatch.setenv("PATH", os.pathsep.join(kept))


def checks(gm: Gm, expected_exit: int) -> dict[str, dict[str, Any]]:
    result = gm("doctor", "--json")
    assert result.exit_code == expected_exit, result.stdout
    data: Any = result.json()
    assert data["ok"] is (expected_exit == 0)
    assert [c["name"] for c in data["checks"]] == NAMES
    for c in data["checks"]:
        assert c["status"] in ("ok", "warn", "fail") and c["detail"]
        assert c["status"] == "ok" or c["fix"], c
    return {c["name"]: c for c in data["checks"]}


@pytest.fixture
def healthy(initialised: Path, gm: Gm) -> Path:
    assert gm("hooks", "install").exit_code == 0
    assert gm("hooks", "install", "--agent", "claude").exit_code == 0
    capture_sample(gm)
    return initialised


def test_before_init_the_key_check_fails_with_its_fix(repo: Path, gm: Gm) -> None:
    found = checks(gm, 1)
    assert found["key"]["status"] == "fail" and found["key"]["fix"] == "gitmem init"
    text = gm("doctor")
    assert text.exit_code == 1
    assert "✗ key: " in text.stdout and "    fix: gitmem init" in text.stdout
    assert text.stdout.splitlines()[-1].startswith("doctor: ")


def test_a_set_up_repository_passes(healthy: Path, gm: Gm) -> None:
    found = checks(gm, 0)
    for name in ("key", "trust_roots", "config", "git_hooks", "claude_hooks", "read_model"):
        assert found[name]["status"] == "ok", found[name]
    assert "captures" in found and found["captures"]["status"] == "ok"
    size = found["brief_size"]
    assert size["status"] == "ok" and "of 10,000 characters" in size["detail"]
    assert "of 2,500 tokens" in size["detail"]


@pytest.fixture
def only_git_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A PATH that holds git and ssh-keygen only (no host CLI, whatever this machine has)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for tool in ("git", "ssh-keygen"):
        found = shutil.which(tool)
        assert found is not None
        (folder / tool).symlink_to(found)
    monkeypatch.setenv("PATH", str(folder))
    return folder


def test_a_host_not_configured_warns_only_where_it_is_used(
    healthy: Path, gm: Gm, tmp_path: Path, only_git_on_path: Path
) -> None:
    """A Claude Code user is not told three times a run to wire hosts they never use;
    a host seen here (its CLI on PATH, its folder in the home or the repository) but
    not wired is a warning, with the fix."""
    found = checks(gm, 0)
    for agent in ("codex", "copilot", "gemini"):
        check = found[f"{agent}_hooks"]
        assert check["status"] == "ok" and check["detail"] == (
            f"not configured; {agent} is not used here"
        )
    cli = only_git_on_path / "codex"
    cli.write_text("#!/bin/sh\nexit 0\n")
    cli.chmod(0o755)
    (tmp_path / "copilot-user").mkdir()
    (healthy / ".gemini").mkdir()
    found = checks(gm, 0)
    for agent, seen in (("codex", f"{cli} on PATH"), ("copilot", "copilot-user"), ("gemini", "")):
        check = found[f"{agent}_hooks"]
        assert check["status"] == "warn", check
        assert f"not configured, though {agent} is used here" in check["detail"]
        assert seen in check["detail"]
        assert check["fix"] == f"gitmem hooks install --agent {agent}"
    assert str(healthy / ".gemini") in found["gemini_hooks"]["detail"]
    assert gm("hooks", "install", "--agent", "codex").exit_code == 0  # the fix works
    assert checks(gm, 0)["codex_hooks"]["status"] == "ok"


def test_a_host_wired_at_two_scopes_or_turned_off_warns(
    healthy: Path, gm: Gm, tmp_path: Path
) -> None:
    """Codex runs the hooks of every file it finds: installed for the user and in the
    project, every session gets the brief twice. Codex's feature flag off: nothing runs."""
    for scope in ("user", "project"):
        assert gm("hooks", "install", "--agent", "codex", "--scope", scope).exit_code == 0
    found = checks(gm, 0)["codex_hooks"]
    assert found["status"] == "warn" and "the brief twice" in found["detail"]
    assert found["fix"] == "gitmem hooks uninstall --agent codex --scope project"
    assert gm(*found["fix"].split()[1:]).exit_code == 0  # the fix works
    assert checks(gm, 0)["codex_hooks"]["status"] == "ok"
    (tmp_path / "codex-user" / "config.toml").write_text("[features]\nhooks = false\n")
    found = checks(gm, 0)["codex_hooks"]
    assert found["status"] == "warn" and "turned off" in found["detail"]
    assert str(tmp_path / "codex-user" / "config.toml") in found["detail"]
    # Claude Code runs one command found in two files once: the same command is fine
    assert gm("hooks", "install", "--agent", "claude", "--scope", "project").exit_code == 0
    assert checks(gm, 0)["claude_hooks"]["status"] == "ok"


def test_a_hook_git_cannot_run_fails(healthy: Path, gm: Gm) -> None:
    hook = healthy / ".git" / "hooks" / "post-commit"
    hook.chmod(0o644)
    found = checks(gm, 1)
    assert found["git_hooks"]["status"] == "fail"
    assert found["git_hooks"]["fix"].startswith("chmod +x ")


def test_an_agent_hook_command_that_does_not_resolve_fails(healthy: Path, gm: Gm) -> None:
    path = healthy / ".claude" / "settings.local.json"
    data = json.loads(path.read_text())
    for groups in data["hooks"].values():
        for group in groups:
            for hook in group["hooks"]:
                hook["command"] = hook["command"].replace(sys.executable, "/gone/python")
    path.write_text(json.dumps(data))
    found = checks(gm, 1)
    assert found["claude_hooks"]["status"] == "fail"
    assert "/gone/python does not exist" in found["claude_hooks"]["detail"]
    assert found["claude_hooks"]["fix"].startswith(
        "gitmem hooks install --agent claude --scope local"
    )
    assert gm("hooks", "install", "--agent", "claude").exit_code == 0  # the fix works
    assert checks(gm, 0)["claude_hooks"]["status"] == "ok"


def test_travel_is_checked_per_remote(healthy: Path, gm: Gm, tmp_path: Path) -> None:
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(healthy, "remote", "add", "origin", str(bare))
    found = checks(gm, 0)
    assert found["travel"]["status"] == "warn"
    assert "origin: git fetch does not bring memory" in found["travel"]["detail"]
    assert found["travel"]["fix"] == "gitmem sync --setup REMOTE"
    # the refspecs `init`/`sync --setup` write (any refs/gitmem/* spec counts)
    git(
        healthy,
        "config",
        "--add",
        "remote.origin.fetch",
        "refs/gitmem/*:refs/gitmem-remotes/origin/*",
    )
    git(healthy, "config", "--add", "remote.origin.push", "refs/gitmem/*:refs/gitmem/*")
    assert checks(gm, 0)["travel"]["status"] == "ok"


def test_travel_set_up_by_sync_setup_is_ok(healthy: Path, gm: Gm, tmp_path: Path) -> None:
    """What `sync --setup` wires (a fetch refspec and the pre-push hook, never a push
    refspec) is travel configured both ways."""
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    git(healthy, "remote", "add", "origin", str(bare))
    done = gm("sync", "--setup", "origin")
    assert done.exit_code == 0, done.stderr
    assert "remote.origin.push" not in git(healthy, "config", "--list")
    travel = checks(gm, 0)["travel"]
    assert travel["status"] == "ok", travel


def test_a_failed_last_capture_fails_and_a_later_success_clears_it(healthy: Path, gm: Gm) -> None:
    log = CaptureLog(healthy / ".git" / "gitmem")
    log.write("failed", "hook post-commit abc", error="extractor command not found")
    found = checks(gm, 1)
    assert found["captures"]["status"] == "fail"
    assert "extractor command not found" in found["captures"]["detail"]
    log.write("ok", "hook post-commit def")
    assert checks(gm, 0)["captures"]["status"] == "ok"


def test_a_bad_config_and_an_untrusted_key_fail(healthy: Path, gm: Gm, home: Path) -> None:
    (healthy / ".git" / "gitmem" / "config.json").write_text('{"extractor": "bogus"}')
    (home / "allowed_signers").write_text("")
    found = checks(gm, 1)
    assert (
        found["config"]["status"] == "fail"
        and "extractor must be one of" in found["config"]["detail"]
    )
    assert found["trust_roots"]["status"] == "fail"


def test_doctor_passes_in_the_demo_repository(tmp_path: Path) -> None:
    kept = tmp_path / "demo"
    run_demo(kept, lambda _: None)
    done = subprocess.run(
        [sys.executable, "-m", "gitmem", "-C", str(kept / "repo"), "doctor", "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, "GITMEM_HOME": str(kept / "home")},
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    found = {c["name"]: c for c in json.loads(done.stdout)["checks"]}
    assert found["key"]["status"] == found["trust_roots"]["status"] == "ok"
    # the demo leaves mallory's edit in place: doctor points at `gitmem verify`
    assert found["read_model"]["status"] == "warn"
    assert found["read_model"]["fix"].startswith("gitmem verify")


def _on_path(monkeypatch: pytest.MonkeyPatch, folder: Path, *names: str) -> None:
    """PATH is *folder* alone: stand-in executables named *names*, and git and ssh-keygen
    (so that a CLI installed on this machine is not found)."""
    folder.mkdir(exist_ok=True)
    for name in names:
        program = folder / name
        program.write_text("#!/bin/sh\nexit 0\n")
        program.chmod(0o755)
    for tool in ("git", "ssh-keygen"):
        found = shutil.which(tool)
        if found:
            (folder / tool).symlink_to(found)
    monkeypatch.setenv("PATH", str(folder))


def test_the_heuristic_names_the_host_model_on_path(
    healthy: Path, gm: Gm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _on_path(monkeypatch, tmp_path / "bin", "codex")
    detail = checks(gm, 0)["config"]["detail"]
    assert detail.startswith("extractor heuristic (")
    assert "`gitmem config extractor codex`" in detail and "claude" not in detail


def test_the_heuristic_alone_when_no_host_cli_is_on_path(
    healthy: Path, gm: Gm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _on_path(monkeypatch, tmp_path / "bin")
    assert checks(gm, 0)["config"]["detail"] == "extractor heuristic"
