"""One background capture per repository at a time, through the real installed hooks,
git, rebases and detached processes (docs/hooks.md, "One capture at a time")."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest
from helpers import TESTS, Gm, commit, git
from helpers.polling import wait_for

from gitmem.hooks import inflight, queue
from gitmem.hooks.inflight import DIED
from gitmem.lifecycle.index import memory_state
from gitmem.store.capturelog import CaptureLog
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots

pytestmark = pytest.mark.slow  # real hooks start and kill background workers

needs_proc = pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc")


def named(gm: Gm) -> set[str]:
    entries = gm("log", "--json").json()
    assert isinstance(entries, list)
    return {e["commit"] for e in entries if e["type"] == "checkpoint" and e["commit"]}


class Captures(threading.Thread):
    """Watches the in-flight markers: a capture claims its commits' markers with its pid
    for as long as it runs, so the live pids among them are the captures running now."""

    def __init__(self, local: Path) -> None:
        super().__init__(daemon=True)
        self.local = local
        self.done = threading.Event()
        self.most = 0
        self.samples = 0

    def run(self) -> None:
        while not self.done.is_set():
            now = time.time()
            live = {m.pid for m in inflight.markers(self.local) if m.pid and not m.dead(now)}
            self.most = max(self.most, len(live))
            self.samples += bool(live)
            time.sleep(0.002)


def settled(repo: Path) -> bool:
    local = repo / ".git" / "gitmem"
    return not inflight.markers(local) and not queue.pending(local)


@needs_proc
def test_a_20_commit_rebase_runs_one_background_capture_at_a_time(
    hooked: Path, gm: Gm, home: Path
) -> None:
    git(hooked, "checkout", "-q", "-b", "topic")
    for n in range(20):
        commit(hooked, f"Part {n}\n\nTODO: port the tests of part {n}\n", path=f"p{n}.txt")
    wait_for(lambda: settled(hooked) and len(named(gm)) == 20)
    git(hooked, "checkout", "-q", "main")
    commit(hooked, "unrelated change on main\n", path="main.txt")
    git(hooked, "checkout", "-q", "topic")
    watch = Captures(hooked / ".git" / "gitmem")
    watch.start()
    try:
        git(hooked, "rebase", "-q", "main")
        rebased = git(hooked, "rev-list", "main..topic").split()
        log = CaptureLog(hooked / ".git" / "gitmem")
        wait_for(lambda: any("retired" in e.detail for e in log.entries()))
        wait_for(lambda: settled(hooked) and set(rebased) <= named(gm))
    finally:
        watch.done.set()
        watch.join()
    assert len(rebased) == 20
    assert watch.samples > 0  # the watch saw the captures run
    assert watch.most == 1
    rewrite = next(e for e in log.entries() if "retired" in e.detail)
    assert rewrite.detail["retired"] == 20  # after every commit's capture, in order
    store = Store.discover(hooked)
    state = memory_state(store, load_trust_roots(home, store))
    todos = [s.item.text for s in state.items.values() if s.active and "part" in s.item.text]
    assert len(todos) == len(set(todos)) == 20  # each once: the old messages' items retired
    assert not [e for e in log.entries() if e.outcome == "failed"]


def test_a_commit_made_while_the_worker_runs_is_queued_not_started(hooked: Path, gm: Gm) -> None:
    local = hooked / ".git" / "gitmem"
    with queue.worker_lock(local) as held:  # as a running worker does
        assert held
        waiting = commit(hooked, "Decision: wait in the queue\n")
        entries, _ = queue.take(local)
        assert [(e.hook, e.fields) for e in entries] == [("post-commit", ("-", waiting))]
        (marker,) = inflight.markers(local)
        assert marker.pid is None and not marker.dead(time.time() + 120)  # pending
    assert waiting not in named(gm)  # nothing ran it: the lock's holder would have
    after = commit(hooked, "Decision: the next worker takes both\n")
    wait_for(lambda: settled(hooked) and {waiting, after} <= named(gm))


@needs_proc
def test_killing_the_worker_mid_drain_loses_no_commit(hooked: Path, gm: Gm, tmp_path: Path) -> None:
    pids = tmp_path / "model.pids"
    model = f"{sys.executable} {TESTS / 'fakes' / 'model_slow.py'} {pids}"
    assert gm("config", "--repo", "extractor", "command").exit_code == 0
    assert gm("config", "--repo", "command", model).exit_code == 0
    store = Store.discover(hooked)
    local = store.local_dir
    first = commit(hooked, "Pin pygit2\n\nTODO: drop the pin after 1.20\n")
    worker = wait_for(lambda: [m.pid for m in inflight.markers(local) if m.pid])[0]
    wait_for(pids.exists)  # the worker hangs in its model call
    queued = [commit(hooked, f"Queued change {n}\n") for n in range(2)]
    assert {m.sha: m.pid for m in inflight.markers(local)} == {
        first: worker,
        **dict.fromkeys(queued),
    }
    assert inflight.dead(local) == []  # queued behind a live worker
    os.kill(worker, signal.SIGKILL)
    for pid in pids.read_text().split():
        os.kill(int(pid), signal.SIGKILL)
    wait_for(lambda: len(inflight.dead(local)) == 3)  # no worker: all three are owed
    assert gm("config", "--repo", "extractor", "heuristic").exit_code == 0
    last = commit(hooked, "Add the retry loop\n")
    wait_for(lambda: settled(hooked) and {first, *queued, last} <= named(gm))
    died = [e.source for e in CaptureLog(local).entries() if e.error == DIED]
    assert died == [f"post-commit {first[:12]}"]  # the queued ones were simply taken
    assert "drop the pin after 1.20" in gm("brief").stdout
    assert gm("verify").exit_code == 0
