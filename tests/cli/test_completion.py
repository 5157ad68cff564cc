"""``gitmem completion bash|zsh|fish`` prints click's script, and the script's callback
completes gitmem's commands (issue 16)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import run


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_prints_the_script(shell: str) -> None:
    result = run("completion", shell)
    assert result.exit_code == 0 and result.stderr == ""
    assert f"_GITMEM_COMPLETE={shell}_complete" in result.stdout.replace("'", "")


def test_an_unknown_shell_is_bad_input() -> None:
    result = run("completion", "tcsh")
    assert result.exit_code == 2 and result.stdout == ""


def complete(words: str, cword: int, cwd: Path) -> str:
    env = {**os.environ, "_GITMEM_COMPLETE": "bash_complete", "COMP_WORDS": words}
    env["COMP_CWORD"] = str(cword)
    done = subprocess.run(
        [sys.executable, "-m", "gitmem"], env=env, cwd=cwd, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_callback_completes_commands_and_choices(tmp_path: Path) -> None:
    assert "plain,hooks" in complete("gitmem hoo", 1, tmp_path).splitlines()
    shells = complete("gitmem completion ", 2, tmp_path).splitlines()
    assert shells == ["plain,bash", "plain,zsh", "plain,fish"]
    scopes = complete("gitmem hooks install --scope ", 4, tmp_path).splitlines()
    assert scopes == ["plain,project", "plain,local", "plain,user"]


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash here")
def test_bash_sources_the_script(tmp_path: Path) -> None:
    script = tmp_path / "gitmem.bash"
    script.write_text(run("completion", "bash").stdout)
    done = subprocess.run(
        ["bash", "-c", f"source {script} && complete -p gitmem"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "gitmem" in done.stdout
