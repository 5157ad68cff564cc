"""Replay, driven directly with record values: what each event does to an item's state."""

from __future__ import annotations

from helpers.record_values import at, checkpoint, event, item, snapshot

from gitmem.core.purge import Purge
from gitmem.core.records import (
    EVENT_CORROBORATION,
    EVENT_FORGET,
    EVENT_LIKELY_SUPERSEDED,
    EVENT_PURGE,
    EVENT_REOPEN,
    EVENT_RESOLVE,
    EVENT_STATE_CHANGED,
    EVENT_STATUS,
    EVENT_SUPERSEDE,
)
from gitmem.lifecycle.replay import Replayable, current_status, replay

DECISION = item("Keep the parser in src/parser.py", quote="keep the parser in src/parser.py")


def corroborating(session: str, source: str, created: str) -> Replayable:
    return event(
        EVENT_CORROBORATION,
        DECISION.id,
        session=session,
        created=created,
        snapshot=checkpoint(session=session, source=source).record.source.snapshot,  # type: ignore[union-attr]
        quote="keep the parser in src/parser.py",
    )


def test_records_replay_in_time_order_whatever_order_they_arrive_in() -> None:
    first = checkpoint(DECISION, created=at(0))
    later = event(EVENT_RESOLVE, DECISION.id, created=at(1))
    forwards = replay([first, later]).items[DECISION.id]
    backwards = replay([later, first]).items[DECISION.id]
    assert forwards.resolved and backwards.resolved
    assert forwards.first_seen == backwards.first_seen == at(0)


def test_the_first_copy_is_the_origin_and_carried_copies_are_not_sightings() -> None:
    state = replay(
        [
            checkpoint(DECISION, created=at(0)),
            checkpoint(carry=(DECISION,), session="s2", created=at(1)),
            checkpoint(carry=(DECISION,), session="s3", created=at(2)),
        ]
    ).items[DECISION.id]
    assert state.origin_snapshot == checkpoint(DECISION).record.source.snapshot  # type: ignore[union-attr]
    assert state.carried and state.carry_count == 2 and state.unseen_sessions == 2
    assert [s.session for s in state.sightings] == ["s1"]
    assert state.last_seen == at(0)  # carrying is not seeing
    assert state.corroboration == 1


def test_corroboration_counts_independent_sessions_and_transcripts_once_each() -> None:
    state = replay(
        [
            checkpoint(DECISION, created=at(0)),
            corroborating("s2", "transcript-2", at(1)),
            corroborating("s2", "transcript-3", at(2)),  # the same session again
            corroborating("s3", "transcript-2", at(3)),  # the same transcript again
            corroborating("s4", "transcript-4", at(4)),
        ]
    ).items[DECISION.id]
    assert state.corroboration == 3  # the origin, s2 and s4


def test_a_contradiction_zeroes_corroboration_and_a_reopen_restores_nothing() -> None:
    records = [checkpoint(DECISION, created=at(0)), corroborating("s2", "transcript-2", at(1))]
    assert replay(records).items[DECISION.id].corroboration == 2
    records.append(event(EVENT_STATE_CHANGED, DECISION.id, created=at(2), note="moved"))
    assert replay(records).items[DECISION.id].corroboration == 0
    records.append(event(EVENT_REOPEN, DECISION.id, created=at(3)))
    reopened = replay(records).items[DECISION.id]
    assert reopened.active and not reopened.notes
    assert reopened.corroboration == 0  # only corroborations after the contradiction count
    records.append(corroborating("s5", "transcript-5", at(4)))
    assert replay(records).items[DECISION.id].corroboration == 1


def test_resolve_supersede_and_forget_close_an_item() -> None:
    base = [checkpoint(DECISION, created=at(0))]
    for name, extra in (
        (EVENT_RESOLVE, {}),
        (EVENT_SUPERSEDE, {"by": "ffff"}),
        (EVENT_FORGET, {}),
    ):
        state = replay([*base, event(name, DECISION.id, created=at(1), **extra)])
        assert not state.items[DECISION.id].active, name
        assert not state.items[DECISION.id].current, name
    superseded = replay([*base, event(EVENT_SUPERSEDE, DECISION.id, created=at(1), by="ffff")])
    assert superseded.items[DECISION.id].superseded_by == "ffff"
    assert current_status(superseded.items[DECISION.id]) == "SUPERSEDED"


def test_a_likely_supersession_keeps_the_item_open_but_contradicted() -> None:
    state = replay(
        [
            checkpoint(DECISION, created=at(0)),
            event(EVENT_LIKELY_SUPERSEDED, DECISION.id, created=at(1), by="eeee"),
        ]
    ).items[DECISION.id]
    assert state.active and state.contradicted and state.likely_superseded_by == "eeee"


def test_an_ageing_event_marks_several_items_stale_at_once() -> None:
    other = item("Cache the index on disk")
    state = replay(
        [
            checkpoint(DECISION, other, created=at(0)),
            event(
                EVENT_STATUS,
                None,
                created=at(40),
                to="STALE",
                items={DECISION.id: {"from": "REPORTED", "reason": "old"}, other.id: {}},
            ),
        ]
    )
    assert all(current_status(s) == "STALE" and not s.current for s in state.items.values())
    assert all(s.active for s in state.items.values())  # stale is not closed: reverify revives


def test_a_status_edge_the_machine_forbids_changes_nothing() -> None:
    state = replay(
        [
            checkpoint(DECISION, created=at(0)),
            event(EVENT_STATUS, DECISION.id, created=at(1), to="VERIFIED"),  # no such edge
            event(EVENT_STATUS, DECISION.id, created=at(2), to="INFERRED"),  # needs evidence
        ]
    ).items[DECISION.id]
    assert current_status(state) == "REPORTED"


def test_an_allowed_status_edge_is_taken() -> None:
    state = replay(
        [
            checkpoint(DECISION, created=at(0)),
            event(EVENT_STATUS, DECISION.id, created=at(1), to="QUARANTINED"),
        ]
    ).items[DECISION.id]
    assert current_status(state) == "QUARANTINED"


def test_an_evidence_gated_reopen_can_raise_trust_to_verbatim() -> None:
    guess = item("The tokenizer is twice as fast")
    state = replay(
        [
            checkpoint(guess, created=at(0)),
            event(
                EVENT_REOPEN,
                guess.id,
                created=at(1),
                trust="verbatim",
                quote="the tokenizer is twice as fast",
            ),
        ]
    ).items[guess.id]
    assert state.trust == "verbatim" and state.quote == "the tokenizer is twice as fast"


def test_an_inferred_items_stored_quote_is_never_its_quote() -> None:
    unverified = item("Ship on Friday")
    state = replay([checkpoint(unverified)]).items[unverified.id]
    assert state.quote is None and current_status(state) == "INFERRED"


def test_events_about_unknown_items_are_ignored() -> None:
    state = replay([event(EVENT_RESOLVE, "0123456789abcdef")])
    assert state.items == {} and state.latest_checkpoint is None


def test_replay_onto_a_state_applies_only_the_newer_records() -> None:
    first = checkpoint(DECISION, created=at(0))
    state = replay([first])
    replay([event(EVENT_RESOLVE, DECISION.id, created=at(1))], onto=state)
    assert state.items[DECISION.id].resolved
    assert state.latest_checkpoint == first.address


def test_a_purge_removes_the_item_and_points_quotes_at_the_redacted_snapshot() -> None:
    kept = item("Keep the cache local", session="s2", quote="keep the cache local")
    gone = item("The key is in the wiki", session="s2")
    first = checkpoint(kept, gone, session="s2", created=at(0))
    redacted = snapshot("s2-redacted")
    purge = event(
        EVENT_PURGE,
        None,
        created=at(1),
        **Purge(items=(gone.address,), snapshots={kept.snapshot: redacted}).to_extra(),  # type: ignore[dict-item]
    )
    # A later checkpoint that names the purged address (a copy stored again) changes nothing.
    later = checkpoint(carry=(kept, gone), session="s3", created=at(2))
    state = replay([later, purge, first])
    assert gone.address not in state.items and state.purged[gone.address].address == purge.address
    assert state.purged[gone.address].label == "[purged by alice@example.com on 2026-11-02]"
    source = state.items[kept.address].origin_source
    assert source is not None and source.snapshot == redacted
    assert [a for a, _ in state.find_purged(gone.address[:6])] == [gone.address]


def test_the_checkpoint_that_added_an_item_is_its_origin_though_a_carry_came_first() -> None:
    # Sessions imported together can share a time, and an older session imported after
    # a newer one carries what the newer one added: replay then reads a carry of the
    # item before the checkpoint that added it. The origin is still the adding one, so
    # the item's quote is checked against that transcript, not against none.
    for carried_at, added_at in ((at(0), at(0)), (at(0), at(1))):
        adding = checkpoint(DECISION, created=added_at)
        carrying = checkpoint(carry=(DECISION,), session="s2", created=carried_at)
        for records in ([adding, carrying], [carrying, adding]):
            state = replay(records).items[DECISION.id]
            assert state.origin_checkpoint == adding.address
            assert state.origin_source is not None
            assert state.origin_source.snapshot == DECISION.snapshot
            assert state.first_seen == added_at
            assert [s.session for s in state.sightings] == ["s1"]
