"""Memory with a known history in time: the memory ref's commits re-dated to chosen
times (the trees, and so every record and receipt, unchanged), for the as-of, review and
viewer tests."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pygit2

from helpers import GIT_ENV, git

MEMORY_REF = "refs/gitmem/memory"
DATES = ["2026-07-01T10:00:00Z", "2026-07-02T10:00:00Z", "2026-07-03T10:00:00Z"]
"""Three days in July, one a memory commit, for :func:`redate_memory`."""


def redate_memory(repo: Path, dates: list[str]) -> list[str]:
    """Rewrite the memory ref's linear history so that its commits, oldest first, are
    committed at *dates* (one per commit); the new commit ids, oldest first."""
    chain = git(repo, "rev-list", "--reverse", "--first-parent", MEMORY_REF).split()
    assert len(chain) == len(dates), (len(chain), len(dates))
    parent: str | None = None
    made: list[str] = []
    for commit, date in zip(chain, dates, strict=True):
        tree = git(repo, "rev-parse", f"{commit}^{{tree}}").strip()
        args = ["git", "-C", str(repo), "commit-tree", tree, "-m", "gitmem: redated"]
        if parent is not None:
            args += ["-p", parent]
        env = {**os.environ, **GIT_ENV, "GIT_COMMITTER_DATE": date, "GIT_AUTHOR_DATE": date}
        parent = subprocess.run(
            args, check=True, capture_output=True, text=True, env=env
        ).stdout.strip()
        made.append(parent)
    assert parent is not None
    git(repo, "update-ref", MEMORY_REF, parent)
    return made


def commit_files(
    repo: pygit2.Repository, files: dict[str, bytes], parents: list[pygit2.Oid], at: int
) -> pygit2.Oid:
    """A commit (no ref moved) whose tree holds exactly *files* (path → bytes), on
    *parents*, committed at *at* (seconds since the epoch)."""
    index = pygit2.Index()
    for path, data in files.items():
        index.add(pygit2.IndexEntry(path, repo.create_blob(data), pygit2.enums.FileMode.BLOB))
    when = pygit2.Signature("m", "m@example.com", at, 0)
    return repo.create_commit(None, when, when, "m", index.write_tree(repo), parents)
