"""Which format a transcript is in, judged from its first few KB.

The content decides. A JSON list whose first item has ``role`` and ``content`` is
``json``. A JSON object whose first members include ``projectHash``, or both
``sessionId`` and ``messages``, or whose ``messages`` open with a Gemini CLI message (the
document's members in another order, as an Entire checkpoint stores it), is a Gemini CLI
session (``gemini``, one document or its log's first line). Otherwise the first few
non-blank lines are read as JSON objects and each is classified by its keys
(``messages``, ``claude``, ``codex`` or ``copilot``); the file is in a format when some
sampled line is, none is in another, and the lines that are not JSON objects are
fewer than those that are classified. Anything else is ``text``. A line longer than the
sample is judged by the keys that do fit in it (a Codex ``session_meta`` line can run to
tens of KB). The file name breaks one tie only: an empty list ``[]`` is ``json`` when the
name ends in ``.json``, else ``text``.
"""

from __future__ import annotations

import json
from typing import Any

from gitmem.capture.transcripts import claude, codex, copilot, gemini
from gitmem.core import boundedjson

SAMPLE_BYTES = 8192
SAMPLE_LINES = 5

_DECODER = json.JSONDecoder()
_SPACE = " \t\r\n"


def detect(data: bytes, name: str) -> str:
    """The format of *data*; ``"text"`` when no structured format fits. Never raises."""
    truncated = len(data) > SAMPLE_BYTES
    head = data[:SAMPLE_BYTES].decode("utf-8", "replace").lstrip("\ufeff" + _SPACE)
    if head.startswith("["):
        return _detect_list(head, name)
    if head.startswith("{"):
        first = _object_prefix(head, 0, first_items=True)
        if first is not None and "type" not in first and _gemini_document(first):
            return "gemini"
        return _detect_lines(head, truncated)
    return "text"


def sampled_format(data: bytes) -> str | None:
    """The one structured format that some of the first lines of *data* fit, when no
    sampled line fits another (None: none does). A file :func:`detect` calls text for
    its bad lines may still be that format read whole, as its lenient parser reads it.
    Never raises."""
    truncated = len(data) > SAMPLE_BYTES
    head = data[:SAMPLE_BYTES].decode("utf-8", "replace").lstrip("\ufeff" + _SPACE)
    found, _, _ = _sample_lines(head, truncated)
    return next(iter(found)) if len(found) == 1 else None


def _gemini_document(members: dict[str, Any]) -> bool:
    """Whether the first *members* of a JSON object are a Gemini CLI session's: its ids, or a
    ``messages`` list whose first item (as far as the sample goes) is a Gemini CLI message,
    whatever order the members come in (a long ``messages`` before the ids)."""
    if gemini.recognise(members):
        return True
    messages = members.get("messages")
    if not isinstance(messages, list) or not messages or not isinstance(messages[0], dict):
        return False
    item = messages[0]
    return item.get("type") in gemini.MESSAGE_TYPES and {"id", "timestamp"} <= item.keys()


def _detect_list(head: str, name: str) -> str:
    index = _skip_space(head, 1)
    if head.startswith("]", index):
        return "json" if name.lower().endswith(".json") else "text"
    if not head.startswith("{", index):
        return "text"
    first = _object_prefix(head, index)
    return "json" if first is not None and {"role", "content"} <= first.keys() else "text"


def _detect_lines(head: str, truncated: bool) -> str:
    found, classified, bad = _sample_lines(head, truncated)
    if len(found) == 1 and bad < classified:
        return found.pop()
    return "text"


def _sample_lines(head: str, truncated: bool) -> tuple[set[str], int, int]:
    """The formats the first few lines of *head* fit, how many lines fit one, and how
    many are not JSON objects."""
    lines = [line for line in head.split("\n") if line.strip()]
    sample = lines[:SAMPLE_LINES]
    found: set[str] = set()
    classified = bad = 0
    for number, line in enumerate(sample):
        record: dict[str, Any] | None
        if truncated and number == len(lines) - 1:
            record = _object_prefix(line, _skip_space(line, 0))  # cut short by the sample
        else:
            try:
                value = boundedjson.loads(line)
            except ValueError:
                value = None
            record = value if isinstance(value, dict) else None
        if record is None:
            bad += 1
            continue
        format = _classify(record)
        if format is not None:
            found.add(format)
            classified += 1
    return found, classified, bad


def _classify(record: dict[str, Any]) -> str | None:
    if record.keys() == {"role", "text"}:
        return "messages"
    if claude.recognise(record):
        return "claude"
    if codex.recognise(record):
        return "codex"
    if copilot.recognise(record):
        return "copilot"
    if gemini.recognise(record):
        return "gemini"
    return None


def _object_prefix(text: str, index: int, first_items: bool = False) -> dict[str, Any] | None:
    """The members of the JSON object starting at *index* that fit in *text*.

    A member whose value is cut off is kept with an empty value of its kind (``{}``,
    ``[]``, ``""``), so that its key still counts; with *first_items*, a cut-off list
    keeps the members of its first item when that is an object. None when the text is
    not the start of a JSON object.
    """
    if not text.startswith("{", index):
        return None
    members: dict[str, Any] = {}
    index = _skip_space(text, index + 1)
    while index < len(text) and text[index] != "}":
        try:
            key, index = _raw_decode(text, index)
        except ValueError:
            return members  # the key itself is cut off
        if not isinstance(key, str):
            return None
        index = _skip_space(text, index)
        if index >= len(text):
            return members
        if text[index] != ":":
            return None
        index = _skip_space(text, index + 1)
        try:
            members[key], index = _raw_decode(text, index)
        except ValueError:
            members[key] = {"{": {}, "[": [], '"': ""}.get(text[index : index + 1])
            if first_items and text.startswith("[", index):
                item = _object_prefix(text, _skip_space(text, index + 1))
                members[key] = [] if item is None else [item]
            return members
        index = _skip_space(text, index)
        if text.startswith(",", index):
            index = _skip_space(text, index + 1)
        elif index < len(text) and text[index] != "}":
            return None
    return members


def _raw_decode(text: str, index: int) -> tuple[Any, int]:
    """One JSON value at *index* and where it ends; ValueError when there is none (a
    value nested past the recursion limit included)."""
    try:
        return _DECODER.raw_decode(text, index)
    except RecursionError:
        raise ValueError("nested too deep") from None


def _skip_space(text: str, index: int) -> int:
    while index < len(text) and text[index] in _SPACE:
        index += 1
    return index
