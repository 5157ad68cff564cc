"""The strict schema a model's answer must match, and its parser.

The whole answer is exactly one JSON object ``{"items": [...]}``: UTF-8 without a
byte order mark, JSON whitespace allowed around it and nothing else (no prose, no
markdown fence), no duplicate keys, no floats, NaN or Infinity. Each item has
exactly ``kind``, ``text``, ``trust`` and ``quote``, and optionally ``importance``
and ``external_state``. Any deviation rejects the whole answer: a model that
chats instead of answering is recorded as unsupported output, never guessed at.
"""

from __future__ import annotations

import json
from typing import Any

from gitmem.core.canonical import StrictJSONError, is_utf8, strict_decoder
from gitmem.core.items import KINDS, Draft, Kind, Trust
from gitmem.llm import MAX_OUTPUT_BYTES, OutputRejected, ReplyTruncated

MAX_ITEMS = 50
MAX_TEXT_CHARS = 500
TRUST = (Trust.VERBATIM, Trust.INFERRED)
IMPORTANCE = range(0, 4)

_REQUIRED = ("kind", "text", "trust", "quote")
_OPTIONAL = ("importance", "external_state")
_JSON_WHITESPACE = " \t\n\r"

ITEMS_JSON_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["items"],
    "properties": {
        "items": {
            "type": "array",
            "maxItems": MAX_ITEMS,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": list(_REQUIRED),
                "properties": {
                    "kind": {"enum": list(KINDS)},
                    "text": {"type": "string", "minLength": 1, "maxLength": MAX_TEXT_CHARS},
                    "trust": {"enum": list(TRUST)},
                    "quote": {"type": ["string", "null"]},
                    "importance": {"type": "integer", "minimum": 0, "maximum": 3},
                    "external_state": {"type": "boolean"},
                },
            },
        }
    },
}
"""The schema as JSON Schema, for the prompt. :func:`parse_output` is the authority:
it also requires a quote on a verbatim item and a null quote on an inferred one."""

EXAMPLE_OUTPUT: dict[str, Any] = {
    "items": [
        {
            "kind": Kind.DECISION,
            "text": "Store checkpoints under refs/gitmem/memory, not in the working tree.",
            "trust": Trust.VERBATIM,
            "quote": "let's keep the checkpoints under refs/gitmem/memory",
            "importance": 2,
        },
        {
            "kind": Kind.OPEN_LOOP,
            "text": "The Windows path handling is untested.",
            "trust": Trust.INFERRED,
            "quote": None,
            "external_state": False,
        },
    ]
}


def parse_output(raw: bytes) -> list[Draft]:
    """Parse a model's answer into drafts, all or nothing.

    Raises:
        OutputRejected: (a :class:`~gitmem.llm.ModelError`) the answer is not exactly
            one JSON object in the items schema; ``raw`` is attached.
    """
    value = decode_object(raw)
    if not isinstance(value, dict):
        raise OutputRejected("the output must be a JSON object", raw)
    keys = sorted(value)
    if keys != ["items"]:
        got = ", ".join(repr(k) for k in keys[:5]) or "no keys"
        raise OutputRejected(f"the object must have exactly the key 'items' (got {got})", raw)
    items = value["items"]
    if not isinstance(items, list):
        raise OutputRejected("'items' must be a list", raw)
    if len(items) > MAX_ITEMS:
        raise OutputRejected(f"{len(items)} items is more than the limit of {MAX_ITEMS}", raw)
    return [parse_item(entry, n, raw) for n, entry in enumerate(items, start=1)]


def decode_object(raw: bytes, noun: str = "output") -> Any:
    """Decode a model reply that must be exactly one JSON object, strictly.

    Shared by every model reply gitmem reads (extraction here, the ask solver and
    support calls). *noun* names the thing in messages ("the output …", "the reply …").

    Raises:
        OutputRejected: the bytes are anything else, with the one rule they broke
            (:class:`~gitmem.llm.ReplyTruncated` when they end inside the object).
    """
    # Each check names what is wrong, so the one-line error tells the user which
    # rule the model broke (fence, prose, truncation) rather than a parser position.
    the = f"the {noun}"
    if len(raw) > MAX_OUTPUT_BYTES:
        raise OutputRejected(f"{the} is larger than {MAX_OUTPUT_BYTES} bytes", raw)
    if raw.startswith(b"\xef\xbb\xbf"):
        raise OutputRejected(f"{the} starts with a byte order mark", raw)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise OutputRejected(f"{the} is not UTF-8 (byte {e.start})", raw) from e
    body = text.strip(_JSON_WHITESPACE)
    if not body:
        raise OutputRejected(f"{the} is empty", raw)
    if body.startswith("```"):
        raise OutputRejected(f"{the} is wrapped in a markdown code fence", raw)
    if not body.startswith("{"):
        raise OutputRejected(f"{the} must start with '{{' (it starts with text)", raw)
    try:
        value, end = strict_decoder().raw_decode(body)
    except StrictJSONError as e:
        raise OutputRejected(f"{the} {e}", raw) from e
    except json.JSONDecodeError as e:
        if e.pos >= len(body) or e.msg.startswith("Unterminated string"):
            raise ReplyTruncated(f"{the} is cut off before the JSON object ends", raw) from e
        raise OutputRejected(f"{the} is not valid JSON: {e.msg} at char {e.pos}", raw) from e
    except ValueError as e:  # an integer past Python's digit limit
        raise OutputRejected(f"{the} holds a number too large to read", raw) from e
    except RecursionError as e:
        raise OutputRejected(f"{the} nests too deeply", raw) from e
    if end != len(body):
        raise OutputRejected(f"{the} has more text after the JSON object", raw)
    return value


def parse_item(entry: Any, n: int, raw: bytes, also: tuple[str, ...] = ()) -> Draft:
    """Item *n* of a model's answer, checked against the items schema; the keys *also*
    are allowed besides the schema's (a caller with a wider schema checks them itself).

    Raises:
        OutputRejected: the item breaks the schema; ``raw`` is attached.
    """
    where = f"item {n}"
    if not isinstance(entry, dict):
        raise OutputRejected(f"{where} is not a JSON object", raw)
    for key in entry:
        if key not in _REQUIRED and key not in _OPTIONAL and key not in also:
            raise OutputRejected(f"{where} has the unknown key {_short(key)}", raw)
    for key in _REQUIRED:
        if key not in entry:
            raise OutputRejected(f"{where} is missing the key '{key}'", raw)
    kind, text, trust, quote = (entry[k] for k in _REQUIRED)
    if kind not in KINDS:
        raise OutputRejected(f"{where}: kind must be one of {', '.join(KINDS)}", raw)
    if not isinstance(text, str) or not text.strip():
        raise OutputRejected(f"{where}: text must be a non-empty string", raw)
    if len(text.strip()) > MAX_TEXT_CHARS:
        raise OutputRejected(f"{where}: text is longer than {MAX_TEXT_CHARS} characters", raw)
    if trust not in TRUST:
        raise OutputRejected(f"{where}: trust must be verbatim or inferred", raw)
    if trust == Trust.VERBATIM and not (isinstance(quote, str) and quote.strip()):
        raise OutputRejected(f"{where}: a verbatim item needs a non-empty quote string", raw)
    if trust == Trust.INFERRED and quote is not None:
        raise OutputRejected(f"{where}: an inferred item must have quote null", raw)
    for label, value in (("text", text), ("quote", quote)):
        if isinstance(value, str) and not is_utf8(value):
            raise OutputRejected(f"{where}: {label} holds a lone surrogate escape", raw)
    extra: dict[str, Any] = {}
    if "importance" in entry:
        importance = entry["importance"]
        # bool is an int in Python; an importance of `true` is still a mistake.
        if isinstance(importance, bool) or not isinstance(importance, int):
            raise OutputRejected(f"{where}: importance must be an integer 0-3", raw)
        if importance not in IMPORTANCE:
            raise OutputRejected(f"{where}: importance must be an integer 0-3", raw)
        extra["importance"] = importance
    if "external_state" in entry:
        if not isinstance(entry["external_state"], bool):
            raise OutputRejected(f"{where}: external_state must be true or false", raw)
        extra["external_state"] = entry["external_state"]
    return Draft(Kind(kind), text.strip(), Trust(trust), quote, extra)


def _short(key: str) -> str:
    return repr(key if len(key) <= 40 else key[:40] + "…")
