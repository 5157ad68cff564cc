"""How the index stores an item state: events by address, read back by their part."""

from __future__ import annotations

import json

import pytest
from helpers.record_values import at, checkpoint, event, item

from gitmem.core.records import EVENT_LIKELY_SUPERSEDED, EVENT_RESOLVE, Event
from gitmem.lifecycle.codec import decode_state, encode_state, event_addresses
from gitmem.lifecycle.replay import replay

OLD = item("The cache holds 10 entries")
OTHER = item("The pool holds 4 workers")


def history() -> tuple[dict[str, Event], list[object]]:
    records = [
        checkpoint(OLD, OTHER, created=at(0)),
        event(
            EVENT_LIKELY_SUPERSEDED,
            None,
            created=at(1),
            items={OLD.id: {"by": "a" * 64}, OTHER.id: {"by": "b" * 64}},
        ),
        event(EVENT_RESOLVE, OTHER.id, created=at(2)),
    ]
    events = {r.address: r.record for r in records if isinstance(r.record, Event)}
    return events, records


def test_a_state_names_its_events_and_reads_each_back_as_replay_applied_it() -> None:
    events, records = history()
    state = replay(records)  # type: ignore[arg-type]
    for address in (OLD.id, OTHER.id):
        original = state.items[address]
        # through JSON text, as the index stores it
        stored = json.loads(json.dumps(encode_state(original)))
        assert all(isinstance(a, str) and len(a) == 64 for a in stored["events"])
        assert set(event_addresses(stored)) <= set(events)
        back = decode_state(stored, original.item, events)
        assert back == original
        # each item reads back its own part of the batch event, never the other's
        (batch,) = [e for _, e in back.events if e.event == EVENT_LIKELY_SUPERSEDED]
        assert batch.item == address and "items" not in batch.extra
    assert state.items[OLD.id].likely_superseded_by == "a" * 64
    assert state.items[OTHER.id].likely_superseded_by == "b" * 64


def test_a_state_naming_an_event_it_cannot_have_is_refused() -> None:
    events, records = history()
    state = replay(records)  # type: ignore[arg-type]
    stored = encode_state(state.items[OTHER.id])
    resolve = next(a for a, e in events.items() if e.event == EVENT_RESOLVE)
    with pytest.raises(KeyError):  # an event the index does not hold
        decode_state(stored, OTHER, {})
    with pytest.raises(ValueError):  # an event about another item
        decode_state({**encode_state(state.items[OLD.id]), "events": [resolve]}, OLD, events)
