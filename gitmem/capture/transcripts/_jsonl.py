"""Helpers shared by the JSON-based parsers: reading JSONL lines and flattening content."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from gitmem.core import boundedjson
from gitmem.core.canonical import is_utf8
from gitmem.core.errors import InputError

Record = dict[str, Any]

TEXT_PARTS = frozenset({"text", "input_text", "output_text"})
"""Content part types whose ``text`` is words someone wrote (Anthropic and OpenAI names)."""


def read_records(
    text: str, name: str, tool: str, recognise: Callable[[Record], bool]
) -> tuple[list[Record], tuple[str, ...], list[int]]:
    """The JSON object lines of *text* that *recognise* accepts, in order, one sentence
    per line skipped ("line 7 is not JSON"), and the line number of each record; *tool*
    names the host tool in errors ("Codex").

    Host tools append to these files while they run, so a torn last line (or a rare bad
    one) must not make the whole session unreadable. The rule: lines that are not JSON,
    are beyond the bounds of :mod:`gitmem.core.boundedjson` (nested too deep, an integer
    too long) or are not a record of this format, are skipped while they are fewer than
    the lines that are; otherwise the file is not this format. Blank lines are ignored.

    Raises:
        InputError: no recognised line at all, or as many bad lines as good ones; the
            sentence names the first bad line.
    """
    records: list[Record] = []
    numbers: list[int] = []
    bad: list[str] = []
    for number, line in enumerate(text.removeprefix("\ufeff").split("\n"), 1):
        if not line.strip():
            continue
        try:
            value = boundedjson.loads(line)
        except boundedjson.JSONLimitError as e:
            bad.append(f"line {number} is not usable: {e}")
            continue
        except ValueError:
            bad.append(f"line {number} is not JSON")
            continue
        if isinstance(value, dict) and recognise(value):
            records.append(value)
            numbers.append(number)
        else:
            bad.append(f"line {number} is not a {tool} record")
    if not records and not bad:
        raise InputError(f"transcript {name} is not a {tool} session: it has no records")
    if len(bad) >= len(records):
        raise InputError(f"transcript {name} is not a {tool} session: {bad[0]}")
    return records, tuple(bad), numbers


def compact_json(value: object) -> str:
    """*value* as compact JSON, non-ASCII kept readable, key order as written."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


MALFORMED_PART = "has a content part whose type is not a string"
"""What a skipped line or item says of a part whose ``type`` is a list, a number, …"""


def parts_text(parts: Iterable[object], malformed: list[bool] | None = None) -> str:
    """The text parts of a content list joined by a blank line; images and the like
    skipped, and so is a part whose ``type`` is not a string, which also appends to
    *malformed* (the caller names where it was: :data:`MALFORMED_PART`)."""
    texts = []
    for part in parts:
        if not isinstance(part, dict):
            continue
        kind = part.get("type", "text")
        if not isinstance(kind, str):
            if malformed is not None:
                malformed.append(True)
            continue
        if kind in TEXT_PARTS and isinstance(part.get("text"), str):
            texts.append(part["text"])
    return "\n\n".join(texts)


def clean(text: str) -> str:
    """*text* with lone surrogates (from ``\\ud800``-style JSON escapes) replaced by U+FFFD,
    so that every message can be stored as UTF-8."""
    if is_utf8(text):
        return text
    return "".join("\ufffd" if "\ud800" <= char <= "\udfff" else char for char in text)
