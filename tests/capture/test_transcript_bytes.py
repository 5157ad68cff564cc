"""How a transcript's text flows through capture: held once, hashed without being
encoded whole, read line by line without a string per line (benchmarks/bench_memory.py
measures the peak of a 50 MB capture)."""

from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from gitmem.capture.echoes import tag_echoes
from gitmem.capture.extract.heuristic.sentences import Lines
from gitmem.capture.prepare import prepare
from gitmem.core.transcript import Message, plain_transcript


def test_the_snapshot_address_and_size_are_those_of_its_bytes() -> None:
    # Over a megabyte of text, multi-byte characters across every slice boundary.
    text = ("é€𝄞 plain words\n" * 70_000) + "the end"
    prepared = prepare(plain_transcript(text, "long.md"), {}, None)
    data = prepared.snapshot
    assert prepared.snapshot_address == hashlib.sha256(data).hexdigest()
    assert prepared.snapshot_size == len(data) > 1 << 20


def test_a_plain_transcript_without_secrets_is_held_once() -> None:
    text = "We decided to keep the parser.\n" * 1000
    transcript = plain_transcript(text, "notes.md")
    prepared = prepare(transcript, {}, None)
    assert prepared.transcript.messages[0].text is text
    assert prepared.transcript.snapshot is text


def test_a_message_with_nothing_to_tag_is_not_cut_into_lines() -> None:
    message = Message("user", "line one\nline two\n")
    tagged, count = tag_echoes([message], {"some emitted text of enough words": 1.0}, None)
    assert count == 0 and tagged[0] is message


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(st.text(alphabet="ab \n\r", max_size=40))
def test_lines_read_as_the_text_cut_at_line_breaks(text: str) -> None:
    lines = Lines(text)
    split = text.split("\n")
    assert len(lines) == len(split)
    assert list(lines) == split == lines[:]
    for first in range(len(split)):
        for last in range(first, len(split)):
            assert lines.block(first, last) == "\n".join(split[first : last + 1])
