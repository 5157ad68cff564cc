"""A background capture that dies leaves a marker; the next hook run records the failure
and captures the commit it missed, and `gitmem status` shows it meanwhile
(docs/hooks.md, "Captures in flight")."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import TESTS, Gm, commit
from helpers.polling import wait_for

from gitmem.core.errors import GitmemError
from gitmem.hooks import inflight
from gitmem.hooks.capturing import post_commit
from gitmem.hooks.inflight import DIED
from gitmem.store.capturelog import CaptureLog
from gitmem.store.repo import Store

pytestmark = pytest.mark.slow  # real hooks start and kill background captures


def named(gm: Gm) -> dict[str, list[str]]:
    entries = gm("log", "--json").json()
    assert isinstance(entries, list)
    found: dict[str, list[str]] = {}
    for entry in entries:
        if entry["type"] == "checkpoint" and entry["commit"]:
            found.setdefault(entry["commit"], []).append(entry["session"])
    return found


def dead_pid() -> int:
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    return int(done.stdout)


def test_a_dead_marker_is_logged_and_its_commit_captured_by_the_next_run(
    initialised: Path, gm: Gm
) -> None:
    missed = commit(initialised, "Switch the cache to LRU\n\nTODO: measure the hit rate\n")
    store = Store.discover(initialised)
    marker = inflight.start(store.local_dir, "post-commit", missed)
    marker.write_text(f'{{"pid": {dead_pid()}}}\n')  # its process is gone
    status = gm("status", "--json").json()
    assert isinstance(status, dict)
    assert [b["state"] for b in status["background"]] == ["died"]
    assert any(f["error"] == DIED for f in status["recent_failures"])

    sha = commit(initialised, "Add the retry loop")
    post_commit(store, sha, environ={})
    assert named(gm) == {missed: [f"commit-{missed[:12]}"], sha: [f"commit-{sha[:12]}"]}
    failures = [e for e in CaptureLog(store.local_dir).entries() if e.outcome == "failed"]
    assert [(e.source, e.error) for e in failures] == [(f"post-commit {missed[:12]}", DIED)]
    assert inflight.markers(store.local_dir) == []
    assert "measure the hit rate" in gm("brief").stdout


def test_a_marker_whose_commit_is_already_captured_is_only_logged(
    initialised: Path, gm: Gm
) -> None:
    store = Store.discover(initialised)
    first = commit(initialised, "First change")
    post_commit(store, first, environ={})
    inflight.start(store.local_dir, "post-commit", first).write_text("")
    os.utime(inflight.marker_path(store.local_dir, "post-commit", first), (0, 0))  # long ago
    second = commit(initialised, "Second change")
    post_commit(store, second, environ={})
    assert sorted(named(gm)) == sorted([first, second])
    assert len(named(gm)[first]) == 1  # not captured twice


def test_a_live_or_just_queued_marker_is_left_alone(initialised: Path) -> None:
    store = Store.discover(initialised)
    sha = commit(initialised, "Queued change")
    running = inflight.start(store.local_dir, "post-commit", sha)
    queued = inflight.marker_path(store.local_dir, "post-commit", "f" * 40)
    queued.write_text("")  # the hook script wrote it; its process has not started yet
    assert inflight.dead(store.local_dir) == []
    assert len(inflight.markers(store.local_dir)) == 2
    assert not inflight.markers(store.local_dir)[0].dead(time.time() + 10)
    assert {m.path for m in inflight.dead(store.local_dir, time.time() + 120)} == {queued}
    inflight.finish(running)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to see a killed process")
def test_killing_the_background_capture_of_a_real_commit_loses_no_commit(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    """The hook script writes the marker, the detached capture hangs in a model call and
    is killed with SIGKILL; the next commit's capture names both commits."""
    assert gm("hooks", "install").exit_code == 0
    pids = tmp_path / "model.pids"
    model = f"{sys.executable} {TESTS / 'fakes' / 'model_slow.py'} {pids}"
    assert gm("config", "--repo", "extractor", "command").exit_code == 0
    assert gm("config", "--repo", "command", model).exit_code == 0
    store = Store.discover(initialised)
    first = commit(initialised, "Pin pygit2\n\nTODO: drop the pin after 1.20\n")
    marker = wait_for(
        lambda: [m for m in inflight.markers(store.local_dir) if m.pid and m.sha == first]
    )[0]
    wait_for(pids.exists)
    os.kill(marker.pid, signal.SIGKILL)
    for pid in pids.read_text().split():
        os.kill(int(pid), signal.SIGKILL)
    wait_for(lambda: inflight.dead(store.local_dir))
    assert gm("status").stdout.count("died before it finished") == 1

    assert gm("config", "--repo", "extractor", "heuristic").exit_code == 0
    second = commit(initialised, "Add the retry loop")
    wait_for(lambda: {first, second} <= set(named(gm)))
    wait_for(lambda: inflight.markers(store.local_dir) == [])
    assert "drop the pin after 1.20" in gm("brief").stdout
    assert gm("verify").exit_code == 0


def test_a_recovery_that_fails_keeps_the_marker_and_never_blocks_a_capture(
    initialised: Path, gm: Gm
) -> None:
    store = Store.discover(initialised)
    missed = commit(initialised, "Move the cache\n\nTODO: benchmark the new layout\n")
    inflight.start(store.local_dir, "post-commit", missed).write_text(f'{{"pid": {dead_pid()}}}')
    failing = f"{sys.executable} {TESTS / 'fakes' / 'model_fails.py'}"
    assert gm("config", "--repo", "extractor", "command").exit_code == 0
    assert gm("config", "--repo", "command", failing).exit_code == 0
    second = commit(initialised, "Second change")
    with pytest.raises(GitmemError):
        post_commit(store, second, environ={})  # its own capture fails: the same model
    assert [m.sha for m in inflight.markers(store.local_dir)] == [missed]  # still owed
    sources = [e.source for e in CaptureLog(store.local_dir).entries() if e.outcome == "failed"]
    assert f"post-commit {missed[:12]} message (missed)" in sources

    assert gm("config", "--repo", "extractor", "heuristic").exit_code == 0
    third = commit(initialised, "Third change")
    post_commit(store, third, environ={})
    assert {missed, third} <= set(named(gm))
    assert inflight.markers(store.local_dir) == []
