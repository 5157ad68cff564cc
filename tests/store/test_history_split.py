"""A long history is walked by two gits, each over one part of its commits: together they
find exactly what one walk finds (a removal in the older part, a change in the newer, a
merge whose side branch lies across the split), and each commit's diff is read once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygit2
import pytest

from gitmem.core.canonical import sha256_hex
from gitmem.core.types import GitOid
from gitmem.store import history
from gitmem.store.layout import content_path
from gitmem.store.repo import MEMORY_REF, Entry, Store


def _entry(data: bytes) -> Entry:
    return Entry(content_path("snapshots", sha256_hex(data)), data)


def _commit(store: Store, edit: Any, parents: list[pygit2.Oid], message: str) -> pygit2.Oid:
    base = store.repo.get(parents[0])
    index = pygit2.Index()
    index.read_tree(base.tree)
    edit(index)
    who = pygit2.Signature("m", "m@x")
    return store.repo.create_commit(None, who, who, message, index.write_tree(store.repo), parents)


def _history(store: Store) -> dict[str, tuple[str, str]]:
    """Twelve commits on the first-parent line: an old one removes a path, a newer one
    changes another in place, and a merge joins a side branch forked before the split;
    what each should be found as."""
    kept = [_entry(f"{n}".encode()) for n in range(12)]
    store.append([kept[0]], "m", "a")
    expected: dict[str, tuple[str, str]] = {}
    for n in range(1, 12):
        store.append([kept[n]], "m", "a")
        tip = pygit2.Oid(hex=str(store.tip()))
        if n == 2:  # an old commit removes a path
            commit = _commit(store, lambda i: i.remove(kept[0].path), [tip], "drop")
            expected[str(commit)] = (kept[0].path, "removed")
            store.repo.references[MEMORY_REF].set_target(commit)
        if n == 3:
            fork = tip
        if n == 10:  # a newer one changes a path in place
            blob = store.repo.create_blob(b"edited")
            entry = pygit2.IndexEntry(kept[5].path, blob, pygit2.GIT_FILEMODE_BLOB)
            commit = _commit(store, lambda i, e=entry: i.add(e), [tip], "edit")
            expected[str(commit)] = (kept[5].path, "changed")
            store.repo.references[MEMORY_REF].set_target(commit)
        if n == 11:  # a side branch forked at 3 that dropped a path, merged now
            side = _commit(store, lambda i: i.remove(kept[1].path), [fork], "side drop")
            expected[str(side)] = (kept[1].path, "removed")
            merged = _commit(store, lambda i: None, [tip, side], "merge")
            store.repo.references[MEMORY_REF].set_target(merged)
    return expected


def test_a_history_split_in_two_walks_finds_what_one_walk_finds(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store.discover(repo)
    expected = _history(store)
    one = history.history_problems(store)
    started: list[tuple[str, ...]] = []
    start = history.start_git

    def recording(store: Store, *args: str, bounded: bool = False) -> Any:
        started.append(args)
        return start(store, *args, bounded=bounded)

    monkeypatch.setattr(history, "start_git", recording)
    monkeypatch.setattr(history, "SPLIT_AT", 4)
    two = history.history_problems(store)
    assert len(started) == 2 and all(args[0] == "log" for args in started)
    assert sorted(two, key=str) == sorted(one, key=str)
    assert {p.commit: (p.path, p.change) for p in two} == expected
    assert len(two) == len({(p.commit, p.path) for p in two})  # no commit walked twice
    # and with what a CI run hides: the old removal is behind it, the rest is not
    dropped = next(iter(expected))
    after = sorted((p for p in one if p.commit != dropped), key=str)
    hide = [GitOid(str(store.repo.revparse_single(f"{MEMORY_REF}~8").id))]
    monkeypatch.setattr(history, "SPLIT_AT", 10**9)
    assert sorted(history.history_problems(store, hide), key=str) == after
    monkeypatch.setattr(history, "SPLIT_AT", 2)
    assert sorted(history.history_problems(store, hide), key=str) == after
