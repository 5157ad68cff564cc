"""The conditions the row gate compares (gitmem.agents.ask.conditions): numbers as whole
tokens with the relation their text puts on them, negated words, and what a question
asks about. Pure."""

from __future__ import annotations

import pytest

from gitmem.agents.ask.conditions import (
    asks_for_condition,
    negated_words,
    numbers_in,
    question_condition,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("over 10 kg", [("10", ">")]),
        ("more than 1,000 km", [("1,000", ">")]),
        ("older than 12", [("12", ">")]),
        ("10 items or more", [("10", ">=")]),
        ("at least 50 kg", [("50", ">=")]),
        ("≥ 10", [("10", ">=")]),
        (">= 10", [("10", ">=")]),
        ("pressure >10", [("10", ">")]),
        ("<= 10", [("10", "<=")]),
        ("< 10", [("10", "<")]),
        ("greater than or equal to 10", [("10", ">=")]),
        ("more than or equal to 10", [("10", ">=")]),
        ("less than or equal to 10", [("10", "<=")]),
        ("no less than 10", [("10", ">=")]),
        ("12+", [("12", ">=")]),
        ("not over 10 kg", [("10", "<=")]),
        ("no more than 3 items", [("3", "<=")]),
        ("within 30 days", [("30", "<=")]),
        ("up to 999 km", [("999", "<=")]),
        ("under 12", [("12", "<")]),
        ("below -5 °C", [("-5", "<")]),
        ("-5 °C to 5 °C", [("-5", "range"), ("5", "range")]),
        ("between -5 and 5 °C", [("-5", "range"), ("5", "range")]),
        ("10 kg - 20 kg", [("10", "range"), ("20", "range")]),
        ("37.5 litres", [("37.5", "=")]),
        ("5% off", [("5", "=")]),
        ("-37 ms and 37,500 litres", [("-37", "="), ("37,500", "=")]),
    ],
)
def test_numbers_are_whole_tokens_with_their_relation(
    text: str, expected: list[tuple[str, str]]
) -> None:
    assert [(n.token, n.relation.value) for n in numbers_in(text)] == expected


@pytest.mark.parametrize(
    ("text", "negated"),
    [
        ("Item not damaged, opened", {"damaged"}),
        ("5 EUR unless paid by card", {"paid", "card"}),
        ("non-fragile parcels", {"fragile"}),
        ("no more than 3 items", set()),
        ("Item damaged on arrival", set()),
    ],
)
def test_negated_words_stop_at_the_clause(text: str, negated: set[str]) -> None:
    assert negated_words(text) == negated


def test_a_question_condition_leaves_out_asking_and_comparison_words() -> None:
    condition = question_condition("What refund do I get for something returned within 30 days?")
    assert condition.words == ("refund", "returned", "days")
    assert [(n.token, n.relation.value) for n in condition.numbers] == [("30", "<=")]
    assert question_condition("Which fee applies to a non-fragile parcel?").negated == {"fragile"}


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("Under what condition is the status locked?", True),
        ("When is the express fee 9 EUR?", True),
        ("In which case is the fee waived?", True),
        ("What conditions lock the valve?", True),
        ("What happens when pressure >10?", False),
        ("What is the status when pressure is over 10?", False),
    ],
)
def test_a_question_that_asks_for_a_condition_is_told_apart(question: str, asks: bool) -> None:
    assert asks_for_condition(question) is asks


def test_a_condition_question_does_not_count_its_asking_words_as_conditions() -> None:
    condition = question_condition("Under what condition is the status locked?")
    assert condition.asks_condition and condition.words == ("status", "locked")
    assert question_condition("What is the condition of the seal?").words == ("condition", "seal")
