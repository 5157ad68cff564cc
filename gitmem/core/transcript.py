"""Transcripts as gitmem keeps them: messages, and the snapshot they are stored as.

A quote must lie inside one message, so every parser keeps message boundaries. The
snapshot is the text stored (by hash) beside a checkpoint, from which every quote can be
checked again later: for a plain transcript it is the text itself; for every structured
format it is gitmem's own ``messages`` encoding — one canonical JSON object per line,
``{"role":…,"text":…}`` (keys sorted, no spaces, non-ASCII as is, ``\\n`` after each
line). JSON escapes every newline inside a string, so one line is always one message, and
:func:`parse_snapshot` gives back exactly the messages a snapshot was rendered from.

The host formats (Claude Code, Codex, generic JSON) are parsed in
:mod:`gitmem.capture.transcripts`; this module only knows the two stored forms.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from gitmem.core import boundedjson
from gitmem.core.canonical import is_utf8
from gitmem.core.errors import InputError

FORMATS = ("text", "claude", "codex", "copilot", "gemini", "json", "messages")
"""Every transcript format a capture accepts."""
CHAT_FORMATS = ("telegram", "chat")
"""The chat exports ``gitmem import-chat`` reads (a Telegram Desktop export, generic chat
JSON); a checkpoint names one as its source format, and its snapshot is, as for every
structured format, in the ``messages`` encoding (each message's role is its voice)."""
MESSAGES = "messages"
"""gitmem's own encoding, the snapshot format of every structured transcript."""
ANSWER = "answer"
"""The role of what the user answered through a host's question or plan tool (Claude
Code's ``AskUserQuestion``, ``ExitPlanMode``): the user's own choice, not tool output."""


NOT_SAID = ("tool", "function", "system", "developer")
"""Messages whose role starts with one of these are not the session's own words: tool
calls and their output (files, logs, test runs written by neither participant), and the
host's standing instructions. A quote of them is not a quote of what was said."""


def said(role: str | None) -> bool:
    """Whether a message of *role* holds the session's own words (:data:`NOT_SAID`).
    Raises nothing."""
    return not (role or "").casefold().startswith(NOT_SAID)


HOST_MARKER_RE = re.compile(
    r"\[Request interrupted by user[^\]\n]{0,80}\]|<turn_aborted>.*?(?:</turn_aborted>|\Z)",
    re.DOTALL,
)
"""What a host writes into the user's turn when the user stops a reply: Claude Code's
"[Request interrupted by user]" ("… for tool use]"), Codex's ``<turn_aborted>`` block
("The user interrupted the previous turn on purpose"). Nobody said it, wherever it
stands: a "user" message of its own in a host's file, or a line of a markdown
transcript written by hand."""
HOST_MARKER_STARTS = ("[Request interrupted by user", "<turn_aborted>")
"""How each host marker (:data:`HOST_MARKER_RE`) begins."""


def said_text(message: Message) -> str:
    """The text of *message* as the session's own words: empty for a role nobody speaks
    in (:func:`said`); else its text with each host marker (:data:`HOST_MARKER_RE`)
    covered by NUL characters of its length, so that offsets still name the message's
    own text and no quote matches in a marker or across one. Raises nothing."""
    if not said(message.role):
        return ""
    text = message.text
    if not any(start in text for start in HOST_MARKER_STARTS):
        return text
    return HOST_MARKER_RE.sub(lambda found: "\0" * len(found.group()), text)


def speaks(message: Message) -> bool:
    """Does *message* hold any of the session's own words (:func:`said_text`), not only
    tool output, instructions or host markers? Raises nothing."""
    return bool(said_text(message).replace("\0", "").strip())


@dataclass(frozen=True)
class Message:
    role: str | None
    """"user", "assistant", "answer", "tool_use", "tool_result", "system", … (None for
    plain text)."""
    text: str
    time: str | None = field(default=None, compare=False)
    """When the host says the message was written (:func:`host_time`'s form), when its
    format says; never part of the snapshot."""
    progress: bool = field(default=False, compare=False)
    """The host marks this reply as a progress note written while the turn runs, not the
    answer that closes it (Codex's ``"phase": "commentary"``); never part of the snapshot."""


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
    agent: str | None = None
    """Set when the transcript is a side run of a session (a Claude Code subagent or
    compaction, ``…/<session>/subagents/agent-<id>.jsonl``): ``agent-<id>``. ``session``
    is then the parent's id, which the side run shares."""
    skipped: tuple[str, ...] = ()
    """One sentence per line a lenient parser skipped ("line 7 is not JSON"), in order."""

    @classmethod
    def of(
        cls,
        format: str,
        name: str,
        messages: Sequence[Message],
        session: str | None = None,
        cwd: str | None = None,
        agent: str | None = None,
        skipped: Sequence[str] = (),
    ) -> Transcript:
        """The transcript of *messages* parsed from *format*, its snapshot rendered from
        them (:func:`render_snapshot`; the one place a parsed transcript gets its
        snapshot).

        Raises:
            InputError: an unknown format.
        """
        snapshot = render_snapshot(format, messages)
        return cls(format, name, tuple(messages), snapshot, session, cwd, agent, tuple(skipped))

    def texts(self) -> list[str]:
        return [m.text for m in self.messages]

    @property
    def last_time(self) -> str | None:
        """The host's time of its latest message (None when its format gives none)."""
        return max((m.time for m in self.messages if m.time), default=None)

    @property
    def own_session(self) -> str | None:
        """The session this transcript is: its ``session``, or for a side run
        ``<parent session>/<agent>``, so that a subagent or compaction file is a session of
        its own rather than more of its parent. None when the format names no session."""
        if self.session and self.agent:
            return f"{self.session}/{self.agent}"
        return self.session

    def with_messages(self, messages: Sequence[Message]) -> Transcript:
        """The same transcript with new messages (say, secret-masked), snapshot re-rendered.

        Never raises for a transcript of one of :data:`FORMATS`.
        """
        return replace(
            self, messages=tuple(messages), snapshot=render_snapshot(self.format, messages)
        )


def host_time(value: object) -> str | None:
    """A host's timestamp (ISO 8601 with a zone, ``Z`` included, or Unix seconds) in the
    fixed-width UTC form records use (``2026-01-02T03:04:05.000000Z``); None for anything
    else, a time without a zone included. Raises nothing."""
    try:
        if isinstance(value, int | float) and not isinstance(value, bool):
            when = datetime.fromtimestamp(value, UTC)
        elif isinstance(value, str) and 10 <= len(value) <= 40:
            when = datetime.fromisoformat(value.strip())
            if when.tzinfo is None:
                return None
        else:
            return None
        return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    except (ValueError, OverflowError, OSError):
        return None


def check_format(format: str) -> None:
    """Raises InputError unless *format* is one of :data:`FORMATS`."""
    if format not in FORMATS:
        raise InputError(f"unknown transcript format {format!r}; known: {', '.join(FORMATS)}")


def snapshot_format(format: str) -> str:
    """The format the snapshot of a *format* transcript (or chat export) is stored in:
    ``"text"`` for text, ``"messages"`` for every structured format.

    Raises:
        InputError: an unknown format.
    """
    if format not in CHAT_FORMATS:
        check_format(format)
    return "text" if format == "text" else MESSAGES


def render_snapshot(format: str, messages: Sequence[Message]) -> str:
    """The snapshot text for *messages* parsed from *format*.

    ``text``: the message texts themselves (a plain transcript has one message). Every
    structured format: the ``messages`` encoding, one canonical JSON object per line.

    Raises:
        InputError: an unknown format.
    """
    if snapshot_format(format) == "text":
        return "\n\n".join(m.text for m in messages)
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


def plain_transcript(text: str, name: str) -> Transcript:
    """A plain transcript has no message boundaries: one message, stored as written."""
    return Transcript(format="text", name=name, messages=(Message(None, text),), snapshot=text)


def parse_snapshot(data: bytes, name: str, format: str) -> Transcript:
    """Parse a stored snapshot, given the format its checkpoint names (a transcript
    format or a chat export's; the snapshot of a structured one is in the ``messages``
    encoding).

    Raises:
        InputError: an unknown format, bytes that are not UTF-8, or a ``messages``
            snapshot with a line that is not a ``{role, text}`` object.
    """
    stored_as = snapshot_format(format)
    text = _utf8(data, name)
    if stored_as == "text":
        return plain_transcript(text, name)
    return parse_messages(text, name)


def snapshot_texts(data: bytes, name: str, format: str) -> list[str]:
    """``parse_snapshot(data, name, format).texts()``, without rendering a snapshot of
    what was parsed (a check of stored quotes reads the texts of every snapshot of a
    store, and never the rendering).

    Raises:
        InputError: as :func:`parse_snapshot`.
    """
    stored_as = snapshot_format(format)
    text = _utf8(data, name)
    if stored_as == "text":
        return [text]
    return [message.text for message in _messages(text, name)]


def _utf8(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"transcript {name} is not UTF-8 text") from e


def parse_messages(text: str, name: str) -> Transcript:
    """Parse the ``messages`` encoding. Strict: it is gitmem's own format, so every line
    must be a ``{role, text}`` object; an empty text is zero messages.

    Raises:
        InputError: a line that is not such an object (the sentence names it).
    """
    return Transcript.of(MESSAGES, name, _messages(text, name))


def _messages(text: str, name: str) -> list[Message]:
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    return [_message(line, name, n) for n, line in enumerate(lines, 1)]


def _message(line: str, name: str, number: int) -> Message:
    where = f"transcript {name} is not in gitmem's messages encoding: line {number}"
    try:
        value = boundedjson.loads(line)
    except boundedjson.JSONLimitError as e:
        raise InputError(f"{where} is not usable: {e}") from e
    except ValueError as e:
        raise InputError(f"{where} is not JSON") from e
    if not isinstance(value, dict) or value.keys() != {"role", "text"}:
        raise InputError(f'{where} is not an object with exactly "role" and "text"')
    role, text = value["role"], value["text"]
    if not (role is None or isinstance(role, str)):
        raise InputError(f"{where} has a role that is neither a string nor null")
    if not isinstance(text, str):
        raise InputError(f"{where} has a text that is not a string")
    if not (is_utf8(text) and (role is None or is_utf8(role))):
        raise InputError(f"{where} holds a lone surrogate, which UTF-8 cannot store")
    return Message(role, text)
