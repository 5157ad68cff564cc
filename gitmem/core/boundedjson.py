"""JSON from files gitmem does not control, decoded within bounds.

Python's :mod:`json` has three failure modes a hostile file reaches that are not a plain
``ValueError``, or not one a caller can hold: nesting deeper than the interpreter's
recursion limit raises ``RecursionError``; an integer of more than 4,300 digits raises a
``ValueError`` that is not a ``JSONDecodeError``; and a value nested a few hundred levels
deep decodes fine but breaks the first recursive function that walks it later. So every
parser of a transcript, an items file, a config or local state decodes through
:func:`loads`: nesting is bounded (:data:`MAX_DEPTH`), integers are bounded in length,
and every failure is a ``ValueError`` — a :class:`json.JSONDecodeError` or a
:class:`JSONLimitError` — that the caller turns into one line or a counted skip.
"""

from __future__ import annotations

import functools
import json
from typing import Any

MAX_DEPTH = 100
"""Deepest nesting accepted; real tool inputs and records stay under a dozen levels."""
MAX_INT_DIGITS = 4000
"""Longest integer accepted (Python itself refuses more than 4,300 digits)."""


class JSONLimitError(ValueError):
    """Valid JSON beyond a bound; the message completes "… is not usable: "."""


def loads(
    text: str | bytes,
    *,
    max_depth: int = MAX_DEPTH,
    max_int_digits: int = MAX_INT_DIGITS,
    decoder: json.JSONDecoder | None = None,
) -> Any:
    """*text* decoded, within *max_depth* levels of nesting and integers of at most
    *max_int_digits* digits. *decoder* (say, the strict one of
    :mod:`gitmem.core.canonical`) replaces the plain one; its ``parse_int`` is replaced.

    Raises:
        ValueError: not JSON (:class:`json.JSONDecodeError`, which names the line and
            column), or beyond a bound (:class:`JSONLimitError`). Never ``RecursionError``.
    """
    if isinstance(text, bytes | bytearray):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise JSONLimitError("it is not UTF-8") from e
    bounded = _bounded(decoder or _PLAIN, max_int_digits)
    try:
        value = bounded.decode(text)
    except RecursionError:
        raise JSONLimitError(f"it is nested more than {max_depth} levels deep") from None
    if _opened(text) > max_depth:
        check_depth(value, max_depth)
    return value


def check_depth(value: object, max_depth: int = MAX_DEPTH) -> None:
    """Raises JSONLimitError when *value* (decoded JSON: dicts, lists, scalars) nests
    more than *max_depth* levels deep. Walks without recursion."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        current, depth = stack.pop()
        children = (
            current.values()
            if isinstance(current, dict)
            else current
            if isinstance(current, list | tuple)
            else None
        )
        if children is None:
            continue
        if depth > max_depth:
            raise JSONLimitError(f"it is nested more than {max_depth} levels deep")
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))


_PLAIN = json.JSONDecoder()


def _opened(text: str) -> int:
    """An upper bound of the nesting depth: how many brackets open at all."""
    return text.count("[") + text.count("{")


@functools.lru_cache(maxsize=16)  # a handful of (decoder, bound) pairs, called per line
def _bounded(base: json.JSONDecoder, max_int_digits: int) -> json.JSONDecoder:
    """*base* with its ``parse_int`` bounded: made once per pair, since building a decoder
    costs more than decoding a short line (a check of stored quotes decodes every message
    of every snapshot). A decoder holds no state between calls."""
    return json.JSONDecoder(
        object_hook=base.object_hook,
        object_pairs_hook=base.object_pairs_hook,
        parse_float=base.parse_float,
        parse_constant=base.parse_constant,
        parse_int=_int_parser(max_int_digits),
        strict=base.strict,
    )


def _int_parser(max_digits: int) -> Any:
    def parse(digits: str) -> int:
        if len(digits) - digits.startswith("-") > max_digits:
            raise JSONLimitError(f"it holds an integer of more than {max_digits} digits")
        return int(digits)

    return parse
