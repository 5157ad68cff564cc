"""A transcript line orjson reads is the message json reads (gitmem.core.transcript:
the fast reading of a stored snapshot's lines), and every other line is left to the
strict reading: a difference would let a quote be checked against a message the brief,
which reads the same bytes, would not find."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitmem.core import fastjson, transcript
from gitmem.core.errors import InputError
from gitmem.core.transcript import Message

orjson: Any = fastjson.installed()
pytestmark = pytest.mark.skipif(orjson is None, reason="orjson is not installed")


def _strict(line: str, monkeypatch: pytest.MonkeyPatch) -> Message | str:
    with monkeypatch.context() as off:
        off.setattr(fastjson, "module", lambda: None)
        try:
            return transcript._message(line, "t.jsonl", 1)
        except InputError as e:
            return str(e)


def _agrees(line: str, monkeypatch: pytest.MonkeyPatch) -> bool:
    fast = transcript._plain_message(orjson, line)
    return fast is None or fast == _strict(line, monkeypatch)


def test_an_ordinary_line_is_read_fast_and_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    line = '{"role":"user","text":"Ship the parser on Friday.\\nThen tag it."}'
    fast = transcript._plain_message(orjson, line)
    assert fast == Message("user", "Ship the parser on Friday.\nThen tag it.")
    assert fast == _strict(line, monkeypatch)
    assert transcript._plain_message(orjson, '{"role":null,"text":""}') == Message(None, "")


def test_every_character_raw_in_a_text(monkeypatch: pytest.MonkeyPatch) -> None:
    for code in [*range(0x80), 0x85, 0xA0, 0x2028, 0x2029, 0xFEFF, 0xFFFF, 0x10FFFF]:
        line = '{"role":"user","text":"a' + chr(code) + 'b"}'
        assert _agrees(line, monkeypatch), hex(code)
    others = "".join(chr(c) for c in range(0x80, 0x110000) if not 0xD800 <= c < 0xE000)
    line = json.dumps({"role": "user", "text": others}, ensure_ascii=False)
    assert transcript._plain_message(orjson, line) == _strict(line, monkeypatch)


@pytest.mark.parametrize(
    "escape",
    [
        *(f"\\{c}" for c in '"\\/bfnrtx0u'),
        *("\\u0000", "\\u001f", "\\u00e9", "\\uD83D\\uDE00", "\\ud800", "\\udc00"),
        *("\\ud800\\u0041", "\\ude00\\ud83d", "\\uZZZZ", "\\u12"),
    ],
)
def test_every_escape(escape: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for line in ('{"role":"user","text":"a' + escape + 'b"}', '{"ro' + escape + '":"x"}'):
        assert _agrees(line, monkeypatch)


@pytest.mark.parametrize("space", [chr(c) for c in range(0x21)] + ["\xa0", "\ufeff", "\u2028"])
def test_every_space_around_and_between_tokens(space: str, monkeypatch: pytest.MonkeyPatch) -> None:
    parts = ["{", '"role"', ":", '"user"', ",", '"text"', ":", '"hi"', "}"]
    for at in range(len(parts) + 1):
        line = "".join(parts[:at]) + space + "".join(parts[at:])
        assert _agrees(line, monkeypatch), (repr(space), at)


def test_shapes_the_strict_reading_refuses_are_left_to_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for line in (
        '{"role":"a","text":"x","role":"b"}',  # json and orjson both keep the last
        '{"text":"x","who":"a"}',
        '{"role":"a","text":1}',
        '{"role":7,"text":"x"}',
        '["role","text"]',
        '{"role":"a","text":"x"} {"role":"b","text":"y"}',
        '{"role":"a","text":NaN}',
        '{"role":"a","text":"x",}',
        '{"role":"a","text":' + "[" * 300 + "]" * 300 + "}",
        '{"role":"a","text":"x"}\x00',
    ):
        assert _agrees(line, monkeypatch), line


_TOKENS = st.sampled_from(
    [
        *('{"role":', '"text":', '"user"', "null", ",", "}", "{", "[", "]", ":", '"', "\\", " "),
        *('"a\\u00e9"', '"\\ud800"', "1", "1.5", "-0", "1e999", "true", "\t", "\n", "\x7f"),
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_TOKENS | st.text(max_size=3), max_size=12))
def test_any_line_read_fast_is_the_line_read_strictly(parts: list[str]) -> None:
    line = "".join(parts)
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert _agrees(line, monkeypatch)
