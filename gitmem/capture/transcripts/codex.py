"""Codex CLI session JSONL (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``).

Two shapes exist, and both are read:

* current: every line is ``{"timestamp", "type", "payload"}`` with ``type`` one of
  ``session_meta``, ``response_item``, ``event_msg``, ``turn_context``, ``compacted``;
* older (2025): a first line ``{"id", "timestamp", "instructions", "git"}``, then bare
  response items (``{"type": "message", …}``) and ``{"record_type": "state"}`` markers.

Messages come from the response items only, the record of what went to and came from the
model: ``message`` (its ``input_text``/``output_text`` parts, joined by a blank line; role
as written: user, assistant, developer, system), ``function_call`` and
``custom_tool_call`` / ``local_shell_call`` / ``web_search_call`` (role ``tool_use``: the
tool name, a newline, its arguments as compact JSON), and ``function_call_output`` /
``custom_tool_call_output`` (role ``tool_result``). An assistant message whose ``phase`` is
``commentary`` (a progress note while the turn runs, not its final answer) is marked
``progress``.

Skipped: ``reasoning`` items (the model's private reasoning, often encrypted);
``event_msg`` lines, because they are the UI's copy of the same turn (``user_message``,
``agent_message`` and ``agent_reasoning`` repeat the response items word for word, so
keeping both would put every assistant text in the transcript twice) or bookkeeping
(token counts, task start/end); ``turn_context``, ``compacted`` summaries and state markers,
and any other envelope type (``world_state``, 0.147: the AGENTS.md text it sends).

A subagent's rollout (``session_meta`` ``source`` ``{"subagent": …}``, :func:`_side_run`)
is a side run of its parent: its ``user`` turns, the parent's or Codex's prompt, have the
role ``system``.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from gitmem.capture.transcripts._jsonl import (
    MALFORMED_PART,
    Record,
    clean,
    compact_json,
    parts_text,
    read_records,
)
from gitmem.core import boundedjson
from gitmem.core.transcript import Message, Transcript, host_time

FORMAT = "codex"
TOOL = "Codex"

ENVELOPE_TYPES = frozenset(
    {"session_meta", "response_item", "event_msg", "turn_context", "compacted"}
)
ITEM_TYPES = frozenset(
    {
        "message",
        "reasoning",
        "function_call",
        "function_call_output",
        "custom_tool_call",
        "custom_tool_call_output",
        "local_shell_call",
        "web_search_call",
    }
)
"""Response item types; in the older shape they are whole lines."""
COMMENTARY = "commentary"
"""The ``phase`` of an assistant message written while the turn runs ("I'm checking the
tests now …"); the answer that closes the turn has ``"final_answer"``. Kept on the message
(:attr:`~gitmem.core.transcript.Message.progress`)."""

_CWD_RE = re.compile(r"<cwd>([^<\n]+)</cwd>")


def recognise(record: Record) -> bool:
    """Whether *record* (one JSON line) is a Codex record of either shape."""
    kind = record.get("type")
    if isinstance(kind, str):
        if isinstance(record.get("payload"), dict):
            return kind in ENVELOPE_TYPES or "timestamp" in record
        return kind in ITEM_TYPES
    return "record_type" in record or ("id" in record and "timestamp" in record)


def parse(text: str, name: str) -> Transcript:
    """Parse a Codex session of either shape.

    Raises:
        InputError: the text is not a Codex session (see ``read_records``).
    """
    session: str | None = None
    cwd: str | None = None
    side: tuple[str, str] | None = None
    messages: list[Message] = []
    records, skipped, numbers = read_records(text, name, TOOL, recognise)
    malformed_lines: list[str] = []
    when: str | None = None
    for record, number in zip(records, numbers, strict=True):
        malformed: list[bool] = []
        kind = record.get("type")
        payload = record.get("payload")
        # Each record's own time; the older shape has one only on its first line.
        when = host_time(record.get("timestamp")) or when
        if isinstance(payload, dict):
            if kind == "response_item":
                messages.extend(replace(m, time=when) for m in _item(payload, malformed))
            elif kind == "session_meta" and session is None:
                # Only the first: a forked session repeats its parent's meta after its own.
                session = _str(payload.get("id"))
                cwd = _str(payload.get("cwd"))
                side = _side_run(payload)
        elif kind in ITEM_TYPES:
            messages.extend(replace(m, time=when) for m in _item(record, malformed))
        elif kind is None and "record_type" not in record and session is None:
            session = _str(record.get("id"))
        if malformed:
            malformed_lines.append(f"line {number} {MALFORMED_PART}")
    if cwd is None:
        cwd = _cwd_from_context(messages)
    agent: str | None = None
    if side is not None:
        session, agent = side
        messages = [replace(m, role=PROMPT) if m.role == "user" else m for m in messages]
    return Transcript.of(
        FORMAT, name, messages, session, cwd, agent, skipped + tuple(malformed_lines)
    )


PROMPT = "system"
"""The role of a subagent rollout's ``user`` turns (:func:`_side_run`): what the parent
agent or Codex itself wrote to the subagent, not the user's words."""


def _side_run(meta: dict[str, Any]) -> tuple[str, str] | None:
    """``(parent session, agent)`` when the rollout whose ``session_meta`` payload is *meta*
    is a subagent's: Codex names it in ``source`` (``{"subagent": {"thread_spawn": …}}``
    for an agent the session spawned, ``{"subagent": {"other": "guardian"}}`` for the
    reviewer that approves its commands, ``"review"``, ``"compact"``) and its parent in
    ``parent_thread_id``. Its ``user`` turns are the parent's or Codex's own prompt (the
    guardian's holds a copy of the session's history, tool output included), so they are
    not the user's words; its ``agent`` is ``agent-<id>``. None for the user's own session."""
    source = meta.get("source")
    if not (isinstance(source, dict) and "subagent" in source) and meta.get("thread_source") != (
        "subagent"
    ):
        return None
    own = _str(meta.get("id")) or ""
    spawn = source.get("subagent") if isinstance(source, dict) else None
    spawned = spawn.get("thread_spawn") if isinstance(spawn, dict) else None
    parent = _str(meta.get("parent_thread_id")) or (
        _str(spawned.get("parent_thread_id")) if isinstance(spawned, dict) else None
    )
    return (parent or own, f"agent-{own}")


def _item(item: dict[str, Any], malformed: list[bool]) -> list[Message]:
    kind = item.get("type")
    text: str | None = None
    role: str | None = "tool_use"
    progress = False
    if kind == "message":
        content = item.get("content")
        role = clean(_str(item.get("role")) or "user")
        text = parts_text(content, malformed) if isinstance(content, list) else _str(content)
        progress = item.get("phase") == COMMENTARY
    elif kind == "function_call":
        text = f"{_str(item.get('name')) or ''}\n{_arguments(item.get('arguments'))}"
    elif kind == "custom_tool_call":
        text = f"{_str(item.get('name')) or ''}\n{_str(item.get('input')) or ''}"
    elif kind in ("local_shell_call", "web_search_call"):
        tool = kind.removesuffix("_call")
        text = f"{tool}\n{compact_json(item.get('action', {}))}"
    elif kind in ("function_call_output", "custom_tool_call_output"):
        role, text = "tool_result", _output(item.get("output"), malformed)
    if text is None or not text.strip():
        return []
    return [Message(role, clean(text), progress=progress)]


def _arguments(arguments: object) -> str:
    """Function arguments arrive as a JSON string; shown as compact JSON like Claude's
    (as written when they are not JSON, or beyond the bounds of a transcript line)."""
    if not isinstance(arguments, str):
        return compact_json(arguments)
    try:
        return compact_json(boundedjson.loads(arguments))
    except ValueError:
        return arguments


def _output(output: object, malformed: list[bool]) -> str:
    """A tool output as text. Older Codex wrapped a command's output as the JSON string
    ``{"output": …, "metadata": {…}}``; the words the command printed are the output."""
    if isinstance(output, str):
        if output.startswith('{"output":'):
            try:
                wrapped = boundedjson.loads(output)
            except ValueError:
                return output
            if isinstance(wrapped, dict) and isinstance(wrapped.get("output"), str):
                return str(wrapped["output"])
        return output
    if isinstance(output, list):
        return parts_text(output, malformed)
    if isinstance(output, dict) and isinstance(output.get("content"), str):
        return str(output["content"])
    return "" if output is None else compact_json(output)


def _cwd_from_context(messages: list[Message]) -> str | None:
    """The older shape names the working directory only inside the
    ``<environment_context>`` Codex sends as the first user input."""
    for message in messages:
        if message.role == "user" and "<environment_context>" in message.text:
            match = _CWD_RE.search(message.text)
            if match:
                return match.group(1).strip()
    return None


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None
