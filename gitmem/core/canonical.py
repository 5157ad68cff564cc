"""Canonical JSON, the byte form of every record (storage format v1).

UTF-8, object keys sorted by code point, no insignificant whitespace, no NaN or
Infinity, no floats at all (integers only where numbers are needed), no duplicate
keys. Records are hashed and signed as these exact bytes; a reader never
re-serialises a record to check it, but it does refuse bytes that are not in this
form, so that one record has exactly one byte representation.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from gitmem.core import fastjson
from gitmem.core.errors import FormatError, InputError
from gitmem.core.types import Sha256Hex

JSONValue = Any
"""A JSON value built from dict, list, str, int, bool and None."""

MAX_BYTES = 4 << 20
"""The most bytes a record or an item may hold (4 MiB: some 60,000 item addresses; a
checkpoint carrying 50 open items is ~4 KB). Bytes over it are refused unparsed and never
written: a pushed checkpoint of 134 MB naming a million addresses was parsed by every
reader into gigabytes."""


class Unread(bytes):
    """Stored bytes left unread because git's object header says they are *size*
    bytes, over the *limit* their path may hold (*what*: "a record", "a snapshot"…).

    Empty, it stands in for them wherever stored bytes go, and every check refuses it
    by :attr:`reason` before it hashes or parses anything: a pushed blob of 300 MB was
    read whole (~640 MB of memory) only to be refused for its size.
    """

    size: int
    limit: int
    what: str

    def __new__(cls, size: int, limit: int, what: str) -> Unread:
        stand_in = super().__new__(cls, b"")
        stand_in.size, stand_in.limit, stand_in.what = size, limit, what
        return stand_in

    def __reduce__(self) -> tuple[type[Unread], tuple[int, int, str]]:
        return Unread, (self.size, self.limit, self.what)

    @property
    def reason(self) -> str:
        """One sentence: how large the stored bytes are, and what they may hold."""
        limit = _amount(self.limit)
        return f"{self.size:,} bytes are stored, over the {limit} {self.what} may hold; not read"


def _amount(limit: int) -> str:
    return f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{limit >> 10} KiB"


def encode(value: JSONValue) -> bytes:
    """Return the canonical bytes of *value*.

    Raises:
        InputError: *value* holds a float, a non-string key, a lone surrogate or
            a type JSON cannot express, or its bytes would be over :data:`MAX_BYTES`.
    """
    _check_encodable(value, "$")
    data = _dumps(value)
    if len(data) > MAX_BYTES:
        raise InputError(f"{_too_large(len(data))}; it would not be read back")
    return data


def is_utf8(text: str) -> bool:
    """Whether *text* can be stored as UTF-8: it holds no lone surrogate (a JSON escape
    such as ``\\ud800`` can make one). Raises nothing."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _dumps(value: JSONValue) -> bytes:
    """The canonical bytes of *value* (built of dict, list, str, int, bool and None).

    With orjson once the process has handled enough JSON (:mod:`~gitmem.core.fastjson`):
    it gives the same bytes as :data:`_ENCODER`'s, UTF-8 encoded, for every value it can
    encode (every code point alone, key order across the planes and the integer edges are
    checked in ``tests/core/test_canonical_fast.py``), ten times faster: ~1 µs for a 4 KB
    checkpoint where the standard encoder takes ~12, and every record a ``verify`` or a
    rebuild reads is encoded again to check its form. What orjson refuses (an integer over
    64 bits, a lone surrogate, nesting deeper than 254) the standard encoder answers, or
    refuses, as it always did.
    """
    fast = fastjson.module()
    if fast is not None:
        try:
            data: bytes = fast.dumps(value, option=fast.OPT_SORT_KEYS)
            return data
        except TypeError:  # an integer over 64 bits, a lone surrogate, deep nesting…
            pass  # the standard encoder gives the bytes, or the error, as it always did
    text = _ENCODER.encode(value)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise InputError("text contains a lone surrogate, which UTF-8 cannot store") from e


def decode(data: bytes) -> JSONValue:
    """Parse canonical bytes back into a value, refusing every other byte form.

    Raises:
        FormatError: over :data:`MAX_BYTES`, not UTF-8, not JSON, a duplicate key, a
            float, or bytes that are valid JSON but not canonical.
    """
    text = _text(data)
    # Floats and constants refused; a repeated key is not (the last one wins), but then
    # the bytes cannot be canonical: the canonical form of the value has one member
    # fewer. Only then is the text read again, by a decoder that names it.
    value = _read(text)
    try:
        # json.loads already refused floats and constants and only makes string keys,
        # so the per-value checks of encode() are not needed to rebuild the bytes.
        canonical = _dumps(value)
    except InputError as e:
        _refuse_repeated_keys(text)
        raise FormatError(f"record cannot be stored canonically: {e}") from e
    if canonical != data:
        _refuse_repeated_keys(text)
        raise FormatError("record is valid JSON but not canonical JSON")
    return value


def decode_unchecked(data: bytes) -> JSONValue:
    """The value :func:`decode` gives for bytes another check already found canonical (a
    rebuild's child checks every record while this process parses them), without checking
    their form again: for any other bytes, a value :func:`decode` might refuse.

    Raises:
        FormatError: over :data:`MAX_BYTES`, not UTF-8, not JSON, a float or a constant.
    """
    return _read(_text(data))


def decode_as(data: bytes, value: JSONValue) -> JSONValue:
    """:func:`decode` of *data* when *value* is what :func:`decode_unchecked` gave for
    it: the bytes are not read again, *value* is encoded and compared with them (the same
    answer and, for bytes that are not canonical, the same error: they are decoded
    again to say which).

    Raises:
        FormatError: as :func:`decode`.
    """
    try:
        if _dumps(value) == data:
            return value
    except InputError:
        pass
    return decode(data)


def _text(data: bytes) -> str:
    if isinstance(data, Unread):
        raise FormatError(data.reason)
    if len(data) > MAX_BYTES:
        raise FormatError(f"{_too_large(len(data))}, unread")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise FormatError("record is not valid UTF-8") from e


def _read(text: str) -> JSONValue:
    """*text* as a value: floats and constants refused, a repeated key not."""
    try:
        return _NO_FLOATS.decode(text)
    except StrictJSONError as e:
        raise FormatError(f"record {e}") from e
    except (ValueError, RecursionError) as e:
        raise FormatError(f"record is not valid JSON: {e}") from e


def _refuse_repeated_keys(text: str) -> None:
    """Raise FormatError naming the first key *text* (valid JSON) repeats, if any."""
    try:
        strict_decoder().decode(text)
    except StrictJSONError as e:
        raise FormatError(f"record {e}") from e


def _too_large(size: int) -> str:
    return f"record is {size:,} bytes, over the {MAX_BYTES >> 20} MiB a record may hold"


def sha256_hex(data: bytes) -> Sha256Hex:
    """Lowercase hex SHA-256 of *data*: the address of stored bytes."""
    return Sha256Hex(hashlib.sha256(data).hexdigest())


def _check_encodable(value: JSONValue, where: str) -> None:
    if value is None or isinstance(value, bool | int | str):
        return
    if isinstance(value, float):
        raise InputError(f"{where}: numbers must be integers (canonical JSON v1 has no floats)")
    if isinstance(value, list | tuple):
        for i, v in enumerate(value):
            _check_encodable(v, f"{where}[{i}]")
        return
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise InputError(f"{where}: object keys must be strings")
            _check_encodable(v, f"{where}.{_shown_key(k)}")
        return
    raise InputError(f"{where}: {type(value).__name__} cannot be stored as JSON")


def _shown_key(key: str) -> str:
    """*key* as a path step in a message: as is when it is a short identifier, else
    quoted with its escapes (a newline in a key must not split the message)."""
    if key.isidentifier() and len(key) <= 40:
        return key
    return repr(key if len(key) <= 40 else key[:40] + "…")


class StrictJSONError(ValueError):
    """JSON that parses but breaks our rules; the message completes "the record …"."""


def strict_decoder() -> json.JSONDecoder:
    """A decoder that refuses duplicate keys, floats, NaN and Infinity (which plain
    ``json`` accepts), for records and for model replies alike."""
    return json.JSONDecoder(
        object_pairs_hook=_no_duplicates, parse_float=_no_float, parse_constant=_no_constant
    )


def _no_duplicates(pairs: list[tuple[str, JSONValue]]) -> dict[str, JSONValue]:
    result: dict[str, JSONValue] = {}
    for key, value in pairs:
        if key in result:
            shown = key if len(key) <= 40 else key[:40] + "…"
            raise StrictJSONError(f"repeats the key {shown!r}")
        result[key] = value
    return result


def _no_float(text: str) -> JSONValue:
    raise StrictJSONError(f"holds a non-integer number ({text[:20]})")


def _no_constant(text: str) -> JSONValue:
    raise StrictJSONError(f"holds {text}, which JSON does not allow")


_NO_FLOATS = json.JSONDecoder(parse_float=_no_float, parse_constant=_no_constant)
"""The decoder of :func:`decode`'s first reading (stateless: one serves every call)."""
_ENCODER = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
)
"""The canonical form's encoder (stateless too: ``json.dumps`` would build one a call)."""
