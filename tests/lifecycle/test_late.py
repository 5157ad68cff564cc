"""Records that arrive late (lifecycle/late.py): applied onto a replayed state in place,
they give exactly what replaying the whole history in order gives, or are refused."""

from __future__ import annotations

from typing import Any

from helpers.record_values import at, checkpoint, event, item, snapshot
from hypothesis import given
from hypothesis import strategies as st

from gitmem.core.records import (
    EVENT_CORROBORATION,
    EVENT_FORGET,
    EVENT_LIKELY_SUPERSEDED,
    EVENT_REOPEN,
    EVENT_RESOLVE,
    EVENT_STATE_CHANGED,
    EVENT_STATUS,
    EVENT_SUPERSEDE,
)
from gitmem.lifecycle.codec import encode_state
from gitmem.lifecycle.late import dangling, replay_late
from gitmem.lifecycle.replay import MemoryState, Replayable, replay

ITEMS = [
    item("Keep the parser in src/parser.py", quote="keep the parser in src/parser.py"),
    item("Retry three times", session="s2"),
    item("Benchmark the cache", session="s3", kind="open_loop", quote="benchmark the cache"),
    item("Deploys stop on Fridays", session="s4", quote="deploys stop on fridays"),
]
GENUINE = {i.address: i for i in ITEMS}
SESSIONS = ["s1", "s2", "s3", "s4", "s5"]


def whole(state: MemoryState) -> dict[str, Any]:
    """Everything a replayed state holds, as the index would keep it."""
    return {
        "items": {a: encode_state(s) for a, s in state.items.items()},
        "latest": state.latest_checkpoint,
        "newest": state.newest,
    }


def later_of(
    records: list[Replayable], split: int
) -> tuple[MemoryState, list[Replayable], set[str]]:
    """The state replayed from the first *split* records to arrive, the rest, and the
    items the events replayed named while no state held them."""
    state = replay(records[:split], GENUINE)
    return state, records[split:], dangling(records[:split], state)


@st.composite
def records(draw: st.DrawFn) -> Replayable:
    minute = draw(st.integers(0, 40))
    when = at(minutes=minute)
    session = draw(st.sampled_from(SESSIONS))
    if draw(st.booleans()):
        chosen = draw(st.lists(st.sampled_from(ITEMS), unique_by=lambda i: i.address))
        cut = draw(st.integers(0, len(chosen)))
        return checkpoint(*chosen[:cut], carry=tuple(chosen[cut:]), session=session, created=when)
    about = draw(st.sampled_from(ITEMS)).id
    kind = draw(
        st.sampled_from(
            [
                EVENT_RESOLVE,
                EVENT_REOPEN,
                EVENT_SUPERSEDE,
                EVENT_LIKELY_SUPERSEDED,
                EVENT_STATE_CHANGED,
                EVENT_FORGET,
                EVENT_CORROBORATION,
                EVENT_STATUS,
            ]
        )
    )
    extra: dict[str, Any] = {
        EVENT_SUPERSEDE: {"by": ITEMS[0].id},
        EVENT_LIKELY_SUPERSEDED: {"by": ITEMS[1].id},
        EVENT_STATE_CHANGED: {"note": "moved"},
        EVENT_CORROBORATION: {"snapshot": snapshot(session + "x"), "quote": "said again"},
        EVENT_STATUS: {"to": "STALE", "from": "REPORTED", "reason": "not seen"},
    }.get(kind, {})
    return event(kind, about, session=session, created=when, **extra)


@given(st.lists(records(), min_size=1, max_size=14), st.data())
def test_late_records_give_the_replay_in_order_or_are_refused(
    history: list[Replayable], data: st.DataObject
) -> None:
    split = data.draw(st.integers(0, len(history)))
    onto, late, skipped = later_of(history, split)
    if replay_late(late, GENUINE, onto, skipped):
        assert whole(onto) == whole(replay(history, GENUINE))


@given(st.lists(st.integers(0, 40), min_size=2, max_size=12), st.integers(1, 11))
def test_late_carries_always_commute(minutes: list[int], split: int) -> None:
    """A teammate's captures that carry the open items, arriving after newer ones: the
    common case a sync brings, applied in place (never refused)."""
    origin = checkpoint(*ITEMS, session="s1", created=at(minutes=-1))
    carries = [
        checkpoint(carry=tuple(ITEMS), session=SESSIONS[n % 5], created=at(minutes=m))
        for n, m in enumerate(minutes)
    ]
    history = [origin, *carries]
    onto, late, skipped = later_of(history, min(split, len(history) - 1) + 1)
    assert replay_late(late, GENUINE, onto, skipped)
    assert whole(onto) == whole(replay(history, GENUINE))


def test_a_late_new_item_and_events_about_it_are_applied_in_place() -> None:
    """An import of past sessions: checkpoints dated before the events of the last
    import, adding items of their own and carrying the open ones."""
    first = checkpoint(ITEMS[0], session="s1", created=at(0))
    aged = event(EVENT_STATUS, ITEMS[0].id, created=at(5), to="STALE", reason="not seen")
    past = checkpoint(ITEMS[1], carry=(ITEMS[0],), session="s2", created=at(1))
    about_it = event(EVENT_RESOLVE, ITEMS[1].id, created=at(2))
    onto, late, skipped = later_of([first, aged, past, about_it], 2)
    assert replay_late(late, GENUINE, onto, skipped)
    assert whole(onto) == whole(replay([first, aged, past, about_it], GENUINE))


def test_an_event_before_a_later_one_about_the_same_item_is_refused() -> None:
    first = checkpoint(ITEMS[0], created=at(0))
    reopened = event(EVENT_REOPEN, ITEMS[0].id, created=at(3))
    resolved = event(EVENT_RESOLVE, ITEMS[0].id, created=at(2))
    onto, late, skipped = later_of([first, reopened, resolved], 2)
    assert not replay_late(late, GENUINE, onto, skipped)
