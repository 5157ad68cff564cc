"""Tests for the transcript formats (gitmem/transcripts/); the rules are in docs/transcripts.md."""

from __future__ import annotations

import json
import re

import pytest
from helpers import TESTS
from hypothesis import given, settings
from hypothesis import strategies as st

from gitmem.capture.transcripts import detect_format, load_transcript, parse_transcript
from gitmem.capture.transcripts.detect import SAMPLE_BYTES
from gitmem.core.errors import InputError
from gitmem.core.quotes import check_quote
from gitmem.core.transcript import FORMATS, Message, Transcript, render_snapshot, snapshot_format

DATA = TESTS / "data" / "transcripts"
FIXTURES = {
    "claude_session.jsonl": "claude",
    "codex_rollout.jsonl": "codex",
    "codex_legacy.jsonl": "codex",
    "generic.json": "json",
    "plain.md": "text",
}
STRUCTURED = ("claude", "codex", "copilot", "gemini", "json", "messages")


def read(name: str) -> bytes:
    return (DATA / name).read_bytes()


def parse(name: str, format: str | None = None) -> Transcript:
    return parse_transcript(read(name), name, format)


def line(record: object) -> bytes:
    return json.dumps(record, separators=(",", ":")).encode() + b"\n"


# Detection ------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "expected"), FIXTURES.items())
def test_detects_each_fixture_by_its_content(name: str, expected: str) -> None:
    assert detect_format(read(name), name) == expected


@pytest.mark.parametrize(("name", "expected"), FIXTURES.items())
@pytest.mark.parametrize("misleading", ["notes.md", "notes.txt", "notes.json", "notes.jsonl"])
def test_a_misleading_extension_does_not_change_the_detected_format(
    name: str, expected: str, misleading: str
) -> None:
    assert detect_format(read(name), misleading) == expected


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"   \n\n",
        b"just some words\n",
        b"[link](https://example.com) to a page\n",
        b"{not json at all}\n",
        b'{"a": 1}\n{"b": 2}\n',  # JSON lines of no known format
        b'[{"name": "x"}]',  # a JSON list, but not of messages
        b"\xff\xfe not utf-8",
        b'{\n  "role": "user",\n  "content": "pretty-printed"\n}\n',
    ],
)
def test_anything_else_is_text(data: bytes) -> None:
    assert detect_format(data, "x.jsonl") == "text"


def test_one_json_line_among_prose_is_text() -> None:
    data = read("claude_session.jsonl").splitlines(keepends=True)[2] + b"and then\nsome prose\n"
    assert detect_format(data, "x.jsonl") == "text"


def test_an_empty_list_is_json_only_when_the_name_says_so() -> None:
    assert detect_format(b"[ ]\n", "chat.json") == "json"
    assert detect_format(b"[ ]\n", "chat.md") == "text"


def test_the_messages_encoding_is_detected() -> None:
    data = render_snapshot("claude", [Message("user", "hello there")]).encode()
    assert detect_format(data, "snapshot.txt") == "messages"


def test_detection_reads_only_the_start_of_the_file() -> None:
    data = read("claude_session.jsonl")
    assert detect_format(data + b"x" * SAMPLE_BYTES + b"\nplain prose\n" * 1000, "x") == "claude"


def test_a_first_line_longer_than_the_sample_is_judged_by_its_keys() -> None:
    meta = {
        "timestamp": "2026-02-11T08:01:12.004Z",
        "type": "session_meta",
        "payload": {"id": "s-1", "cwd": "/w", "instructions": "be careful. " * 5000},
    }
    assert detect_format(line(meta), "rollout.jsonl") == "codex"
    big = json.dumps([{"role": "user", "content": "a long paste " * 5000}]).encode()
    assert detect_format(big, "chat.txt") == "json"


# Parsing each format --------------------------------------------------------------------


def test_claude_session() -> None:
    t = parse("claude_session.jsonl")
    assert (t.format, t.session, t.cwd) == (
        "claude",
        "7d1c2f0e-4b7a-4c55-9a1e-2f4f0c3b9e61",
        "/home/dev/src/orchard",
    )
    assert [m.role for m in t.messages] == [
        "user",
        "assistant",
        "tool_use",
        "tool_result",
        "assistant",
        "user",
    ]
    # The text blocks of one entry are one message, joined by a blank line.
    assert t.messages[1].text == (
        "Yes. We will pin pygit2 to 1.14.1 until upstream publishes arm64 wheels.\n\n"
        "First I will look at how the lockfile names it."
    )
    assert t.messages[2].text == (
        'Bash\n{"command":"grep -n pygit2 requirements.lock","description":"Find the pygit2 pin"}'
    )
    assert t.messages[3].text == "14:pygit2==1.15.0 \\\n15:    --hash=sha256:9f1e2d3c"
    assert t.messages[5].text == "Good. Open a ticket so we remove the pin once the wheels exist."
    # Thinking, the summary line and the system line are not messages.
    joined = "\n".join(t.texts())
    for skipped in (
        "Secret plan",
        "Pin pygit2 before the orchard release",
        "Auto-compact",
        "Caveat",
    ):
        assert skipped not in joined


def test_codex_rollout() -> None:
    t = parse("codex_rollout.jsonl")
    assert (t.format, t.session, t.cwd) == (
        "codex",
        "0199a3c4-5e6f-7a81-b9c2-d3e4f5a6b7c8",
        "/home/dev/src/ledger",
    )
    assert [m.role for m in t.messages] == ["user", "user", "tool_use", "tool_result", "assistant"]
    assert t.messages[2].text.startswith('shell\n{"command":["bash","-lc","grep -rn \'month <\'')
    assert t.messages[3].text == "export/filter.py:41:    if invoice.month < cutoff.month:\n"
    # event_msg copies and reasoning are skipped: each text appears exactly once.
    joined = "\n".join(t.texts())
    assert joined.count("The filter compares months without years") == 1
    assert joined.count("Why does the nightly export skip") == 1
    assert "Searching for the month comparison" not in joined


def test_a_codex_progress_note_is_marked() -> None:
    # Codex writes "phase": "commentary" on the notes it sends while a turn runs and
    # "final_answer" on the reply that closes it; the text and role are the same either way.
    def said(phase: str | None, text: str) -> bytes:
        item = {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "output_text", "text": text}],
        }
        if phase is not None:
            item["phase"] = phase
        return line({"timestamp": "2026-05-11T11:27:00Z", "type": "response_item", "payload": item})

    meta = {"id": "0199a3c4-5e6f-7a81-b9c2-d3e4f5a6b7c8", "cwd": "/home/dev/src/ledger"}
    data = b"".join(
        [
            line({"timestamp": "2026-05-11T11:26:55Z", "type": "session_meta", "payload": meta}),
            said("commentary", "I'm checking the export filter now."),
            said("final_answer", "The filter now compares years too."),
            said(None, "An older rollout has no phase."),
        ]
    )
    t = parse_transcript(data, "rollout.jsonl", None)
    assert [(m.role, m.progress) for m in t.messages] == [
        ("assistant", True),
        ("assistant", False),
        ("assistant", False),
    ]
    # Not part of what a message is: the snapshot and equality ignore it.
    assert t.messages[0] == Message("assistant", "I'm checking the export filter now.")
    assert "commentary" not in t.snapshot


def test_codex_legacy_rollout() -> None:
    t = parse("codex_legacy.jsonl")
    assert (t.format, t.session, t.cwd) == (
        "codex",
        "5a2e8c41-93d7-4f0b-a6e2-1c8d4b7f9e03",
        "/home/dev/src/ledger",  # from <environment_context>: the older meta has no cwd
    )
    assert [m.role for m in t.messages] == ["user", "user", "tool_use", "tool_result", "assistant"]
    assert t.messages[1].text == (
        "Add a --dry-run flag to the import command and keep the default behaviour unchanged."
    )
    assert "Reading the importer entry point" not in "\n".join(t.texts())


def test_generic_json() -> None:
    t = parse("generic.json")
    assert (t.format, t.session, t.cwd) == ("json", None, None)
    assert [m.role for m in t.messages] == ["system", "user", "assistant", "user"]
    assert t.messages[2].text == (
        "Yes: the rendered totals depend on the locale, so the cache key must include it.\n\n"
        "Without it a German user can be served an English number format."
    )


def test_plain_text_is_one_message_and_its_own_snapshot() -> None:
    data = read("plain.md")
    t = parse("plain.md")
    assert (t.format, t.session, t.cwd) == ("text", None, None)
    assert t.messages == (Message(None, data.decode()),)
    assert t.snapshot == data.decode()


def test_load_transcript_reads_and_forces_a_format() -> None:
    assert load_transcript(DATA / "codex_rollout.jsonl").format == "codex"
    assert load_transcript(DATA / "codex_rollout.jsonl", "text").format == "text"


def test_claude_repeated_entry_is_one_message() -> None:
    data = read("claude_session.jsonl")
    [first_ask] = [x for x in data.splitlines(keepends=True) if b"The release job" in x]
    assert (
        parse_transcript(data + first_ask, "s.jsonl").texts()
        == parse_transcript(data, "s.jsonl").texts()
    )


def test_claude_compact_summary_is_not_a_user_message() -> None:
    summary = {
        "type": "user",
        "sessionId": "s",
        "uuid": "u-9",
        "isCompactSummary": True,
        "message": {"role": "user", "content": "This session is being continued from a previous"},
    }
    t = parse_transcript(read("claude_session.jsonl") + line(summary), "s.jsonl")
    assert t.texts() == parse("claude_session.jsonl").texts()


SUBAGENTS = TESTS / "data" / "subagents"
PARENT = "4c2ddfdc-b619-4525-8d03-1950fb1b0257"


def test_a_subagent_file_names_its_parent_and_is_its_own_session() -> None:
    main = load_transcript(SUBAGENTS / f"{PARENT}.jsonl")
    side = load_transcript(SUBAGENTS / PARENT / "subagents" / "agent-50243ee8.jsonl")
    assert (main.session, main.agent, main.own_session) == (PARENT, None, PARENT)
    assert (side.session, side.agent) == (PARENT, "agent-50243ee8")
    assert side.own_session == f"{PARENT}/agent-50243ee8"


def test_a_side_run_without_an_agent_id_is_named_by_its_file() -> None:
    record = {"type": "user", "sessionId": "p", "isSidechain": True, "uuid": "u1"}
    record["message"] = {"role": "user", "content": "Summarise the conversation"}
    assert parse_transcript(line(record), "agent-acompact-1f.jsonl").agent == "agent-acompact-1f"
    assert parse_transcript(line(record), "side.jsonl").agent == "agent-side"


def test_a_main_session_with_inline_side_chain_records_is_the_main_session() -> None:
    side = {"type": "user", "sessionId": "p", "isSidechain": True, "agentId": "a1", "uuid": "u2"}
    side["message"] = {"role": "user", "content": "Search the repo"}
    t = parse_transcript(read("claude_session.jsonl") + line(side), "s.jsonl")
    assert t.agent is None and t.own_session == t.session


def asking(name: str, tool_input: object, result: object, tool_id: object = "toolu_1") -> bytes:
    call = {"type": "tool_use", "id": "toolu_1", "name": name, "input": tool_input}
    answer = {"type": "tool_result", "tool_use_id": tool_id, "content": result}
    return line(
        {
            "type": "assistant",
            "sessionId": "s",
            "uuid": "a",
            "message": {"role": "assistant", "content": [call]},
        }
    ) + line(
        {
            "type": "user",
            "sessionId": "s",
            "uuid": "b",
            "message": {"role": "user", "content": [answer]},
        }
    )


def test_the_answer_to_a_question_tool_is_the_users() -> None:
    said = 'User has answered your questions: "Which tools?"="Credo". You can now continue.'
    t = parse_transcript(asking("AskUserQuestion", {"questions": []}, said), "s.jsonl")
    assert [(m.role, m.text) for m in t.messages][1] == ("answer", said)
    plan = asking("ExitPlanMode", {"plan": "# Plan"}, "User has approved your plan.")
    assert [m.role for m in parse_transcript(plan, "s.jsonl").messages] == ["tool_use", "answer"]


def test_other_tool_results_and_odd_ids_stay_tool_results() -> None:
    t = parse_transcript(asking("Bash", {"command": "ls"}, "a.txt"), "s.jsonl")
    assert [m.role for m in t.messages] == ["tool_use", "tool_result"]
    odd = parse_transcript(asking("AskUserQuestion", {}, "x", tool_id=["toolu_1"]), "s.jsonl")
    assert [m.role for m in odd.messages] == ["tool_use", "tool_result"]


def test_a_lone_surrogate_becomes_a_replacement_character() -> None:
    record = {"type": "user", "sessionId": "s", "message": {"role": "user", "content": "a\ud800b"}}
    t = parse_transcript(line(record), "s.jsonl")
    assert t.texts() == ["a\ufffdb"]
    t.snapshot.encode("utf-8")


# Bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "forced"),
    [
        ("claude_session.jsonl", "codex"),
        ("codex_rollout.jsonl", "claude"),
        ("codex_legacy.jsonl", "claude"),
        ("generic.json", "claude"),
        ("generic.json", "codex"),
        ("plain.md", "claude"),
        ("plain.md", "codex"),
        ("plain.md", "json"),
        ("plain.md", "messages"),
        ("claude_session.jsonl", "json"),
        ("claude_session.jsonl", "messages"),
    ],
)
def test_a_forced_format_the_file_does_not_fit_is_an_input_error(name: str, forced: str) -> None:
    with pytest.raises(InputError, match=rf"^transcript {re.escape(name)} .*(line|item) \d+"):
        parse(name, forced)


def test_forced_claude_on_an_empty_file_is_an_input_error() -> None:
    with pytest.raises(InputError, match="no records"):
        parse_transcript(b"\n\n", "empty.jsonl", "claude")


def test_not_utf8_is_an_input_error() -> None:
    with pytest.raises(InputError, match="not UTF-8"):
        parse_transcript(b"caf\xe9\n", "latin1.md")
    with pytest.raises(InputError, match="not UTF-8"):
        parse_transcript(read("claude_session.jsonl") + b"\xff\n", "s.jsonl", "claude")


def test_an_unknown_format_is_an_input_error() -> None:
    with pytest.raises(InputError, match="unknown transcript format 'yaml'"):
        parse_transcript(b"x", "x", "yaml")
    with pytest.raises(InputError, match="unknown transcript format"):
        snapshot_format("yaml")


@pytest.mark.parametrize("name", ["claude_session.jsonl", "codex_rollout.jsonl"])
def test_a_torn_last_line_is_skipped(name: str) -> None:
    data = read(name)
    torn = data + data.splitlines(keepends=True)[-1][:40]
    assert parse_transcript(torn, name).messages == parse(name).messages


def test_as_many_bad_lines_as_good_ones_is_not_the_format() -> None:
    lines = read("claude_session.jsonl").splitlines(keepends=True)[:2]
    data = lines[0] + b"not json\n" + lines[1] + b"{}\n"
    with pytest.raises(InputError, match=r"line 2 is not JSON"):
        parse_transcript(data, "s.jsonl", "claude")


def test_generic_json_errors_name_the_line_or_the_item() -> None:
    with pytest.raises(InputError, match=r"not valid JSON: line 2"):
        parse_transcript(b'[\n{"role": "user",, }]', "c.json", "json")
    with pytest.raises(InputError, match="is not a JSON list of messages"):
        parse_transcript(b'{"role": "user", "content": "hi"}', "c.json", "json")
    with pytest.raises(InputError, match='item 2 has no "content"'):
        parse_transcript(b'[{"role": "user", "content": "hi"}, {"role": "x"}]', "c.json", "json")


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b'{"role":"user","text":"a"}\nnope\n', "line 2 is not JSON"),
        (b'{"role":"user","text":"a","extra":1}\n', 'line 1 is not an object with exactly "role"'),
        (b'{"role":1,"text":"a"}\n', "line 1 has a role that is neither"),
        (b'{"role":"user","text":null}\n', "line 1 has a text that is not a string"),
        (b'{"role":"user","text":"a"}\n\n{"role":"user","text":"b"}\n', "line 2 is not JSON"),
    ],
)
def test_the_messages_encoding_is_read_strictly(data: bytes, problem: str) -> None:
    with pytest.raises(InputError, match=problem):
        parse_transcript(data, "snap.txt", "messages")


# Snapshots ------------------------------------------------------------------------------


def test_the_messages_encoding_is_canonical_json_lines() -> None:
    messages = [Message("user", 'café "x"\nnext'), Message(None, "")]
    assert render_snapshot("codex", messages) == (
        '{"role":"user","text":"café \\"x\\"\\nnext"}\n{"role":null,"text":""}\n'
    )
    assert render_snapshot("messages", []) == ""


def test_snapshot_formats() -> None:
    assert snapshot_format("text") == "text"
    assert [snapshot_format(f) for f in STRUCTURED] == ["messages"] * 6
    assert set(FORMATS) == {"text", *STRUCTURED}


@pytest.mark.parametrize("name", [n for n, f in FIXTURES.items() if f != "text"])
def test_a_structured_snapshot_parses_back_to_the_same_messages(name: str) -> None:
    t = parse(name)
    assert t.snapshot == render_snapshot(t.format, t.messages)
    again = parse_transcript(t.snapshot.encode(), name, snapshot_format(t.format))
    assert again.messages == t.messages


ROLES = st.one_of(
    st.none(), st.sampled_from(["user", "assistant", "tool_use", "tool_result"]), st.text()
)
MESSAGES = st.lists(st.builds(Message, ROLES, st.text()), max_size=8)


@settings(max_examples=200)
@given(messages=MESSAGES, format=st.sampled_from(STRUCTURED))
def test_snapshot_round_trip(messages: list[Message], format: str) -> None:
    snapshot = render_snapshot(format, messages)
    parsed = parse_transcript(snapshot.encode("utf-8"), "snap", snapshot_format(format))
    assert parsed.messages == tuple(messages)
    assert parsed.snapshot == snapshot


@given(text=st.text())
def test_text_snapshot_round_trip(text: str) -> None:
    snapshot = render_snapshot("text", [Message(None, text)])
    assert parse_transcript(snapshot.encode(), "n", "text").messages == (Message(None, text),)


def test_with_messages_keeps_the_metadata_and_re_renders_the_snapshot() -> None:
    t = parse("claude_session.jsonl")
    masked = [Message(m.role, m.text.replace("pygit2", "[redacted:x]")) for m in t.messages]
    u = t.with_messages(masked)
    assert (u.format, u.name, u.session, u.cwd) == (t.format, t.name, t.session, t.cwd)
    assert u.messages == tuple(masked)
    assert u.snapshot == render_snapshot("claude", masked) and "pygit2" not in u.snapshot
    plain = parse("plain.md").with_messages([Message(None, "masked")])
    assert plain.snapshot == "masked"


# Quotes lie inside one message ----------------------------------------------------------

QUOTES = {
    "claude_session.jsonl": (
        "We will pin pygit2 to 1.14.1 until upstream publishes arm64 wheels",
        "lockfile names it. Bash",
    ),
    "codex_rollout.jsonl": (
        "compares months without years",
        "before changing anything. shell",
    ),
    "codex_legacy.jsonl": (
        "keep the default behaviour unchanged",
        "default behaviour unchanged. shell",
    ),
    "generic.json": (
        "the cache key must include it",
        "English number format. Agreed, include the locale",
    ),
}


@pytest.mark.parametrize(("name", "quotes"), QUOTES.items())
def test_a_quote_inside_one_message_verifies(name: str, quotes: tuple[str, str]) -> None:
    t = parse(name)
    assert check_quote(quotes[0], t.texts()).verbatim is True
    # The same holds against the stored snapshot, read back with its message boundaries.
    stored = parse_transcript(t.snapshot.encode(), name, snapshot_format(t.format))
    assert check_quote(quotes[0], stored.texts()).verbatim is True


@pytest.mark.parametrize(("name", "quotes"), QUOTES.items())
def test_a_quote_stitched_across_two_messages_does_not_verify(
    name: str, quotes: tuple[str, str]
) -> None:
    texts = parse(name).texts()
    check = check_quote(quotes[1], texts)
    assert check.verbatim is False
    assert "joining two messages" in check.reason
    assert check_quote(quotes[1], "\n".join(texts)).verbatim is True  # it is there, stitched
