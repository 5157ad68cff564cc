from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitmem.core import canonical
from gitmem.core.errors import FormatError, InputError
from gitmem.core.types import are_sha256_hex, is_sha256_hex

text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**63) | text,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(text, children, max_size=5),
    max_leaves=25,
)


@settings(max_examples=300)
@given(json_values)
def test_encode_decode_encode_is_byte_identical(value: object) -> None:
    data = canonical.encode(value)
    assert canonical.decode(data) == value
    assert canonical.encode(canonical.decode(data)) == data


def test_keys_sorted_and_no_whitespace() -> None:
    assert canonical.encode({"b": 1, "a": [True, None], "é": "ü"}) == (
        '{"a":[true,null],"b":1,"é":"ü"}'.encode()
    )


@pytest.mark.parametrize(
    "data",
    [
        b'{"a": 1}',  # insignificant whitespace
        b'{"b":1,"a":2}',  # unsorted keys
        b'{"a":1,"a":1}',  # duplicate key
        b'{"a":1.5}',  # float
        b'{"a":NaN}',
        b'{"a":"\\u00e9"}',  # escaped where UTF-8 is canonical
        b"\xff",
        b"{",
    ],
)
def test_non_canonical_bytes_are_refused(data: bytes) -> None:
    with pytest.raises(FormatError):
        canonical.decode(data)


@pytest.mark.parametrize(
    "data",
    [
        b'{"a":1,"a":2}',  # the last one would win, a canonical-looking value
        b'{"a":{"b":1,"b":1},"c":2}',  # nested, and sorted as canonical bytes would be
        b'{"a":"\\ud800","a":1}',  # with a value that cannot be stored either
    ],
)
def test_a_repeated_key_is_refused_by_name(data: bytes) -> None:
    with pytest.raises(FormatError, match="repeats the key"):
        canonical.decode(data)


def test_floats_and_lone_surrogates_cannot_be_encoded() -> None:
    with pytest.raises(InputError, match="integers"):
        canonical.encode({"importance": 0.5})
    with pytest.raises(InputError, match="surrogate"):
        canonical.encode({"text": "\ud800"})


def test_sha256_hex_of_bytes() -> None:
    assert canonical.sha256_hex(b"") == (
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    )


@pytest.mark.parametrize(
    "values",
    [
        [],
        ["a" * 64],
        ["0123456789abcdef" * 4, "f" * 64],
    ],
)
def test_a_list_of_addresses_is_checked_as_each_one_is(values: list[object]) -> None:
    assert are_sha256_hex(values) and all(is_sha256_hex(v) for v in values)


@pytest.mark.parametrize(
    "values",
    [
        ["A" * 64],  # uppercase
        ["a" * 63 + "g"],
        ["a" * 63, "a" * 65],  # lengths that add up to two addresses
        ["a" * 64, 5],
        ["a" * 64, None],
        ["a" * 64 + "\n"],
    ],
)
def test_a_list_with_one_bad_address_is_refused(values: list[object]) -> None:
    assert not are_sha256_hex(values)


def test_decode_unchecked_is_decode_without_the_form_check() -> None:
    """For bytes another check found canonical it gives decode's value; it does not look
    at the form (spaces pass), and still refuses what is not JSON of integers."""
    data = canonical.encode({"b": [1, "é"], "a": None})
    assert canonical.decode_unchecked(data) == canonical.decode(data)
    spaced = b'{"a": 1}'
    with pytest.raises(FormatError):
        canonical.decode(spaced)
    assert canonical.decode_unchecked(spaced) == {"a": 1}
    for bad in (b'{"a": 1.5}', b"{", b"\xff", b'{"a": NaN}'):
        with pytest.raises(FormatError):
            canonical.decode_unchecked(bad)


@pytest.mark.parametrize(
    "data",
    [
        b'{"a":1,"b":[2,"x"]}',
        b'{"a": 1}',  # not canonical: spaces
        b'{"b":1,"a":2}',  # not canonical: key order
        b'{"a":1,"a":2}',  # a repeated key
        b'{"a":"\\ud800"}',  # a lone surrogate
    ],
)
def test_decode_as_gives_decodes_answer_from_the_value_already_read(data: bytes) -> None:
    value = canonical.decode_unchecked(data)
    try:
        expected = canonical.decode(data)
    except FormatError as e:
        with pytest.raises(FormatError) as refused:
            canonical.decode_as(data, value)
        assert str(refused.value) == str(e)
    else:
        assert canonical.decode_as(data, value) == expected


def test_bytes_over_the_limit_are_neither_written_nor_parsed() -> None:
    at_limit = {"x": "a" * (canonical.MAX_BYTES - 8)}
    assert len(canonical.encode(at_limit)) == canonical.MAX_BYTES
    over = canonical.encode(at_limit)[:-2] + b'a"}'
    with pytest.raises(FormatError, match="over the 4 MiB a record may hold"):
        canonical.decode(over)
    with pytest.raises(FormatError, match="over the 4 MiB"):
        canonical.decode_unchecked(over)
    with pytest.raises(InputError, match="would not be read back"):
        canonical.encode({"x": "a" * canonical.MAX_BYTES})
