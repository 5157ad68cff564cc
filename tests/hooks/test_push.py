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
from helpers.polling import wait_carried

from gitmem.hooks import inflight
from gitmem.hooks.push import (
    CARRY_LOCK,
    GUARD,
    carries_in_flight,
    names_memory,
    wait_for_captures,
)
from gitmem.store.files import locked


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
    assert done.returncode == 0
    wait_carried(initialised)  # the foreground started the carry detached
    assert "refs/gitmem/memory" in git(remote, "for-each-ref")


def foreground(repo: Path, url: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """What git runs before a push to origin at *url*, and the modules it imported."""
    command = [sys.executable, "-X", "importtime", "-m", "gitmem", "-C", str(repo), "hook"]
    done = subprocess.run(
        [*command, "pre-push", "origin", url], input="", capture_output=True, text=True
    )
    modules = {line.split("|")[-1].strip() for line in done.stderr.splitlines()}
    return done, modules


def said(done: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in done.stderr.splitlines() if line.startswith("gitmem:")]


def test_the_push_waits_only_for_the_decision_and_the_carry_pushes_detached(
    initialised: Path, tmp_path: Path
) -> None:
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(initialised, "remote", "add", "origin", str(remote))
    transcript = tmp_path / "t.md"
    transcript.write_text("We decided: keep the cache local.\n")
    assert run("-C", str(initialised), "capture", "--transcript", str(transcript)).exit_code == 0
    local = initialised / ".git" / "gitmem"
    with locked(local, CARRY_LOCK):  # a carry that starts now waits for this lock
        done, modules = foreground(initialised, str(remote))
        assert done.returncode == 0 and not said(done) and "gitmem.store.spawn" in modules
        assert len(carries_in_flight(local)) == 1  # started, and the push did not wait
        assert git(remote, "for-each-ref") == ""
    wait_carried(initialised)
    mine = git(initialised, "rev-parse", "refs/gitmem/memory").strip()
    assert mine in git(remote, "for-each-ref", "refs/gitmem/")

    # Nothing owed now (the remote, as last fetched, holds this tip): the foreground
    # starts nothing and loads nothing that talks to a remote, which is gone.
    remote.rename(tmp_path / "gone.git")
    with locked(local, CARRY_LOCK):
        done, modules = foreground(initialised, str(remote))
        assert done.returncode == 0 and not said(done)
        assert carries_in_flight(local) == []
    for module in ("gitmem.store.spawn", "gitmem.store.pushing", "gitmem.team", "subprocess"):
        assert module not in modules, module
    assert "gitmem.hooks.inflight" in modules  # it ran, and decided


def test_what_a_carry_could_not_do_the_next_push_says_once(
    initialised: Path, tmp_path: Path
) -> None:
    remote = tmp_path / "nowhere.git"  # no repository there: every carry fails
    git(initialised, "remote", "add", "origin", str(remote))
    transcript = tmp_path / "t.md"
    transcript.write_text("We decided: keep the cache local.\n")
    assert run("-C", str(initialised), "capture", "--transcript", str(transcript)).exit_code == 0
    done, _ = foreground(initialised, str(remote))
    assert done.returncode == 0 and not said(done)
    wait_carried(initialised)
    local = initialised / ".git" / "gitmem"
    with locked(local, CARRY_LOCK):  # the carries started below wait: they say nothing yet
        done, _ = foreground(initialised, str(remote))
        assert done.returncode == 0
        assert said(done) and all("memory not pushed to origin" in line for line in said(done))
        again, _ = foreground(initialised, str(remote))
        assert again.returncode == 0 and not said(again)  # said once
    wait_carried(initialised)
