"""The union of two trees and the purge events one tree adds read each folder that
differs once, not once per name in it: a sync of one checkpoint into a store of 10,000
opens a few fan-out folders of ~100 names each, and a bisection per name (eight entries
read) grew the sync with the store."""

from __future__ import annotations

import subprocess
from typing import Any

import pygit2
import pytest

from gitmem.store import shape
from gitmem.store.merge import union_tree
from gitmem.store.purge import _new_events

Mode = pygit2.enums.FileMode
HEX = "0123456789abcdef"


@pytest.fixture
def repo(tmp_path: Any) -> pygit2.Repository:
    return pygit2.init_repository(str(tmp_path / "r"), bare=True)


@pytest.fixture
def bisected(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Every entry a bisection reads from now on."""
    seen: list[bytes] = []
    real = shape._sort_key

    def counting(entry: pygit2.Object) -> bytes:
        seen.append(entry.raw_name or b"")
        return real(entry)

    monkeypatch.setattr(shape, "_sort_key", counting)
    return seen


def _store(repo: pygit2.Repository, names: dict[str, list[str]]) -> pygit2.Tree:
    """A tree ``events/<fan>/<leaf>.json`` for each fan and its leaves."""
    fans = repo.TreeBuilder()
    for fan, leaves in names.items():
        folder = repo.TreeBuilder()
        for leaf in leaves:
            folder.insert(f"{leaf}.json", repo.create_blob(f"{fan}{leaf}".encode()), Mode.BLOB)
        fans.insert(fan, folder.write(), Mode.TREE)
    root = repo.TreeBuilder()
    root.insert("events", fans.write(), Mode.TREE)
    tree = repo[root.write()]
    assert isinstance(tree, pygit2.Tree)
    return tree


def _leaves(count: int) -> list[str]:
    return [f"{n:062x}" for n in range(count)]


def test_a_union_reads_each_folder_that_differs_once(
    repo: pygit2.Repository, bisected: list[bytes]
) -> None:
    fans = [a + b for a in HEX for b in HEX[:4]]  # 64 fan-out folders of 120 names
    held = {fan: _leaves(120) for fan in fans}
    ours = _store(repo, held)
    theirs = _store(repo, {**held, "00": [*held["00"], "f" * 62], "33": held["33"][:-1]})
    both = _store(repo, {**held, "00": [*held["00"], "f" * 62]})
    bisected.clear()
    merged, conflicts = union_tree(repo, ours, theirs)
    assert merged == both.id and conflicts == []
    assert union_tree(repo, theirs, ours) == (both.id, [])
    assert not bisected  # (each of 120 names looked up by bisection: ~900 entries read)


def test_a_conflict_is_still_found_by_name(repo: pygit2.Repository) -> None:
    ours = _store(repo, {"00": _leaves(3)})
    folder = repo[ours["events"]["00"].id]
    assert isinstance(folder, pygit2.Tree)
    builder = repo.TreeBuilder(folder)
    builder.insert(f"{0:062x}.json", repo.create_blob(b"edited"), Mode.BLOB)
    fans = repo.TreeBuilder()
    fans.insert("00", builder.write(), Mode.TREE)
    root = repo.TreeBuilder()
    root.insert("events", fans.write(), Mode.TREE)
    theirs = repo[root.write()]
    assert isinstance(theirs, pygit2.Tree)
    _, conflicts = union_tree(repo, ours, theirs)
    assert conflicts == [f"events/00/{0:062x}.json"]


def test_the_events_a_tree_adds_are_found_reading_each_folder_once(
    repo: pygit2.Repository, bisected: list[bytes]
) -> None:
    held = {a + b: _leaves(4) for a in HEX for b in HEX}  # all 256 fan-out folders
    older = _store(repo, held)
    newer = _store(repo, {**held, "c3": [*held["c3"], "a" * 62]})
    events, before = newer["events"], older["events"]
    assert isinstance(events, pygit2.Tree) and isinstance(before, pygit2.Tree)
    bisected.clear()
    assert [path for path, _ in _new_events(events, before)] == [f"events/c3/{'a' * 62}.json"]
    assert not bisected  # (each of 256 fans looked up by bisection: ~2,000 entries read)


def test_a_name_that_is_not_utf8_is_carried_as_its_bytes(repo: pygit2.Repository) -> None:
    # pygit2 reads such a name as lone surrogates and cannot write it back: the union
    # of two trees that both hold its folder ended every reader of that memory (exit 70),
    # then refused the remote's memory as a conflict; git mktree writes it.
    blob = repo.create_blob(b"junk")

    def mktree(listing: bytes) -> str:
        done = subprocess.run(
            ["git", "--git-dir", repo.path, "mktree", "-z"],
            input=listing,
            capture_output=True,
            check=True,
        )
        return done.stdout.decode().strip()

    ours = mktree(b"100644 blob " + str(blob).encode() + b"\tplain.json\0")
    theirs = mktree(b"100644 blob " + str(blob).encode() + b"\t\xff\xfe.json\0")
    top = [mktree(b"040000 tree " + sub.encode() + b"\titems\0") for sub in (ours, theirs)]
    a, b = (repo.get(t) for t in top)
    assert isinstance(a, pygit2.Tree) and isinstance(b, pygit2.Tree)
    merged, conflicts = union_tree(repo, a, b)
    assert conflicts == []
    tree = repo.get(merged)
    assert isinstance(tree, pygit2.Tree)
    items = repo.get(tree["items"].id)
    assert isinstance(items, pygit2.Tree)
    assert sorted(e.raw_name for e in items) == [b"plain.json", b"\xff\xfe.json"]
