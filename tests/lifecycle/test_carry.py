"""Carry, driven directly: what the next checkpoint stores, and which events go with it."""

from __future__ import annotations

from datetime import timedelta

from helpers.record_values import T0, at, checkpoint, event, item, snapshot

from gitmem.core.items import Item
from gitmem.core.records import EVENT_LIKELY_SUPERSEDED
from gitmem.lifecycle.carry import CarryPolicy, plan
from gitmem.lifecycle.replay import replay

DECISION = item("Keep the parser in src/parser.py", quote="keep the parser in src/parser.py")
GUESS = item("The tokenizer is twice as fast")


def said_again(session: str, text: str = "keep the parser in src/parser.py") -> Item:
    return item(DECISION.text, session=session, quote=text)


def test_no_memory_yet_stores_only_the_new_items() -> None:
    result = plan(None, [GUESS], "s2", snapshot("s2"), T0)
    assert result.items == (GUESS,) and result.corroborations == () and result.aged_out == ()


def test_open_items_are_carried_by_reference_never_copied() -> None:
    state = replay([checkpoint(DECISION, GUESS, created=at(0))])
    fresh = item("Cache the index", session="s2")
    result = plan(state, [fresh], "s2", snapshot("s2"), T0 + timedelta(hours=1))
    assert result.items == (fresh,)  # only what this capture adds
    assert set(result.carried) == {DECISION.address, GUESS.address}  # their addresses


def test_the_same_claim_said_verbatim_in_another_session_corroborates_and_adds_no_item() -> None:
    state = replay([checkpoint(DECISION, created=at(0))])
    again = said_again("s2")
    result = plan(state, [again], "s2", snapshot("s2"), T0)
    assert result.corroborations == ((DECISION.id, again),)
    assert again.id not in {i.id for i in result.items}  # never stored twice


def test_the_same_session_or_transcript_never_corroborates() -> None:
    state = replay([checkpoint(DECISION, created=at(0))])
    for session, source in (("s1", "s9"), ("s9", "s1")):
        again = said_again(session)
        result = plan(state, [again], session, snapshot(source), T0)
        assert result.corroborations == (), (session, source)


def test_the_same_claim_inferred_never_corroborates() -> None:
    state = replay([checkpoint(DECISION, created=at(0))])
    again = item(DECISION.text, session="s2")
    assert plan(state, [again], "s2", snapshot("s2"), T0).corroborations == ()


def test_an_inferred_item_unseen_for_long_ages_out_with_a_reason() -> None:
    state = replay([checkpoint(GUESS, created=at(0))])
    result = plan(state, [], "s2", snapshot("s2"), T0 + timedelta(days=31))
    ((aged, reason),) = result.aged_out
    assert aged.id == GUESS.id and "31 days" in reason
    assert result.items == ()


def test_a_verbatim_item_needs_both_sessions_and_days_to_age() -> None:
    state = replay([checkpoint(DECISION, created=at(0))])
    assert plan(state, [], "s2", snapshot("s2"), T0 + timedelta(days=90)).aged_out == ()


def test_the_carry_cap_drops_the_oldest_and_least_important_first() -> None:
    old = item("Old open loop", kind="open_loop")
    new = item("New open loop", kind="open_loop")
    key = item("Important loop", kind="open_loop", importance=5)
    state = replay(
        [
            checkpoint(old, created=at(0)),
            checkpoint(key, session="s2", created=at(0, minutes=1)),
            checkpoint(new, session="s3", created=at(0, minutes=2)),
        ]
    )
    later = T0 + timedelta(hours=1)  # a session after all three
    result = plan(state, [], "s4", snapshot("s4"), later, CarryPolicy(max_carried=2))
    assert set(result.carried) == {key.id, new.id} and result.items == ()
    ((dropped, reason),) = result.aged_out
    assert dropped.id == old.id and "more than 2 open items" in reason


def test_items_of_equal_rank_are_carried_in_one_order_whatever_order_they_arrive_in() -> None:
    """What a checkpoint stores must not follow the order states arrive in (which once
    followed set iteration, so two runs of one capture stored different bytes)."""
    loops = [item(f"Open loop {n}", kind="open_loop") for n in range(6)]
    forward = replay([checkpoint(*loops, created=at(0))])
    backward = replay([checkpoint(*reversed(loops), created=at(0))])
    later = T0 + timedelta(hours=1)
    plans = [plan(s, [], "s2", snapshot("s2"), later) for s in (forward, backward)]
    assert plans[0].carried == plans[1].carried and len(plans[0].carried) == 6
    capped = [
        plan(s, [], "s2", snapshot("s2"), later, CarryPolicy(max_carried=3))
        for s in (forward, backward)
    ]
    assert capped[0].carried == capped[1].carried


def test_a_new_value_for_an_open_claim_is_its_own_item_and_a_likely_supersession() -> None:
    limit = item("Set the retry limit to 3", quote="set the retry limit to 3")
    state = replay([checkpoint(limit, created=at(0))])
    later = item("Set the retry limit to 30", session="s2", quote="set the retry limit to 30")
    result = plan(state, [later], "s2", snapshot("s2"), T0)
    assert result.corroborations == ()  # never a corroboration of the old value
    assert later in result.items
    assert result.supersessions == ((limit.id, later.id),)


def test_a_statement_already_likely_superseded_is_not_marked_again() -> None:
    """Each new value marks the newest open one, not every earlier value again: a
    subject stated again with new values at every capture adds one event a capture, not one
    per earlier value (the scale benchmark's 40 events a capture)."""
    first = item("Set the retry limit to 3", quote="set the retry limit to 3")
    second = item("Set the retry limit to 30", session="s2", quote="set the retry limit to 30")
    state = replay(
        [
            checkpoint(first, created=at(0)),
            checkpoint(second, session="s2", created=at(1)),
            event(EVENT_LIKELY_SUPERSEDED, first.id, created=at(1), by=second.id),
        ]
    )
    assert state.items[first.id].likely_superseded_by == second.id
    third = item("Set the retry limit to 300", session="s3", quote="set the retry limit to 300")
    result = plan(state, [third], "s3", snapshot("s3"), T0 + timedelta(days=2))
    assert result.supersessions == ((second.id, third.id),)


def test_a_reversal_is_never_a_corroboration() -> None:
    original = item(
        "We will not ship the parser on friday", quote="we will not ship the parser on friday"
    )
    state = replay([checkpoint(original, created=at(0))])
    reversal = item("Ship the parser on friday", session="s2", quote="ship the parser on friday")
    result = plan(state, [reversal], "s2", snapshot("s2"), T0)
    assert result.corroborations == () and reversal in result.items
    assert result.supersessions == ((original.id, reversal.id),)


def test_ageing_counts_other_sessions_never_captures() -> None:
    """Twelve captures of one growing session are one session: its own items never age
    on its account, and another session's item is one session older, not twelve."""
    other = item("The cache is warm", session="s0")
    records = [checkpoint(other, session="s0", created=at(0))]
    mine = item("Check the parser", session="s1")
    records.append(checkpoint(mine, carry=(other,), session="s1", created=at(0, minutes=1)))
    for n in range(2, 13):
        records.append(checkpoint(carry=(other, mine), session="s1", created=at(0, minutes=n)))
    state = replay(records)
    assert state.items[mine.id].unseen_sessions == 0
    assert state.items[other.id].unseen_sessions == 1
    result = plan(state, [], "s1", snapshot("s1-13"), T0 + timedelta(minutes=13))
    assert result.aged_out == ()
    # Ten other sessions go by without it: then, and only then, an inferred item ages.
    for n in range(2, 11):
        records.append(checkpoint(carry=(other, mine), session=f"t{n}", created=at(1, minutes=n)))
    state = replay(records)
    assert state.items[mine.id].unseen_sessions == 9
    assert plan(state, [], "t99", snapshot("t99"), T0 + timedelta(days=2)).aged_out != ()


def test_a_backfilled_session_carries_ages_and_supersedes_nothing() -> None:
    today = item("Set the retry limit to 3", session="s9", quote="set the retry limit to 3")
    state = replay([checkpoint(today, session="s9", created=at(100))])
    old = item("Set the retry limit to 30", session="old", quote="set the retry limit to 30")
    result = plan(state, [old], "old", snapshot("old"), T0)  # said 100 days earlier
    assert result.items == (old,) and result.carried == () and result.aged_out == ()
    assert result.supersessions == ()
    # Six months of backfill never ages today's items either.
    for n in range(150):
        past = item(f"Old session {n} note", session=f"past-{n}")
        result = plan(state, [past], f"past-{n}", snapshot(f"p{n}"), T0 + timedelta(days=n % 90))
        assert result.aged_out == () and result.carried == ()
