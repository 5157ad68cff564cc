"""The order commits of the memory ref added its records (``gitmem log``'s order), asked of
one ``git log``: the same as a tree diff per commit against its first parent, in
libgit2's topological walk, over histories with merges of every kind."""

from __future__ import annotations

import random
from pathlib import Path

import pygit2
import pytest
from helpers.history import commit_files

from gitmem.core.canonical import sha256_hex
from gitmem.store import history
from gitmem.store.history import ORDER_FILE, record_additions
from gitmem.store.layout import RECORD_DIRS, content_path
from gitmem.store.repo import MEMORY_REF, Store


def by_diffs(store: Store) -> list[str]:
    """The rule as a tree diff per commit (what the log did before)."""
    tip = store.tip()
    assert tip is not None
    order: list[str] = []
    for commit in store.repo.walk(pygit2.Oid(hex=tip), pygit2.enums.SortMode.TOPOLOGICAL):
        parent = commit.parents[0].tree if commit.parents else None
        diff = (
            parent.diff_to_tree(commit.tree)
            if parent is not None
            else commit.tree.diff_to_tree(swap=True)
        )
        order += [d.new_file.path for d in diff.deltas if d.status_char() == "A"]
    return [p for p in order if p.split("/")[0] in RECORD_DIRS]


def new_path(rng: random.Random, n: int) -> str:
    directory = rng.choice(("checkpoints", "events", "items", "snapshots"))
    return content_path(directory, sha256_hex(f"{n} {rng.random()}".encode()))


def grow(git: pygit2.Repository, rng: random.Random) -> tuple[pygit2.Oid, dict[str, bytes]]:
    """A history of 40 commits with merges of every kind (ours, theirs, both), every line
    merged in the end: its tip and the files of its tree."""
    heads: list[tuple[pygit2.Oid, dict[str, bytes]]] = []
    files = {new_path(rng, 0): b"0"}
    heads.append((commit_files(git, files, [], 1_700_000_000), files))
    for n in range(1, 40):
        first, files = rng.choice(heads[-6:])
        files = dict(files)
        parents = [first]
        if rng.random() < 0.4 and len(heads) > 2:
            second, theirs = rng.choice(heads)
            how = rng.choice(("union", "ours", "theirs"))
            files = {**files, **theirs} if how == "union" else theirs if how == "theirs" else files
            parents.append(second)
        for m in range(rng.randrange(0, 4) if len(parents) == 1 else rng.randrange(-2, 2)):
            files[new_path(rng, n * 10 + m)] = b"%d" % n
        at = 1_700_000_000 + rng.randrange(-50, 50) * n  # clocks that disagree
        heads.append((commit_files(git, files, parents, at), dict(files)))
    tip, files = heads[-1]
    for other, _ in heads[:-1]:
        tip = commit_files(git, files, [tip, other], 1_700_000_000)
    return tip, files


@pytest.mark.parametrize("seed", range(12))
def test_one_git_log_orders_as_a_diff_per_commit(repo: Path, seed: int) -> None:
    git = pygit2.Repository(str(repo))
    tip, _ = grow(git, random.Random(seed))
    git.references.create(MEMORY_REF, tip, force=True)
    store = Store.discover(repo)
    assert record_additions(store) == by_diffs(store)
    (store.local_dir / ORDER_FILE).unlink()
    assert record_additions(store) == by_diffs(store)  # found again, not kept


@pytest.mark.parametrize("seed", range(4))
def test_the_kept_order_grows_with_a_line_of_commits_and_is_found_again_otherwise(
    repo: Path, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(seed)
    git = pygit2.Repository(str(repo))
    tip, files = grow(git, rng)
    git.references.create(MEMORY_REF, tip, force=True)
    store = Store.discover(repo)
    assert record_additions(store) == by_diffs(store)
    walks: list[str] = []
    whole = history._ordered
    monkeypatch.setattr(history, "_ordered", lambda s, t: walks.append(t) or whole(s, t))
    for n in range(6):  # captures: a line of commits, one or several between two logs
        for m in range(rng.randrange(1, 4)):
            files = {**files, **{new_path(rng, 1000 + n * 10 + m): b"c"}}
            tip = commit_files(git, files, [tip], 1_800_000_000 + n)
        git.references.create(MEMORY_REF, tip, force=True)
        assert record_additions(store) == by_diffs(store)
    assert walks == []  # each time, only the new commits were asked
    older = tip
    tip = commit_files(git, {**files, new_path(rng, 2000): b"m"}, [tip, heads_root(git, tip)], 0)
    git.references.create(MEMORY_REF, tip, force=True)
    assert record_additions(store) == by_diffs(store) and walks == [str(tip)]  # a merge
    git.references.create(MEMORY_REF, older, force=True)
    assert record_additions(store) == by_diffs(store) and len(walks) == 2  # a rewrite
    kept = store.local_dir / ORDER_FILE
    kept.write_text(kept.read_text().replace("checkpoints/", "checkpoints/0", 1))
    assert record_additions(store) == by_diffs(store) and len(walks) == 3  # damaged


def heads_root(git: pygit2.Repository, tip: pygit2.Oid) -> pygit2.Oid:
    """The first commit of *tip*'s history."""
    return list(git.walk(tip, pygit2.enums.SortMode.TOPOLOGICAL))[-1].id


def test_an_empty_ref_added_nothing(repo: Path) -> None:
    assert record_additions(Store.discover(repo)) == []
