"""The store against real git: layout, compare-and-swap appends, reflog, fsck."""

from __future__ import annotations

import multiprocessing
import subprocess
from pathlib import Path

import pygit2
import pytest
from helpers import git
from helpers.workers import append_snapshots

from gitmem.core.canonical import sha256_hex
from gitmem.store.history import history_problems, record_additions
from gitmem.store.layout import content_path
from gitmem.store.repo import MEMORY_REF, Entry, Store


def entry(directory: str, data: bytes) -> Entry:
    return Entry(content_path(directory, sha256_hex(data)), data)


def test_layout_and_read_back(repo: Path) -> None:
    store = Store.discover(repo)
    record, receipt, snapshot = b'{"type":"event"}', b"sig", b"transcript"
    store.append(
        [
            entry("events", record),
            Entry(content_path("receipts", sha256_hex(record)), receipt),
            entry("snapshots", snapshot),
        ],
        "m",
        "alice@example.com",
    )
    h = sha256_hex(record)
    listing = git(repo, "ls-tree", "-r", "--name-only", MEMORY_REF).split()
    assert listing == [
        f"events/{h[:2]}/{h[2:]}.json",
        f"receipts/{h[:2]}/{h[2:]}.sig",
        content_path("snapshots", sha256_hex(snapshot)),
    ]
    contents = store.read()
    (stored,) = contents.records
    assert (stored.type, stored.address, stored.data, stored.receipt) == (
        "event",
        h,
        record,
        receipt,
    )
    assert contents.snapshots == {sha256_hex(snapshot)}
    assert contents.strays == ()


def test_append_is_a_commit_with_a_reflog_entry_and_fsck_clean(repo: Path) -> None:
    store = Store.discover(repo)
    store.append([entry("snapshots", b"one")], "gitmem: first", "alice@example.com")
    store.append([entry("snapshots", b"two")], "gitmem: second", "alice@example.com")
    reflog = git(repo, "reflog", "show", "--format=%gs", MEMORY_REF).split("\n")
    assert reflog[:2] == ["gitmem: second", "gitmem: first"]
    assert git(repo, "rev-list", "--count", MEMORY_REF).strip() == "2"
    subprocess.run(["git", "-C", str(repo), "fsck", "--strict"], check=True, capture_output=True)


def test_append_never_replaces_an_existing_path(repo: Path) -> None:
    store = Store.discover(repo)
    path = content_path("snapshots", sha256_hex(b"original"))
    store.append([Entry(path, b"original")], "m", "a")
    tip = store.tip()
    assert store.append([Entry(path, b"imposter")], "m", "a") == tip
    assert store.read_path(path) == b"original"


def test_lost_race_is_retried_on_the_new_tip(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store, rival = Store.discover(repo), Store.discover(repo)
    real_create_commit = pygit2.Repository.create_commit
    raced = []

    def racing_create_commit(self: pygit2.Repository, *args: object) -> pygit2.Oid:
        if not raced:  # another writer lands between our read of the tip and our CAS
            raced.append(True)
            rival.append([entry("snapshots", b"rival")], "rival", "bob")
        return real_create_commit(self, *args)

    monkeypatch.setattr(pygit2.Repository, "create_commit", racing_create_commit)
    store.append([entry("snapshots", b"mine")], "mine", "alice")
    monkeypatch.undo()
    contents = store.read()
    assert contents.snapshots == {sha256_hex(b"rival"), sha256_hex(b"mine")}
    assert git(repo, "rev-list", "--count", MEMORY_REF).strip() == "2"


@pytest.mark.slow
def test_parallel_processes_lose_nothing(repo: Path) -> None:
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        pool.map(append_snapshots, [(str(repo), n) for n in range(4)])
    snapshots = Store.discover(repo).read().snapshots
    assert snapshots == {sha256_hex(f"{n}-{i}".encode()) for n in range(4) for i in range(5)}


def test_history_problems_and_strays_are_reported(repo: Path) -> None:
    store = Store.discover(repo)
    a = entry("snapshots", b"a")
    store.append([a, Entry("notes.txt", b"?")], "m", "a")
    tip = store.repo.get(str(store.tip()))
    index = pygit2.Index()
    index.read_tree(tip.tree)
    index.remove(a.path)
    who = pygit2.Signature("m", "m@x")
    commit = store.repo.create_commit(
        None, who, who, "drop", index.write_tree(store.repo), [tip.id]
    )
    store.repo.references[MEMORY_REF].set_target(commit)
    assert [(p.path, p.change) for p in history_problems(store)] == [(a.path, "removed")]
    assert store.read().strays == ("notes.txt",)


def test_additions_are_newest_first(repo: Path) -> None:
    store = Store.discover(repo)
    first, second = entry("events", b"1"), entry("checkpoints", b"2")
    store.append([first, entry("snapshots", b"s")], "m", "a")
    store.append([second], "m", "a")
    assert record_additions(store) == [second.path, first.path]


def test_local_dir_is_shared_by_worktrees(repo: Path, tmp_path: Path) -> None:
    git(repo, "worktree", "add", "-q", str(tmp_path / "wt"))
    assert Store.discover(tmp_path / "wt").local_dir == Store.discover(repo).local_dir
    assert Store.discover(repo).local_dir == (repo / ".git" / "gitmem").resolve()


def test_history_problems_hold_whatever_the_users_git_config_says(repo: Path) -> None:
    """The append-only check asks git log, so the user's log and diff settings must not
    change its answer: a path changed in place and one renamed are both found."""
    for key, value in (
        ("log.showSignature", "true"),
        ("color.ui", "always"),
        ("diff.renames", "copies"),
        ("log.decorate", "full"),
    ):
        git(repo, "config", key, value)
    store = Store.discover(repo)
    a, b = entry("snapshots", b"a"), entry("snapshots", b"b")
    store.append([a, b], "m", "a")
    tip = store.repo.get(str(store.tip()))
    index = pygit2.Index()
    index.read_tree(tip.tree)
    index.add(
        pygit2.IndexEntry(a.path, store.repo.create_blob(b"edited"), pygit2.GIT_FILEMODE_BLOB)
    )
    moved = pygit2.IndexEntry(
        b.path.replace("snapshots/", "snapshots/ff/"), index[b.path].id, index[b.path].mode
    )
    index.remove(b.path)
    index.add(moved)
    who = pygit2.Signature("m", "m@x")
    commit = store.repo.create_commit(
        None, who, who, "edit", index.write_tree(store.repo), [tip.id]
    )
    store.repo.references[MEMORY_REF].set_target(commit)
    found = sorted((p.path, p.change, p.commit) for p in history_problems(store))
    assert found == sorted([(a.path, "changed", str(commit)), (b.path, "removed", str(commit))])


def test_what_a_process_holds_of_the_object_database_is_bounded() -> None:
    """A first brief after a clone of 50,000 checkpoints held ~300 MB of cached objects and
    mapped pack pages under libgit2's defaults (benchmarks/bench_scale.py --huge): every
    process that reads a store has both bounded, whatever the store's size."""
    _, cache_limit = pygit2.settings.cached_memory
    assert cache_limit <= 32 << 20
    assert pygit2.settings.mwindow_mapped_limit <= 64 << 20
    assert pygit2.settings.mwindow_size <= pygit2.settings.mwindow_mapped_limit // 8
