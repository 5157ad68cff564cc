"""Produce a brief as a command does: read, verify, replay, world-check, render, and
remember what was shown.

The store is never written. What was shown is added to the local emission ledger, so
that an agent echoing it later (with or without the ``<gitmem-context>`` tags) can
never use it as evidence.
"""

from __future__ import annotations

from pathlib import Path

from gitmem.brief.budget import DEFAULT_BUDGET, MIN_BUDGET
from gitmem.brief.render import render_json, render_markdown, render_text
from gitmem.brief.select import (
    Brief,
    BriefWarning,
    WorldProbe,
    WorldView,
    build_brief,
    degrade,
    withhold_quotes,
)
from gitmem.core.claims import WorldStatus
from gitmem.core.errors import InputError
from gitmem.lifecycle.memory import Memory
from gitmem.lifecycle.recheck import purge_checks, quote_failures, recheck
from gitmem.lifecycle.replay import ItemState, MemoryState
from gitmem.store.fetched import unfetched_hint, with_fetched
from gitmem.store.ledger import Ledger, shown_texts
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots

WORLD_BUDGET_SECONDS = 0.5


def make_brief(store: Store, home: Path, world_check: bool = True) -> Brief:
    """The brief: what to show comes from the read model (brought up to date); everything
    shown is verified again straight from the git objects — the receipt of the
    checkpoint naming each item, the item's bytes against its address, each verbatim
    quote against its snapshot — and degrades visibly when it does not hold.

    Raises:
        GitError: the memory ref cannot be read.
    """
    roots = load_trust_roots(home, store)
    store = with_fetched(store, roots)  # fetched memory too, verified (store/fetched.py)
    model = Memory.open(store, roots)
    try:
        state = model.state(current_only=True)
        checkpoints, stale, latest = model.counts()
        failed, failed_items, strays = model.failed(), model.failed_items(), model.strays()
    finally:
        model.close()
    notices = [BriefWarning("trust-branch", notice) for notice in roots.notices]
    hint = unfetched_hint(store)
    notices += [] if hint is None else [BriefWarning("not-fetched", hint)]
    notices += [
        BriefWarning("trust-root", f"{root.source}: {problem}", root.source)
        for root in roots.signers
        for problem in root.problems
    ]
    notices += [
        BriefWarning("stray-path", f"{stray} does not belong in the memory store layout", stray)
        for stray in strays
    ]
    verdicts = recheck(store, roots, state.items.values())
    brief = build_brief(
        state,
        {**verdicts.checks, **purge_checks(store, roots, state)},
        checkpoints,
        failed,
        notices,
        world_probe(store) if world_check else None,
        failed_items,
        stale=stale,
        latest=latest,
    )
    brief = degrade(brief, verdicts.broken)
    return withhold_quotes(brief, rendered_quote_failures(store, state, brief))


def rendered_quote_failures(store: Store, state: MemoryState, brief: Brief) -> dict[str, str]:
    """Every verbatim quote *brief* renders, checked again against its snapshot."""
    quotes = [(item.id, item.quote) for item in brief.items if item.quote is not None]
    return quote_failures(store, state.items, quotes)


def emit_brief(
    store: Store, home: Path, fmt: str, budget: int | None, world_check: bool = True
) -> str:
    """The rendered brief in *fmt* (text, markdown, json), never longer than *budget*
    bytes (None: the default; 0: no limit).

    Raises:
        InputError: a budget below :data:`MIN_BUDGET` (other than 0).
        GitError: the memory ref cannot be read.
    """
    limit = DEFAULT_BUDGET if budget is None else budget
    if limit < 0 or 0 < limit < MIN_BUDGET:
        raise InputError(f"budget must be 0 (no limit) or at least {MIN_BUDGET} bytes")
    result = make_brief(store, home, world_check)
    if fmt == "json":
        output = render_json(result, limit)
    elif fmt == "markdown":
        output = render_markdown(result, limit)
    else:
        output = render_text(result, limit)
    Ledger(store.local_dir).record(shown_texts(result.items))
    return output


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
        hint = resolve_hint(item.id, check) if check.status == WorldStatus.CONTRADICTED else None
        return WorldView(check.status, check.summary, hint)

    return probe
