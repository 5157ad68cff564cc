"""gitmem's own ``messages`` encoding: the snapshot of every structured transcript.

One canonical JSON object per line, ``{"role":…,"text":…}`` (keys sorted, no spaces,
non-ASCII as is, ``\\n`` after each line). JSON escapes every newline inside a string, so
one line is always one message, and parsing the encoding gives back exactly the messages
it was rendered from: a quote is re-verified later with the same message boundaries.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from gitmem.errors import InputError
from gitmem.transcripts import Message, Transcript

FORMAT = "messages"


def render(messages: Sequence[Message]) -> str:
    """The ``messages`` encoding of *messages*."""
    return "".join(
        json.dumps(
            {"role": m.role, "text": m.text},
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=False,
        )
        + "\n"
        for m in messages
    )


def parse(text: str, name: str) -> Transcript:
    """Parse the ``messages`` encoding. Strict: it is gitmem's own format, so every line
    must be a ``{role, text}`` object; an empty text is zero messages.

    Raises:
        InputError: a line that is not such an object (the sentence names it).
    """
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    messages = tuple(_message(line, name, number) for number, line in enumerate(lines, 1))
    return Transcript(FORMAT, name, messages, render(messages))


def _message(line: str, name: str, number: int) -> Message:
    where = f"transcript {name} is not in gitmem's messages encoding: line {number}"
    try:
        value = json.loads(line)
    except ValueError as e:
        raise InputError(f"{where} is not JSON") from e
    if not isinstance(value, dict) or value.keys() != {"role", "text"}:
        raise InputError(f'{where} is not an object with exactly "role" and "text"')
    role, text = value["role"], value["text"]
    if not (role is None or isinstance(role, str)):
        raise InputError(f"{where} has a role that is neither a string nor null")
    if not isinstance(text, str):
        raise InputError(f"{where} has a text that is not a string")
    return Message(role, text)
