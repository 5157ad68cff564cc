"""A report unit that says nothing is needed or left gives no item (issue 27, round 19;
docs/heuristic.md, "The outcome"; status.nothing_left): "No action needed — …", "… —
nothing new clears it", "The cleanup … is already resolved". The finding it rests on is
said where it was found, and what is done needs no carrying. Cases of their own, not copied
from the labelled corpus."""

from __future__ import annotations

import pytest
from helpers.drafts import assert_verbatim, assistant, user

from gitmem.capture.extract.heuristic import extract
from gitmem.capture.extract.heuristic.status import nothing_left

FINDING = "**Yes, the overflow fix is already in parser 2.4**, which the service pins."


@pytest.mark.parametrize(
    "sentence",
    [
        "No action needed — the service already pins the fixed version.",
        "No further changes are required.",
        "**No code changes needed.**",
        "Checked the docs bar again — nothing new qualifies, so no entry.",
        "Nothing left to do in this change dir.",
        "The cache cleanup the handoff owed is already resolved; no such job is running.",
        "Both review threads were already addressed in the last push.",
    ],
)
def test_nothing_needed_is_recognised(sentence: str) -> None:
    assert nothing_left(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        FINDING,
        "The fix is already in place in parser 2.4.",
        "No tests cover the overflow path yet.",
        "Nothing else calls `parse_depth`, so the rename is safe.",
        "Users need no action: telemetry is on by default.",
        "The migration is done; the backfill still needs a run on staging.",
    ],
)
def test_a_statement_is_not_nothing_left(sentence: str) -> None:
    assert not nothing_left(sentence)


@pytest.mark.parametrize(
    "closing",
    [
        "No action needed — the service already pins the fixed version.",
        "The cache cleanup the handoff owed is already resolved; no such job is running.",
    ],
)
def test_a_unit_that_says_nothing_is_left_gives_no_item(closing: str) -> None:
    messages = [
        user("is the overflow fix in the version we use?"),
        assistant(f"{FINDING}\n\n{closing}"),
    ]
    drafts = extract(messages)
    assert [d.quote for d in drafts] == [FINDING]
    assert_verbatim(drafts, messages)


def test_a_unit_read_after_a_sentence_that_says_nothing_is_left_is_read() -> None:
    # Only the unit's first statement decides: a unit that opens with the finding stays.
    unit = "The service pins parser 2.4, so no action needed there."
    messages = [user("is the overflow fix in?"), assistant(f"{FINDING}\n\n{unit}")]
    assert unit in [d.quote for d in extract(messages)]
