"""The rule gate (gitmem.agents.ask.rules) and the exceptions both gates read
(gitmem.agents.ask.exceptions): an answer quoted from prose takes its condition from
the quoted rule, with the same comparison, and no exception of the rule's block
qualifies it. Pure: text in, a verdict out."""

from __future__ import annotations

import pytest

from gitmem.agents.ask.blocks import SourceFile, rule_block
from gitmem.agents.ask.rows import row_verdict
from gitmem.agents.ask.rules import rule_verdict

RULES = """# Pressure rules

When pressure >= 10, the status is locked.
When pressure < 10, the status is open, except during a purge.
When pressure > 30, the siren sounds.
Transfers of up to 500 EUR need one approval.
Transfers of no more than 50 EUR need none.
Orders of at least 20 items ship free.
Orders of more than 100 items ship by freight.

# Pump

The pump runs at 50% when the tank is below 20%.
Only when the mains supply is on.

# Doors

The door opens after 3 seconds unless the alarm is on.
"""
SOURCE = SourceFile("docs/rules.md", tuple(RULES.split("\n")))


def verdict(question: str, answer: str, quote: str) -> tuple[bool, str] | None:
    start = RULES.index(quote)
    return rule_verdict(question, answer, SOURCE, (start, start + len(quote)))


SAME = [
    (
        "What is the status when pressure is at least 10?",
        "locked",
        "pressure >= 10, the status is locked",
    ),
    ("What is the status when pressure >= 10?", "locked", "pressure >= 10, the status is locked"),
    (
        "What happens when pressure exceeds 30?",
        "the siren sounds",
        "When pressure > 30, the siren sounds.",
    ),
    (
        "How many approvals do transfers of at most 500 EUR need?",
        "one approval",
        "Transfers of up to 500 EUR need one approval.",
    ),
    (
        "How many approvals do transfers of up to 50 EUR need?",
        "none",
        "Transfers of no more than 50 EUR need none.",
    ),
    ("How do orders of 20 items or more ship?", "free", "Orders of at least 20 items ship free."),
    (
        "How do orders of over 100 items ship?",
        "by freight",
        "Orders of more than 100 items ship by freight.",
    ),
]
OTHER = [
    ("What happens when pressure >10?", "locked", "pressure >= 10, the status is locked"),
    (
        "What is the status when pressure is more than 10?",
        "locked",
        "pressure >= 10, the status is locked",
    ),
    ("What is the status when pressure <= 10?", "open", "pressure < 10, the status is open"),
    (
        "What happens when pressure is at least 30?",
        "the siren sounds",
        "When pressure > 30, the siren sounds.",
    ),
    (
        "How many approvals do transfers of under 500 EUR need?",
        "one approval",
        "Transfers of up to 500 EUR need one approval.",
    ),
    (
        "How many approvals do transfers of less than 50 EUR need?",
        "none",
        "Transfers of no more than 50 EUR need none.",
    ),
    ("How do orders of more than 20 items ship?", "free", "Orders of at least 20 items ship free."),
    (
        "How do orders of 100 items or more ship?",
        "by freight",
        "Orders of more than 100 items ship by freight.",
    ),
]


@pytest.mark.parametrize(("question", "answer", "quote"), SAME)
def test_the_same_comparison_in_question_and_rule_is_released(
    question: str, answer: str, quote: str
) -> None:
    assert verdict(question, answer, quote) == (
        True,
        "the quote's rule states the question's condition (docs/rules.md)",
    )


@pytest.mark.parametrize(("question", "answer", "quote"), OTHER)
def test_another_comparison_is_a_weaker_or_different_condition(
    question: str, answer: str, quote: str
) -> None:
    found = verdict(question, answer, quote)
    assert found is not None and not found[0]
    assert "a weaker or different condition" in found[1]


def test_a_compared_number_the_quote_does_not_state_is_unstated() -> None:
    found = verdict(
        "What is the status when pressure is over 12?", "locked", "the status is locked"
    )
    assert found is not None and "does not state 12" in found[1]


def test_a_question_without_numbers_or_exceptions_has_nothing_to_check() -> None:
    plain = SourceFile("docs/siren.md", ("# Siren", "", "The siren sounds at noon."))
    quote = (len("# Siren\n\n"), len("# Siren\n\nThe siren sounds at noon."))
    assert rule_verdict("When does the siren sound?", "at noon", plain, quote) == (
        True,
        "the quote's rule states the question's condition (docs/siren.md)",
    )
    assert rule_verdict("What does the siren do?", "sounds at noon", plain, quote) is None


def test_a_qualifying_sentence_of_the_block_withholds_whether_or_not_it_is_quoted() -> None:
    question = "How fast does the pump run when the tank is below 20%?"
    alone = verdict(question, "50%", "The pump runs at 50% when the tank is below 20%.")
    both = verdict(
        question,
        "50%",
        "The pump runs at 50% when the tank is below 20%.\nOnly when the mains supply is on.",
    )
    for found in (alone, both):
        assert found is not None and not found[0] and "an exception applies" in found[1]


def test_the_rules_own_exception_withholds_unless_the_answer_carries_it() -> None:
    question = "When does the door open?"
    found = verdict(question, "after 3 seconds", "The door opens after 3 seconds")
    assert found is not None and "an exception applies" in found[1]
    carried = verdict(
        question,
        "after 3 seconds unless the alarm is on",
        "The door opens after 3 seconds unless the alarm is on.",
    )
    assert carried is not None and carried[0]


def test_another_rules_exception_does_not_qualify_the_quoted_rule() -> None:
    found = verdict(
        "What is the status when pressure >= 10?", "locked", "pressure >= 10, the status is locked"
    )
    assert found is not None and found[0]


def test_a_condition_question_is_not_answered_with_the_outcome_it_gives() -> None:
    found = verdict("When is the status locked?", "locked", "pressure >= 10, the status is locked")
    assert found is not None and "what the question gives" in found[1]
    named = verdict(
        "When is the status locked?", "pressure >= 10", "pressure >= 10, the status is locked"
    )
    assert named is not None and named[0]


def test_a_rule_block_is_its_paragraph_or_list() -> None:
    lines = RULES.split("\n")
    block = rule_block(lines, 3, 3)
    assert lines[block.start] == "When pressure >= 10, the status is locked."
    assert lines[block.stop - 1] == "Orders of more than 100 items ship by freight."


SEAL = """| Status | Condition |
|---|---|
| locked | the seal is open |
| open | the seal is closed |

Except during maintenance.
"""


def test_a_condition_question_is_routed_to_the_rows_condition() -> None:
    source = SourceFile("docs/seal.md", tuple(SEAL.split("\n")))
    quote = "locked | the seal is open"
    start = SEAL.index(quote)
    found = row_verdict(
        "Under what condition is the status locked?",
        "the seal is open",
        source,
        (start, start + len(quote)),
    )
    assert found is not None and not found.ok
    assert found.detail.startswith('an exception applies: "Except during maintenance."')
    plain = SourceFile("docs/seal.md", tuple(SEAL.split("\n")[:4]))
    found = row_verdict(
        "Under what condition is the status locked?",
        "the seal is open",
        plain,
        (start, start + len(quote)),
    )
    assert found is not None and found.ok, found
