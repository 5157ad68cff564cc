"""Host transcript formats: each parser turns a file into messages and a snapshot text.

The messages, the transcript and the snapshot encoding are in
:mod:`gitmem.core.transcript`; this package reads the hosts' files (Claude Code, Codex,
Copilot CLI, Gemini CLI, generic JSON, plain text) into them. The formats are described
in docs/transcripts.md.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from gitmem.core.errors import InputError
from gitmem.core.transcript import Transcript, check_format, parse_messages, plain_transcript


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
        InputError: missing or unreadable file, larger than :data:`MAX_BYTES`, not UTF-8,
            an unknown format, or a forced format the file does not fit.
    """
    return parse_transcript(read_user_file(path, "transcript"), path.name, format)


def read_user_file(path: Path, what: str, unit: str = "MiB") -> bytes:
    """The bytes of the file *path* a user named as a *what* ("transcript", "chat
    export"), at most :data:`MAX_BYTES` (*unit* names a MiB in the sentence that says so).

    Raises:
        InputError: missing, a folder, unreadable, or larger than :data:`MAX_BYTES`.
    """
    try:
        if path.stat().st_size > MAX_BYTES:
            raise InputError(f"{what} {path} is larger than {MAX_BYTES >> 20} {unit}")
        return path.read_bytes()
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
        InputError: larger than :data:`MAX_BYTES`, not UTF-8, an unknown format, or bytes
            that do not fit the format (the sentence names the first line that does not).
    """
    if len(data) > MAX_BYTES:
        raise InputError(f"transcript {name} is larger than {MAX_BYTES >> 20} MiB")
    parser = _parser(format) if format is not None else None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"transcript {name} is not UTF-8 text") from e
    if parser is None:
        parser = _parser(detect_format(data, name))
    return parser(text, name)


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
