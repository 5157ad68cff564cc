"""Build a review: the memory of a range of commits, verified as the brief verifies.

What to show is chosen from the index (:mod:`gitmem.brief.review.scope`): the
items the range's checkpoints added, whatever became of them since (open, resolved,
superseded or aged out; never a forgotten one), and the open items of any other time
that name a file the range changes. Everything shown is then checked again from the git
objects and degraded visibly when it does not hold, by the brief's own code
(:func:`gitmem.brief.emit.verified_brief`), so its badges are the brief's badges.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from gitmem.brief.emit import IndexFindings, verified_brief, world_probe
from gitmem.brief.notices import reading_notices
from gitmem.brief.review.scope import InRange, files_named, in_range
from gitmem.brief.select import Brief, BriefWarning
from gitmem.core.integrity import RECORD_UNREADABLE
from gitmem.core.records import Checkpoint
from gitmem.lifecycle.asof import open_index
from gitmem.lifecycle.index import FailedRecord, Index
from gitmem.lifecycle.replay import ItemState, MemoryState
from gitmem.store.asof import AsOf, view_as_of
from gitmem.store.ranges import RangeScope, range_scope
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots


class Reason(StrEnum):
    """Why an item is in a review."""

    CAPTURED = "captured"
    """A checkpoint of the range added it."""
    FILE = "file"
    """An open item from outside the range that names a file the range changes."""


class Lifecycle(StrEnum):
    """Where a reviewed item stands now."""

    OPEN = "open"
    RESOLVED = "resolved"
    SUPERSEDED = "superseded"
    STALE = "stale"
    FORGOTTEN = "forgotten"
    """Never in a review (it leaves forgotten items out); an export says it."""


@dataclass(frozen=True)
class ReviewNote:
    """What a review adds to a brief item."""

    reason: Reason
    lifecycle: Lifecycle | None
    """None for an item of a record that failed (nothing about it is replayed)."""
    files: tuple[str, ...]
    """The changed files it names."""


@dataclass(frozen=True)
class Review:
    scope: RangeScope
    brief: Brief
    """The items (all of them, ranked) and the warnings; ``checkpoints`` counts the
    range's checkpoints."""
    entries: Mapping[str, ReviewNote]
    """Item id → why it is here and where it stands."""
    sessions: tuple[str, ...]
    as_of: AsOf | None = None


def make_review(
    store: Store,
    home: Path,
    spec: str,
    as_of: str | None = None,
    world_check: bool = True,
) -> Review:
    """The review of the range *spec* (``main..feature``), from memory as it is now or,
    with *as_of*, as it stood then (then without world-check).

    Raises:
        InputError: *spec* is not a range of this repository, or *as_of* names no moment.
        GitError: the repository or the memory ref cannot be read.
    """
    scope = range_scope(store, spec)
    view, moment = view_as_of(store, as_of)
    roots = load_trust_roots(home, store)
    with open_index(view, roots) as index:
        records = view.read().records
        checks = [c for r in records if (c := index.check(r.address)) is not None]
        chosen = in_range(checks, scope)
        state, entries = _chosen_states(index, chosen, scope)
        failed = [_added_only(index, f) for f in index.failed() if f.check.address in chosen.failed]
        # by the item, not by the checkpoint its failure is filed under: that may be any
        # one naming it, also a later one outside the range that carried it
        added = set(chosen.added())
        failed_items = [f for f in index.failed_items() if f.check.address in added]
    notices = reading_notices(roots, ())
    if chosen.unplaced:
        notices.append(_unplaced_warning(chosen.unplaced))
    brief = verified_brief(
        view,
        roots,
        state,
        IndexFindings(chosen.count, failed, failed_items, notices),
        world_probe(store) if world_check and moment is None else None,
        stale=0,
        only_current=False,
    )
    for item in brief.items:
        if item.id not in entries:  # an item of a record that failed
            entries[item.id] = ReviewNote(Reason.CAPTURED, None, ())
    return Review(scope, brief, entries, chosen.sessions, moment)


def _chosen_states(
    index: Index, chosen: InRange, scope: RangeScope
) -> tuple[MemoryState, dict[str, ReviewNote]]:
    """The states of the items the range added (forgotten ones left out) and of the open
    items elsewhere that name a changed file, with why each is here."""
    states: dict[str, ItemState] = {}
    entries: dict[str, ReviewNote] = {}
    found = index.states_of(chosen.added())
    for address, state in found.items():
        if not state.forgotten:
            states[address] = state
            files = files_named(state.item, state.quote, scope.files)
            entries[address] = ReviewNote(Reason.CAPTURED, lifecycle(state), files)
    if scope.files:
        for address, state in index.state(current_only=True).items.items():
            if address in states:
                continue
            files = files_named(state.item, state.quote, scope.files)
            if files:
                states[address] = state
                entries[address] = ReviewNote(Reason.FILE, Lifecycle.OPEN, files)
    return MemoryState(states, None), entries


def _added_only(index: Index, failed: FailedRecord) -> FailedRecord:
    """*failed* with only the items its checkpoint adds: what it carries was added by
    other checkpoints, which are in the review on their own when they belong to it (a
    failed record of the range must not bring memory from outside it)."""
    record = failed.check.record
    if not isinstance(record, Checkpoint):
        return failed
    return failed._replace(items=index.readable(record.items))


def lifecycle(state: ItemState) -> Lifecycle:
    """Where an item stands in its life, in one word. Raises nothing."""
    if state.forgotten:
        return Lifecycle.FORGOTTEN
    if state.resolved:
        return Lifecycle.RESOLVED
    if state.superseded_by is not None:
        return Lifecycle.SUPERSEDED
    if not state.current:
        return Lifecycle.STALE
    return Lifecycle.OPEN


def _unplaced_warning(count: int) -> BriefWarning:
    return BriefWarning(
        RECORD_UNREADABLE,
        f"{count} record(s) failed verification and cannot be read ({RECORD_UNREADABLE}), "
        "so whether they belong to this range is unknown. Run `gitmem verify` for details.",
    )
