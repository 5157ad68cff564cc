"""Gemini CLI chat sessions (``~/.gemini/tmp/<project>/chats/session-*.json`` or
``.jsonl``, the file a hook's ``transcript_path`` names).

Two shapes are read. The document (releases before the log): one JSON object
``{"sessionId", "projectHash", "startTime", "lastUpdated", "messages": [...]}``. The log,
replayed as Gemini CLI's own loader replays it: a first line without ``messages`` (the
same session fields), then one record per line:

* a message (``{"id", "timestamp", "type", …}``); a line that repeats a message's ``id``
  replaces it where it stood (the CLI rewrites a message as its tool calls finish);
* ``{"$set": {...}}``: session fields changed (``lastUpdated``, ``sessionId`` on a
  resume, ``summary``); its ``messages``, the model's context after a compression or a
  masking, is not read: the messages logged before it are what was said;
* ``{"$rewindTo": id}``: the user rewound the conversation; that message and every later
  one are dropped (all of them when the id is not in the file, as the CLI does, and the
  line is then reported among the skipped).

A message:

* ``user``: what the user typed, ``displayContent`` when it is there (``/init``, a
  prompt before its ``@file`` expansion), else ``content``; a string or a list of parts
  whose ``text`` is kept (role user). Not the user's words, so skipped: a ``displayContent``
  with no text (the CLI showing a tool's response) and the CLI's own retry prompt
  (:data:`CONTINUE`);
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
CONTINUE = "System: Please continue."
"""The user turn Gemini CLI sends by itself to make the model go on after an empty or
broken reply; logged as a ``user`` message, yet nobody typed it."""


def recognise(record: Record) -> bool:
    """Whether *record* is a Gemini CLI session (its first line), one of its messages, or
    one of its log's updates (``$set``, ``$rewindTo``)."""
    if "projectHash" in record or ({"sessionId", "messages"} <= record.keys()):
        return True
    if isinstance(record.get("$set"), dict) or isinstance(record.get("$rewindTo"), str):
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
        records, skipped, numbers = read_records(text, name, TOOL, recognise)
        meta, raw, lost = _replay(records, numbers)
        skipped += lost
    messages: list[Message] = []
    for message in raw:
        messages += _messages(message)
    session = meta.get("sessionId")
    own = session if isinstance(session, str) and session else None
    return Transcript.of(FORMAT, name, messages, own, skipped=skipped)


def _replay(
    records: list[Record], numbers: list[int]
) -> tuple[Record, list[Record], tuple[str, ...]]:
    """The log's session fields and messages as Gemini CLI loads them, and one sentence
    per rewind to a message the file does not hold."""
    meta: Record = {}
    by_id: dict[object, Record] = {}
    lost: list[str] = []
    for record, number in zip(records, numbers, strict=True):
        rewind, update = record.get("$rewindTo"), record.get("$set")
        if isinstance(rewind, str):
            ids = list(by_id)
            start = ids.index(rewind) if rewind in by_id else 0
            if rewind not in by_id:
                lost.append(
                    f"line {number} rewinds to a message the file does not hold:"
                    " every message before it is dropped, as Gemini CLI drops them"
                )
            for key in ids[start:]:
                del by_id[key]
        elif isinstance(update, dict):
            meta.update(update)
        elif "type" in record:
            by_id[record.get("id")] = record  # a later copy of an id replaces it in place
        else:
            meta.update(record)
    return meta, list(by_id.values()), tuple(lost)


def _messages(message: Record) -> list[Message]:
    kind = message.get("type")
    when = host_time(message.get("timestamp"))
    if kind == "user":
        return _one("user", _typed(message), when)
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


def _typed(message: Record) -> str | None:
    """What the user typed: ``displayContent`` when the CLI recorded one (the model got
    ``content``, the command or the files it expanded to), else ``content``."""
    if "displayContent" in message:
        return _content(message["displayContent"])
    text = _content(message.get("content"))
    return None if text is not None and text.strip() == CONTINUE else text


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
