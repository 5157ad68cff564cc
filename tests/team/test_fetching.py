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
from gitmem.team.prefetch import start_early


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


def test_a_sync_starts_its_fetch_from_the_repository_files_before_opening_it(
    tmp_path: Path,
) -> None:
    """Found plainly in the files (the git directory, the remote in its config), the fetch
    starts under the lock before libgit2 is loaded; a Fetching of that clone and remote
    takes it over (its result is that fetch's), and leaving lets the lock go."""
    remote = make_remote(tmp_path)
    alice, bob = make_clone(tmp_path, remote, "alice"), make_clone(tmp_path, remote, "bob")
    alice.capture("the parser ships on friday")
    alice.ok("sync")
    (bob.path / "src").mkdir()
    early = start_early(bob.path / "src", "origin")  # from a folder of the work tree
    assert early is not None
    with early:
        assert _locked_elsewhere(bob)
        with Fetching(Store.discover(str(bob.path)), "origin", early) as fetching:
            assert fetching.result().returncode == 0
            assert bob.tip("refs/gitmem-remotes/origin/memory") == alice.tip()
            assert _locked_elsewhere(bob)
        assert not _locked_elsewhere(bob)
    assert not _locked_elsewhere(bob)
    with start_early(bob.path, "origin"):  # left untaken: git stopped, lock let go
        pass
    assert not _locked_elsewhere(bob)


def test_an_early_fetch_that_is_not_the_syncs_own_is_stopped_first(tmp_path: Path) -> None:
    """Another remote (or another repository) than the one the store opened: the early
    fetch is stopped and its lock let go before the sync takes the lock itself (a second
    lock of the same file in one process would wait for ever)."""
    remote = make_remote(tmp_path)
    bob = make_clone(tmp_path, remote, "bob")
    bob.git("remote", "add", "mirror", str(remote))
    early = start_early(bob.path, "mirror")
    assert early is not None
    with early, Fetching(Store.discover(str(bob.path)), "origin", early) as fetching:
        assert fetching.result().returncode == 0
        assert _locked_elsewhere(bob)
    assert not _locked_elsewhere(bob)
    assert bob.git("for-each-ref", "refs/gitmem-remotes/mirror/") == ""


def test_no_early_fetch_unless_the_files_say_plainly(tmp_path: Path) -> None:
    remote = make_remote(tmp_path)
    bob = make_clone(tmp_path, remote, "bob")
    assert start_early(bob.path, "nowhere") is None  # not a configured remote
    assert start_early(tmp_path / "elsewhere", "origin") is None  # not a repository
    assert start_early(bob.path, "--upload-pack=touch pwned") is None
    assert start_early(bob.path / ".git", "origin") is None  # inside the git directory
    assert not _locked_elsewhere(bob)


@pytest.mark.parametrize("name", ["nowhere", "a..b"])
def test_a_sync_of_a_remote_it_cannot_use_fails_as_before(tmp_path: Path, name: str) -> None:
    """Not configured: nothing starts early. Configured under a name that cannot name a
    ref namespace ("a..b"): the early fetch runs, then the sync's own check refuses the
    remote, stops git and lets the lock go. Either way: exit 2, one line, nothing fetched."""
    remote = make_remote(tmp_path)
    alice, bob = make_clone(tmp_path, remote, "alice"), make_clone(tmp_path, remote, "bob")
    alice.capture("the parser ships on friday")
    alice.ok("sync")
    if name != "nowhere":
        bob.git("config", f"remote.{name}.url", str(remote))
    result = bob.gm("sync", name)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and repr(name) in result.stderr
    assert bob.git("for-each-ref", "refs/gitmem-remotes/") == ""
    assert not _locked_elsewhere(bob)
    bob.ok("sync")  # and the next sync is not held up
    assert bob.tip() == alice.tip()


def test_the_module_that_starts_the_early_fetch_loads_no_libgit2() -> None:
    probe = (
        "import sys, gitmem.team.prefetch; "
        "print(sorted(m for m in sys.modules if m.startswith(('pygit2', 'gitmem.store.repo', "
        "'nacl', 'cryptography'))))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert loaded == "[]"
