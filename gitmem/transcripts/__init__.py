"""Transcript formats: each parser turns a file into messages and a snapshot text.

A quote must lie inside one message, so parsers keep message boundaries. The
snapshot is the text stored (by hash) beside the checkpoint, from which every
quote can be checked again later.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gitmem.errors import InputError

FORMATS = ("text",)


@dataclass(frozen=True)
class Message:
    role: str | None
    text: str


@dataclass(frozen=True)
class Transcript:
    format: str
    name: str
    messages: tuple[Message, ...]
    snapshot: str
    """The text stored as the snapshot (what quotes are verified against)."""
    session: str | None = None
    """The session id the transcript itself names, when its format has one."""

    def texts(self) -> list[str]:
        return [m.text for m in self.messages]


def load_transcript(path: Path, format: str | None = None) -> Transcript:
    """Read and parse a transcript file.

    Raises:
        InputError: missing or unreadable file, not UTF-8, or an unknown format.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError as e:
        raise InputError(f"transcript not found: {path}") from e
    except IsADirectoryError as e:
        raise InputError(f"transcript is a folder, not a file: {path}") from e
    except OSError as e:
        raise InputError(f"cannot read transcript {path}: {e.strerror or e}") from e
    return parse_transcript(data, path.name, format)


def parse_transcript(data: bytes, name: str, format: str | None = None) -> Transcript:
    """Parse transcript bytes in *format* (detected when None).

    Raises:
        InputError: not UTF-8, or an unknown format.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"transcript {name} is not UTF-8 text") from e
    chosen = format or "text"
    if chosen not in FORMATS:
        raise InputError(f"unknown transcript format {chosen!r}; known: {', '.join(FORMATS)}")
    from gitmem.transcripts import plain

    return plain.parse(text, name)
