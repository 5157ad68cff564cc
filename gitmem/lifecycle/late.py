"""Records that arrive late, replayed onto a state without replaying history again. Pure.

Replay applies records in time order (:func:`~gitmem.lifecycle.replay.ordered`). Some
arrive after newer ones were replayed already: a sync brings a teammate's capture made
before this clone's last one, and an import of past sessions writes checkpoints dated
before the events the previous import wrote. Replaying the whole history again for each
of them costs what the store holds. Most of what they say commutes with what was
replayed after them, so :func:`replay_late` applies it in place, exactly as the whole
replay in order would have:

- an item the record is the first to name (it has no state yet), and an item nothing
  later mentions: the record is its newest mention, applied as replay applies it;
- a carry of an item that later records mention too: carries are counted (commutes),
  the latest checkpoint is the newest by replay order (its session time is kept for
  that), and the carrying session joins the item's unseen sessions (a sorted set) only
  when no sighting of the item is later than it — exactly what the order would give;
- the global latest checkpoint: the newest by replay order.

What does not commute is refused, and the caller replays everything again: a sighting
or an event of an item that newer records already mention (a reopen before a resolve,
a status before another), a record at the same time as an item's last sighting, and a
purge. The state is then left half-applied: the caller discards it.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Container, Iterable, Mapping

from gitmem.core.items import Item
from gitmem.core.records import (
    EVENT_CORROBORATION,
    EVENT_PURGE,
    EVENT_REOPEN,
    Checkpoint,
    Event,
    record_time,
    sortable_time,
)
from gitmem.core.types import Sha256Hex
from gitmem.lifecycle.replay import (
    ItemState,
    MemoryState,
    Replayable,
    apply_checkpoint,
    apply_event,
    follow_replaced,
    ordered,
)

_SIGHTING_EVENTS = frozenset({EVENT_REOPEN, EVENT_CORROBORATION})
"""Events that sight their item again (they clear its unseen sessions)."""

Key = tuple[str, str]
"""Where a record stands in replay order: (its time, its address)."""


def replay_late(
    records: Iterable[Replayable],
    items: Mapping[Sha256Hex, Item],
    onto: MemoryState,
    dangling: Container[str] = (),
) -> bool:
    """Apply *records* (verified; any of them possibly older than what *onto* holds)
    onto *onto* in place, as replaying every record in order would; *items* are the
    genuine item blobs they may name, *dangling* the items events replayed already named
    while no state held them (:func:`dangling`). False when some record does not commute
    with what *onto* holds (see the module): *onto* is then half-applied, to be
    discarded. Raises nothing."""
    known: dict[Sha256Hex, Item] = dict(items)
    for entry in ordered(records):
        record, key = entry.record, (record_time(entry.record), entry.address)
        if isinstance(record, Checkpoint):
            known.update(entry.items)
            if any(a in dangling and a not in onto.items for a in record.named):
                return False  # an event replayed earlier skipped it: it may now apply
            if not _checkpoint(onto, entry.address, record, key, known):
                return False
        elif isinstance(record, Event) and (
            record.event == EVENT_PURGE or not _event(onto, entry.address, record, key)
        ):
            return False
    if onto.replaced:
        follow_replaced(onto.items.values(), onto.replaced)
    return True


def dangling(records: Iterable[Replayable], state: MemoryState) -> set[str]:
    """The items events among *records* are about that *state* holds no state of (replay
    applied nothing to them): a record arriving late that names one first may be what
    those events were about. Raises nothing."""
    return {
        about
        for entry in records
        if isinstance(entry.record, Event)
        for about, _ in entry.record.parts()
        if about not in state.items and about not in state.purged
    }


def _checkpoint(
    state: MemoryState,
    address: str,
    checkpoint: Checkpoint,
    key: Key,
    items: Mapping[Sha256Hex, Item],
) -> bool:
    added = set(checkpoint.items)
    in_order: set[str] = set()
    carries: list[ItemState] = []
    for named in checkpoint.named:
        item = state.items.get(named)
        if item is None or _newest(item) < key:
            in_order.add(named)
        elif named in added or item.last_seen == key[0] or _first(item) > key:
            return False  # a sighting among later mentions, a tie with one, or its origin
        else:
            carries.append(item)
    apply_checkpoint(state.items, address, checkpoint, items, state.purged, only=in_order)
    session = checkpoint.session
    for item in carries:
        item.carry_count += 1
        if key > (item.latest_time, item.latest_checkpoint):
            item.latest_checkpoint, item.latest_time, item.carried = address, key[0], True
        # in order, a sighting later than this carry would have cleared it again
        fresh = session != item.seen_session and session not in item.unseen_in
        if fresh and key[0] > item.last_seen:
            insort(item.unseen_in, session)
    if key > (state.newest, state.latest_checkpoint or ""):
        state.latest_checkpoint, state.newest = address, checkpoint.transcript_time
    return True


def _event(state: MemoryState, address: str, event: Event, key: Key) -> bool:
    for item_id, _ in event.parts():
        item = state.items.get(item_id)
        if item is None:
            continue  # replay applies nothing to an item it does not hold
        if any(later > key for later in _event_keys(item)):
            return False
        sighting = event.event in _SIGHTING_EVENTS
        if sighting and (item.latest_time, item.latest_checkpoint) > key:
            return False  # it clears carries that came after it
        if item.last_seen == key[0] or _first(item) > key:
            return False  # a tie with a sighting, or before the item was first named
    apply_event(state.items, address, event)
    return True


def _event_keys(item: ItemState) -> list[Key]:
    return [(sortable_time(event.created), address) for address, event in item.events]


def _first(item: ItemState) -> Key:
    """The first mention of *item*, by replay order (its state was made there)."""
    return (item.first_seen, item.origin_checkpoint)


def _newest(item: ItemState) -> Key:
    """The latest mention of *item* replayed so far, by replay order."""
    return max([(item.latest_time, item.latest_checkpoint), *_event_keys(item)])
