"""The strict schemas of the two model replies, and their parsers.

A reply is exactly one JSON object: UTF-8 without a byte order mark, JSON whitespace
around it and nothing else (no prose, no markdown fence, no second object), no
duplicate keys, no floats, NaN or Infinity (the strict decoder records use,
:func:`gitmem.core.canonical.strict_decoder`). Exactly one of these shapes, no other key:

solver::

    {"status": "answer", "answer": "<short answer>", "excerpt": "E2", "quote": "<exact>"}
    {"status": "not_found"}

support::

    {"status": "answer", "answer": "<short answer>"}
    {"status": "abstain"}

Any deviation rejects the whole reply (:class:`~gitmem.llm.OutputRejected`): the
ask's outcome is then ``unsupported_output``, never a guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from gitmem.capture.extract.schema import decode_object
from gitmem.core.canonical import is_utf8
from gitmem.llm import OutputRejected

MAX_ANSWER_CHARS = 300
MAX_QUOTE_CHARS = 1500
_EXCERPT_ID = re.compile(r"E[1-9][0-9]{0,2}")
_JSON_WHITESPACE = " \t\n\r"


@dataclass(frozen=True)
class SolverReply:
    found: bool
    answer: str | None = None
    excerpt: str | None = None
    quote: str | None = None


@dataclass(frozen=True)
class SupportReply:
    answered: bool
    answer: str | None = None


def parse_solver(raw: bytes) -> SolverReply:
    """Raises OutputRejected unless *raw* is exactly one solver reply."""
    value = _answer(raw, "not_found", ("answer", "excerpt", "quote", "status"))
    if value is None:
        return SolverReply(False)
    answer = _text(value, "answer", MAX_ANSWER_CHARS, raw)
    quote = _text(value, "quote", MAX_QUOTE_CHARS, raw)
    excerpt = value["excerpt"]
    if not isinstance(excerpt, str) or not _EXCERPT_ID.fullmatch(excerpt):
        raise OutputRejected("'excerpt' must name an excerpt such as \"E1\"", raw)
    return SolverReply(True, answer, excerpt, quote)


def parse_support(raw: bytes) -> SupportReply:
    """Raises OutputRejected unless *raw* is exactly one support reply."""
    value = _answer(raw, "abstain", ("answer", "status"))
    if value is None:
        return SupportReply(False)
    return SupportReply(True, _text(value, "answer", MAX_ANSWER_CHARS, raw))


def _answer(raw: bytes, negative: str, keys: tuple[str, ...]) -> dict[str, Any] | None:
    """The reply's object when its status is "answer" and it has exactly *keys*; None
    when its status is *negative* and it has nothing else. Raises OutputRejected."""
    value = _object(raw)
    status = value.get("status")
    if status == negative:
        _keys(value, ("status",), raw)
        return None
    if status != "answer":
        raise OutputRejected(f'\'status\' must be "answer" or "{negative}"', raw)
    _keys(value, keys, raw)
    return value


def _object(raw: bytes) -> dict[str, Any]:
    value = decode_object(raw, "reply")
    if not isinstance(value, dict):
        raise OutputRejected("the reply must be a JSON object", raw)
    return value


def _keys(value: dict[str, Any], allowed: tuple[str, ...], raw: bytes) -> None:
    keys = tuple(sorted(value))
    if keys != tuple(sorted(allowed)):
        extra = [k for k in keys if k not in allowed]
        missing = [k for k in allowed if k not in value]
        what = f"the unknown key {extra[0][:40]!r}" if extra else f"no key {missing[0]!r}"
        raise OutputRejected(f"the {value.get('status')!r} reply has {what}", raw)


def _text(value: dict[str, Any], key: str, limit: int, raw: bytes) -> str:
    text = value[key]
    if not isinstance(text, str) or not text.strip():
        raise OutputRejected(f"'{key}' must be a non-empty string", raw)
    if len(text) > limit:
        raise OutputRejected(f"'{key}' is longer than {limit} characters", raw)
    if not is_utf8(text):
        raise OutputRejected(f"'{key}' holds a lone surrogate escape", raw)
    return text
