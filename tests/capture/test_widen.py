"""A quote cut from its condition keeps its evidence as its whole sentence, and only then
(gitmem.capture.widen, through build_items)."""

from __future__ import annotations

import pytest

from gitmem.capture.checkpoint import build_items, mask_draft
from gitmem.capture.prepare import prepare
from gitmem.capture.standing import CONDITION, standing
from gitmem.capture.widen import MAX_WIDENED, WIDENED, widened
from gitmem.core.items import Draft, Item, Kind, Trust
from gitmem.core.transcript import Message, plain_transcript

SNAPSHOT = "0" * 64


def captured(message: str, kind: Kind, quote: str, text: str = "We revert it") -> Item:
    transcript = plain_transcript("", "s").with_messages(
        [Message("user", "What now?"), Message("assistant", message)]
    )
    (item,) = build_items([Draft(kind, text, Trust.VERBATIM, quote, {})], transcript, "s", SNAPSHOT)
    return item


@pytest.mark.parametrize(
    ("message", "quote", "sentence"),
    [
        (
            "Done.\n- **Rollback plan:** If CI fails, we pin the old parser.",
            "we pin the old parser.",
            "If CI fails, we pin the old parser.",
        ),
        (
            "**Assistant:** If the benchmark regresses, we revert the parser change.",
            "we revert the parser change",
            "If the benchmark regresses, we revert the parser change.",
        ),
        (
            "> 1. We ship on Friday unless QA objects; the rest waits.",
            "We ship on Friday",
            "We ship on Friday unless QA objects",
        ),
    ],
)
def test_the_sentence_starts_after_its_lines_markers_and_run_in_label(
    message: str, quote: str, sentence: str
) -> None:
    item = captured(message, Kind.DECISION, quote)
    assert item.trust == Trust.VERBATIM, item.quote_reason
    assert item.quote == item.text == sentence
    assert item.extra["summary"] == "We revert it"
    assert (item.quote_reason or "").endswith(WIDENED)


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        # the label the widening passes over is still read: an option decides nothing
        ("**Option A:** if CI fails, we pin the old parser for good.", "we pin the old parser"),
        # a condition in a nested item is not in the sentence
        ("- We deploy the parser on Fridays\n  - only if QA approves", "We deploy the parser"),
        # a cross mark a reader may pass over
        ("- ❌ If CI fails, we pin the old parser.", "we pin the old parser."),
        # the sentence is a question
        ("If CI fails, should we pin the old parser?", "we pin the old parser"),
        # struck through
        ("~~If CI fails, we pin the old parser.~~", "we pin the old parser."),
        # a sentence too long to be an item's text
        ("If " + "the build " * 40 + "fails, we pin the old parser.", "we pin the old parser."),
        # an ellipsis is an alteration, never widened
        ("If CI fails, we pin the old parser and tag it.", "we pin … and tag it."),
    ],
)
def test_a_sentence_that_does_not_stand_leaves_the_quote_refused(message: str, quote: str) -> None:
    item = captured(message, Kind.DECISION, quote)
    assert item.trust == Trust.INFERRED
    assert item.quote is None and "summary" not in item.extra


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        ("Don't use Redis for the cache.", "use Redis for the cache."),  # a negation
        ("I doubt we need Redis for the cache.", "we need Redis for the cache."),
        ("We could use Redis for the cache.", "use Redis for the cache."),  # a possibility
        ("He said we should drop Redis for the cache.", "we should drop Redis for the cache."),
    ],
)
def test_what_a_sentence_cannot_carry_into_a_decision_is_never_widened(
    message: str, quote: str
) -> None:
    item = captured(message, Kind.DECISION, quote)
    assert item.trust == Trust.INFERRED
    assert item.quote is None


def test_an_open_loop_or_a_belief_is_not_widened() -> None:
    message = "If CI fails, we pin the old parser."
    # an open loop may hang on a condition: it stands as quoted
    loop = captured(message, Kind.OPEN_LOOP, "we pin the old parser.", "Pin the old parser")
    assert loop.trust == Trust.VERBATIM and loop.quote == "we pin the old parser."
    assert widened("we pin the old parser.", message, Kind.BELIEF, CONDITION) is None


def test_a_sentence_that_holds_a_masked_secret_is_not_widened() -> None:
    key = "sk-" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0"
    transcript = plain_transcript("", "s").with_messages(
        [Message("assistant", f"If the key {key} leaks, we rotate the API keys.")]
    )
    prepared = prepare(transcript, {}, None)
    draft = mask_draft(
        Draft(Kind.DECISION, "Rotate", Trust.VERBATIM, "we rotate the API keys.", {})
    )
    (item,) = build_items([draft], prepared.transcript, "s", SNAPSHOT)
    # the sentence would show the mask as said: the item stays refused, nothing widened
    assert item.trust == Trust.INFERRED
    assert item.quote is None and "summary" not in item.extra
    assert key not in repr(item)


def test_only_a_condition_is_widened_and_the_sentence_is_bounded() -> None:
    message = "If CI fails, we pin the old parser."
    assert standing("we pin the old parser.", message, Kind.DECISION) == CONDITION
    assert widened("we pin the old parser.", message, Kind.DECISION, "another reason") is None
    assert widened("we pin the old parser.", message, Kind.DECISION, CONDITION) == message
    long = "If " + "x" * MAX_WIDENED + ", we pin the old parser."
    assert widened("we pin the old parser.", long, Kind.DECISION, CONDITION) is None
    assert widened("not in it", message, Kind.DECISION, CONDITION) is None
