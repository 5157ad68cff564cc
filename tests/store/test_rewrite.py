"""Rewriting a ref's history without some paths: deterministic, minimal, append-only."""

from __future__ import annotations

from pathlib import Path

import pygit2
from helpers import git

from gitmem.core.types import GitOid
from gitmem.store.history import history_problems
from gitmem.store.purge import RETITLED, HistoryEditor, TreeEdit
from gitmem.store.repo import Entry, Store

KEEP = "items/aa/" + "1" * 62 + ".json"
GONE = "items/bb/" + "2" * 62 + ".json"
RECORD = "events/cc/" + "3" * 62 + ".json"
OLD = "snapshots/dd/" + "4" * 62 + ".txt"
NEW = "snapshots/ee/" + "5" * 62 + ".txt"


def history(store: Store) -> list[GitOid]:
    first = store.append([Entry(KEEP, b"keep")], "first", "alice")
    second = store.append([Entry(GONE, b"gone"), Entry(OLD, b"old")], "second", "alice")
    third = store.append([Entry(RECORD, b"record")], "third session secret", "alice")
    return [first, second, third]


def test_two_clones_rewrite_the_same_history_to_the_same_commits(
    repo: Path, tmp_path: Path
) -> None:
    store = Store.discover(repo)
    first, second, third = history(store)
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", "--bare", str(repo), str(other))
    git(repo, "push", "-q", str(other), "refs/gitmem/memory:refs/gitmem/memory")
    theirs = Store(pygit2.Repository(str(other)))

    def edit(s: Store) -> TreeEdit:
        new = s.repo.create_blob(b"new")
        return TreeEdit(frozenset({GONE, RECORD}), {OLD: (NEW, new)}, frozenset({RECORD}))

    ours_tip = HistoryEditor(store.repo, edit(store)).edit(third)
    assert HistoryEditor(theirs.repo, edit(theirs)).edit(third) == ours_tip
    rewritten = HistoryEditor(store.repo, edit(store))
    assert rewritten.edit(first) == first  # before the first removed path: kept as is
    assert rewritten.edit(third) == ours_tip  # remembered, and the same again

    paths = git(repo, "ls-tree", "-r", "--name-only", ours_tip).split()
    assert paths == [KEEP, NEW]  # folders left empty are gone too
    log = git(repo, "log", "--format=%s", ours_tip).splitlines()
    assert log == [RETITLED, "second", "first"]  # the message of a removed record's commit
    # Every commit only adds paths: the rewritten history is itself append-only.
    store.compare_and_swap(third, ours_tip, "rewrite")
    assert history_problems(store) == []
    original = store.repo.get(third)
    assert isinstance(original, pygit2.Commit)
    new = store.repo.get(ours_tip)
    assert isinstance(new, pygit2.Commit)
    assert (new.author.time, new.committer.time) == (original.author.time, original.committer.time)
    assert second != HistoryEditor(store.repo, edit(store)).edit(second)
