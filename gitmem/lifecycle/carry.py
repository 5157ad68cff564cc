"""What a new checkpoint holds: its own new items, and every open item before it,
carried by code. Pure: the memory state, the new items and a policy in; a plan out.

- **Supersessions.** A new item that makes a different claim about an open item's
  subject (another number, the negation added or removed, another named thing; see
  :mod:`gitmem.lifecycle.sameclaim`) is stored as its own item, and the open item is marked
  likely superseded by it — never corroborated.
- **The same claim again.** A new item that states an open item's claim again (see
  :mod:`gitmem.lifecycle.sameclaim`) is not stored twice: the earlier item is carried (its
  stored quote always wins), and when the new item is a verified verbatim quote from
  another session it is recorded as a corroboration.
- **Carry.** Open items are carried by reference: the checkpoint names their addresses
  (never a copy); they render ``[carried]``.
- **Ageing.** An item not seen again for a while ages out: a ``status`` event moves it
  to STALE (never silently; ``gitmem show`` and the brief's notice say so) and it is no
  longer carried. ``gitmem reverify`` brings it back. Sessions are the unit of time:
  "a while" counts the other sessions that went by and the days of session time (the
  transcripts' own), never captures, so a session captured at every turn is one. An
  offer waiting on the user's answer ("Want me to push?") ages out at the first capture
  of another session, which is its answer (:mod:`gitmem.core.offers`). An item a session
  said (not an open loop), which a later capture of the same session by an extractor
  (its transcript grown, still holding the item's quote) no longer gives, ages out then:
  that capture read the whole session, and its last word superseded or left the item out.
  Past the cap
  (:attr:`CarryPolicy.max_carried`), the least important stop being carried first, then
  facts and beliefs before decisions, open loops and uncertainties, then the oldest.
- **Backfills.** A capture whose session time is older than the newest session already
  in memory (``gitmem import`` of past sessions, a long session captured late) is history
  arriving late: it adds its items and its corroborations, and carries nothing, ages
  nothing and supersedes nothing — today's state is not the business of an old session.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from gitmem.core.items import Item, Kind, Trust
from gitmem.core.offers import LAPSED, another_session, waiting_offer
from gitmem.core.records import EVENT_REOPEN, format_time, parse_time
from gitmem.core.types import Sha256Hex
from gitmem.lifecycle.replay import ItemState, MemoryState
from gitmem.lifecycle.sameclaim import same_claim, same_subject


@dataclass(frozen=True)
class CarryPolicy:
    """When carried items age out (documented in docs/lifecycle.md)."""

    inferred_unseen_sessions: int = 10
    inferred_days: int = 30
    verbatim_unseen_sessions: int = 30
    verbatim_days: int = 60
    max_carried: int = 50


DEFAULT_CARRY = CarryPolicy()


@dataclass(frozen=True)
class Plan:
    items: tuple[Item, ...]
    """The items the checkpoint adds (an item seen again in its own session included)."""
    carried: tuple[Sha256Hex, ...]
    """The addresses of the open items it carries."""
    corroborations: tuple[tuple[str, Item], ...]
    """(open item id, the new verified verbatim item that corroborates it)."""
    aged_out: tuple[tuple[ItemState, str], ...]
    """(item, reason) for each open item this checkpoint stops carrying."""
    supersessions: tuple[tuple[str, str], ...] = ()
    """(open item id, new item id) for each open item a new claim likely supersedes."""


def plan(
    state: MemoryState | None,
    new_items: Sequence[Item],
    session: str,
    snapshot: str,
    now: datetime,
    policy: CarryPolicy = DEFAULT_CARRY,
    holds: Callable[[str], bool] | None = None,
) -> Plan:
    """Decide what the next checkpoint stores and which events go with it; *now* is its
    session time (the transcript's own); *holds* tells whether the transcript captured
    holds a quote (None: nothing is asked of it, and no item is retired by its session's
    later capture).

    A corroboration is only recorded when it could count: another session than the origin
    and every earlier corroboration, and another transcript snapshot (the same transcript captured
    twice is one sighting)."""
    if state is None:
        return Plan(tuple(new_items), (), (), ())
    backfill = bool(state.newest) and format_time(now) < state.newest
    open_items = [s for s in state.items.values() if s.current]
    kept: list[Item] = []
    seen: set[str] = set()
    corroborations: list[tuple[str, Item]] = []
    supersessions: list[tuple[str, str]] = []
    for item in new_items:
        match = _match(item, open_items)
        if match is None:
            kept.append(item)
            if backfill:
                continue  # an older claim never supersedes a newer one
            # One candidate per stale statement: an item a newer one already likely
            # supersedes is marked (⚠) and says so; marking it again adds only records.
            supersessions += [
                (s.id, item.id)
                for s in open_items
                if s.id != item.id
                and s.likely_superseded_by is None
                and same_subject(
                    s.item.kind,
                    s.item.text,
                    item.kind,
                    item.text,
                    s.quote,
                    item.quote if item.quote_verified else None,
                )
            ]
            continue
        if match.id == item.id:
            kept.append(match.item)  # seen again in its own session: a sighting, same bytes
        elif (
            item.trust == Trust.VERBATIM
            and item.quote_verified
            and _independent(match, session, snapshot)
        ):
            corroborations.append((match.id, item))
        seen.add(match.id)
    seen |= {i.id for i in kept}
    if backfill:
        return Plan(tuple(kept), (), tuple(corroborations), (), ())
    carried, aged = _carry(
        [s for s in open_items if s.id not in seen],
        (now, session),
        policy,
        corroborated={i for i, _ in corroborations},
        holds=holds,
    )
    return Plan(tuple(kept), carried, tuple(corroborations), tuple(aged), tuple(supersessions))


def _independent(state: ItemState, session: str, snapshot: str) -> bool:
    sessions = {state.item.origin_session, *(w.session for w in state.corroborations)}
    snapshots = {state.origin_snapshot, *(w.snapshot for w in state.corroborations)}
    return session not in sessions and snapshot not in snapshots


def _match(item: Item, open_items: Sequence[ItemState]) -> ItemState | None:
    quote = item.quote if item.quote_verified else None
    for state in open_items:
        if state.id == item.id or same_claim(
            item.kind, item.text, quote, state.item.kind, state.item.text, state.quote
        ):
            return state
    return None


def _carry(
    candidates: Sequence[ItemState],
    when: tuple[datetime, str],
    policy: CarryPolicy,
    corroborated: set[str],
    holds: Callable[[str], bool] | None = None,
) -> tuple[tuple[Sha256Hex, ...], list[tuple[ItemState, str]]]:
    """The addresses carried and (item, reason) of those aged out; *when*: the session
    time and the session of the capture."""
    now, session = when
    aged: list[tuple[ItemState, str]] = []
    keep: list[ItemState] = []
    for state in candidates:
        reason = (
            None
            if state.id in corroborated
            else _lapsed(state, session)
            or _not_given_again(state, session, holds)
            or _aged(state, now, policy)
        )
        if reason is None:
            keep.append(state)
        else:
            aged.append((state, reason))
    # The address breaks ties, so that the stored checkpoint does not depend on the order
    # the states arrived in (set iteration varies with the interpreter's hash seed).
    keep.sort(
        key=lambda s: (s.id in corroborated, _importance(s), _weight(s), s.last_seen, s.id),
        reverse=True,
    )
    for state in keep[policy.max_carried :]:
        aged.append(
            (
                state,
                f"more than {policy.max_carried} open items: the least important, then "
                "facts before decisions and open loops, then the oldest stop being carried",
            )
        )
    return tuple(s.id for s in keep[: policy.max_carried]), aged


def reopened(state: ItemState) -> bool:
    """Someone reopened *state* (``gitmem reverify``): no rule that retires an item by
    itself applies to it again. Raises nothing."""
    return any(event.event == EVENT_REOPEN for _, event in state.events)


def _lapsed(state: ItemState, session: str) -> str | None:
    """:data:`~gitmem.core.offers.LAPSED` when *state* is an offer waiting on the
    user's answer and *session* is another session than the one that last said it (none
    someone reopened: `gitmem reverify` brings one back for good)."""
    item = state.item
    if not waiting_offer(item.kind, state.quote or item.text):
        return None
    if not another_session(session, state.seen_session or item.origin_session):
        return None
    if reopened(state):
        return None
    return LAPSED


NOT_GIVEN_AGAIN = (
    "its session was captured again, its transcript still says it, and that capture no "
    "longer gives it (superseded or left out by the session's last word)"
)


def _not_given_again(
    state: ItemState, session: str, holds: Callable[[str], bool] | None
) -> str | None:
    """:data:`NOT_GIVEN_AGAIN` when *state* was last sighted in *session*, whose capture
    now (its transcript still holding the item's quote: the same transcript, grown) does
    not give it again; none someone reopened, and no open loop: one its session reports
    done or calls off later is flagged by :mod:`gitmem.capture.closing`, and one it does
    not stays open. A session captured at every turn is read
    whole each time: its latest capture is its last word on what it said."""
    item = state.item
    quote = state.quote
    if holds is None or not quote or (state.seen_session or item.origin_session) != session:
        return None
    if item.kind == Kind.OPEN_LOOP:  # a loop its session closes later is flagged, not aged
        return None
    if reopened(state):
        return None
    return NOT_GIVEN_AGAIN if holds(quote) else None


def _aged(state: ItemState, now: datetime, policy: CarryPolicy) -> str | None:
    days = (now - parse_time(state.last_seen)).days
    sessions = state.unseen_sessions
    if state.trust == Trust.VERBATIM:
        if sessions >= policy.verbatim_unseen_sessions and days >= policy.verbatim_days:
            return f"verbatim item not seen again in {sessions} other sessions and {days} days"
        return None
    if sessions >= policy.inferred_unseen_sessions or days >= policy.inferred_days:
        return f"not seen again in {sessions} other sessions / {days} days"
    return None


def _weight(state: ItemState) -> int:
    """Where the carry cap bites, a fact or a belief gives way before a decision, an open
    loop or an uncertainty of the same importance: in the labelled corpus 86% of the
    decisions and open loops matter (importance 2 or 3), 47% of the facts."""
    return 0 if state.item.kind in (Kind.FACT, Kind.BELIEF) else 1


def _importance(state: ItemState) -> int:
    value = state.item.extra.get("importance")
    return value if isinstance(value, int) and not isinstance(value, bool) else 0
