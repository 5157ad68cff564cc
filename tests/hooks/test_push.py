"""The pre-push hook's parts: the bounded wait for captures in flight, the guard against
running inside its own push, and staying out of a push that names memory refs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from helpers import git, run

from gitmem.hooks import inflight
from gitmem.hooks.push import GUARD, names_memory, wait_for_captures


def test_the_wait_for_a_capture_in_flight_is_bounded(tmp_path: Path) -> None:
    local = tmp_path / "gitmem"
    marker = inflight.marker_path(local, "post-commit", "a" * 40)
    marker.parent.mkdir(parents=True)
    marker.write_text(json.dumps({"pid": os.getpid()}))  # a live process: still running
    began = time.monotonic()
    assert wait_for_captures(local, 0.3) == 1
    assert 0.3 <= time.monotonic() - began < 5
    marker.unlink()  # the capture ended: no wait at all
    began = time.monotonic()
    assert wait_for_captures(local, 30) == 0
    assert time.monotonic() - began < 5


def test_a_dead_capture_is_not_waited_for(tmp_path: Path) -> None:
    local = tmp_path / "gitmem"
    marker = inflight.marker_path(local, "post-commit", "b" * 40)
    marker.parent.mkdir(parents=True)
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        text=True,
        capture_output=True,
        check=True,
    ).stdout.strip()
    marker.write_text(json.dumps({"pid": int(dead)}))
    assert wait_for_captures(local, 30) == 0


def test_a_push_of_memory_refs_is_the_users() -> None:
    zero, sha = "0" * 40, "1" * 40
    assert names_memory([f"refs/gitmem/memory {sha} refs/gitmem/memory {zero}"])
    assert names_memory([f"(delete) {zero} refs/gitmem/memory {sha}"])
    assert not names_memory([f"refs/heads/main {sha} refs/heads/main {zero}", ""])


def test_inside_its_own_push_the_hook_does_nothing(initialised: Path, tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(initialised, "remote", "add", "origin", str(remote))
    transcript = tmp_path / "t.md"
    transcript.write_text("We decided: keep the cache local.\n")
    assert run("-C", str(initialised), "capture", "--transcript", str(transcript)).exit_code == 0
    command = [sys.executable, "-m", "gitmem", "-C", str(initialised), "hook", "pre-push"]
    env = {**os.environ, GUARD: "1"}
    done = subprocess.run(
        [*command, "origin", str(remote)],
        input="",
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and git(remote, "for-each-ref") == ""
    env.pop(GUARD)
    done = subprocess.run(
        [*command, "origin", str(remote)],
        input="",
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and "refs/gitmem/memory" in git(remote, "for-each-ref")
