"""The items file an agent hands to ``gitmem capture --items``: parse and validate.

A JSON list of objects: ``kind`` and ``text`` required, ``trust`` verbatim or
inferred (default inferred), ``quote`` required when verbatim, optional
``external_state`` (bool), ``evidence``, ``claims`` (list of objects),
``importance`` (integer). Unknown fields are kept as they are. Every problem is
reported with the item's position, before anything is written.

Bounds: at most :data:`MAX_BYTES` of JSON, nested at most
:data:`~gitmem.core.boundedjson.MAX_DEPTH` levels, integers of at most
:data:`MAX_INT_DIGITS` digits, and text that UTF-8 can store (no lone surrogates).
"""

from __future__ import annotations

from typing import Any

from gitmem.core import boundedjson, canonical
from gitmem.core.errors import InputError
from gitmem.core.items import KINDS, Draft, Kind, Trust

_INPUT_TRUST = (Trust.VERBATIM, Trust.INFERRED)
_SET_BY_GITMEM = ("id", "origin_session", "quote_verified", "quote_reason", "unverified_quote")
MAX_BYTES = 16 << 20
"""The largest items file accepted (16 MiB): far beyond any real capture."""
MAX_INT_DIGITS = 18
"""Integers in an items file fit in 64 bits."""


def parse_items(text: str, source: str) -> list[Draft]:
    """Parse an items file.

    Raises:
        InputError: invalid JSON, beyond the bounds above, not a list of objects, or an
            invalid item.
    """
    if len(text) > MAX_BYTES:
        raise InputError(f"{source} is larger than {MAX_BYTES >> 20} MiB")
    try:
        value = boundedjson.loads(text, max_int_digits=MAX_INT_DIGITS)
    except boundedjson.JSONLimitError as e:
        raise InputError(f"{source} is not usable: {e}") from e
    except ValueError as e:
        raise InputError(f"{source} is not valid JSON: {e}") from e
    return to_drafts(value, source)


def to_drafts(value: Any, source: str) -> list[Draft]:
    """Items already decoded from JSON, or given as fields (MCP ``remember``), checked
    exactly as an items file is.

    Raises:
        InputError: nested too deep, not a list of objects, or an invalid item.
    """
    try:
        boundedjson.check_depth(value)
    except boundedjson.JSONLimitError as e:
        raise InputError(f"{source} is not usable: {e}") from e
    if isinstance(value, dict) and isinstance(value.get("items"), list):
        value = value["items"]
    if not isinstance(value, list):
        raise InputError(f"{source} must hold a JSON list of items")
    return [_draft(entry, f"{source}: item {n}") for n, entry in enumerate(value, start=1)]


def _draft(entry: Any, where: str) -> Draft:
    if not isinstance(entry, dict):
        raise InputError(f"{where} is not a JSON object")
    kind = entry.get("kind")
    if kind not in KINDS:
        raise InputError(f"{where}: kind must be one of {', '.join(KINDS)} (got {kind!r})")
    text = entry.get("text")
    if not isinstance(text, str) or not text.strip():
        raise InputError(f"{where}: text is required")
    trust = entry.get("trust", Trust.INFERRED)
    if trust not in _INPUT_TRUST:
        raise InputError(f"{where}: trust must be verbatim or inferred (got {trust!r})")
    quote = entry.get("quote")
    if quote is not None and not isinstance(quote, str):
        raise InputError(f"{where}: quote must be a string")
    if trust == Trust.VERBATIM and not (quote and quote.strip()):
        raise InputError(f"{where}: a verbatim item needs a quote")
    reserved = [k for k in _SET_BY_GITMEM if k in entry]
    if reserved:
        raise InputError(f"{where}: {reserved[0]!r} is set by gitmem, not by the items file")
    _optional(entry, "external_state", bool, "true or false", where)
    _optional(entry, "importance", int, "an integer", where)
    claims = entry.get("claims")
    if claims is not None and not (
        isinstance(claims, list) and all(isinstance(c, dict) for c in claims)
    ):
        raise InputError(f"{where}: claims must be a list of objects")
    try:
        canonical.encode(entry)  # every field storable: no float, no lone surrogate
    except InputError as e:
        raise InputError(f"{where}: {e}") from e
    extra = {k: v for k, v in entry.items() if k not in ("kind", "text", "trust", "quote")}
    return Draft(Kind(kind), text.strip(), Trust(trust), quote or None, extra)


def _optional(entry: dict[str, Any], key: str, kind: type, what: str, where: str) -> None:
    value = entry.get(key)
    if value is None:
        return
    # bool is an int in Python; an importance of `true` is still a mistake.
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise InputError(f"{where}: {key} must be {what}")
