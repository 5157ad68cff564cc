"""The ref's history as git tells it: which paths a commit of the ref removed or changed
(the append-only check), which commit added a path, and the order commits added records.

Asked of git itself (one ``git log`` each): it walks every commit's tree against each
parent in C, skipping the subtrees they share, where a diff per commit through pygit2 cost
~2 ms a commit (2 s of `gitmem verify`, and of `gitmem log`, at 1,000 checkpoints).
"""

from __future__ import annotations

import contextlib
import hashlib
import math
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import pygit2

from gitmem.core.errors import GitError, GitmemError
from gitmem.core.types import GitOid
from gitmem.store.files import read_state, write_state
from gitmem.store.git import RunningGit, last_line, run_git, start_git
from gitmem.store.layout import RECORD_DIRS
from gitmem.store.repo import Store

HISTORY = "history "
"""How the problem of every path a commit removed or changed begins (``history removed``,
``history changed``), as :func:`gitmem.store.verify.check_ref` reports it."""


@dataclass(frozen=True)
class HistoryProblem:
    commit: GitOid
    path: str
    change: str  # "removed" or "changed"


def history_problems(store: Store, hide: Sequence[GitOid] = ()) -> list[HistoryProblem]:
    """Paths that a commit of the store's ref removed or changed against any of its
    parents (the store is append-only), newest commit first. Commits reachable from
    *hide* (history already checked) are skipped.

    Raises:
        GitError: git could not run or refused the walk.
    """
    return HistoryWalk(store, hide).problems()


class HistoryWalk:
    """:func:`history_problems`, its walk started now (git walks the history while
    this process goes on: ``verify`` checks the content meanwhile) and its answer read by
    :meth:`problems`; :meth:`stop` ends a walk whose answer is not wanted.

    A long history is walked by two gits at once, each over one part of its commits
    (:func:`_parts`): each commit's diff costs what the folders it touched hold, so the
    walk of a history of single-checkpoint commits grows with the square of the store
    (~1.3 ms a commit at 10,000 checkpoints: ~13 s of CPU for a year of one commit per
    checkpoint), and one git would leave the second core idle once the content is checked.

    Raises:
        GitError: git could not run.
    """

    def __init__(self, store: Store, hide: Sequence[GitOid] = ()) -> None:
        self._store = store
        self._gits: list[RunningGit] = []
        tip = store.tip()
        if tip is None:
            return
        hidden = [f"^{seen}" for seen in hide]
        try:
            for part in _parts(store, tip, hidden):
                self._gits.append(
                    _start_raw_log(
                        store,
                        "-m",  # a merge is checked against each of its parents
                        "--topo-order",
                        "--diff-filter=DMT",
                        "--end-of-options",
                        *part,
                    )
                )
        except BaseException:
            self.stop()
            raise

    def problems(self) -> list[HistoryProblem]:
        """What the walk found (see :func:`history_problems`).

        Raises:
            GitError: git did not finish in time or refused the walk.
        """
        try:
            return [
                p for git in self._gits for p in parse_raw_log(_raw_log_output(self._store, git))
            ]
        finally:
            self.stop()

    def stop(self) -> None:
        """End the walk, if it still runs. Raises nothing."""
        for git in self._gits:
            git.stop()


SPLIT_AT = 256
"""First-parent commits from which :class:`HistoryWalk` is split in two: below, one git
is done before the content check (which keeps both cores busy meanwhile)."""

_NEWER_SHARE = 1 - 1 / math.sqrt(2)
"""The share of the first-parent commits, newest first, that the first of the two walks
takes: a commit's diff costs about what the store held then, so the newest ~29% cost
about as much as the rest."""


def _parts(store: Store, tip: GitOid, hidden: list[str]) -> list[list[str]]:
    """The revisions of each walk: the whole history (*tip* but not *hidden*) as one, or,
    for a first-parent line of :data:`SPLIT_AT` commits or more, the commits reachable
    from *tip* but not from a commit *middle* on that line, and those reachable from
    *middle*: every commit in exactly one of them, whatever merges there are (and
    wherever *middle* falls: it only sizes the parts). Raises nothing (the walks say what
    git refuses)."""
    whole = [tip, *hidden]
    line: list[str] = []
    try:
        walker = store.repo.walk(tip, pygit2.enums.SortMode.NONE)
        walker.simplify_first_parent()
        for seen in hidden:
            walker.hide(seen[1:])
        line = [str(commit.id) for commit in walker]
    except (pygit2.GitError, KeyError, ValueError):
        return [whole]
    if len(line) < SPLIT_AT:
        return [whole]
    middle = line[round(len(line) * _NEWER_SHARE)]
    return [[tip, f"^{middle}", *hidden], [middle, *hidden]]


def _start_raw_log(store: Store, *args: str) -> RunningGit:
    """``git log -z --format=%H --raw`` over *args*, renames not detected, started now.
    Raises GitError: git could not run."""
    return start_git(
        store,
        "log",
        "--no-show-signature",  # whatever the user's log.showSignature and color say
        "--no-color",
        "-z",
        "--format=%H",
        "--raw",
        "--no-renames",
        *args,
        bounded=True,
    )


def _raw_log_output(store: Store, git: RunningGit) -> str:
    """What a log :func:`_start_raw_log` started wrote. Raises GitError: git did not
    finish in time or refused the walk."""
    done = git.finish(timeout=300)
    if done.returncode != 0:
        raise GitError(f"the history of {store.ref} cannot be walked: {last_line(done.stderr)}")
    return done.stdout


def parse_raw_log(output: str) -> list[HistoryProblem]:
    """The removals and changes of ``git log -z --format=%H --raw`` output, once per
    commit and path. Raises nothing."""
    problems: list[HistoryProblem] = []
    seen: set[tuple[str, str]] = set()
    fields = iter(output.split("\0"))
    commit = ""
    for field in fields:
        field = field.lstrip("\n")
        if not field.startswith(":"):
            commit = field
            continue
        status, path = field.rsplit(" ", 1)[-1][:1], next(fields, "")
        if (commit, path) in seen:
            continue
        seen.add((commit, path))
        change = "removed" if status == "D" else "changed"
        problems.append(HistoryProblem(GitOid(commit), path, change))
    return problems


class Introduced(NamedTuple):
    """The commit that added a path, and who its history says made it."""

    commit: GitOid
    author: str
    """``Name <email>`` of its author (and of its committer, when another)."""


def introduced(
    store: Store, paths: Collection[str], hide: Sequence[GitOid] = ()
) -> dict[str, Introduced]:
    """For each of *paths*, the commit of the store's ref (not reachable from *hide*) that
    added it, as its history says: who made a commit is what the commit claims, not who
    pushed it. One ``git log``; a path it does not find is left out. Raises nothing."""
    tip = store.tip() if paths else None
    if tip is None:
        return {}
    try:
        done = run_git(
            store,
            "log",
            "--no-show-signature",
            "--no-color",
            "-z",
            "--format=%H%x00%an <%ae>%x00%cn <%ce>",
            "--raw",
            "--no-renames",
            "--diff-filter=A",
            "--end-of-options",
            tip,
            *(f"^{seen}" for seen in hide),
            timeout=300,
            bounded=True,
        )
    except GitError:
        return {}
    if done.returncode != 0:
        return {}
    found: dict[str, Introduced] = {}
    fields = iter(done.stdout.split("\0"))
    current: Introduced | None = None
    for field in fields:
        field = field.lstrip("\n")
        if not field.startswith(":"):
            author, committer = next(fields, ""), next(fields, "")
            who = author if committer in ("", author) else f"{author}, committed by {committer}"
            current = Introduced(GitOid(field), who)
            continue
        path = next(fields, "")
        if current is None:
            continue
        # A path may be a folder (a stray folder a push left): the files under it say
        # which commit added it. The log runs newest first: the oldest adding one wins.
        for named in _at_or_above(path, paths):
            found[named] = current
    return found


def _at_or_above(path: str, paths: Collection[str]) -> Iterator[str]:
    """Those of *paths* that are *path* or a folder holding it. Raises nothing."""
    if path in paths:
        yield path
    end = path.find("/")
    while end != -1:
        if path[:end] in paths:
            yield path[:end]
        end = path.find("/", end + 1)


ORDER_FILE = "record-order.json"
"""Local state: the order :func:`record_additions` found, and the tip it found it at."""


def record_additions(store: Store) -> list[str]:
    """The paths of records (checkpoints, events) in the order commits of the ref added
    them, newest first: the commits in libgit2's topological order, each one's record paths
    that its first parent's tree did not hold (a root commit's: all of them), in path
    order.

    The order found is kept in ``.git/gitmem/record-order.json`` with its tip: when the
    ref has only gained a line of commits since (what captures do), only theirs are asked
    of git; after anything else (a merge, a rewrite, a file that is damaged or missing)
    the whole history is walked again.

    Raises:
        GitError: git could not run or refused the walk.
    """
    tip = store.tip()
    if tip is None:
        return []
    path = store.local_dir / ORDER_FILE
    kept = _kept(path)
    if kept is not None and kept[0] == tip:
        return kept[1]
    order = None if kept is None else _extended(store, tip, *kept)
    if order is None:
        order = _ordered(store, tip)
    with contextlib.suppress(GitmemError, OSError):  # a repository this user cannot write to
        write_state(path, {"tip": tip, "digest": _digest(order), "paths": order}, indent=None)
    return order


def _kept(path: Path) -> tuple[GitOid, list[str]] | None:
    """The tip and order kept at *path*; None unless whole (its digest holds)."""
    kept = read_state(path)
    if not isinstance(kept, dict):
        return None
    tip, digest, paths = kept.get("tip"), kept.get("digest"), kept.get("paths")
    if not isinstance(tip, str) or not isinstance(paths, list):
        return None
    if not all(isinstance(p, str) for p in paths) or digest != _digest(paths):
        return None
    return GitOid(tip), paths


def _digest(paths: list[str]) -> str:
    return hashlib.sha256("\n".join(paths).encode("utf-8", "surrogatepass")).hexdigest()


def _extended(store: Store, tip: GitOid, old: GitOid, kept: list[str]) -> list[str] | None:
    """*kept* (the order at *old*) with what the commits since added before it, when they
    are one line of single-parent commits from *old* to *tip*; None otherwise. In any
    topological order those commits come first, newest first, and then *old*'s history as
    a walk from *old* orders it."""
    try:
        if store.repo.get(old) is None:
            return None
        walker = store.repo.walk(pygit2.Oid(hex=tip), pygit2.enums.SortMode.TOPOLOGICAL)
        walker.hide(pygit2.Oid(hex=old))
        line = list(walker)
    except (pygit2.GitError, ValueError):
        return None
    expected = str(tip)
    for commit in line:
        if str(commit.id) != expected or len(commit.parent_ids) != 1:
            return None
        expected = str(commit.parent_ids[0])
    if expected != old:
        return None
    added = _added(store, tip, old)
    return [path for commit in line for path in added.get(str(commit.id), ())] + kept


def _ordered(store: Store, tip: GitOid) -> list[str]:
    added = _added(store, tip, None)
    # git orders a merge's lines its own way: the order is libgit2's walk, as it was.
    walk = store.repo.walk(pygit2.Oid(hex=tip), pygit2.enums.SortMode.TOPOLOGICAL)
    return [path for commit in walk for path in added.get(str(commit.id), ())]


def _added(store: Store, tip: GitOid, hide: GitOid | None) -> dict[str, list[str]]:
    """Each commit's record paths that its first parent's tree did not hold, from one
    ``git log`` of *tip* (without what *hide* reaches)."""
    git = _start_raw_log(
        store,
        "--root",  # whatever the user's log.showRoot says
        "--diff-merges=first-parent",
        "--diff-filter=A",
        # Every commit walked and shown, whatever it changed under the paths: no history
        # simplification may leave out a merge's lines or the merge itself.
        "--full-history",
        "--sparse",
        "--end-of-options",
        tip,
        *([] if hide is None else [f"^{hide}"]),
        "--",
        *RECORD_DIRS,
    )
    added: dict[str, list[str]] = {}
    fields = iter(_raw_log_output(store, git).split("\0"))
    paths: list[str] = []
    for field in fields:
        field = field.lstrip("\n")
        if field.startswith(":"):
            paths.append(next(fields, ""))
        elif field:
            paths = added.setdefault(field, [])
    return added
