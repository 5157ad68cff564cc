"""Fuzz: every transcript parser, on hostile files, parses or refuses with one InputError.

Whatever it parses can be stored: the snapshot is UTF-8, it parses back to the same
messages, and masking it raises nothing. A hostile line among good ones is skipped and
counted, never fatal (docs/transcripts.md).
"""

from __future__ import annotations

from helpers import TESTS
from helpers.hostile import (
    CLAUDE,
    CODEX,
    FUZZ,
    GENERIC,
    MESSAGES,
    hostile_jsonl,
    hostile_lines,
    slot_value,
    to_bytes,
)
from hypothesis import given
from hypothesis import strategies as st

from gitmem.capture.prepare import prepare
from gitmem.capture.run import default_session
from gitmem.capture.transcripts import parse_transcript
from gitmem.core.errors import InputError
from gitmem.core.transcript import Transcript, parse_snapshot

DATA = TESTS / "data" / "transcripts"


def good_lines(name: str) -> tuple[str, ...]:
    text = (DATA / name).read_text(encoding="utf-8")
    return tuple(line for line in text.splitlines() if line.strip())


CLAUDE_GOOD = good_lines("claude_session.jsonl")
CODEX_GOOD = good_lines("codex_rollout.jsonl") + good_lines("codex_legacy.jsonl")
MESSAGES_GOOD = ('{"role":"user","text":"we pin pygit2 to 1.19"}',)


def assert_storable(transcript: Transcript) -> None:
    """What a capture does with a parsed transcript next must not raise."""
    data = transcript.snapshot.encode("utf-8")
    again = parse_snapshot(data, transcript.name, transcript.format)
    assert again.messages == transcript.messages
    prepared = prepare(transcript, {}, None)
    prepared.snapshot.decode("utf-8")
    default_session(transcript, None).encode("utf-8")
    assert all(isinstance(s, str) for s in transcript.skipped)


def parse_or_refuse(data: bytes, format: str | None) -> Transcript | None:
    try:
        transcript = parse_transcript(data, "session.jsonl", format)
    except InputError as e:
        assert "\n" not in str(e) and len(str(e)) < 400, str(e)
        return None
    assert_storable(transcript)
    return transcript


@FUZZ
@given(hostile_jsonl(CLAUDE_GOOD, CLAUDE), st.sampled_from(("claude", None)), st.integers(0, 2))
def test_claude_sessions(text: str, format: str | None, mangle: int) -> None:
    parse_or_refuse(to_bytes(text, mangle), format)


@FUZZ
@given(hostile_jsonl(CODEX_GOOD, CODEX), st.sampled_from(("codex", None)), st.integers(0, 2))
def test_codex_sessions(text: str, format: str | None, mangle: int) -> None:
    parse_or_refuse(to_bytes(text, mangle), format)


@FUZZ
@given(hostile_jsonl(MESSAGES_GOOD, MESSAGES), st.sampled_from(("messages", None)))
def test_messages_encoding(text: str, format: str | None) -> None:
    parse_or_refuse(to_bytes(text, 0), format)


@FUZZ
@given(st.lists(hostile_lines(GENERIC), max_size=4), st.integers(0, 2))
def test_generic_json_lists(items: list[str], mangle: int) -> None:
    parse_or_refuse(to_bytes("[" + ",".join(items) + "]", mangle), "json")
    parse_or_refuse(to_bytes("[" + ",".join(items) + "]", mangle), None)


@FUZZ
@given(slot_value, st.sampled_from(("json", "claude", "codex", "messages", "text", None)))
def test_any_json_value_as_a_whole_file(value: str, format: str | None) -> None:
    parse_or_refuse(to_bytes(value, 0), format)


@FUZZ
@given(
    st.sampled_from((("claude_session.jsonl", CLAUDE), ("codex_rollout.jsonl", CODEX))),
    st.data(),
)
def test_one_hostile_line_in_a_session_is_skipped_and_counted(
    fixture: tuple[str, tuple[str, ...]], data: st.DataObject
) -> None:
    name, templates = fixture
    lines = list(good_lines(name))
    whole = parse_transcript("\n".join(lines).encode(), name)
    bad = data.draw(hostile_lines(templates))
    where = data.draw(st.integers(0, len(lines)))
    lines.insert(where, bad)
    transcript = parse_transcript("\n".join(lines).encode(), name)
    assert_storable(transcript)
    if transcript.skipped:
        assert len(transcript.skipped) == 1
        assert transcript.messages == whole.messages
