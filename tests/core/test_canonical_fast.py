"""The fast encoder gives the canonical bytes the standard one gives, for every value a
record can hold (gitmem.core.canonical._dumps): a difference would let a verify accept
bytes that are not canonical, or refuse bytes that are."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitmem.core import canonical, fastjson
from gitmem.core.canonical import _dumps, decode, encode
from gitmem.core.errors import FormatError, InputError

pytestmark = pytest.mark.skipif(fastjson.installed() is None, reason="orjson is not installed")


@pytest.fixture(autouse=True)
def _fast(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every encode here takes the fast path, as a verify's do past its first few hundred."""
    monkeypatch.setattr(fastjson, "module", fastjson.installed)


_SURROGATES = range(0xD800, 0xE000)


def _standard(value: Any) -> bytes:
    return canonical._ENCODER.encode(value).encode("utf-8")


def test_every_code_point_is_escaped_or_kept_alike() -> None:
    # Each encoder escapes a string one code point at a time, so a list holding every
    # code point alone (and one string of all of them) covers every string.
    points = [chr(c) for c in range(0x110000) if c not in _SURROGATES]
    assert _dumps(points) == _standard(points)
    assert _dumps("".join(points)) == _standard("".join(points))


def test_a_lone_surrogate_is_refused_as_before() -> None:
    for point in (0xD800, 0xDBFF, 0xDC00, 0xDFFF):
        with pytest.raises(InputError, match="lone surrogate"):
            encode({"text": "a" + chr(point)})


def test_keys_sort_by_code_point_across_the_planes() -> None:
    starts = [0x00, 0x1F, 0x41, 0x7F, 0x80, 0xFF, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD]
    starts += [0xFFFF, 0x10000, 0x1F600, 0x10FFFF]
    keys = [chr(c) + tail for c in starts for tail in ("", "a", "\x00", chr(0x10000))]
    keys += ["", "A", "a", "aa", "ab", "a\x00b"]
    random.Random(7).shuffle(keys)
    value = {k: i for i, k in enumerate(keys)}
    assert _dumps(value) == _standard(value)
    assert decode(_dumps(value)) == value


@pytest.mark.parametrize(
    "number",
    [0, -1, 2**53, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63), -(2**63) - 1, 10**40, -(10**40)],
)
def test_integers_at_and_past_64_bits(number: int) -> None:
    value = {"n": number, "list": [number, -number]}
    assert _dumps(value) == _standard(value)
    assert decode(_dumps(value)) == value


def test_nesting_deeper_than_the_fast_encoder_takes() -> None:
    value: Any = "end"
    for depth in range(400):
        value = [value] if depth % 2 else {"k": value}
    assert _dumps(value) == _standard(value)


def test_non_canonical_bytes_are_still_refused() -> None:
    assert decode(b'{"a":1,"b":[true,null,"x"]}') == {"a": 1, "b": [True, None, "x"]}
    for data in (b'{"b":1,"a":2}', b'{"a": 1}', b'{"a":"\\u0041"}', b'{"a":"\\/"}'):
        with pytest.raises(FormatError, match="not canonical"):
            decode(data)


_KEYS = st.text(max_size=6)
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(_VALUES)
def test_any_record_value_encodes_alike(value: Any) -> None:
    try:
        expected = _standard(value)
    except UnicodeEncodeError:
        with pytest.raises(InputError):
            _dumps(value)
        return
    assert _dumps(value) == expected


def test_a_process_loads_orjson_only_once_it_has_enough_json() -> None:
    lazy = fastjson.Lazy()
    assert not any(lazy.module() for _ in range(fastjson.LOAD_AFTER - 1))
    assert lazy.loaded is None  # a brief or a capture never pays for its import
    assert lazy.module() is fastjson.installed() is lazy.module()


def test_where_orjson_is_missing_it_is_looked_for_once(monkeypatch: pytest.MonkeyPatch) -> None:
    looked: list[int] = []
    monkeypatch.setattr(fastjson, "installed", lambda: looked.append(1))
    lazy = fastjson.Lazy()
    assert not any(lazy.module() for _ in range(fastjson.LOAD_AFTER * 3))
    assert looked == [1]  # not an import attempt on every encode after the 256th
