"""Long output goes through a pager only when stdout is a terminal, as git does it:
GIT_PAGER, else PAGER, else less; never with --no-pager, never into a pipe."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from gitmem.cli.pager import pager_command

pytestmark = pytest.mark.slow  # real subprocesses on a pseudo-terminal


def on_a_terminal(repo: Path, args: list[str], env: dict[str, str]) -> int:
    """Run gitmem with stdout on a pseudo-terminal; its exit code."""
    leader, follower = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "gitmem", "-C", str(repo), *args],
            stdout=follower,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            env=env,
            timeout=120,
            check=False,
        )
    finally:
        os.close(follower)
        os.close(leader)
    return done.returncode


@pytest.mark.parametrize("args", [["brief"], ["help", "brief"], ["--no-pager", "brief"]])
def test_a_terminal_gets_the_pager_unless_told_not_to(
    initialised: Path, tmp_path: Path, args: list[str]
) -> None:
    paged = tmp_path / "paged.txt"
    env = {**os.environ, "GIT_PAGER": f"cat > {paged}", "PAGER": "false"}
    assert on_a_terminal(initialised, args, env) == 0
    if "--no-pager" in args:
        assert not paged.exists()
    else:
        text = paged.read_text()
        assert (
            ("gitmem brief" in text)
            if args == ["brief"]
            else text.startswith("Usage: gitmem brief")
        )


def test_a_pipe_is_never_paged(initialised: Path, tmp_path: Path) -> None:
    paged = tmp_path / "paged.txt"
    env = {**os.environ, "GIT_PAGER": f"cat > {paged}"}
    done = subprocess.run(
        [sys.executable, "-m", "gitmem", "-C", str(initialised), "brief"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0 and "gitmem brief" in done.stdout and not paged.exists()


def test_the_pager_is_chosen_as_git_chooses_it() -> None:
    assert pager_command({}) == "less"
    assert pager_command({"PAGER": "most"}) == "most"
    assert pager_command({"GIT_PAGER": "delta", "PAGER": "most"}) == "delta"
    assert pager_command({"GIT_PAGER": "cat"}) is None
    assert pager_command({"PAGER": ""}) is None
