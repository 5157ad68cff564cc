"""tree_changes against libgit2's own tree diff: the same additions, and "something
else" exactly when that diff shows anything but an addition, for every kind of change a
tree can hold (a file added, edited, removed, its mode or type changed, a folder made a
file and back, an empty folder, a submodule, a symlink)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pygit2
import pytest

from gitmem.store.treediff import tree_changes

Mode = pygit2.enums.FileMode
Spec = dict[str, object]
"""A tree: name → bytes (a file), (mode, bytes) (a file of another mode), a Spec (a
folder), or "commit" (a submodule)."""


def _build(repo: pygit2.Repository, spec: Spec) -> pygit2.Oid:
    builder = repo.TreeBuilder()
    for name, value in spec.items():
        if isinstance(value, dict):
            builder.insert(name, _build(repo, value), Mode.TREE)
        elif value == "commit":
            builder.insert(name, pygit2.Oid(hex="1" * 40), Mode.COMMIT)
        elif isinstance(value, tuple):
            mode, data = value
            builder.insert(name, repo.create_blob(data), mode)
        else:
            assert isinstance(value, bytes)
            builder.insert(name, repo.create_blob(value), Mode.BLOB)
    return builder.write()


BASE: Spec = {
    "checkpoints": {"ab": {"one.json": b"1", "two.json": b"2"}, "cd": {"three.json": b"3"}},
    "items": {"ab": {"x.json": b"x"}},
    "snapshots": {},
    "top.txt": b"top",
}

VARIANTS: dict[str, Spec] = {
    "same": BASE,
    "a file added": {**BASE, "items": {"ab": {"x.json": b"x", "y.json": b"y"}}},
    "a fan-out folder added": {**BASE, "items": {"ab": {"x.json": b"x"}, "ef": {"z": b"z"}}},
    "a top folder added": {**BASE, "receipts": {"ab": {"one.sig": b"s"}}},
    "an empty folder added": {**BASE, "events": {}},
    "a file edited": {**BASE, "top.txt": b"edited"},
    "a file removed": {k: v for k, v in BASE.items() if k != "top.txt"},
    "an empty folder removed": {k: v for k, v in BASE.items() if k != "snapshots"},
    "a folder removed": {k: v for k, v in BASE.items() if k != "items"},
    "made executable": {**BASE, "top.txt": (Mode.BLOB_EXECUTABLE, b"top")},
    "made a symlink": {**BASE, "top.txt": (Mode.LINK, b"top")},
    "a file made a folder": {**BASE, "top.txt": {"inner": b"i"}},
    "a folder made a file": {**BASE, "items": b"items"},
    "an empty folder made a file": {**BASE, "snapshots": b"s"},
    "a submodule": {**BASE, "top.txt": "commit"},
    "a submodule added": {**BASE, "sub": "commit"},
    "added and edited": {
        **BASE,
        "checkpoints": {"ab": {"one.json": b"1!", "two.json": b"2", "new.json": b"n"}},
    },
}


@pytest.mark.parametrize(("old", "new"), list(itertools.permutations(VARIANTS, 2)))
def test_tree_changes_says_what_libgit2s_diff_says(tmp_path: Path, old: str, new: str) -> None:
    repo = pygit2.init_repository(str(tmp_path / "r"), bare=True)
    before = repo[_build(repo, VARIANTS[old])]
    after = repo[_build(repo, VARIANTS[new])]
    assert isinstance(before, pygit2.Tree) and isinstance(after, pygit2.Tree)
    deltas = list(before.diff_to_tree(after).deltas)
    entries: dict[str, pygit2.Object] = {}
    changes = tree_changes(before, after, entries)
    assert changes.added == [d.new_file.path for d in deltas if d.status_char() == "A"]
    assert changes.other == any(d.status_char() != "A" for d in deltas)
    # each added file with its entry, as a lookup of its path in the new tree finds it
    assert sorted(entries) == changes.added
    for path, entry in entries.items():
        assert (entry.id, entry.filemode) == (after[path].id, after[path].filemode)
    assert tree_changes(before, after) == changes


def _random_spec(rng: random.Random, depth: int = 0) -> Spec:
    spec: Spec = {}
    for n in rng.sample(range(400), rng.randint(0, 120 if depth else 12)):
        name = f"{n:03x}" + rng.choice(["", ".json", ".sig"])
        roll = rng.random()
        if depth < 2 and roll < 0.15:
            spec[name] = _random_spec(rng, depth + 1)
        elif roll < 0.2:
            spec[name] = (Mode.BLOB_EXECUTABLE, name.encode())
        else:
            spec[name] = name.encode()
    return spec


def _changed(rng: random.Random, spec: Spec) -> Spec:
    out: Spec = {}
    for name, value in spec.items():
        roll = rng.random()
        if roll < 0.03:
            continue  # removed
        if isinstance(value, dict):
            out[name] = _changed(rng, value) if roll < 0.6 else value
        elif roll < 0.05:
            out[name] = b"edited " + name.encode()
        elif roll < 0.06:
            out[name] = (Mode.BLOB_EXECUTABLE, name.encode())
        else:
            out[name] = value
    for n in range(rng.randint(0, 5)):
        out[f"new{n}{rng.randint(0, 99)}"] = b"new"
    return out


@pytest.mark.parametrize("seed", range(40))
def test_large_random_trees_give_what_libgit2s_diff_gives(tmp_path: Path, seed: int) -> None:
    """Folders of up to ~120 entries, edited at random (files added, removed, edited,
    made executable; folders within folders): the same additions as libgit2's diff, and
    "something else" exactly when it shows more."""
    rng = random.Random(seed)
    repo = pygit2.init_repository(str(tmp_path / "r"), bare=True)
    spec = {"checkpoints": _random_spec(rng, 1), "items": _random_spec(rng, 1)}
    before, after = repo[_build(repo, spec)], repo[_build(repo, _changed(rng, spec))]
    assert isinstance(before, pygit2.Tree) and isinstance(after, pygit2.Tree)
    changes = tree_changes(before, after)
    deltas = list(before.diff_to_tree(after).deltas)
    assert changes.added == [d.new_file.path for d in deltas if d.status_char() == "A"]
    assert changes.other == any(d.status_char() != "A" for d in deltas)
