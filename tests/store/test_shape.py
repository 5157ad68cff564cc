"""Looking a path up in a tree: the entry libgit2's own lookup by name finds, for every
name a tree can hold beside others sharing its start (a file ``a.b`` sorts before a
folder ``a``), and no reference kept to the name asked for (pygit2's lookup by name keeps
one for good, so a build that looked up every path of history held every name)."""

from __future__ import annotations

import sys
from pathlib import Path

import pygit2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitmem.store.shape import Paths, by_name, child, entry_at

Mode = pygit2.enums.FileMode

NAMES = st.text(alphabet="ab.-/0é", min_size=1, max_size=4).filter(
    lambda n: "/" not in n and n not in (".", "..")
)


def _tree(repo: pygit2.Repository, files: list[str], folders: list[str]) -> pygit2.Tree:
    blob = repo.create_blob(b"x")
    inner = repo.TreeBuilder()
    inner.insert("f", blob, Mode.BLOB)
    inside = inner.write()
    builder = repo.TreeBuilder()
    for name in files:
        builder.insert(name, blob, Mode.BLOB)
    for name in folders:
        builder.insert(name, inside, Mode.TREE)
    tree = repo[builder.write()]
    assert isinstance(tree, pygit2.Tree)
    return tree


def _libgit2(tree: pygit2.Tree, path: str) -> pygit2.Oid | None:
    try:
        return tree[path].id
    except (KeyError, ValueError):
        return None


@pytest.fixture(scope="module")
def bare(tmp_path_factory: pytest.TempPathFactory) -> pygit2.Repository:
    return pygit2.init_repository(str(tmp_path_factory.mktemp("shape")), bare=True)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(names=st.lists(NAMES, unique=True, max_size=12), data=st.data())
def test_a_lookup_finds_what_libgit2_finds(
    bare: pygit2.Repository, names: list[str], data: st.DataObject
) -> None:
    folders = data.draw(st.lists(st.sampled_from(names), unique=True)) if names else []
    tree = _tree(bare, [n for n in names if n not in folders], folders)
    probes = data.draw(st.lists(NAMES, max_size=6))
    for name in [*names, *probes, *(f"{n}/f" for n in folders), "", "a/", "/a", "a//", "/"]:
        found = entry_at(tree, name)
        assert (None if found is None else found.id) == _libgit2(tree, name), name
    lookup = Paths(tree)
    for name in [*names, *(f"{n}/f" for n in folders)]:
        found = lookup(name)
        assert found is not None and found.id == _libgit2(tree, name), name
    named = by_name(tree)
    for name in [*names, *probes]:
        found = named.get(name.encode())
        assert (None if found is None else found.id) == _libgit2(tree, name), name


def test_a_lookup_keeps_no_reference_to_the_name(bare: pygit2.Repository, tmp_path: Path) -> None:
    tree = _tree(bare, ["a.b", "a0", "é"], ["a", "b"])
    for name in ["a", "a.b", "é", "a/f", "b/f", "missing", "a/missing", "b/f/deeper"]:
        asked = "".join(["", name])  # a string of its own, as a path read from a tree is
        held = sys.getrefcount(asked)
        entry_at(tree, asked)
        child(tree, asked)
        Paths(tree)(asked)
        assert sys.getrefcount(asked) == held, name
