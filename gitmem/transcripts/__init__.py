"""Transcript formats: each parser turns a file into messages and a snapshot text.

A quote must lie inside one message, so parsers keep message boundaries. The
snapshot is the text stored (by hash) beside the checkpoint, from which every
quote can be checked again later: for a plain transcript it is the text itself;
for every structured format it is gitmem's own ``messages`` encoding, which
parses back to exactly the same messages. The formats are described in
docs/transcripts.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from gitmem.errors import InputError

FORMATS = ("text", "claude", "codex", "json", "messages")


@dataclass(frozen=True)
class Message:
    role: str | None
    """"user", "assistant", "tool_use", "tool_result", "system", … (None for plain text)."""
    text: str


@dataclass(frozen=True)
class Transcript:
    format: str
    """The format the transcript was parsed from (one of :data:`FORMATS`)."""
    name: str
    messages: tuple[Message, ...]
    snapshot: str
    """The text stored as the snapshot (what quotes are verified against)."""
    session: str | None = None
    """The session id the transcript itself names, when its format has one."""
    cwd: str | None = None
    """The working directory the transcript itself names, when its format has one."""

    def texts(self) -> list[str]:
        return [m.text for m in self.messages]

    def with_messages(self, messages: Sequence[Message]) -> Transcript:
        """The same transcript with new messages (say, secret-masked), snapshot re-rendered.

        Never raises for a transcript of one of :data:`FORMATS`.
        """
        return replace(
            self, messages=tuple(messages), snapshot=render_snapshot(self.format, messages)
        )


def detect_format(data: bytes, name: str) -> str:
    """The format *data* is in, judged from its first few KB; ``"text"`` when unsure.

    The content decides; the extension of *name* only breaks a tie. Never raises.
    """
    from gitmem.transcripts.detect import detect

    return detect(data, name)


def load_transcript(path: Path, format: str | None = None) -> Transcript:
    """Read and parse a transcript file in *format* (detected when None).

    Raises:
        InputError: missing or unreadable file, not UTF-8, an unknown format, or a forced
            format the file does not fit.
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
        InputError: not UTF-8, an unknown format, or bytes that do not fit the format
            (the sentence names the first line that does not).
    """
    parser = _parser(format) if format is not None else None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"transcript {name} is not UTF-8 text") from e
    if parser is None:
        parser = _parser(detect_format(data, name))
    return parser(text, name)


def render_snapshot(format: str, messages: Sequence[Message]) -> str:
    """The snapshot text for *messages* parsed from *format*.

    ``text``: the message texts themselves (a plain transcript has one message). Every
    structured format: the ``messages`` encoding, one canonical JSON object per line.

    Raises:
        InputError: an unknown format.
    """
    if snapshot_format(format) == "text":
        return "\n\n".join(m.text for m in messages)
    from gitmem.transcripts.snapshot import render

    return render(messages)


def snapshot_format(format: str) -> str:
    """The format the snapshot of a *format* transcript is stored in: ``"text"`` for
    text, ``"messages"`` for every structured format.

    Raises:
        InputError: an unknown format.
    """
    _check_format(format)
    return "text" if format == "text" else "messages"


def _check_format(format: str) -> None:
    if format not in FORMATS:
        raise InputError(f"unknown transcript format {format!r}; known: {', '.join(FORMATS)}")


def _parser(format: str) -> Callable[[str, str], Transcript]:
    _check_format(format)
    if format == "claude":
        from gitmem.transcripts import claude

        return claude.parse
    if format == "codex":
        from gitmem.transcripts import codex

        return codex.parse
    if format == "json":
        from gitmem.transcripts import generic

        return generic.parse
    if format == "messages":
        from gitmem.transcripts import snapshot

        return snapshot.parse
    from gitmem.transcripts import plain

    return plain.parse
