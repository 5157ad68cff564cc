"""Fuzz: an items file parses into drafts that can be stored, or is refused with one
InputError; never another exception (docs/user-guide.md, "Items files")."""

from __future__ import annotations

import json

import pytest
from helpers.hostile import DEEP, FUZZ, ITEM_TEMPLATES, fill, slot_value
from hypothesis import given
from hypothesis import strategies as st

from gitmem.capture.checkpoint import build_items, mask_draft
from gitmem.capture.items import parse_items, to_drafts
from gitmem.core import canonical
from gitmem.core.errors import InputError
from gitmem.core.transcript import Message, Transcript, render_snapshot

MESSAGES = (Message("user", "we pin pygit2 to 1.19 for now"),)
TRANSCRIPT = Transcript("messages", "t", MESSAGES, render_snapshot("messages", MESSAGES))


def store_like_capture(text: str) -> None:
    """Parse, mask and freeze as a capture does; the items' bytes must be canonical."""
    try:
        drafts = parse_items(text, "items.json")
    except InputError as e:
        assert "\n" not in str(e) and len(str(e)) < 600, str(e)
        return
    snapshot = canonical.sha256_hex(TRANSCRIPT.snapshot.encode())
    items = build_items([mask_draft(d) for d in drafts], TRANSCRIPT, "session-1", snapshot)
    for item in items:
        canonical.decode(canonical.encode(item.to_dict()))


@st.composite
def items_files(draw: st.DrawFn) -> str:
    entries = [
        fill(draw(st.sampled_from(ITEM_TEMPLATES)), draw(st.lists(slot_value, min_size=1)))
        for _ in range(draw(st.integers(0, 4)))
    ]
    body = "[" + ",".join(entries) + "]"
    return draw(st.sampled_from((body, '{"items":' + body + "}", body[:-1])))


@FUZZ
@given(items_files())
def test_items_files(text: str) -> None:
    store_like_capture(text)


@FUZZ
@given(slot_value)
def test_any_json_value_as_an_items_file(text: str) -> None:
    store_like_capture(text)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('[{"kind":"fact","text":"\\ud800 x"}]', "lone surrogate"),
        ('[{"kind":"fact","text":"x","owner":"\\udfff"}]', "lone surrogate"),
        ('[{"kind":"fact","text":"x","\\ud800":1}]', "lone surrogate"),
        ('[{"kind":"fact","text":"x","importance":' + "9" * 30 + "}]", "digits"),
        ('[{"kind":"fact","text":"x","a\\nb":1.5}]', "integers"),
        ('[{"kind":"fact","text":"x","evidence":' + "[" * DEEP + "]" * DEEP + "}]", "deep"),
        ('[{"kind":"fact","text":"x","evidence":' + "[" * 150 + "]" * 150 + "}]", "deep"),
    ],
)
def test_hostile_items_are_refused_with_one_line(text: str, why: str) -> None:
    with pytest.raises(InputError, match=why) as raised:
        parse_items(text, "items.json")
    assert "\n" not in str(raised.value)


def test_values_given_as_fields_are_bounded_too() -> None:
    deep: object = "x"
    for _ in range(150):
        deep = [deep]
    with pytest.raises(InputError, match="deep"):
        to_drafts([{"kind": "fact", "text": "x", "evidence": deep}], "remember")
    assert to_drafts(json.loads('[{"kind":"fact","text":"x"}]'), "remember")
