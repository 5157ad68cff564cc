"""`gitmem verify` says how it goes on a line of standard error while it runs, when
standard error is a terminal (a large store takes minutes); a pipe, a file and --json get
nothing, and standard output is the same either way."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from helpers import Gm
from helpers.capturing import SAMPLE, capture

from gitmem.cli import progress
from gitmem.cli.progress import ProgressLine, progress_line


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_line_is_shown_per_stage_at_most_a_few_times_a_second_and_cleared(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = iter([0.0, 0.05, 0.3, 0.31, 0.32])
    monkeypatch.setattr(progress.time, "monotonic", lambda: next(clock))
    stream = Terminal()
    line = ProgressLine("verify", stream)
    line("content", 1000)
    line("content", 2000)  # 0.05 s later: not rewritten
    line("content", 3000)
    line("quotes", 100)  # a new stage is always shown
    line("history", 0)
    line.close()
    shown = stream.getvalue()
    assert "1,000 records" in shown and "2,000" not in shown and "3,000 records" in shown
    assert "100 snapshots" in shown and "history only ever added" in shown
    last = shown.rsplit("\r", 2)
    assert last[-1] == "" and last[-2].strip() == ""  # cleared: spaces over the last line


def test_no_line_for_a_pipe_or_when_not_wanted(monkeypatch: pytest.MonkeyPatch) -> None:
    assert progress_line("verify", True, io.StringIO()) is None
    assert progress_line("verify", False, Terminal()) is None
    assert isinstance(progress_line("verify", True, Terminal()), ProgressLine)
    monkeypatch.setattr(sys, "stderr", None)  # what Python has when fd 2 is closed
    assert progress_line("verify", True) is None


def stderr_on_a_terminal(repo: Path, args: list[str]) -> tuple[int, str, str]:
    """Run gitmem with standard error on a pseudo-terminal: exit code, stdout, what the
    terminal got."""
    leader, follower = pty.openpty()
    got: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                data = os.read(leader, 4096)
            except OSError:  # the other end closed
                return
            if not data:
                return
            got.append(data)

    reader = threading.Thread(target=drain)
    reader.start()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "gitmem", "-C", str(repo), *args],
            stdout=subprocess.PIPE,
            stderr=follower,
            stdin=subprocess.DEVNULL,
            timeout=120,
            check=False,
            text=True,
        )
    finally:
        os.close(follower)
        reader.join(timeout=10)
        os.close(leader)
    return done.returncode, done.stdout, b"".join(got).decode("utf-8", "replace")


@pytest.mark.slow  # real subprocesses on a pseudo-terminal
def test_verify_on_a_terminal_shows_its_progress_and_prints_the_same(
    initialised: Path, gm: Gm
) -> None:
    capture(gm, SAMPLE)
    piped = gm("verify")
    code, out, terminal = stderr_on_a_terminal(initialised, ["verify"])
    assert code == piped.exit_code == 0 and out == piped.stdout
    assert "verify: " in terminal and "records and item blobs checked" in terminal
    assert terminal.endswith("\r") and not terminal.rsplit("\r", 2)[-2].strip()  # cleared
    assert not piped.stderr
    code, out, terminal = stderr_on_a_terminal(initialised, ["verify", "--json"])
    assert code == 0 and out.startswith("{") and terminal == ""
