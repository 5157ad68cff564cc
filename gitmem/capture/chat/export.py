"""Chat exports read: a Telegram Desktop JSON export, or generic chat JSON, into messages.

Two formats (described in docs/chat-import.md):

- ``telegram``: one chat's ``result.json`` from Telegram Desktop (*Export chat history*,
  format JSON): an object with ``messages[]``, each with ``type``, ``from``, ``from_id``,
  ``date`` (``date_unixtime`` in newer exports) and ``text``, a string or a list of
  entity parts (strings, and objects with a ``text``) joined as written. Service messages
  (joins, pins, calls), forwarded messages (someone else's words) and media without a
  caption are skipped and counted; a caption is read as the message's text.
- ``chat`` (``--format generic``): a JSON list of ``{"from", "date", "text"}`` objects
  (``date`` optional, ISO 8601), or an object holding it as ``messages`` with optional
  ``me``, ``id`` and ``name``.

Every error is an :class:`InputError` naming the message that does not fit.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from gitmem.capture.transcripts._jsonl import clean
from gitmem.core.errors import InputError

TELEGRAM = "telegram"
GENERIC = "chat"
FORMAT_NAMES = {"telegram": TELEGRAM, "generic": GENERIC}
"""``--format`` names → the source format a checkpoint records."""

SKIP_SERVICE = "service"
SKIP_MEDIA = "media"
SKIP_FORWARDED = "forwarded"
SKIP_EMPTY = "empty"
SKIPS = (SKIP_SERVICE, SKIP_MEDIA, SKIP_FORWARDED, SKIP_EMPTY)

_MEDIA_KEYS = (
    "photo",
    "file",
    "media_type",
    "sticker_emoji",
    "poll",
    "location_information",
    "contact_information",
    "game_information",
    "invoice_information",
)


@dataclass(frozen=True)
class ChatMessage:
    """One message someone wrote in the chat."""

    sender: str
    """Who sent it: a stable key (the export's sender id, else the name)."""
    name: str
    """The sender's name as the export shows it."""
    said_at: str | None
    """When: UTC ``YYYY-MM-DDTHH:MM:SSZ`` when the export says so, else as written."""
    text: str
    ref: str | None = None
    """The export's own id of the message."""


@dataclass(frozen=True)
class ChatExport:
    format: str
    """:data:`TELEGRAM` or :data:`GENERIC`."""
    name: str
    chat: str
    """What names this chat across exports (the session of its imports derives from it)."""
    messages: tuple[ChatMessage, ...]
    skipped: Mapping[str, int] = field(default_factory=dict)
    me: str | None = None
    """The sender key of the exporting person, when the export shows it."""

    def participants(self) -> dict[str, str]:
        """Sender key → the latest name shown for it, in order of first message."""
        found: dict[str, str] = {}
        for m in self.messages:
            found[m.sender] = m.name
        order = list(dict.fromkeys(m.sender for m in self.messages))
        return {key: found[key] for key in order}


def detect(value: Any) -> str:
    """The chat format of decoded JSON: Telegram's export has typed messages (or is a
    whole-account export, with ``chats``). Raises nothing."""
    if isinstance(value, dict) and "chats" in value and "messages" not in value:
        return TELEGRAM
    if isinstance(value, dict) and isinstance(value.get("messages"), list):
        first = next((m for m in value["messages"] if isinstance(m, dict)), None)
        if "type" in value or (first is not None and "type" in first):
            return TELEGRAM
    return GENERIC


def parse_export(data: bytes, name: str, format: str | None = None) -> ChatExport:
    """Parse the bytes of a chat export in *format* (``telegram``, ``chat``; detected
    when None).

    Raises:
        InputError: not UTF-8 JSON, or not the shape of the format (the sentence names
            the message).
    """
    try:
        value = json.loads(data.decode("utf-8").removeprefix("\ufeff"))
    except UnicodeDecodeError as e:
        raise InputError(f"chat export {name} is not UTF-8 text") from e
    except ValueError as e:
        raise InputError(f"chat export {name} is not valid JSON: {e}") from e
    except RecursionError as e:
        raise InputError(f"chat export {name} nests too deeply to be a chat export") from e
    chosen = detect(value) if format is None else format
    if chosen == TELEGRAM:
        return _telegram(value, name)
    if chosen == GENERIC:
        return _generic(value, name)
    raise InputError(f"unknown chat format {format!r}; known: {', '.join(FORMAT_NAMES)}")


def _telegram(value: Any, name: str) -> ChatExport:
    if isinstance(value, dict) and "messages" not in value and "chats" in value:
        raise InputError(
            f"{name} is a whole-account Telegram export; export one chat "
            "(Export chat history, format JSON) and import its result.json"
        )
    if not isinstance(value, dict) or not isinstance(value.get("messages"), list):
        raise InputError(f"{name} is not a Telegram chat export: it has no messages list")
    if detect(value) != TELEGRAM:
        raise InputError(
            f"{name} is not a Telegram chat export: neither the chat nor its messages have "
            'the "type" Telegram Desktop writes (for generic chat JSON: --format generic)'
        )
    skipped = dict.fromkeys(SKIPS, 0)
    messages: list[ChatMessage] = []
    for number, m in enumerate(value["messages"], 1):
        where = f"{name}: message {number}"
        if not isinstance(m, dict):
            raise InputError(f"{where} is not a JSON object")
        if m.get("type", "message") != "message":
            skipped[SKIP_SERVICE] += 1
            continue
        if m.get("forwarded_from") is not None:
            skipped[SKIP_FORWARDED] += 1
            continue
        text = _entity_text(m.get("text", ""), where)
        if not text.strip():
            skipped[SKIP_MEDIA if any(k in m for k in _MEDIA_KEYS) else SKIP_EMPTY] += 1
            continue
        who, sender = m.get("from"), m.get("from_id")
        shown = clean(who) if isinstance(who, str) and who.strip() else "Deleted Account"
        key = clean(sender) if isinstance(sender, str) and sender else shown
        messages.append(ChatMessage(key, shown, _telegram_time(m, where), clean(text), _ref(m)))
    chat = value.get("id", value.get("name"))
    title = value.get("name")
    return ChatExport(
        TELEGRAM,
        name,
        str(chat) if chat is not None else _first(messages),
        tuple(messages),
        skipped,
        _telegram_me(value.get("type"), title, messages),
    )


def _entity_text(text: Any, where: str) -> str:
    if isinstance(text, str):
        return text
    if not isinstance(text, list):
        raise InputError(f"{where} has a text that is neither a string nor a list of parts")
    parts: list[str] = []
    for part in text:
        if isinstance(part, str):
            parts.append(part)
        elif isinstance(part, dict) and isinstance(part.get("text"), str):
            parts.append(part["text"])
        else:
            raise InputError(f"{where} has a text part that is neither a string nor a text entity")
    return "".join(parts)


def _telegram_time(m: Mapping[str, Any], where: str) -> str | None:
    unix = m.get("date_unixtime")
    if isinstance(unix, str) and unix.isascii() and unix.isdigit():
        try:
            return _utc(datetime.fromtimestamp(int(unix), UTC))
        except (OverflowError, OSError, ValueError) as e:
            raise InputError(f"{where} has a date_unixtime out of range: {unix[:20]}") from e
    date = m.get("date")
    if date is None:
        return None
    return _iso(date, where)


def _telegram_me(kind: Any, title: Any, messages: list[ChatMessage]) -> str | None:
    """In a personal chat the chat is named after the other person, so the one sender
    with another name is the exporting person; saved messages have one sender only."""
    senders = {m.sender: m.name for m in messages}
    if kind == "saved_messages" and len(senders) == 1:
        return next(iter(senders))
    if kind == "personal_chat" and isinstance(title, str):
        others = [key for key, shown in senders.items() if shown != title]
        if len(others) == 1:
            return others[0]
    return None


def _generic(value: Any, name: str) -> ChatExport:
    me = chat = None
    if isinstance(value, dict) and isinstance(value.get("messages"), list):
        me, chat = value.get("me"), value.get("id", value.get("name"))
        value = value["messages"]
    if not isinstance(value, list):
        raise InputError(f"{name} is not a generic chat export: not a list of messages")
    messages: list[ChatMessage] = []
    skipped = dict.fromkeys(SKIPS, 0)
    for number, m in enumerate(value, 1):
        where = f"{name}: message {number}"
        if not isinstance(m, dict):
            raise InputError(f"{where} is not a JSON object")
        who, text = m.get("from"), m.get("text")
        if not isinstance(who, str) or not who.strip():
            raise InputError(f'{where} has no "from" string')
        if not isinstance(text, str):
            raise InputError(f'{where} has no "text" string')
        if not text.strip():
            skipped[SKIP_EMPTY] += 1
            continue
        date = m.get("date")
        said_at = None if date is None else _iso(date, where)
        messages.append(ChatMessage(clean(who), clean(who), said_at, clean(text), _ref(m)))
    if me is not None and not isinstance(me, str):
        raise InputError(f'{name}: "me" must be a participant\'s name')
    return ChatExport(
        GENERIC,
        name,
        str(chat) if chat is not None else _first(messages),
        tuple(messages),
        skipped,
        me,
    )


def _iso(date: Any, where: str) -> str:
    if not isinstance(date, str):
        raise InputError(f"{where} has a date that is not a string")
    try:
        when = datetime.fromisoformat(date.replace("Z", "+00:00"))
    except ValueError as e:
        raise InputError(f"{where} has a date that is not ISO 8601: {date[:40]!r}") from e
    # Without a zone the export wrote local time: kept as written, never guessed at.
    return date if when.tzinfo is None else _utc(when)


def _utc(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _ref(m: Mapping[str, Any]) -> str | None:
    ref = m.get("id")
    return str(ref) if isinstance(ref, int | str) and not isinstance(ref, bool) else None


def _first(messages: list[ChatMessage]) -> str:
    """A chat without an id is named by its first message (kept when the export grows)."""
    if not messages:
        return ""
    first = messages[0]
    return f"{first.sender}\0{first.said_at}\0{first.text}"
