"""GitHub Copilot CLI session events (``~/.copilot/session-state/<session>/events.jsonl``;
``$COPILOT_HOME`` moves ``~/.copilot``).

Every line is one event: ``{"type", "data", "id", "timestamp", "parentId"}``, the type
dotted (``session.start``, ``user.message``, ``assistant.message``,
``tool.execution_complete``, …). Messages:

* ``user.message``: its ``content`` (role user; ``transformedContent``, the copy Copilot
  CLI decorates for the model with the date and the like, is not what the user wrote).
  A message with a ``source`` other than ``user`` is Copilot CLI's own (a skill's file,
  ``skill-<name>``; a system reminder, ``system``; a command's prompt; another agent's,
  ``agent-<id>``), hidden from the user's timeline: skipped;
* ``assistant.message``: its ``content`` (role assistant), then one ``tool_use`` message
  per ``toolRequests`` entry: the tool name, a newline, its arguments as compact JSON;
* ``tool.execution_complete``: the tool's result as text (role ``tool_result``).

``session.start`` names the session (``sessionId``) and the working directory
(``context.cwd``). An event is ``{"type", "data", "id", "timestamp", "parentId"}``; one of
a family not named here (``abort``, ``skill.invoked``, ``permission.requested``, …) is an
event too, and skipped. Skipped: the model's reasoning (``reasoningText``, ``reasoning``
events), ``tool.execution_start`` (the same call as the request), hook, turn, model and
shutdown bookkeeping, and a subagent's own events (:func:`_subagent`): its prompt is the
``task`` call's arguments and its report that call's result, both read; its own replies
are not the session's assistant speaking. The format is Copilot CLI's own and
undocumented; this reading follows the files it writes (docs/transcripts.md).
"""

from __future__ import annotations

from typing import Any

from gitmem.capture.transcripts._jsonl import Record, clean, compact_json, read_records
from gitmem.core.transcript import Message, Transcript, host_time

FORMAT = "copilot"
TOOL = "Copilot CLI"
_FAMILIES = ("session.", "user.", "assistant.", "tool.", "subagent.", "hook.", "system.")
_ENVELOPE = frozenset({"type", "data", "id", "timestamp", "parentId"})
"""The keys of every event Copilot CLI writes, whatever its type."""


def recognise(record: Record) -> bool:
    """Whether *record* (one JSON line) is a Copilot CLI event: a type of a known family,
    or any type in the whole envelope (newer releases add families: ``abort``,
    ``skill.invoked``, ``permission.requested``)."""
    kind = record.get("type")
    if not isinstance(kind, str) or not kind or not isinstance(record.get("data"), dict):
        return False
    return (kind.startswith(_FAMILIES) and ("id" in record or "timestamp" in record)) or (
        record.keys() >= _ENVELOPE
    )


def parse(text: str, name: str) -> Transcript:
    """Parse a Copilot CLI session.

    Raises:
        InputError: the text is not a Copilot CLI session (see ``read_records``).
    """
    session: str | None = None
    cwd: str | None = None
    messages: list[Message] = []
    records, skipped, _ = read_records(text, name, TOOL, recognise)
    for record in records:
        kind, data = record["type"], record["data"]
        if _subagent(record):
            continue
        when = host_time(record.get("timestamp"))
        if kind == "session.start" and session is None:
            session = _str(data.get("sessionId"))
            context = data.get("context")
            cwd = _str(context.get("cwd")) if isinstance(context, dict) else None
        elif kind == "user.message" and data.get("source") in (None, "user"):
            messages += _message("user", data.get("content"), when)
        elif kind == "assistant.message":
            messages += _message("assistant", data.get("content"), when)
            requests = data.get("toolRequests")
            for request in requests if isinstance(requests, list) else ():
                if isinstance(request, dict):
                    call = f"{_str(request.get('name')) or ''}\n"
                    call += compact_json(request.get("arguments", {}))
                    messages += _message("tool_use", call, when)
        elif kind == "tool.execution_complete":
            messages += _message("tool_result", _result(data.get("result")), when)
    return Transcript.of(FORMAT, name, messages, session, cwd, skipped=skipped)


def _subagent(record: Record) -> bool:
    """Whether *record* is a subagent's own event: Copilot CLI writes a subagent's turns
    into its parent's file, marked with the ``agentId`` of the run (and, in ``data``, the
    ``parentToolCallId`` of the ``task`` call that started it)."""
    return bool(_str(record.get("agentId")) or _str(record["data"].get("parentToolCallId")))


def _message(role: str, text: object, when: str | None) -> list[Message]:
    if not isinstance(text, str) or not text.strip():
        return []
    return [Message(role, clean(text), when)]


def _result(result: Any) -> str | None:
    """A tool's result: a string, or an object whose ``content`` is one."""
    if isinstance(result, str):
        return result
    if isinstance(result, dict) and isinstance(result.get("content"), str):
        return str(result["content"])
    return None if result is None else compact_json(result)


def _str(value: object) -> str | None:
    return value if isinstance(value, str) and value else None
