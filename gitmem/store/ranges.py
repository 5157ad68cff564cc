"""A range of code commits as git takes it (``main..feature``, ``HEAD~30..HEAD``,
``feature ^main``, ``A...B``): its commits, where it starts, and the files it changes.

The commits are exactly what ``git rev-list RANGE`` lists, so every form git accepts
works and means what it means to git. The files are the paths each non-merge commit of
the range changes against its parent (both names of a rename): what the branch's own
commits touched, not what a merge of the main line brought in.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygit2

from gitmem.core.errors import InputError
from gitmem.store.git import last_line, run_git
from gitmem.store.repo import Store

MAX_COMMITS = 10_000
"""A review reads every commit of its range; a range this long is a mistake (``HEAD``
alone lists the whole history)."""
MAX_SPEC = 1_000


@dataclass(frozen=True)
class RangeScope:
    spec: str
    commits: tuple[str, ...]
    """The range's commits, newest first, as ``git rev-list`` lists them."""
    boundary: frozenset[str]
    """The parents of its commits that lie outside it: where the range starts from."""
    files: frozenset[str]
    """The paths its non-merge commits change."""
    branches: frozenset[str] = frozenset()
    """The local branches whose tip is one of its commits (``feature`` of
    ``main..feature``): what a capture made on them before their first commit names."""

    @property
    def members(self) -> frozenset[str]:
        return frozenset(self.commits)


def range_scope(store: Store, spec: str) -> RangeScope:
    """The commits, boundary and changed files of the range *spec* (one or more revisions
    separated by spaces, as ``git rev-list`` takes them).

    Raises:
        InputError: *spec* is not a range of this repository, or lists more than
            :data:`MAX_COMMITS` commits.
        GitError: git cannot run.
    """
    revisions = spec.split()
    if not revisions or len(spec) > MAX_SPEC or any(r.startswith("-") for r in revisions):
        raise InputError(f"{spec[:60]!r} is not a range: give one like main..feature")
    done = run_git(store, "rev-list", "--end-of-options", *revisions, "--", timeout=120)
    if done.returncode != 0:
        raise InputError(f"{spec!r} is not a range of this repository: {last_line(done.stderr)}")
    commits = tuple(done.stdout.split())
    if len(commits) > MAX_COMMITS:
        raise InputError(
            f"{spec!r} lists {len(commits)} commits; a review takes at most {MAX_COMMITS} "
            "(give a range such as main..feature)"
        )
    members = set(commits)
    boundary: set[str] = set()
    files: set[str] = set()
    for sha in commits:
        commit = store.repo.get(sha)
        if not isinstance(commit, pygit2.Commit):
            continue
        parents = [str(p) for p in commit.parent_ids]
        boundary.update(p for p in parents if p not in members)
        if len(parents) <= 1:
            files.update(_changed(store.repo, commit))
    return RangeScope(
        spec, commits, frozenset(boundary), frozenset(files), _tips_in(store, members)
    )


def _tips_in(store: Store, members: set[str]) -> frozenset[str]:
    """The local branches whose tip commit is in *members*. Raises nothing."""
    found: set[str] = set()
    try:
        for name in store.repo.branches.local:
            target = store.repo.branches.local[name].target
            if str(target) in members:
                found.add(name)
    except (pygit2.GitError, KeyError, ValueError):
        return frozenset(found)
    return frozenset(found)


def _changed(repo: pygit2.Repository, commit: pygit2.Commit) -> set[str]:
    if commit.parents:
        diff = repo.diff(commit.parents[0], commit)
    else:
        diff = commit.tree.diff_to_tree(swap=True)
    diff.find_similar()
    paths: set[str] = set()
    for delta in diff.deltas:
        paths.update(p for p in (delta.old_file.path, delta.new_file.path) if p)
    return paths
