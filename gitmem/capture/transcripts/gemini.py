"""Gemini CLI chat sessions (``~/.gemini/tmp/<project>/chats/session-*.json``, the file a
hook's ``transcript_path`` names).

Two shapes are read. The document: one JSON object ``{"sessionId", "projectHash",
"startTime", "lastUpdated", "messages": [...]}``. The log: one JSON object per line, the
first without ``messages`` (the same session fields), then one message per line (a line
that repeats a message's ``id`` replaces it where it stood). A message is ``{"id",
"timestamp", "type", "content", …}``:

* ``user``: its ``content``, a string or a list of parts whose ``text`` is kept (role
  user);
* ``gemini``: its ``content`` (role assistant), then per ``toolCalls`` entry a
  ``tool_use`` message (the tool name, a newline, its ``args`` as compact JSON) and a
  ``tool_result`` message (each ``functionResponse.response``: its ``output``, else the
  response as compact JSON).

Skipped: ``thoughts`` (the model's own reasoning), ``info``, ``warning`` and ``error``
lines (the CLI's notices to the user), token counts.
"""

from __future__ import annotations

from typing import Any

from gitmem.capture.transcripts._jsonl import Record, clean, compact_json, read_records
from gitmem.core import boundedjson
from gitmem.core.errors import InputError
from gitmem.core.transcript import Message, Transcript, host_time

FORMAT = "gemini"
TOOL = "Gemini CLI"
MESSAGE_TYPES = frozenset({"user", "gemini", "info", "warning", "error"})


def recognise(record: Record) -> bool:
    """Whether *record* is a Gemini CLI session (its first line) or one of its messages."""
    if "projectHash" in record or ({"sessionId", "messages"} <= record.keys()):
        return True
    kind = record.get("type")
    return isinstance(kind, str) and kind in MESSAGE_TYPES and {"id", "timestamp"} <= record.keys()


def parse(text: str, name: str) -> Transcript:
    """Parse a Gemini CLI session of either shape.

    Raises:
        InputError: the text is not a Gemini CLI session.
    """
    skipped: tuple[str, ...] = ()
    try:
        whole = boundedjson.loads(text.removeprefix("\ufeff"))
    except ValueError:
        whole = None
    if isinstance(whole, dict) and isinstance(whole.get("messages"), list):
        meta: Record = whole
        raw = [m for m in whole["messages"] if isinstance(m, dict)]
    elif isinstance(whole, dict) and ("messages" in whole or not recognise(whole)):
        raise InputError(f"transcript {name} is not a {TOOL} session: no list of messages")
    else:
        records, skipped, _ = read_records(text, name, TOOL, recognise)
        meta = next((r for r in records if "type" not in r), {})
        by_id: dict[object, Record] = {}
        for record in records:
            if "type" in record:
                by_id[record.get("id")] = record  # a later copy of an id replaces it
        raw = list(by_id.values())
    messages: list[Message] = []
    for message in raw:
        messages += _messages(message)
    session = meta.get("sessionId")
    own = session if isinstance(session, str) and session else None
    return Transcript.of(FORMAT, name, messages, own, skipped=skipped)


def _messages(message: Record) -> list[Message]:
    kind = message.get("type")
    when = host_time(message.get("timestamp"))
    if kind == "user":
        return _one("user", _content(message.get("content")), when)
    if kind != "gemini":
        return []
    found = _one("assistant", _content(message.get("content")), when)
    calls = message.get("toolCalls")
    for call in calls if isinstance(calls, list) else ():
        if not isinstance(call, dict):
            continue
        name = call.get("name") if isinstance(call.get("name"), str) else ""
        found += _one("tool_use", f"{name}\n{compact_json(call.get('args', {}))}", when)
        results = call.get("result")
        for result in results if isinstance(results, list) else ():
            found += _one("tool_result", _response(result), when)
    return found


def _content(content: object) -> str | None:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [
            p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)
        ]
        return "\n\n".join(texts)
    return None


def _response(result: Any) -> str | None:
    response = result.get("functionResponse", {}) if isinstance(result, dict) else None
    body = response.get("response") if isinstance(response, dict) else None
    if isinstance(body, dict) and isinstance(body.get("output"), str):
        return str(body["output"])
    return None if body is None else compact_json(body)


def _one(role: str, text: str | None, when: str | None) -> list[Message]:
    if text is None or not text.strip():
        return []
    return [Message(role, clean(text), when)]
