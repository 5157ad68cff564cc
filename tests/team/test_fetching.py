"""A sync's fetch is started first, under the sync lock, and runs while gitmem loads what
checks what comes: the lock is held from before git starts until the sync ends, the
first result is that fetch's, a later one (a lost push race) fetches again, and the
module that starts it loads none of the checking."""

from __future__ import annotations

import fcntl
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.clones import Clone, make_clone, make_remote

from gitmem.core.errors import InputError
from gitmem.store.repo import Store
from gitmem.store.watermarks import SYNC_LOCK
from gitmem.team.fetching import Fetching


def _locked_elsewhere(clone: Clone) -> bool:
    with open(clone.path / ".git" / "gitmem" / SYNC_LOCK, "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(handle, fcntl.LOCK_UN)
        return False


def test_the_fetch_runs_under_the_sync_lock_and_fetches_again_when_asked(
    tmp_path: Path,
) -> None:
    remote = make_remote(tmp_path)
    alice, bob = make_clone(tmp_path, remote, "alice"), make_clone(tmp_path, remote, "bob")
    alice.capture("the parser ships on friday")
    alice.ok("sync")
    store = Store.discover(str(bob.path))
    with Fetching(store, "origin") as fetching:
        assert _locked_elsewhere(bob)  # one sync per clone: held before git started
        assert fetching.result().returncode == 0
        assert bob.tip("refs/gitmem-remotes/origin/memory") == alice.tip()
        alice.capture("the upload retries twice")
        alice.ok("sync")
        assert fetching.result().returncode == 0  # a lost race: fetched again
        assert bob.tip("refs/gitmem-remotes/origin/memory") == alice.tip()
    assert not _locked_elsewhere(bob)
    with Fetching(store, "origin"):  # left without reading it: git stopped, lock let go
        pass
    assert not _locked_elsewhere(bob)
    with pytest.raises(InputError, match="no remote named 'nowhere'"):
        Fetching(store, "nowhere")
    assert not _locked_elsewhere(bob)


def test_the_module_that_starts_the_fetch_loads_none_of_the_checking() -> None:
    """What ``gitmem sync`` imports before the fetch starts (beyond the store itself): the
    fetch overlaps the rest (the checks' modules, the author's key config)."""
    probe = (
        "import sys, gitmem.team.fetching; "
        "print(sorted(m for m in sys.modules if m.startswith(('gitmem.lifecycle', "
        "'gitmem.store.verify', 'gitmem.store.checking', 'gitmem.team.sync', "
        "'cryptography'))))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert loaded == "[]"
