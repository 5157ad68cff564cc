"""Which repository this is, as records name it: the root commits of the trust branch.

Every clone of a repository shares its first commit, and no unrelated repository has
it, so a record names the repository it was written for by a root commit id (storage
field ``repository``). A reader takes a record as written here when the id it names is
a root commit of the trust branch, or one the team lists in ``.gitmem/repository`` on
the trust branch, a line ``also <commit id>`` each: the roots of a history this one
replaced (after ``git filter-repo`` rewrote the first commit, or when a repository was
split out of another and takes its memory along). A record that names any other id was
written for another repository and is never shown as verbatim here.

Forks share their parent's first commit: memory written in one reads as written for the
other. A shallow clone does not hold its first commit and cannot tell: its records are
read without the check, and readers say so.

The roots are found once and kept in ``.git/gitmem/repository.json``; when the trust
branch moves on, only the commits it gained are walked.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import NamedTuple

import pygit2

from gitmem.core.types import GitOid
from gitmem.store.files import read_state, write_state
from gitmem.store.repo import Store

REPOSITORY_FILE = ".gitmem/repository"
"""On the trust branch: the former roots this repository's memory may name."""
CACHE_FILE = "repository.json"
_HEX = frozenset("0123456789abcdef")


class Repository(NamedTuple):
    """What records may name to be read as written here, and what a record written here
    names."""

    ids: frozenset[str] | None
    """None: it cannot be told (no commit yet, a shallow clone)."""
    own: str | None
    """The first commit of the trust branch (the oldest root, then the smallest id)."""
    notices: tuple[str, ...] = ()


def remote_url(repo: pygit2.Repository) -> str | None:
    """The URL of the remote ``origin``, else of the first remote configured; None when the
    repository has none or it cannot be read. Raises nothing."""
    try:
        names = sorted((n for n in repo.remotes.names() if n), key=lambda n: n != "origin")
        return repo.remotes[names[0]].url if names else None
    except (pygit2.GitError, KeyError, ValueError):
        return None


def repository_at(store: Store, commit: GitOid | None, name: str) -> Repository:
    """The repository as the trust branch *name* at *commit* says. Raises nothing."""
    if commit is None:
        return Repository(None, None)
    if store.repo.is_shallow:
        return Repository(
            None,
            None,
            (
                "a shallow clone does not hold its first commit, so which repository a "
                "record was written for is not checked (`git fetch --unshallow` checks it)",
            ),
        )
    try:
        roots = _roots(store, commit)
    except (pygit2.GitError, KeyError, ValueError):
        return Repository(None, None)
    also, notices = _aliases(store, commit, name)
    own = min(roots, key=lambda r: (_time(store, r), r)) if roots else None
    return Repository(frozenset(roots) | also, own, notices)


def _time(store: Store, oid: str) -> int:
    commit = store.repo.get(oid)
    return commit.commit_time if isinstance(commit, pygit2.Commit) else 0


def _aliases(store: Store, commit: GitOid, name: str) -> tuple[frozenset[str], tuple[str, ...]]:
    data = store.blob_at(commit, REPOSITORY_FILE)
    if data is None:
        return frozenset(), ()
    found: set[str] = set()
    notices: list[str] = []
    for number, raw in enumerate(data.decode("utf-8", "replace").split("\n"), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        word, _, oid = line.partition(" ")
        oid = oid.strip()
        if word == "also" and len(oid) in (40, 64) and set(oid) <= _HEX:
            found.add(oid)
        else:
            notices.append(
                f"{name}:{REPOSITORY_FILE}: line {number} is not `also <commit id>`; line skipped"
            )
    return frozenset(found), tuple(notices)


def _roots(store: Store, commit: GitOid) -> set[str]:
    """The root commits of *commit*'s history, from the cache when it holds them.

    Raises:
        pygit2.GitError, KeyError, ValueError: the history cannot be walked.
    """
    path = store.local_dir / CACHE_FILE
    seen, roots = _cached(path)
    repo = store.repo
    if seen == commit:
        return roots
    walker = repo.walk(pygit2.Oid(hex=commit), pygit2.enums.SortMode.NONE)
    if seen is not None and repo.get(seen) is not None and repo.descendant_of(commit, seen):
        walker.hide(pygit2.Oid(hex=seen))
    else:
        roots = set()
    roots |= {str(c.id) for c in walker if not c.parent_ids}
    with contextlib.suppress(OSError):  # a read-only clone walks again next time
        store.local_dir.mkdir(parents=True, exist_ok=True)
        write_state(path, {"version": 1, "commit": commit, "roots": sorted(roots)}, indent=None)
    return roots


def _cached(path: Path) -> tuple[str | None, set[str]]:
    data = read_state(path, max_depth=3)
    if not isinstance(data, dict) or data.get("version") != 1:
        return None, set()
    commit, roots = data.get("commit"), data.get("roots")
    if not isinstance(commit, str) or not isinstance(roots, list):
        return None, set()
    return commit, {r for r in roots if isinstance(r, str)}


def common_folder(gitdir: Path) -> Path:
    """The folder all worktrees of the repository at *gitdir* (its ``.git``, or a
    worktree's folder in it) share: the one its ``commondir`` file names, relative to
    *gitdir*, else *gitdir* itself; resolved. Raises nothing."""
    try:
        named = (gitdir / "commondir").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        named = ""
    try:
        return (gitdir / named).resolve() if named else gitdir.resolve()
    except (OSError, RuntimeError):
        return gitdir


def repository_folder(folder: Path) -> Path | None:
    """The :func:`common_folder` of the repository *folder* lies in, as git finds it
    from there; None when it lies in none. Raises nothing."""
    try:
        found = pygit2.discover_repository(str(folder))
    except (OSError, ValueError, pygit2.GitError):
        return None
    return None if found is None else common_folder(Path(found))
