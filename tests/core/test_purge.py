"""The purge event's fields and the redaction of a snapshot: pure values."""

from __future__ import annotations

import pytest

from gitmem.core.canonical import sha256_hex
from gitmem.core.errors import FormatError, InputError
from gitmem.core.purge import (
    PURGED_TEXT,
    Purge,
    check_text,
    holds,
    purge_of,
    purged_label,
    redact_snapshot,
    resolve_snapshot,
    text_digest,
)
from gitmem.core.records import EVENT_PURGE, EVENT_RESOLVE, Event, parse_record
from gitmem.core.transcript import Message, parse_snapshot, render_snapshot

A, B, C = (sha256_hex(x) for x in (b"a", b"b", b"c"))


def purge_event(**extra: object) -> Event:
    return Event(
        EVENT_PURGE,
        None,
        "human",
        "alice@example.com",
        "SHA256:k",
        "2026-11-30T10:00:00Z",
        None,
        extra,
    )


def test_a_purge_round_trips_through_its_event_in_one_byte_form() -> None:
    purge = Purge(
        items=(B, A),
        snapshots={A: B},
        records=(C,),
        how="text",
        text=text_digest("s", "00"),
        before="f" * 40,
    )
    event = purge_event(**purge.to_extra())
    stored = parse_record(event.canonical_bytes())
    assert isinstance(stored, Event)
    again = Purge.from_event(stored)
    assert (
        again.items == tuple(sorted((A, B))) and again.snapshots == {A: B} and again.records == (C,)
    )
    assert again.text == purge.text and again.how == "text" and again.before == "f" * 40
    assert purge_event(**again.to_extra()).canonical_bytes() == event.canonical_bytes()


@pytest.mark.parametrize(
    "extra",
    [
        {"items": ["nope"]},
        {"items": [A], "snapshots": {A: "x"}},
        {"items": [A], "text": "the secret"},
    ],
)
def test_a_malformed_purge_is_not_a_purge(extra: dict[str, object]) -> None:
    with pytest.raises(FormatError):
        Purge.from_event(purge_event(**extra))
    assert purge_of(purge_event(**extra)) is None
    resolve = Event(EVENT_RESOLVE, A, "s", "w", "k", "2026-11-30T10:00:00Z", None, {"items": [A]})
    assert purge_of(resolve) is None


def test_the_digest_is_salted_and_never_the_text() -> None:
    one, two = text_digest("hunter2", "00" * 16), text_digest("hunter2", "11" * 16)
    assert one["sha256"] != two["sha256"] and "hunter2" not in str(one)
    assert one == text_digest("hunter2", "00" * 16)


def test_the_label_names_the_writer_and_the_day() -> None:
    assert purged_label("alice@example.com", "2026-11-30T23:59:59.123456Z") == (
        "[purged by alice@example.com on 2026-11-30]"
    )


def test_a_replaced_snapshot_resolves_through_every_purge_and_a_cycle_stops() -> None:
    assert resolve_snapshot({A: B, B: C}, A) == C
    assert resolve_snapshot({A: B}, C) == C
    assert resolve_snapshot({A: B, B: A}, A) in (A, B)


def test_redacting_a_messages_snapshot_keeps_its_encoding() -> None:
    messages = [
        Message("user", 'the key is "s3cr3t-value" ok'),
        Message("assistant", "noted s3cr3t-value"),
    ]
    data = render_snapshot("claude", messages).encode()
    copy = redact_snapshot(data, "s3cr3t-value", ["claude"])
    assert copy is not None and not holds(copy, "s3cr3t-value")
    texts = parse_snapshot(copy, "t", "claude").texts()
    assert texts == [f'the key is "{PURGED_TEXT}" ok', f"noted {PURGED_TEXT}"]
    assert redact_snapshot(data, "not there") is None


def test_redacting_text_that_json_escapes() -> None:
    messages = [Message("user", 'say "hi"\nthen go')]
    data = render_snapshot("json", messages).encode()
    copy = redact_snapshot(data, 'say "hi"\nthen', ["json"])
    assert copy is not None and parse_snapshot(copy, "t", "json").texts() == [f"{PURGED_TEXT} go"]
    plain = redact_snapshot(b"one two one", "one", ["text"])
    assert plain == f"{PURGED_TEXT} two {PURGED_TEXT}".encode()


def test_only_what_was_said_is_searched() -> None:
    from gitmem.core.purge import value_holds

    record = {
        "created": "2026-11-30T10:00:00Z",
        "items": [A],
        "key": "SHA256:" + "a" * 43,
        "note": "ask Acme",
    }
    assert value_holds(record, "Acme") and not value_holds(record, "2026")
    assert not value_holds(record, A[:8]) and not value_holds(record, "note")
    assert value_holds({"evidence": {"quote": "the Acme deal"}}, "Acme deal")
    assert not value_holds({"writer": "alice@acme.example"}, "acme")  # the signer, not words
    assert (
        redact_snapshot(render_snapshot("claude", [Message("user", "hi")]).encode(), "user") is None
    )


def test_an_empty_text_is_refused() -> None:
    with pytest.raises(InputError):
        check_text(" \n")
    assert check_text("x") == "x"
