"""A generic JSON transcript: one top-level list of ``{"role", "content"}`` messages.

``content`` is a string, or a list of parts of which those with a ``text`` (type
``text``, ``input_text`` or ``output_text``) are joined by a blank line; other parts
(images) are skipped, and so is a message with no text at all (``"content": null``). A
part whose ``type`` is not a string is skipped and named in the transcript's skipped
lines (a warning), as the JSONL parsers do.
Other keys of a message are ignored.
"""

from __future__ import annotations

import json

from gitmem.capture.transcripts._jsonl import MALFORMED_PART, clean, parts_text
from gitmem.core import boundedjson
from gitmem.core.errors import InputError
from gitmem.core.transcript import Message, Transcript

FORMAT = "json"


def parse(text: str, name: str) -> Transcript:
    """Parse a JSON list of messages.

    Raises:
        InputError: not JSON, beyond the bounds of :mod:`gitmem.core.boundedjson` (nested
            too deep, an integer too long), not a list, or an item that is not a
            ``{role, content}`` object (the sentence names the line or the item).
    """
    try:
        value = boundedjson.loads(text.removeprefix("\ufeff"))
    except json.JSONDecodeError as e:
        raise InputError(
            f"transcript {name} is not valid JSON: line {e.lineno} column {e.colno}: {e.msg}"
        ) from e
    except ValueError as e:
        raise InputError(f"transcript {name} is not usable: {e}") from e
    if not isinstance(value, list):
        raise InputError(f"transcript {name} is not a JSON list of messages")
    messages: list[Message] = []
    skipped: list[str] = []
    for number, item in enumerate(value, 1):
        where = f"transcript {name} is not a JSON list of messages: item {number}"
        if not isinstance(item, dict) or not isinstance(item.get("role"), str):
            raise InputError(f'{where} is not an object with a string "role"')
        if "content" not in item:
            raise InputError(f'{where} has no "content"')
        content = item.get("content")
        if isinstance(content, str):
            body = content
        elif isinstance(content, list):
            malformed: list[bool] = []
            body = parts_text(content, malformed)
            if malformed:
                skipped.append(f"item {number} {MALFORMED_PART}")
        elif content is None:
            body = ""
        else:
            raise InputError(f'{where} has a "content" that is neither a string nor a list')
        if body.strip():
            messages.append(Message(clean(item["role"]), clean(body)))
    return Transcript.of(FORMAT, name, messages, skipped=skipped)
