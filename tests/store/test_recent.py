"""What the newest commits of the memory ref added (the first brief after a clone reads
them), walked lazily: against a libgit2 tree diff per commit, over histories with merges,
with commit times in order and out of it."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pygit2
import pytest
from helpers.history import commit_files

from gitmem.core.canonical import sha256_hex
from gitmem.core.types import GitOid
from gitmem.store.layout import RECORD_DIRS, content_path
from gitmem.store.recent import additions_newest_first
from gitmem.store.repo import Store


def history(repo: pygit2.Repository, seed: int, skewed: bool) -> pygit2.Oid:
    """A random history: two writers adding records (and items, which are no records)
    on lines of their own, now and then merged; commit times rising, or *skewed*."""
    rng = random.Random(seed)
    files: dict[str, dict[str, bytes]] = {}
    tips: list[pygit2.Oid] = []
    at = 1_700_000_000
    for n in range(40):
        at += rng.randint(1, 100)
        when = at - rng.randint(0, 5_000) if skewed else at
        if len(tips) == 2 and rng.random() < 0.25:  # a merge: both sides' files
            joined = {**files[str(tips[0])], **files[str(tips[1])]}
            tips = [commit_files(repo, joined, tips, when)]
            files[str(tips[0])] = joined
            continue
        side = rng.randrange(len(tips) + 1) if len(tips) < 2 else rng.randrange(2)
        parent = tips[side] if side < len(tips) else (tips[0] if tips else None)
        now = dict(files[str(parent)]) if parent is not None else {}
        for k in range(rng.randint(1, 3)):
            directory = rng.choice(("checkpoints", "events", "items"))
            now[content_path(directory, sha256_hex(f"{seed} {n} {k}".encode()))] = b"{}"
        made = commit_files(repo, now, [parent] if parent is not None else [], when)
        files[str(made)] = now
        if side < len(tips):
            tips[side] = made
        else:
            tips.append(made)
    if len(tips) == 2:
        joined = {**files[str(tips[0])], **files[str(tips[1])]}
        return commit_files(repo, joined, tips, at + 1)
    return tips[0]


def added(c: pygit2.Commit) -> tuple[str, ...]:
    """The records a commit that is no merge added to its parent, by libgit2's tree diff."""
    diff = c.parents[0].tree.diff_to_tree(c.tree) if c.parents else c.tree.diff_to_tree(swap=True)
    paths = (d.new_file.path for d in diff.deltas if d.status_char() == "A")
    return tuple(sorted(p for p in paths if p.split("/")[0] in RECORD_DIRS))


def singles(repo: pygit2.Repository, tip: pygit2.Oid) -> list[pygit2.Commit]:
    """The commits of *tip*'s history that are no merge, newest first by time."""
    return [c for c in repo.walk(tip, pygit2.enums.SortMode.TIME) if len(c.parents) <= 1]


@pytest.mark.parametrize("skewed", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_each_commit_is_read_once_as_its_tree_diff_says(
    tmp_path: Path, seed: int, skewed: bool
) -> None:
    repo = pygit2.init_repository(str(tmp_path / "r"), bare=True)
    tip = history(repo, seed, skewed)
    walked = list(additions_newest_first(Store(repo), GitOid(str(tip))))
    assert Counter(tuple(paths) for paths in walked) == Counter(map(added, singles(repo, tip)))
    assert all(p.split("/")[0] in RECORD_DIRS for paths in walked for p in paths)


def test_the_newest_commit_comes_first_when_times_rise(tmp_path: Path) -> None:
    repo = pygit2.init_repository(str(tmp_path / "r"), bare=True)
    tip = history(repo, 7, skewed=False)
    walked = list(additions_newest_first(Store(repo), GitOid(str(tip))))
    by_second: dict[int, Counter[tuple[str, ...]]] = {}
    for c in singles(repo, tip):
        by_second.setdefault(c.commit_time, Counter())[added(c)] += 1
    at = 0  # commits of one second come in no set order: compare what each second added
    for second in sorted(by_second, reverse=True):
        size = sum(by_second[second].values())
        assert Counter(tuple(p) for p in walked[at : at + size]) == by_second[second]
        at += size
    assert at == len(walked)


def test_an_unreadable_tip_ends_the_walk_quietly(tmp_path: Path) -> None:
    repo = pygit2.init_repository(str(tmp_path / "r"), bare=True)
    blob = repo.create_blob(b"no commit")
    assert list(additions_newest_first(Store(repo), GitOid(str(blob)))) == []
    assert list(additions_newest_first(Store(repo), GitOid("1" * 40))) == []
