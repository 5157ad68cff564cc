"""Plain text and markdown transcripts: the whole file is one message."""

from __future__ import annotations

from gitmem.transcripts import Message, Transcript


def parse(text: str, name: str) -> Transcript:
    """A plain transcript has no message boundaries: one message, stored as written."""
    return Transcript(format="text", name=name, messages=(Message(None, text),), snapshot=text)
