"""A large index is built and advanced in steps along the ref's first parents (memory
bounded by a step), and replayed again in batches: either way it equals the index built
in one go. A build killed midway goes on from its last step, and no reader is ever
answered from the part it had built."""

from __future__ import annotations

import gc
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from helpers.capturing import capture_text

from gitmem.core.records import EVENT_STATUS
from gitmem.core.types import GitOid
from gitmem.lifecycle import index_build
from gitmem.lifecycle.codec import encode_state
from gitmem.lifecycle.index import INDEX_FILE, Index
from gitmem.lifecycle.index_file import connect, meta_value, transaction
from gitmem.store import shape
from gitmem.store.asof import PinnedStore
from gitmem.store.keys import load_identity
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots
from gitmem.store.seal import write_event

pytestmark = pytest.mark.slow

TRANSCRIPT = "We agreed: deploys stop on Fridays.\nThe parser handles port 137.\n"


def grown(gm: Any, repo: Path, home: Path) -> Store:
    """Twelve captures, a resolve, a forget and a status dated in the past: thirty-odd
    records over sixteen commits."""
    from datetime import UTC, datetime, timedelta

    store = Store.discover(repo)
    ids = []
    for n in range(12):
        said = [{"kind": "decision", "text": f"Keep module {n} where it is"}]
        ids.append(capture_text(gm, repo.parent / f"s{n}.md", TRANSCRIPT, said)["items"][0]["id"])
    assert gm("resolve", ids[3][:8], "--note", "done").exit_code == 0
    assert gm("forget", ids[5][:8]).exit_code == 0
    earlier = datetime.now(UTC) - timedelta(days=3)
    extra = {"to": "STALE", "from": "REPORTED", "reason": "not seen again"}
    write_event(store, load_identity(home), EVENT_STATUS, ids[7], "s", earlier, extra)
    return store


def whole(store: Store, home: Path) -> tuple[Any, ...]:
    """Everything the index answers with, brought up to date first."""
    index = Index.open(store, load_trust_roots(home, store))
    try:
        state = {a: encode_state(s) for a, s in index.state().items.items()}
        return state, index.counts(), index.totals(), index.tip
    finally:
        index.close()


def in_small_steps(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """From now on a "large" store is one of more than six records, built three commits
    a step; the records each step checks."""
    checked: list[int] = []
    real = index_build._checks

    def counting(stored: Any, roots: Any) -> Any:
        checked.append(len(stored))
        return real(stored, roots)

    monkeypatch.setattr(index_build, "LARGE", 6)
    monkeypatch.setattr(index_build, "STEP", 3)
    monkeypatch.setattr(index_build, "_checks", counting)
    return checked


@pytest.fixture
def small_steps(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    return in_small_steps(monkeypatch)


def test_an_index_built_in_steps_is_the_index_built_at_once(
    gm: Any, initialised: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = grown(gm, initialised, home)
    (store.local_dir / INDEX_FILE).unlink()
    at_once = whole(store, home)
    steps = in_small_steps(monkeypatch)
    (store.local_dir / INDEX_FILE).unlink()
    assert whole(store, home) == at_once
    assert len(steps) >= 4  # the first step is a rebuild of three commits' tree
    assert sum(steps) < at_once[2]["records"]


def test_an_index_far_behind_is_advanced_in_steps(
    gm: Any, initialised: Path, home: Path, small_steps: list[int]
) -> None:
    store = Store.discover(initialised)
    capture_text(gm, initialised.parent / "first.md", TRANSCRIPT, [{"kind": "fact", "text": "A"}])
    whole(store, home)  # an index of one capture
    small_steps.clear()
    grown(gm, initialised, home)  # (each capture brings the index up, one step each)
    stepped = whole(store, home)
    (store.local_dir / INDEX_FILE).unlink()
    assert whole(store, home) == stepped


def test_a_replay_in_batches_is_the_replay_at_once(
    gm: Any, initialised: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Replaying everything again (a record that does not commute, a purge) goes a
    batch at a time in a large store: the same states, a purge's removals included."""
    store = grown(gm, initialised, home)
    removed = capture_text(
        gm, initialised.parent / "p.md", TRANSCRIPT, [{"kind": "fact", "text": "Z"}]
    )
    assert gm("purge", removed["items"][0]["id"][:12], "--yes").exit_code == 0
    at_once = whole(store, home)
    monkeypatch.setattr(index_build, "LARGE", 6)
    monkeypatch.setattr(index_build, "_BATCH", 4)
    with transaction(connect(store.local_dir / INDEX_FILE)) as db:
        index_build._replay_all(db)
    assert whole(store, home) == at_once
    assert removed["items"][0]["id"] not in at_once[0]


def test_a_build_in_steps_keeps_nothing_of_the_paths_it_read(
    gm: Any, initialised: Path, home: Path, small_steps: list[int]
) -> None:
    """Each step looks up by name every path it adds: once the build is done, nothing
    allocated for those lookups is still held (pygit2 kept each name it was handed for
    good, so the index built after a clone of 50,000 checkpoints held every path of
    history, tens of MB)."""
    store = grown(gm, initialised, home)
    (store.local_dir / INDEX_FILE).unlink()
    roots = load_trust_roots(home, store)
    tracemalloc.start()
    try:
        Index.open(store, roots).close()
        gc.collect()
        snapshot = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    assert len(small_steps) >= 4
    held = snapshot.filter_traces([tracemalloc.Filter(True, shape.__file__)])
    assert held.statistics("lineno") == []


KILLED_AFTER_TWO_STEPS = """
import os, signal, sys
from pathlib import Path
from gitmem.lifecycle import index_build
from gitmem.lifecycle.index import Index
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots

index_build.LARGE, index_build.STEP = 6, 3
real = index_build._advance
steps = []
def advance(*args):
    real(*args)
    steps.append(1)
    if len(steps) == 2:  # two steps are in the file: die as kill -9 does
        os.kill(os.getpid(), signal.SIGKILL)
index_build._advance = advance
store = Store.discover(Path.cwd())
Index.open(store, load_trust_roots(Path(sys.argv[1]), store))
"""


def test_a_build_killed_midway_goes_on_from_its_last_step(
    gm: Any, initialised: Path, home: Path, small_steps: list[int]
) -> None:
    store = grown(gm, initialised, home)
    expected = whole(store, home)
    (store.local_dir / INDEX_FILE).unlink()
    done = subprocess.run(
        [sys.executable, "-c", KILLED_AFTER_TWO_STEPS, str(home)], cwd=initialised, check=False
    )
    assert done.returncode == -9
    left = connect(store.local_dir / INDEX_FILE)
    part, key = meta_value(left, "tip"), meta_value(left, "key")
    left.close()
    assert key and part and part != store.tip()  # a whole index of an older commit
    small_steps.clear()
    index = Index.open(store, load_trust_roots(home, store))
    assert not index.rebuilt and index.tip == store.tip()
    index.close()
    assert whole(store, home) == expected  # a reader is answered from the tip, never the part
    pinned = PinnedStore(store, GitOid(part))
    built = pinned.count("checkpoints") + pinned.count("events")
    assert sum(small_steps) == expected[2]["records"] - built  # only what was left is checked
