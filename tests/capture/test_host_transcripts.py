"""Copilot CLI's and Gemini CLI's own session files, read into messages. The fixtures are
small files written here in the formats those hosts write (docs/transcripts.md); real
sessions recorded by the hosts are read in test_real_host_sessions.py."""

from __future__ import annotations

import pytest
from helpers import TESTS

from gitmem.capture.transcripts import detect_format, load_transcript, parse_transcript
from gitmem.core.errors import InputError

DATA = TESTS / "data" / "hosts"


def test_a_copilot_cli_session_is_read_and_detected() -> None:
    path = DATA / "copilot-events.jsonl"
    assert detect_format(path.read_bytes(), path.name) == "copilot"
    t = load_transcript(path)
    assert t.format == "copilot"
    assert t.session == "9a7c1e52-3f0b-4d6e-8b21-5c4d7e0a9f13"
    assert t.cwd == "/work/project"
    assert [m.role for m in t.messages] == [
        "user",
        "assistant",
        "tool_use",
        "tool_result",
        "assistant",
    ]
    user, _, call, result, done = (m.text for m in t.messages)
    assert user.startswith("Let's keep the retry limit at 3")  # not the decorated copy
    assert call == 'bash\n{"command":"grep -n retry src/fetch.py"}'
    assert result == "12:RETRIES = 5"
    assert "TODO: decide whether 502" in done
    assert "thinking about retries" not in t.snapshot  # the model's reasoning is not kept
    assert "current_datetime" not in t.snapshot
    assert t.messages[0].time == "2026-11-20T09:00:05.000000Z"


@pytest.mark.parametrize("name", ["gemini-session.json", "gemini-session.jsonl"])
def test_a_gemini_cli_session_is_read_and_detected_in_both_shapes(name: str) -> None:
    path = DATA / name
    assert detect_format(path.read_bytes(), path.name) == "gemini"
    t = load_transcript(path)
    assert t.format == "gemini" and t.session == "5d1f0e8a-2b3c-4d5e-9f60-718293a4b5c6"
    assert [m.role for m in t.messages] == [
        "user",
        "assistant",
        "tool_use",
        "tool_result",
        "assistant",
    ]
    assert t.messages[0].text.startswith("We decided to move the cache")
    assert t.messages[2].text.startswith('write_file\n{"file_path":"src/cache.py"')
    assert t.messages[3].text == "Successfully wrote src/cache.py"
    assert "private reasoning" not in t.snapshot and "Request cancelled" not in t.snapshot
    last = t.messages[-1].text
    # the log's later copy of a message replaces the first where it stood
    assert last.endswith("(edited)") == name.endswith(".jsonl")


def test_a_json_object_that_is_no_session_is_refused_as_gemini() -> None:
    with pytest.raises(InputError, match="not a Gemini CLI session"):
        parse_transcript(b'{"sessionId": "x", "projectHash": "y", "messages": 3}', "x", "gemini")
    assert detect_format(b'{"hello": "world"}\n', "x.json") == "text"


@pytest.mark.parametrize(
    "text",
    [
        '{"type":"assistant.message","id":"e","timestamp":"x","data":{"content":"a",'
        '"toolRequests":5}}\n',
        '{"sessionId":"s","projectHash":"h","messages":[{"type":"gemini","id":"1",'
        '"content":"a","toolCalls":[{"name":"x","result":7}]},'
        '{"type":"gemini","id":"2","content":"b","toolCalls":{"a":1}}]}',
    ],
)
def test_fields_of_the_wrong_shape_are_skipped_not_a_crash(text: str) -> None:
    t = parse_transcript(text.encode(), "x.json")
    assert t.format in ("copilot", "gemini") and t.messages
