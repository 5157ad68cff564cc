"""Recall hits from the index's full-text table, checked before they are shown.

The table is the index's (:mod:`gitmem.lifecycle.index`): every item of the whole
history but the forgotten ones, in SQLite FTS5 with porter stemming (``retry`` finds
"retries"), kept up to date as the memory ref moves. What a hit shows is checked again
straight from the git objects (:mod:`gitmem.lifecycle.recheck`), as the brief does: a hit
whose record, item bytes or quote no longer hold is shown degraded, never verbatim.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from gitmem.core.integrity import TrustRoots
from gitmem.core.items import Trust
from gitmem.lifecycle.index import Index
from gitmem.lifecycle.recheck import quote_failures, recheck
from gitmem.lifecycle.replay import ItemState, current_status
from gitmem.lifecycle.wording import refused
from gitmem.store.repo import Store


class RecallHit(NamedTuple):
    """What a recall hit shows."""

    id: str
    kind: str
    text: str
    quote: str | None
    trust: str
    """The effective trust class: ``verbatim`` only with a quote that verifies now."""
    status: str
    """``open``, ``resolved``, ``superseded`` or ``stale``."""
    epistemic: str
    """The governance status (REPORTED, INFERRED, VERIFIED, STALE, …)."""
    checkpoint: str
    """The checkpoint that first stored the item."""
    session: str
    """The session the item came from."""
    last_seen: str
    degraded: str | None = None
    """Why the hit is shown degraded (its record, bytes or quote do not hold now)."""


class IndexInfo(NamedTuple):
    """What the index was read from."""

    tip: str | None
    items: int
    """Items the index holds (the whole history but the forgotten)."""
    failed: int
    """Records that failed verification (their items are not searched)."""
    rebuilt: bool
    """Whether the index was built from scratch to answer."""


def index_info(index: Index) -> IndexInfo:
    return IndexInfo(index.tip, index.searchable(), index.failed_count(), index.rebuilt)


def lifecycle_status(state: ItemState) -> str:
    """Where an item stands in its life, in one word."""
    if state.resolved:
        return "resolved"
    if state.superseded_by is not None:
        return "superseded"
    if not state.current:
        return "stale"
    return "open"


def hit_of(state: ItemState, degraded: str | None = None, shown: str | None = None) -> RecallHit:
    """The hit for *state*; a *degraded* one loses its quote and its badge; one whose
    quote does not support its text is *shown* by its quote. Pure."""
    item = state.item
    quote = None if degraded else state.quote
    trust = Trust.UNTAGGED if degraded else state.trust
    if trust == Trust.VERBATIM and not quote:
        trust = Trust.UNTAGGED  # the badge is earned by a verified quote, never by the claim
    return RecallHit(
        id=item.id,
        kind=item.kind,
        text=item.text if shown is None else shown,
        quote=quote,
        trust=trust,
        status=lifecycle_status(state),
        epistemic=current_status(state),
        checkpoint=state.origin_checkpoint,
        session=item.origin_session,
        last_seen=state.last_seen,
        degraded=degraded,
    )


def checked_hits(
    store: Store, roots: TrustRoots, states: Iterable[ItemState]
) -> tuple[RecallHit, ...]:
    """The hits for *states*, each checked from the git objects first.

    Raises:
        GitError: the memory ref cannot be read.
    """
    shown = list(states)
    verdicts = recheck(store, roots, shown)
    by_id: dict[str, ItemState] = {s.id: s for s in shown}
    quotes = [(s.id, s.quote) for s in shown if s.quote and s.id not in verdicts.broken]
    failed = quote_failures(store, by_id, quotes)
    # beside the badge, only a text its quote supports (else the quote itself)
    held = [
        (i, s.item.text, q)
        for i, q in quotes
        if i not in failed and (s := by_id[i]).trust == Trust.VERBATIM
    ]
    quoted = refused(store.local_dir, held)
    hits = []
    for state in shown:
        why: str | None = None
        if state.id in verdicts.broken:
            label, detail = verdicts.broken[state.id]
            why = f"{label}: {detail}" if detail else label
        elif state.id in failed:
            why = f"quote no longer verifies: {failed[state.id]}"
        hits.append(hit_of(state, why, quoted[state.id][0] if state.id in quoted else None))
    return tuple(hits)
