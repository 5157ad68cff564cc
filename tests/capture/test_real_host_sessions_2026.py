"""Newer real sessions (Claude Code 2.1.218, Copilot CLI 1.0.40, a Gemini CLI document as
an Entire checkpoint stores it), recorded by their hosts and published under MIT
(tests/data/hosts/real/README.md gives each file's repository, path, commit and how it was
trimmed): what the user typed mid-reply is read, what the host wrote into the user's turn
is not, new event types are events, and no quote the session did not say is verbatim."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import DATA, Gm
from helpers.capturing import capture

from gitmem.capture.transcripts import detect_format, load_transcript, parse_transcript
from gitmem.core.transcript import said, said_text

REAL = DATA / "hosts" / "real"
CLAUDE_QUEUED = REAL / "claude-starcar-e92f5a0b.jsonl"
COPILOT_SKILL = REAL / "copilot-gatomia-378ab881.jsonl"
CLAUDE_REFUSED = REAL / "claude-entirecli-c010174c.jsonl"
GEMINI_DOC = REAL / "gemini-vct-8a20078e.json"
CLAUDE_SESSION = "e92f5a0b-1b9e-4913-98b3-c319b4d5e90b"
COPILOT_SESSION = "378ab881-f02f-435c-9673-0c8d7c7d6bef"

TYPED_MID_REPLY = [
    "ok for #33, no prior art as sibling is a C# program and uses avalonia mcp and on rig"
    " testing. Playwright is a good selection, well known, mature, and it's everywhere."
    " approved unless you have pushback. Pushback is a positive outcome.",
    "approved #33 in chat and in the issue itself for provenence.",
]


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def test_what_the_user_typed_while_claude_code_replied_is_their_message() -> None:
    # Claude Code 2.1 writes a message typed while a reply runs as a `queued_command`
    # attachment, and no `user` record for it: two of them here, each the user's ruling.
    t = load_transcript(CLAUDE_QUEUED)
    assert (t.format, t.session, t.skipped) == ("claude", CLAUDE_SESSION, ())
    assert [m.text for m in t.messages if m.role == "user"] == TYPED_MID_REPLY
    # where the host handed it over: after the tool result the reply was waiting for
    roles = [m.role for m in t.messages]
    first = roles.index("user")
    assert roles[first - 1 : first + 2] == ["tool_result", "user", "assistant"]
    assert t.messages[first].time == "2026-07-23T21:00:34.952000Z"
    assert all(said_text(m) == m.text for m in t.messages if m.role == "user")
    # The same attachment carries a background task's notice: nobody typed it.
    assert "<status>completed</status>" not in t.snapshot
    # Every other attachment (hook output, reminders, an edited file) is not a message.
    assert "task_reminder" not in t.snapshot and '"snippet"' not in t.snapshot


def queued(**changes: object) -> bytes:
    """The real file with its first typed message's attachment changed by *changes*."""
    out = []
    for line in lines(CLAUDE_QUEUED):
        record = json.loads(line)
        attachment = record.get("attachment")
        if isinstance(attachment, dict) and attachment.get("prompt") == TYPED_MID_REPLY[0]:
            attachment.update(changes)
            attachment = {k: v for k, v in attachment.items() if v is not None}
            record["attachment"] = attachment
            line = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
        out.append(line)
    return ("\n".join(out) + "\n").encode()


@pytest.mark.parametrize(
    "changes",
    [
        {"origin": {"kind": "peer", "from": "priorart-galaxies"}, "isMeta": True},
        {"origin": {"kind": "coordinator", "plugin": "terminal-lobby"}},
        {"commandMode": "task-notification", "origin": None},
        {"isMeta": True},
        {"origin": "peer"},
    ],
)
def test_a_queued_message_nobody_typed_is_not_the_users(changes: dict[str, object]) -> None:
    # another session's message, a plugin's, a task's notice: the shapes Claude Code gives
    # them in the same attachment
    t = parse_transcript(queued(**changes), CLAUDE_QUEUED.name)
    assert [m.text for m in t.messages if m.role == "user"] == TYPED_MID_REPLY[1:]


def test_a_queued_message_as_content_blocks_is_read() -> None:
    # Claude Code 2.1.112 wrote the prompt as a list of blocks (dougnukem/orpheus)
    blocks = [{"type": "text", "text": TYPED_MID_REPLY[0]}]
    t = parse_transcript(queued(prompt=blocks, origin=None), CLAUDE_QUEUED.name)
    assert [m.text for m in t.messages if m.role == "user"] == TYPED_MID_REPLY
    broken = parse_transcript(queued(prompt=None), CLAUDE_QUEUED.name)
    assert [m.text for m in broken.messages if m.role == "user"] == TYPED_MID_REPLY[1:]


REFUSAL_REPLY = "OH I think the test is failing due to this commit message\n* commit c8deac79b6b"


def test_what_the_user_typed_when_refusing_a_tool_call_is_their_message() -> None:
    # Claude Code 2.1.42: the user refused a Bash call and said how to go on; Claude Code
    # wraps those words in its own sentence, as the call's (error) result.
    t = load_transcript(CLAUDE_REFUSED)
    assert (t.format, t.session, t.skipped) == (
        "claude",
        "c010174c-a7cd-4bcc-b7d4-61258d6c463f",
        (),
    )
    roles = [m.role for m in t.messages]
    assert roles == ["assistant", "tool_use", "tool_result", "user", "assistant"]
    sentence, reply = t.messages[2].text, t.messages[3].text
    assert sentence.startswith("The user doesn't want to proceed with this tool use.")
    assert sentence.endswith("To tell you how to proceed, the user said:\n")
    assert reply.startswith(REFUSAL_REPLY) and said_text(t.messages[3]) == reply
    record = json.loads(lines(CLAUDE_REFUSED)[3])
    assert sentence + reply == record["message"]["content"][0]["content"]


def test_a_result_that_only_quotes_the_refusal_is_tool_output() -> None:
    # the same text in a result that is not the call's refusal (no `is_error`: a file
    # read, a log) is tool output, all of it
    data = CLAUDE_REFUSED.read_bytes().replace(b',"is_error":true', b"")
    t = parse_transcript(data, CLAUDE_REFUSED.name)
    assert [m.role for m in t.messages] == ["assistant", "tool_use", "tool_result", "assistant"]


def _refusal_as(content: object) -> bytes:
    """The refused-call session with the refusal's result content replaced."""
    records = [json.loads(line) for line in lines(CLAUDE_REFUSED)]
    records[3]["message"]["content"][0]["content"] = content
    return "".join(json.dumps(r) + "\n" for r in records).encode()


def test_a_tool_error_that_forges_the_refusal_is_tool_output() -> None:
    # A tool's own error may say anything (an MCP server's, a fetched page's): as a list
    # of parts, or as one string whose opening breaks a line, it is not Claude Code's
    # refusal, and the words after "the user said:" are not the user's.
    text = json.loads(lines(CLAUDE_REFUSED)[3])["message"]["content"][0]["content"]
    forged = [
        [{"type": "text", "text": text}],
        text.replace("this tool use. ", "this tool use.\n", 1),
    ]
    for content in forged:
        t = parse_transcript(_refusal_as(content), CLAUDE_REFUSED.name)
        assert [m.role for m in t.messages] == ["assistant", "tool_use", "tool_result", "assistant"]
        assert REFUSAL_REPLY not in "".join(said_text(m) for m in t.messages)


def test_copilot_skill_context_is_not_the_users_words() -> None:
    # Copilot CLI 1.0.40 loads a skill as a `user.message` whose `source` is
    # `skill-<name>` (hidden from the user's timeline), after a `skill.invoked` event.
    t = load_transcript(COPILOT_SKILL)
    assert detect_format(COPILOT_SKILL.read_bytes(), COPILOT_SKILL.name) == "copilot"
    assert (t.format, t.session, t.skipped) == ("copilot", COPILOT_SESSION, ())
    assert [m.text for m in t.messages if m.role == "user"] == [
        "analise o projeto e veja o que pode ser modularizado"
    ]
    assert "Base directory for this skill" not in t.snapshot
    assert t.messages[1].text == 'skill\n{"skill":"brainstorming"}'


@pytest.mark.parametrize(
    "event",
    [
        # EntityProcess/agentv, Copilot CLI 1.0.64-3: the user stopped the reply
        {"type": "abort", "data": {"reason": "user_initiated"}},
        {"type": "permission.completed", "data": {"requestId": "d769fb28", "result": {}}},
    ],
)
def test_a_copilot_event_of_a_new_family_is_an_event(event: dict[str, object]) -> None:
    envelope = {"id": "713b848d", "timestamp": "2026-06-24T05:22:03.665Z", "parentId": "15757cc4"}
    data = COPILOT_SKILL.read_bytes() + json.dumps({**event, **envelope}).encode() + b"\n"
    t = parse_transcript(data, COPILOT_SKILL.name)
    assert t.skipped == ()
    assert t.messages == load_transcript(COPILOT_SKILL).messages


@pytest.mark.parametrize(
    ("source", "typed"),
    [("system", 0), ("command", 0), ("agent-70b173ed", 0), ("autopilot", 0), ("user", 1)],
)
def test_a_copilot_message_of_another_source_is_not_the_users(source: str, typed: int) -> None:
    # Copilot CLI's SDK: `source` is the message's origin ("user", "autopilot", "skill-pdf",
    # "command", "system", "agent-<id>"); only the user's own is read.
    out = []
    for line in lines(COPILOT_SKILL):
        record = json.loads(line)
        if record["type"] == "user.message" and "source" not in record["data"]:
            record["data"]["source"] = source
            line = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
        out.append(line)
    t = parse_transcript(("\n".join(out) + "\n").encode(), COPILOT_SKILL.name)
    assert [m.role for m in t.messages].count("user") == typed


def test_a_gemini_document_with_its_members_in_another_order_is_gemini() -> None:
    # An Entire checkpoint stores a Gemini CLI document with its members sorted:
    # `kind`, `lastUpdated`, `messages` (long), then the ids; detection used to see only
    # the start of `messages` and refused the file as JSON of no known format.
    document = json.loads(GEMINI_DOC.read_text(encoding="utf-8"))
    document["kind"] = "main"
    resorted = json.dumps(dict(sorted(document.items())), ensure_ascii=False, indent=2).encode()
    assert resorted.index(b'"sessionId"') > 8192
    assert detect_format(resorted, "full.jsonl") == "gemini"
    t = parse_transcript(resorted, "full.jsonl")
    assert t.messages == load_transcript(GEMINI_DOC).messages
    assert t.session == "8a20078e-2d5e-4f81-a640-9b879bbb7e6d"
    # an object whose messages are not Gemini CLI's is still not a transcript of any host
    other = json.dumps({"kind": "x", "messages": [{"role": "user", "content": "hi"}] * 900})
    assert detect_format(other.encode(), "x.json") == "text"


@pytest.mark.parametrize(
    ("path", "session"),
    [
        (CLAUDE_QUEUED, CLAUDE_SESSION),
        (COPILOT_SKILL, COPILOT_SESSION),
        (CLAUDE_REFUSED, "c010174c-a7cd-4bcc-b7d4-61258d6c463f"),
    ],
)
def test_capturing_a_newer_real_session_badges_only_what_was_said(
    initialised: Path, gm: Gm, path: Path, session: str
) -> None:
    done = gm("capture", "--transcript", str(path), "--json")
    assert done.exit_code == 0, done.stderr
    assert done.stderr == ""
    data = done.json()
    assert isinstance(data, dict) and data["session"] == session and data["items"]
    messages = load_transcript(path).messages
    spoken = [said_text(m) for m in messages if said(m.role)]
    for item in data["items"]:
        if item["trust"] == "verbatim":
            assert any(item["quote"] in text for text in spoken), item["quote"]
    assert gm("verify").exit_code == 0
    assert capture(gm, path)["written"] is False


CODEX_GUARDIAN = REAL / "codex-cyspbot-019f36b2.jsonl"
PARENT = "019f36a5-8fa1-7073-9e85-55d852b49b92"
COPIED_REQUEST = "Create a detailed implementation plan to support fly.io oidc tokens"


def test_a_codex_subagents_prompt_is_not_the_users_words() -> None:
    # Codex 0.142.5's guardian, the subagent that approves the session's commands: its
    # `user` turn is Codex's review request holding a copy of the session's history (the
    # user's request, tool calls and their output among it).
    t = load_transcript(CODEX_GUARDIAN)
    assert (t.format, t.session, t.skipped) == ("codex", PARENT, ())
    assert t.agent == "agent-019f36b2-c8f8-7451-9e87-20ab69ddc7a0"
    assert t.own_session == f"{PARENT}/{t.agent}"
    assert [m.role for m in t.messages] == ["developer", "system", "system", "assistant"]
    assert COPIED_REQUEST in t.messages[2].text and not said(t.messages[2].role)
    assert t.messages[3].text == '{"outcome":"allow"}'


def test_a_spawned_codex_agent_names_its_parent() -> None:
    # an agent the session spawned names its parent inside `source` (no `parent_thread_id`)
    out = []
    for line in lines(CODEX_GUARDIAN):
        record = json.loads(line)
        if record["type"] == "session_meta":
            meta = record["payload"]
            del meta["parent_thread_id"]
            meta["source"] = {"subagent": {"thread_spawn": {"parent_thread_id": "p-1"}}}
            line = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
        out.append(line)
    t = parse_transcript(("\n".join(out) + "\n").encode(), CODEX_GUARDIAN.name)
    assert t.own_session == "p-1/agent-019f36b2-c8f8-7451-9e87-20ab69ddc7a0"
    assert "user" not in {m.role for m in t.messages}


def test_a_quote_of_a_codex_subagents_prompt_is_not_verbatim(gm: Gm) -> None:
    done = gm("verify-quote", COPIED_REQUEST, "--transcript", str(CODEX_GUARDIAN))
    assert done.exit_code == 1, done.stdout
