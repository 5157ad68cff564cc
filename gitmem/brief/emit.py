"""Produce a brief as a command does: read, verify, replay, world-check, render, and
remember what was shown.

The store is never written. What was shown is added to the local emission ledger, so
that an agent echoing it later (with or without the ``<gitmem-context>`` tags) can
never use it as evidence.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from gitmem.brief.budget import DEFAULT_BUDGET, Budget, as_budget
from gitmem.brief.notices import store_notices
from gitmem.brief.placement import Placement
from gitmem.brief.render import render_json, render_markdown, render_text
from gitmem.brief.select import (
    Brief,
    BriefWarning,
    WorldProbe,
    WorldView,
    build_brief,
    degrade,
    quote_for_text,
    withhold_quotes,
)
from gitmem.core.claims import WorldStatus
from gitmem.core.errors import InputError
from gitmem.core.integrity import TrustRoots
from gitmem.core.items import Trust
from gitmem.core.records import parse_time
from gitmem.lifecycle.asof import open_index
from gitmem.lifecycle.fetched import StoreWithFetched, unfetched_hint, with_fetched
from gitmem.lifecycle.head import Head, build_in_background, open_for_brief
from gitmem.lifecycle.index import FailedItem, FailedRecord
from gitmem.lifecycle.recheck import purge_checks, quote_failures, recheck
from gitmem.lifecycle.replay import ItemState, MemoryState
from gitmem.lifecycle.wording import refused
from gitmem.store.asof import view_as_of
from gitmem.store.branches import Branches, Place
from gitmem.store.config import load_settings, setting
from gitmem.store.ledger import Ledger, shown_texts
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots

WORLD_BUDGET_SECONDS = 0.5
DEGRADED_CHECKPOINTS = 10
"""Of each writer's failed checkpoints, the newest this many have their items shown
degraded (every failure is counted in the warnings): the brief stays bounded however
much history a key no root trusts, or a run of edits, has made fail."""
DEGRADED_IN_ALL = 50
"""And this many failed checkpoints at most, whatever writers they name."""
UNMERGED_DAYS = "unmerged_branch_days"


def make_brief(
    store: Store, home: Path, world_check: bool = True, as_of: str | None = None
) -> Brief:
    """The brief: what to show comes from the index (brought up to date); everything
    shown is verified again straight from the git objects — the receipt of the
    checkpoint naming each item, the item's bytes against its address, each verbatim
    quote against its snapshot — and degrades visibly when it does not hold.

    With *as_of* (a TIME or REV, :mod:`gitmem.store.asof`), the memory as it stood then:
    that commit of the ref, replayed and verified the same way (under today's trust
    roots), without world-check (the world can only be probed as it is now).

    Raises:
        InputError: *as_of* names no moment of this repository.
        GitError: the memory ref cannot be read.
    """
    view, moment = view_as_of(store, as_of)
    roots = load_trust_roots(home, store)
    if moment is None:
        view = with_fetched(view, roots)  # fetched memory too, verified (lifecycle/fetched.py)
    # A clone's first brief reads the newest checkpoints only while the whole index is
    # built in the background (lifecycle/head.py); it says so in its first line.
    opened = open_index(view, roots) if moment is not None else open_for_brief(view, roots)
    head = opened if isinstance(opened, Head) else None
    index = opened.window if isinstance(opened, Head) else opened
    missing = unfetched_hint(store) if moment is None else None
    hint = [] if missing is None else [BriefWarning("not-fetched", missing)]
    with index:
        state = index.state(current_only=True)
        checkpoints, stale, latest = index.counts()
        failed = index.failed(DEGRADED_CHECKPOINTS, DEGRADED_IN_ALL)
        failed_items, strays = index.failed_items(), index.strays()
        orphans, purges = index.orphans(), index.failed_purges()
    pending = view.pending if isinstance(view, StoreWithFetched) else []
    notices = store_notices(view, roots, strays, orphans, purges, pending)
    brief = verified_brief(
        view,
        roots,
        state,
        IndexFindings(checkpoints, failed, failed_items, notices + hint),
        world_probe(store) if world_check and moment is None else None,
        stale=stale,
        latest=latest,
        placement=placement(store, home, None if moment is None else parse_time(moment.time)),
    )
    if head is not None:
        build_in_background(view)
        brief = brief._replace(stored=head.stored)
    return brief if moment is None else brief._replace(as_of=moment)


class IndexFindings(NamedTuple):
    """What the index found besides the item states: how many checkpoints, the
    records and item blobs that failed their checks, and warnings about the reading."""

    checkpoints: int
    failed: Sequence[FailedRecord] = ()
    failed_items: Sequence[FailedItem] = ()
    notices: Sequence[BriefWarning] = ()


def verified_brief(
    store: Store,
    roots: TrustRoots,
    state: MemoryState,
    found: IndexFindings,
    world: WorldProbe | None,
    *,
    stale: int | None = None,
    latest: str | None = None,
    only_current: bool = True,
    placement: Placement | None = None,
) -> Brief:
    """The brief of *state* (:func:`build_brief`), with everything it renders checked
    again from *store*'s git objects first: an item whose record, bytes or quote do not
    hold is degraded, with a warning; so are the purge events behind its purged lines.

    Raises:
        GitError: the memory ref cannot be read.
    """
    verdicts = recheck(store, roots, state.items.values())
    brief = build_brief(
        state,
        {**verdicts.checks, **purge_checks(store, roots, state)},
        found.checkpoints,
        found.failed,
        found.notices,
        world,
        found.failed_items,
        stale=stale,
        latest=latest,
        only_current=only_current,
        placement=placement,
    )
    brief = degrade(brief, verdicts.broken)
    brief = withhold_quotes(brief, rendered_quote_failures(store, state, brief))
    verbatim = [
        (i.id, i.text, i.quote) for i in brief.items if i.trust == Trust.VERBATIM and i.quote
    ]
    return quote_for_text(brief, refused(store.local_dir, verbatim))


def placement(store: Store, home: Path, now: datetime | None = None) -> Placement:
    """Ages from *now* (default: the clock) and places against the branch checked out.
    A malformed config keeps the default limit: the brief never fails on it (the
    commands that write say what is wrong). Raises nothing."""
    try:
        days = int(load_settings(home, store.local_dir).get(UNMERGED_DAYS))
    except InputError:
        days = setting(UNMERGED_DAYS).default
    branches = Branches(store)

    def place(state: ItemState) -> Place | None:
        return branches.place((s.branch, s.commit) for s in state.sightings)

    return Placement(now or datetime.now(UTC), place, days)


def rendered_quote_failures(store: Store, state: MemoryState, brief: Brief) -> dict[str, str]:
    """Every verbatim quote *brief* renders, checked again against its snapshot."""
    quotes = [(item.id, item.quote) for item in brief.items if item.quote is not None]
    return quote_failures(store, state.items, quotes)


def emit_brief(
    store: Store,
    home: Path,
    fmt: str,
    budget: int | Budget | None,
    world_check: bool = True,
    as_of: str | None = None,
) -> str:
    """The rendered brief in *fmt* (text, markdown, json), never longer than *budget*
    (bytes, or a host's :class:`Budget`; None: the default; 0: no limit); with *as_of*,
    memory as it stood then.

    Raises:
        InputError: a budget below its minimum (other than 0), or an *as_of* that names
            no moment of this repository.
        GitError: the memory ref cannot be read.
    """
    return brief_and_text(store, home, fmt, budget, world_check, as_of)[0]


def brief_and_text(
    store: Store,
    home: Path,
    fmt: str,
    budget: int | Budget | None,
    world_check: bool = True,
    as_of: str | None = None,
) -> tuple[str, Brief]:
    """:func:`emit_brief`'s text and the brief it was rendered from. Raises as
    :func:`emit_brief`."""
    limit = as_budget(DEFAULT_BUDGET if budget is None else budget)
    if limit.limit < 0 or 0 < limit.limit < limit.minimum:
        raise InputError(f"budget must be 0 (no limit) or at least {limit.minimum} {limit.unit}")
    result = make_brief(store, home, world_check, as_of)
    if fmt == "json":
        output = render_json(result, limit)
    elif fmt == "markdown":
        output = render_markdown(result, limit)
    else:
        output = render_text(result, limit)
    Ledger(store.local_dir).record(shown_texts(result.items))
    return output, result


def world_probe(store: Store) -> WorldProbe:
    """Probe items' checkable claims against this repository, within one time budget."""
    from gitmem.brief.worldcheck import WorldChecker, claims_of, resolve_hint

    checker = WorldChecker(store.repo, budget_seconds=WORLD_BUDGET_SECONDS)

    def probe(state: ItemState) -> WorldView | None:
        item = state.item
        claims = claims_of(f"{item.text}\n{state.quote or ''}", item.extra.get("claims"))
        if not claims:
            return None
        check = checker.check(claims)
        hint = (
            resolve_hint(item.id[:8], check) if check.status == WorldStatus.CONTRADICTED else None
        )
        return WorldView(check.status, check.summary, hint)

    return probe
