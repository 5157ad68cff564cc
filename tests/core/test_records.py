from __future__ import annotations

import pytest

from gitmem.core.errors import FormatError
from gitmem.core.records import Checkpoint, Event, Item, Source, item_id, parse_record


def checkpoint(**extra: object) -> Checkpoint:
    item = Item(
        id=item_id("s", "fact", "x"),
        kind="fact",
        text="x",
        trust="inferred",
        origin_session="s",
        extra={"owner": "team", "claims": [{"type": "file-exists", "path": "a.py"}]},
    )
    return Checkpoint(
        session="s",
        writer="alice",
        key="SHA256:k",
        created="2026-11-01T00:00:00Z",
        commit=None,
        source=Source("0" * 64, "text", "t.md", 3),
        items=(item,),
        extra=extra,
    )


def test_checkpoint_round_trips_with_unknown_fields() -> None:
    original = checkpoint(future_field={"nested": [1, 2]})
    data = original.canonical_bytes()
    parsed = parse_record(data)
    assert parsed == original
    assert parsed.canonical_bytes() == data
    assert isinstance(parsed, Checkpoint) and parsed.items[0].extra["owner"] == "team"


def test_event_round_trips() -> None:
    event = Event(
        event="resolve",
        item="abc",
        session="s",
        writer="a",
        key="SHA256:k",
        created="2026-11-01T00:00:00Z",
        commit="f" * 40,
        extra={"note": "done"},
    )
    assert parse_record(event.canonical_bytes()) == event


def test_item_id_is_stable_and_separates_fields() -> None:
    assert item_id("s", "fact", "x") == item_id("s", "fact", "x")
    assert item_id("s", "fact", "ab") != item_id("s", "facta", "b")
    assert len(item_id("s", "fact", "x")) == 16


def test_unknown_trust_class_reads_as_untagged_never_verbatim() -> None:
    data = checkpoint().to_dict()
    data["items"][0]["trust"] = "certified"
    parsed = Checkpoint.from_dict(data)
    assert parsed.items[0].trust == "untagged"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("created", "yesterday"),
        ("session", 3),
        ("items", "none"),
        ("schema", "gitmem/x/9"),
        ("type", "note"),
    ],
)
def test_malformed_records_are_refused(field: str, value: object) -> None:
    data = checkpoint().to_dict()
    data[field] = value
    from gitmem.core import canonical

    with pytest.raises(FormatError):
        parse_record(canonical.encode(data))
