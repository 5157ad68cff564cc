"""Claude Code session JSONL (``~/.claude/projects/<dir>/<session>.jsonl``).

Each line is one record with a ``type``. ``user`` and ``assistant`` records carry an
Anthropic ``message`` whose ``content`` is a string or a list of blocks. Per record:

* its ``text`` blocks, joined by a blank line, are one message (role: the message's role);
* each ``tool_use`` block is its own message, role ``tool_use``: the tool name, a newline,
  its input as compact JSON;
* each ``tool_result`` block is its own message, role ``tool_result``: its content as text;
  the result of a question or plan tool (``AskUserQuestion``, ``ExitPlanMode``) holds what
  the user chose, and has the role ``answer``; the result of a call the user refused with
  a reply (:func:`_rejected`) is Claude Code's sentence (``tool_result``) and then the
  user's reply, a message of the record's role (user);
* an ``attachment`` record of type ``queued_command`` that the user typed while a reply
  ran (:func:`_queued`): its ``prompt`` is a user message where the record stands (Claude
  Code writes no ``user`` record for it).

A subagent's or compaction's own file (``<session>/subagents/agent-<id>.jsonl``, every
record ``isSidechain``) names its parent's ``sessionId``; the transcript's ``agent`` says
which side run it is (``agent-<agentId>``, else the file's stem).

Skipped, because neither side said them to the other: ``thinking`` and
``redacted_thinking`` blocks, images, ``summary`` lines (Claude Code's own title),
``system`` lines (local command output, hooks, compaction markers), user records that
Claude Code itself wrote (``isMeta``: command caveats; ``isCompactSummary``: the recap
after ``/compact``, whose source turns stay earlier in the same file), every other
attachment (hook output, skill and tool listings, files and IDE selections it adds,
reminders, a background task's notice, a message from another session), file-history,
queue and other bookkeeping records, and a record whose ``uuid`` was already seen.
"""

from __future__ import annotations

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
from gitmem.core.transcript import (
    ANSWER,
    REFUSED,
    REFUSED_SAID,
    Message,
    Transcript,
    host_time,
)

FORMAT = "claude"
TOOL = "Claude Code"

IDENTITY_KEYS = ("sessionId", "uuid", "parentUuid", "leafUuid", "messageId")
"""Every Claude Code record carries one of these beside its ``type``."""
ASKING_TOOLS = ("AskUserQuestion", "ExitPlanMode")
"""Tools through which Claude Code asks the user; their results are the user's answers."""


def recognise(record: Record) -> bool:
    """Whether *record* (one JSON line) is a Claude Code record."""
    return isinstance(record.get("type"), str) and any(key in record for key in IDENTITY_KEYS)


def parse(text: str, name: str) -> Transcript:
    """Parse a Claude Code session.

    Raises:
        InputError: the text is not a Claude Code session (see ``read_records``).
    """
    session: str | None = None
    cwd: str | None = None
    seen: set[str] = set()
    asked: set[str] = set()
    sidechain: set[bool] = set()
    agent: str | None = None
    messages: list[Message] = []
    records, skipped, numbers = read_records(text, name, TOOL, recognise)
    malformed_lines: list[str] = []
    for record, number in zip(records, numbers, strict=True):
        if session is None and isinstance(record.get("sessionId"), str):
            session = record["sessionId"]
        if cwd is None and isinstance(record.get("cwd"), str):
            cwd = record["cwd"]
        if isinstance(record.get("isSidechain"), bool):
            sidechain.add(record["isSidechain"])
        if agent is None and isinstance(record.get("agentId"), str) and record["agentId"]:
            agent = f"agent-{record['agentId']}"
        kind = record["type"]
        message = record.get("message")
        if kind == "attachment":
            message = _queued(record.get("attachment"))
        if kind not in ("user", "assistant", "attachment") or not isinstance(message, dict):
            continue
        if record.get("isMeta") is True or record.get("isCompactSummary") is True:
            continue  # text Claude Code wrote into the user's turn, not the user
        uuid = record.get("uuid")
        if isinstance(uuid, str):
            if uuid in seen:
                continue
            seen.add(uuid)
        role = message.get("role")
        role = clean(role) if isinstance(role, str) and role.strip() else kind
        when = host_time(record.get("timestamp"))
        malformed: list[bool] = []
        content = message.get("content")
        messages.extend(replace(m, time=when) for m in _messages(role, content, asked, malformed))
        if malformed:
            malformed_lines.append(f"line {number} {MALFORMED_PART}")
    # A main session may hold inline side-chain records (older Claude Code); a side run's
    # own file holds nothing else.
    if sidechain != {True}:
        agent = None
    elif agent is None:
        stem = name.rsplit("/", 1)[-1].removesuffix(".jsonl")
        agent = stem if stem.startswith("agent-") else f"agent-{stem}"
    return Transcript.of(
        FORMAT, name, messages, session, cwd, agent, skipped + tuple(malformed_lines)
    )


def _queued(attachment: object) -> dict[str, Any] | None:
    """The user's message in a ``queued_command`` attachment, as a ``message`` (role user,
    content its ``prompt``), or None.

    Claude Code (2.1) records what the user types while a reply runs as an attachment
    ``{"type": "queued_command", "prompt": …, "commandMode": "prompt", "origin": {"kind":
    "human"}}`` and hands it to the model at the next tool boundary; no ``user`` record
    holds those words. The same attachment carries text nobody typed, which is not read: a
    background task's notice (``commandMode`` ``task-notification``), a message from
    another session (``origin.kind`` ``peer``, a plugin's ``coordinator``; ``isMeta``)."""
    if not isinstance(attachment, dict) or attachment.get("type") != "queued_command":
        return None
    if attachment.get("commandMode", "prompt") != "prompt" or attachment.get("isMeta") is True:
        return None
    origin = attachment.get("origin")
    if origin is not None and not (isinstance(origin, dict) and origin.get("kind") == "human"):
        return None
    return {"role": "user", "content": attachment.get("prompt")}


def _messages(role: str, content: object, asked: set[str], malformed: list[bool]) -> list[Message]:
    """The messages of one record, in block order; the joined text sits where its first
    text block was. *asked* collects the ids of calls to :data:`ASKING_TOOLS`."""
    if isinstance(content, str):
        return [Message(role, clean(content))] if content.strip() else []
    if not isinstance(content, list):
        return []
    out: list[Message | None] = []
    texts: list[str] = []
    slot: int | None = None
    for block in content:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if not isinstance(kind, str):
            malformed.append(True)
            continue
        if kind == "text" and isinstance(block.get("text"), str):
            if slot is None:
                slot = len(out)
                out.append(None)
            texts.append(block["text"])
        elif kind.endswith("tool_use"):  # also server_tool_use
            if block.get("name") in ASKING_TOOLS and isinstance(block.get("id"), str):
                asked.add(block["id"])
            out.append(Message("tool_use", clean(_tool_use(block))))
        elif kind.endswith("tool_result"):  # also web_search_tool_result and the like
            answered = isinstance(block.get("tool_use_id"), str) and block["tool_use_id"] in asked
            text = clean(_result_text(block.get("content"), malformed))
            refused = not answered and block.get("is_error") is True
            # Claude Code writes its refusal as one string; a tool's own error (an MCP
            # server's, a subagent's) comes as a list of parts and may say anything
            said = _rejected(text) if refused and isinstance(block.get("content"), str) else None
            if said is not None:  # the user's reply to a call they refused
                out += [Message("tool_result", text[: len(text) - len(said)]), Message(role, said)]
            else:
                out.append(Message(ANSWER if answered else "tool_result", text))
    if slot is not None:
        out[slot] = Message(role, clean("\n\n".join(texts)))
    return [m for m in out if m is not None and m.text.strip()]


def _rejected(text: str) -> str | None:
    """What the user typed when they refused a tool call, from its result *text*: Claude
    Code writes "The user doesn't want to proceed with this tool use. The tool use was
    rejected (…). To tell you how to proceed, the user said:" and then the user's words,
    as an error result (``is_error``) of the call. None for any other result (a refusal
    with no words, or the text of a file that quotes the sentence). Claude Code's sentence
    is one line: a result that breaks a line before "the user said:" is not it."""
    head, found, said = text.partition(REFUSED_SAID)
    if not found or not head.startswith(REFUSED) or "\n" in head:
        return None
    return said if said.strip() else None


def _tool_use(block: dict[str, Any]) -> str:
    name = block.get("name")
    return f"{name if isinstance(name, str) else ''}\n{compact_json(block.get('input', {}))}"


def _result_text(content: object, malformed: list[bool]) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return parts_text(content, malformed)
    return "" if content is None else compact_json(content)
