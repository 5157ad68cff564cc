from __future__ import annotations

import pytest

from gitmem.core import canonical
from gitmem.core.canonical import sha256_hex
from gitmem.core.errors import FormatError
from gitmem.core.items import Item, Kind, Trust, parse_item, statement_id
from gitmem.core.records import Checkpoint, Event, Source, parse_record

ITEM = Item(
    kind=Kind.FACT,
    text="x",
    trust=Trust.INFERRED,
    origin_session="s",
    extra={"owner": "team", "claims": [{"type": "file-exists", "path": "a.py"}]},
)


def checkpoint(**extra: object) -> Checkpoint:
    return Checkpoint(
        session="s",
        writer="alice",
        key="SHA256:k",
        created="2026-11-01T00:00:00Z",
        commit=None,
        source=Source("0" * 64, "text", "t.md", 3),
        items=(ITEM.address,),
        carried=("1" * 64,),
        extra=extra,
    )


def test_checkpoint_round_trips_with_unknown_fields() -> None:
    original = checkpoint(future_field={"nested": [1, 2]})
    data = original.canonical_bytes()
    parsed = parse_record(data)
    assert parsed == original
    assert parsed.canonical_bytes() == data
    assert isinstance(parsed, Checkpoint) and parsed.named == (ITEM.address, "1" * 64)


def test_an_item_round_trips_and_its_address_is_the_hash_of_its_bytes() -> None:
    data = ITEM.canonical_bytes()
    parsed = parse_item(data)
    assert parsed == ITEM and parsed.extra["owner"] == "team"
    assert ITEM.address == sha256_hex(data) == ITEM.id
    assert b'"carried"' not in data  # carrying is never written into an item


def test_a_v1_store_is_refused_with_one_clear_line() -> None:
    data = checkpoint().to_dict()
    data["schema"] = "gitmem/checkpoint/1"
    with pytest.raises(FormatError, match="storage format v1"):
        parse_record(canonical.encode(data))


@pytest.mark.parametrize("schema", [["gitmem/checkpoint/2"], {"v": 2}, 2, None])
def test_a_schema_of_another_shape_is_a_format_error(schema: object) -> None:
    data = checkpoint().to_dict()
    data["schema"] = schema
    with pytest.raises(FormatError, match="schema"):
        parse_record(canonical.encode(data))


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


def test_statement_id_is_stable_and_separates_fields() -> None:
    assert statement_id("s", "fact", "x") == statement_id("s", "fact", "x")
    assert statement_id("s", "fact", "ab") != statement_id("s", "facta", "b")
    assert len(statement_id("s", "fact", "x")) == 16


def test_unknown_trust_class_reads_as_untagged_never_verbatim() -> None:
    data = ITEM.to_dict()
    data["trust"] = "certified"
    assert Item.from_dict(data).trust == "untagged"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("created", "yesterday"),
        ("session", 3),
        ("items", "none"),
        ("items", [{"id": "x"}]),
        ("carried", ["short"]),
        ("schema", "gitmem/x/9"),
        ("type", "note"),
    ],
)
def test_malformed_records_are_refused(field: str, value: object) -> None:
    data = checkpoint().to_dict()
    data[field] = value
    with pytest.raises(FormatError):
        parse_record(canonical.encode(data))
