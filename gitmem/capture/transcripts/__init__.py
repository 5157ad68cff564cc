"""Host transcript formats: each parser turns a file into messages and a snapshot text.

The messages, the transcript and the snapshot encoding are in
:mod:`gitmem.core.transcript`; this package reads the hosts' files (Claude Code, Codex,
Copilot CLI, Gemini CLI, generic JSON, plain text) into them. The formats are described
in docs/transcripts.md.
"""

from __future__ import annotations

import stat
from collections.abc import Callable
from pathlib import Path

from gitmem.core.errors import InputError
from gitmem.core.transcript import (
    Transcript,
    check_format,
    parse_messages,
    plain_transcript,
    speaks,
)


class NotTranscriptError(InputError):
    """The input is not a conversation of any supported host: JSON (or a file named as
    JSON) of no known format, binary bytes, or no message of the user or the assistant.
    Capturing it would store an empty checkpoint, so it is refused (a hook logs it and
    writes nothing; ``gitmem import`` skips the file with a note)."""


def detect_format(data: bytes, name: str) -> str:
    """The format *data* is in, judged from its first few KB; ``"text"`` when unsure.

    The content decides; the extension of *name* only breaks a tie. Never raises.
    """
    from gitmem.capture.transcripts.detect import detect

    return detect(data, name)


MAX_BYTES = 256 << 20
"""The largest transcript read (256 MiB; a long agent session is a few tens of MB)."""


def load_transcript(path: Path, format: str | None = None) -> Transcript:
    """Read and parse a transcript file in *format* (detected when None).

    Raises:
        NotTranscriptError: no format was given and the file fits none
            (:func:`parse_transcript`).
        InputError: missing or unreadable file, larger than :data:`MAX_BYTES`, not UTF-8,
            an unknown format, or a forced format the file does not fit.
    """
    return parse_transcript(read_user_file(path, "transcript"), path.name, format)


def read_user_file(path: Path, what: str, unit: str = "MiB") -> bytes:
    """The bytes of the file *path* a user named as a *what* ("transcript", "chat
    export"), at most :data:`MAX_BYTES` (*unit* names a MiB in the sentence that says so).

    Raises:
        InputError: missing, a folder, not a regular file (a pipe or a device, which could
            block or never end), unreadable, or larger than :data:`MAX_BYTES`.
    """
    too_large = f"{what} {path} is larger than {MAX_BYTES >> 20} {unit}"
    try:
        mode = path.stat()
        if stat.S_ISDIR(mode.st_mode):
            raise IsADirectoryError
        if not stat.S_ISREG(mode.st_mode):
            raise InputError(f"{what} is not a regular file (a pipe or a device): {path}")
        if mode.st_size > MAX_BYTES:
            raise InputError(too_large)
        with path.open("rb") as file:
            data = file.read(MAX_BYTES + 1)  # a file that grew since: still bounded
        if len(data) > MAX_BYTES:
            raise InputError(too_large)
        return data
    except FileNotFoundError as e:
        raise InputError(f"{what} not found: {path}") from e
    except IsADirectoryError as e:
        raise InputError(f"{what} is a folder, not a file: {path}") from e
    except OSError as e:
        raise InputError(f"cannot read {what} {path}: {e.strerror or e}") from e
    except ValueError as e:  # a NUL in the path
        raise InputError(f"cannot read {what} {str(path)!r}: {e}") from e


def parse_transcript(data: bytes, name: str, format: str | None = None) -> Transcript:
    """Parse transcript bytes in *format* (detected when None).

    Raises:
        NotTranscriptError: no format was given and the bytes fit none: binary, JSON (or
            a file named ``.json`` / ``.jsonl``) of no known format, or a host's format
            its lines do not fit (see :func:`_not_text`).
        InputError: larger than :data:`MAX_BYTES`, not UTF-8, an unknown format, or bytes
            that do not fit the format given (the sentence names the first line that
            does not).
    """
    if len(data) > MAX_BYTES:
        raise InputError(f"transcript {name} is larger than {MAX_BYTES >> 20} MiB")
    parser = _parser(format) if format is not None else None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"transcript {name} is not UTF-8 text") from e
    if parser is not None:
        return parser(text, name)
    detected = detect_format(data, name)
    if detected == "text":
        detected = _not_text(data, text, name)
    try:
        return _parser(detected)(text, name)
    except NotTranscriptError:
        raise
    except InputError as e:  # no format was named, and the bytes fit none
        raise NotTranscriptError(str(e)) from e


JSON_SUFFIXES = (".json", ".jsonl")
SAMPLE_CHARS = 8192


def _not_text(data: bytes, text: str, name: str) -> str:
    """The format of a file detection calls text: ``text`` when it reads as plain text or
    markdown; else the one host format its first lines fit (read whole, the lenient
    parser decides: a few bad lines at the top do not lose a session).

    Raises:
        NotTranscriptError: binary bytes, or JSON (or a file named ``.json`` /
            ``.jsonl``) that fits no format.
    """
    head = text[:SAMPLE_CHARS].lstrip("\ufeff \t\r\n")
    if not head:
        return "text"  # blank: no conversation (:func:`conversation_gap` says so)
    shaped = head.startswith("{") or (head.startswith("[") and head[1:].lstrip()[:1] in '{["]')
    binary = "\x00" in text
    if not (shaped or binary or name.lower().endswith(JSON_SUFFIXES)):
        return "text"
    from gitmem.capture.transcripts.detect import sampled_format

    likely = sampled_format(data)
    if likely is not None:
        return likely
    if binary:
        what = "it holds binary data"
    elif shaped:
        what = "JSON of no known format, or broken JSON"
    elif _json_lines(text):
        what = "JSON of no known format"
    else:
        what = "not JSON, though named as JSON"
    raise NotTranscriptError(
        f"transcript {name} is not a transcript of any supported host: {what}"
        " (--format text stores it as plain text)"
    )


def _json_lines(text: str) -> bool:
    """Does *text* read as JSON: one value, or one a line? Raises nothing."""
    import json

    lines = [line for line in text.splitlines() if line.strip()]
    try:
        json.loads(text)
        return True
    except ValueError:
        pass
    try:
        for line in lines:
            json.loads(line)
    except ValueError:
        return False
    return bool(lines)


def conversation_gap(transcript: Transcript) -> str | None:
    """Why *transcript* is no conversation (None: it is one): no message holds words of
    the user or the assistant (:func:`~gitmem.core.transcript.speaks`), only tool calls,
    their output, system text or a host's interruption markers, or nothing at all.
    Raises nothing."""
    if any(speaks(m) for m in transcript.messages):
        return None
    if any(m.text.strip() for m in transcript.messages):
        what = (
            "no words of the user or the assistant, only tool calls, their output, "
            "system text or a host's interruption markers"
        )
    else:
        what = "no text" if transcript.format == "text" else "no message"
    return f"transcript {transcript.name} is not a conversation: it holds {what}"


def require_conversation(transcript: Transcript) -> None:
    """Refuse a transcript that is no conversation (:func:`conversation_gap`).

    Raises:
        NotTranscriptError: it is none.
    """
    gap = conversation_gap(transcript)
    if gap is not None:
        raise NotTranscriptError(gap)


def skipped_note(transcript: Transcript) -> str | None:
    """One line saying which lines a lenient parser skipped, or None when none was.
    Raises nothing."""
    skipped = transcript.skipped
    if not skipped:
        return None
    more = f" and {len(skipped) - 1} more" if len(skipped) > 1 else ""
    lines = "line" if len(skipped) == 1 else "lines"
    return f"transcript {transcript.name}: skipped {len(skipped)} bad {lines} ({skipped[0]}{more})"


def _parser(format: str) -> Callable[[str, str], Transcript]:
    check_format(format)
    if format == "claude":
        from gitmem.capture.transcripts import claude

        return claude.parse
    if format == "codex":
        from gitmem.capture.transcripts import codex

        return codex.parse
    if format == "copilot":
        from gitmem.capture.transcripts import copilot

        return copilot.parse
    if format == "gemini":
        from gitmem.capture.transcripts import gemini

        return gemini.parse
    if format == "json":
        from gitmem.capture.transcripts import generic

        return generic.parse
    if format == "messages":
        return parse_messages
    return plain_transcript
