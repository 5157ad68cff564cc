"""Memory as it stood at a moment: which commit of the memory ref that was, and a store
that reads that commit as if it were the tip.

``--as-of`` takes a TIME or a REV:

- **TIME**, an ISO 8601 date or date-time (``2026-07-01``, ``2026-07-01T14:30``,
  ``2026-07-01T14:30:00+02:00``, ``…Z``; no zone means UTC, a date alone its midnight):
  the newest commit of the memory ref's first-parent chain whose committer time is at or
  before it. The chain is what this clone's ref held, merges from a sync included at the
  time they were made, so the answer does not depend on a reflog that a fresh clone
  lacks or that git expires.
- **REV**, anything ``git rev-parse`` names: a commit of the memory ref's history
  (``refs/gitmem/memory~3``, a sha from ``git log refs/gitmem/memory``) is that commit;
  any other commit (a release tag, a branch, a code sha) stands for its committer time,
  so ``--as-of v1.2`` is memory as it stood when v1.2 was committed.

A text that reads as a TIME is a TIME; write ``refs/tags/NAME`` for a tag whose name
looks like a date. A moment before the first memory commit is an empty memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, NamedTuple

import pygit2

from gitmem.core.errors import InputError
from gitmem.core.patterns import lazy_pattern
from gitmem.core.records import format_time
from gitmem.core.types import GitOid
from gitmem.store.repo import Entry, Store

_DATE_RE = lazy_pattern(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?)?")
_ZONE_RE = lazy_pattern(r"(?:Z|[+-]\d{2}:?\d{2})?")
MAX_SPEC = 256


class How(StrEnum):
    """How an ``--as-of`` text was read."""

    TIME = "time"
    MEMORY_COMMIT = "memory commit"
    CODE_COMMIT = "code commit"
    """Any other commit, standing for its committer time."""


class AsOf(NamedTuple):
    """A resolved ``--as-of``: the moment, and the memory commit that stood then."""

    spec: str
    """What was asked for, as given."""
    time: str
    """The moment, in the records' timestamp form."""
    commit: GitOid | None
    """The memory ref's commit at that moment; None when memory did not exist yet."""
    how: How

    def to_json(self) -> dict[str, Any]:
        return {"spec": self.spec, "time": self.time, "commit": self.commit, "how": self.how}

    def label(self) -> str:
        """``2026-07-01T00:00:00Z (memory commit 1a2b3c4d5e6f)``, for headings."""
        commit = f"memory commit {self.commit[:12]}" if self.commit else "no memory yet"
        return f"{self.time[:19]}Z ({commit})"


class PinnedStore(Store):
    """The memory store read at one commit of its ref, as if that commit were the tip.

    Every read (records, items, snapshots, receipts) comes from that commit's tree. It
    cannot be written: memory is only ever added at the real tip. Never hand it to the
    index's :meth:`gitmem.lifecycle.index.Index.open`, whose file follows the real
    tip; :func:`gitmem.lifecycle.asof.open_index` builds an index for it in memory.
    """

    def __init__(self, store: Store, commit: GitOid | None) -> None:
        super().__init__(store.repo, store.ref)
        self.pinned = commit

    def tip(self) -> GitOid | None:
        return self.pinned

    def at(self, ref: str) -> Store:
        raise InputError("memory as of a moment is read-only and reads one ref")

    def append(self, entries: Sequence[Entry], message: str, author: str) -> GitOid:
        raise InputError("memory as of a moment is read-only: nothing can be added to it")

    def compare_and_swap(self, old: GitOid | None, new: GitOid, message: str) -> bool:
        return False


def parse_moment(text: str) -> datetime | None:
    """The moment an ISO 8601 date or date-time names (UTC when it gives no zone), or
    None when *text* does not have that form.

    Raises:
        InputError: *text* has the form but names no time (``2026-13-01``).
    """
    date = _DATE_RE.match(text)
    if date is None or _ZONE_RE.fullmatch(text, date.end()) is None:
        return None
    try:
        when = datetime.fromisoformat(text.replace(" ", "T", 1))
    except ValueError as e:
        raise InputError(f"--as-of {text!r} is not a valid date/time: {e}") from e
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def resolve_as_of(store: Store, spec: str) -> AsOf:
    """What ``--as-of SPEC`` means in *store*'s repository (see the module's rules).

    Raises:
        InputError: *spec* is neither a time nor a revision of this repository.
        GitError: the memory ref cannot be read.
    """
    if not spec or len(spec) > MAX_SPEC or spec.startswith("-"):
        raise InputError(f"--as-of {spec[:40]!r}: give an ISO date/time or a revision")
    when = parse_moment(spec)
    if when is not None:
        return AsOf(spec, format_time(when), memory_commit_at(store, when), How.TIME)
    commit = store.resolve(spec)
    if commit is None:
        raise InputError(
            f"--as-of {spec!r} is neither an ISO date/time (2026-07-01, "
            "2026-07-01T14:30:00Z) nor a revision of this repository"
        )
    tip = store.tip()
    moment = _committed(store.repo, commit)
    if tip is not None and store.is_ancestor(commit, tip):
        return AsOf(spec, format_time(moment), commit, How.MEMORY_COMMIT)
    return AsOf(spec, format_time(moment), memory_commit_at(store, moment), How.CODE_COMMIT)


def memory_commit_at(store: Store, when: datetime) -> GitOid | None:
    """The newest commit of the memory ref's first-parent chain committed at or before
    *when*; None when there is none (no memory yet then).

    Raises:
        GitError: the memory ref cannot be read.
    """
    tip = store.tip()
    if tip is None:
        return None
    limit = int(when.timestamp())
    walker = store.repo.walk(pygit2.Oid(hex=tip), pygit2.enums.SortMode.NONE)
    walker.simplify_first_parent()
    for commit in walker:
        if commit.commit_time <= limit:
            return GitOid(str(commit.id))
    return None


def _committed(repo: pygit2.Repository, commit: GitOid) -> datetime:
    found = repo.get(commit)
    assert isinstance(found, pygit2.Commit)  # Store.resolve peels to a commit
    return datetime.fromtimestamp(found.commit_time, UTC)


def view_as_of(store: Store, spec: str | None) -> tuple[Store, AsOf | None]:
    """*store* itself when *spec* is None, else the store pinned at what ``--as-of
    SPEC`` names, and that resolution.

    Raises:
        InputError: *spec* is neither a time nor a revision of this repository.
        GitError: the memory ref cannot be read.
    """
    if spec is None:
        return store, None
    moment = resolve_as_of(store, spec)
    return PinnedStore(store, moment.commit), moment
