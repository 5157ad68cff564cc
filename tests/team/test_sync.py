"""`gitmem sync` against a real bare remote and several clones: union merge both ways,
watermarks against rewritten history, refused tampering, parallel writers."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pygit2
import pytest
from helpers import git, tamper
from helpers.clones import Clone, make_clone
from helpers.polling import wait_carried

from gitmem.store.merge import MergeConflict, merge_into
from gitmem.store.repo import MEMORY_REF, Entry, Store


def test_two_writers_sync_both_ways(alice: Clone, bob: Clone, remote: Path) -> None:
    a1 = alice.capture("the cache stays local")
    b1 = bob.capture("the parser ships on friday")

    first = alice.gm("sync", "--json")
    assert first.exit_code == 0, first.stderr
    (memory,) = first.json()["refs"]  # type: ignore[index]
    assert memory["merge"] == "local-only" and memory["pushed"]

    second = bob.ok("sync", "--json").json()
    (memory,) = second["refs"]  # type: ignore[index]
    assert memory["merge"] == "merged" and memory["pushed"] and memory["new_records"] == 1
    assert memory["untrusted"] == 1  # alice's checkpoint: her key is in no root of bob's

    alice.ok("sync")
    assert alice.records() == bob.records() == {a1, b1}
    tip = alice.tip()
    assert tip == bob.tip() == git(remote, "rev-parse", MEMORY_REF).strip()
    parents = git(remote, "rev-list", "--parents", "-n", "1", tip).split()
    assert len(parents) == 3  # bob's union merge: his history and alice's
    # Fetched into refs/gitmem-remotes/, never refs/remotes/.
    refs = bob.git("for-each-ref", "--format=%(refname)").split()
    assert "refs/gitmem-remotes/origin/memory" in refs
    assert not [r for r in refs if r.startswith("refs/remotes/") and "gitmem" in r]
    git(remote, "fsck", "--strict")


def test_nothing_to_sync_and_unknown_remote(alice: Clone) -> None:
    result = alice.ok("sync")
    assert "nothing to sync" in result.stdout
    bad = alice.gm("sync", "nowhere")
    assert bad.exit_code == 2 and bad.stderr.count("\n") == 1 and "nowhere" in bad.stderr
    assert "Traceback" not in bad.stderr


def _rewrite_remote(tmp_path: Path, remote: Path) -> str:
    """Mallory force-pushes a memory history that shares nothing with the old one."""
    mallory = make_clone(tmp_path, remote, "mallory")
    # `gitmem init` fetched the remote's memory, which her first capture would merge.
    mallory.git("update-ref", "-d", "refs/gitmem-remotes/origin/memory")
    mallory.capture("nothing was ever decided")
    mallory.git("push", "-q", "--force", "origin", f"{MEMORY_REF}:{MEMORY_REF}")
    return mallory.tip()


def test_a_force_pushed_rewrite_is_reported_not_merged(
    tmp_path: Path, alice: Clone, bob: Clone, remote: Path
) -> None:
    a1 = alice.capture("the cache stays local")
    alice.ok("sync")
    bob.ok("sync")
    before = bob.tip()
    rewritten = _rewrite_remote(tmp_path, remote)

    result = bob.gm("sync")
    assert result.exit_code == 3
    assert "rewrote refs/gitmem/memory" in result.stderr and "Traceback" not in result.stderr
    assert bob.tip() == before and a1 in bob.records()  # local records stay
    assert git(remote, "rev-parse", MEMORY_REF).strip() == rewritten  # nothing pushed back
    again = bob.gm("sync", "--json")
    assert again.exit_code == 3  # the watermark did not move: reported every time

    accepted = bob.ok("sync", "--accept-rewrite", "--json").json()
    assert accepted["refs"][0]["merge"] == "merged"  # type: ignore[index]
    remote_tip = git(remote, "rev-parse", MEMORY_REF).strip()
    assert remote_tip == bob.tip() and a1 in bob.records()


def test_records_removed_on_the_remote_are_reported(alice: Clone, bob: Clone) -> None:
    alice.capture("the cache stays local")
    alice.ok("sync")
    bob.ok("sync")
    alice.git("push", "-q", "origin", f":{MEMORY_REF}")
    result = bob.gm("sync")
    assert result.exit_code == 3 and "no longer has refs/gitmem/memory" in result.stderr
    assert bob.tip()  # still here


def test_tampered_history_from_the_remote_is_refused(alice: Clone, bob: Clone) -> None:
    a1 = alice.capture("the cache stays local")
    alice.ok("sync")
    bob.ok("sync")
    before = bob.tip()
    store = Store.discover(alice.path)
    tamper.edit_record(store, a1, b"the cache stays local", b"the cache goes remote")
    alice.git("push", "-q", "origin", f"{MEMORY_REF}:{MEMORY_REF}")  # a fast-forward

    result = bob.gm("sync")
    assert result.exit_code == 3 and "was not merged" in result.stderr
    assert "record edited" in result.stderr or "history changed" in result.stderr
    assert bob.tip() == before


def test_same_path_with_different_bytes_is_a_conflict_never_a_choice(repo: Path) -> None:
    store = Store.discover(repo)
    path = "snapshots/aa/" + "b" * 62 + ".txt"
    ours = store.append([Entry(path, b"one")], "ours", "alice")
    other = store.at("refs/gitmem/other")
    theirs = other.append([Entry(path, b"two")], "theirs", "mallory")
    with pytest.raises(MergeConflict) as caught:
        merge_into(store, theirs, "merge", "alice")
    assert caught.value.paths == [path] and caught.value.exit_code == 3
    assert store.tip() == ours


def test_union_merge_keeps_every_path_of_both_sides(repo: Path) -> None:
    store = Store.discover(repo)
    store.append([Entry("snapshots/aa/" + "1" * 62 + ".txt", b"a")], "ours", "alice")
    other = store.at("refs/gitmem/other")
    theirs = other.append([Entry("snapshots/bb/" + "2" * 62 + ".txt", b"b")], "t", "bob")
    result = merge_into(store, theirs, "merge", "alice")
    assert result.outcome == "merged"
    listing = git(repo, "ls-tree", "-r", "--name-only", MEMORY_REF).split()
    assert len(listing) == 2
    assert merge_into(store, theirs, "merge", "alice").outcome == "up-to-date"
    commit = store.repo.get(store.tip())
    assert isinstance(commit, pygit2.Commit) and len(commit.parents) == 2


@pytest.mark.slow
def test_parallel_captures_and_syncs_lose_nothing(alice: Clone, remote: Path) -> None:
    env = {**os.environ, "GITMEM_HOME": str(alice.home)}
    gitmem = [sys.executable, "-m", "gitmem", "-C", str(alice.path)]
    procs = []
    for n in range(5):
        transcript = alice.path.parent / f"parallel-{n}.md"
        transcript.write_text(f"Session {n}: we decided that worker {n} owns queue {n}.\n")
        procs.append(
            subprocess.Popen(
                [*gitmem, "capture", "--transcript", str(transcript), "--extractor", "none"],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
        )
        if n % 2:
            procs.append(
                subprocess.Popen(
                    [*gitmem, "sync"],
                    env=env,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                )
            )
    for proc in procs:
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
    alice.ok("sync")
    assert len(alice.records()) == 5
    assert git(remote, "rev-parse", MEMORY_REF).strip() == alice.tip()
    assert alice.gm("verify").exit_code == 0


def test_setup_lets_plain_git_carry_memory(alice: Clone, bob: Clone) -> None:
    a1 = alice.capture("the cache stays local")
    # `gitmem init` (in make_clone) set the fetch refspec up already (issue 14).
    refspec = "+refs/gitmem/*:refs/gitmem-remotes/origin/*"
    assert alice.git("config", "--get-all", "remote.origin.fetch").split()[-1] == refspec
    assert alice.ok("sync", "--setup").stdout.count("configured") == 0  # idempotent
    # Issue 14: no push refspec any more (it changed what a bare `git push` does); the
    # pre-push hook carries memory instead.
    with pytest.raises(subprocess.CalledProcessError):
        alice.git("config", "--get-all", "remote.origin.push")
    assert (alice.path / ".git" / "hooks" / "pre-push").is_file()
    bob.ok("sync", "--setup")
    assert bob.records() == {a1}

    a2 = alice.capture("the queue is bounded")
    (alice.path / "change.txt").write_text("x\n")
    alice.git("add", "change.txt")
    alice.git("commit", "-q", "-m", "change")
    alice.git("push", "-q")  # the branch, and memory through the pre-push hook
    wait_carried(alice.path)  # which carries it detached
    assert git(alice.path, "ls-remote", "origin", MEMORY_REF).split()[0] == alice.tip()
    head = alice.git("rev-parse", "HEAD").strip()
    assert git(alice.path, "ls-remote", "origin", "refs/heads/main").split()[0] == head

    bob.git("fetch", "-q")  # plain fetch: into the tracking namespace only
    assert bob.git("rev-parse", "refs/gitmem-remotes/origin/memory").strip() == alice.tip()
    assert bob.records() == {a1}  # merging is sync's job, after its checks
    bob.ok("sync")
    assert bob.records() == {a1, a2}


class _OldPygit2(pygit2.Repository):
    """A repository as pygit2 before 1.19 offers it: no reference transactions."""

    @property
    def transaction(self) -> None:
        raise AttributeError("transaction")


@pytest.mark.parametrize("old_pygit2", [False, True])
def test_compare_and_swap_never_lets_two_writers_win(repo: Path, old_pygit2: bool) -> None:
    store = Store(_OldPygit2(str(repo)) if old_pygit2 else pygit2.Repository(str(repo)))
    cas = store.compare_and_swap
    one = store.at("refs/gitmem/scratch").append([Entry("a", b"1")], "one", "alice")
    two = store.at("refs/gitmem/scratch2").append([Entry("b", b"2")], "two", "alice")
    assert cas(None, one, "create")
    assert not cas(None, two, "create again")  # it exists now: creation is not forced
    assert not cas(two, one, "wrong old value")
    assert cas(one, two, "move")
    assert store.tip() == two
    assert git(repo, "reflog", "show", "--format=%gs", MEMORY_REF).split("\n")[:2] == [
        "move",
        "create",
    ]


def test_a_push_that_loses_the_remote_ref_lock_is_retried(alice: Clone, remote: Path) -> None:
    """Another clone's push holds the remote's ref lock: git answers "failed to update
    ref", and sync fetches, merges and pushes again instead of giving up."""
    alice.capture("the cache stays local")
    lock = remote / "refs" / "gitmem" / "memory.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    lock.write_text("held by another push\n")
    release = threading.Timer(0.4, lock.unlink)
    release.start()
    try:
        result = alice.gm("sync", "--json")
    finally:
        release.join()
    assert result.exit_code == 0, result.stdout + result.stderr
    (memory,) = result.json()["refs"]  # type: ignore[index]
    assert memory["pushed"] and memory["problem"] is None
    assert git(remote, "rev-parse", MEMORY_REF).strip() == alice.tip()


@pytest.mark.slow
def test_concurrent_syncs_of_many_clones_all_land(tmp_path: Path, remote: Path) -> None:
    clones = [make_clone(tmp_path, remote, f"dev{n}") for n in range(6)]
    expected = {
        clone.capture(f"clone {clone.name} owns queue {n}") for n, clone in enumerate(clones)
    }
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "gitmem", "-C", str(clone.path), "sync"],
            env={**os.environ, "GITMEM_HOME": str(clone.home)},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for clone in clones
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    clones[0].ok("sync")
    assert clones[0].records() == expected
