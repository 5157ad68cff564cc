"""Tests for gitmem.core.negation: negation words and polarity."""

from __future__ import annotations

import pytest

from gitmem.core.negation import negations, polarity_conflict

WORDS = [
    *("not", "never", "no", "none", "nobody", "nothing", "nowhere", "neither", "nor"),
    *("without", "cannot", "don't", "won't", "isn't", "shouldn't", "dont", "cant"),
]


@pytest.mark.parametrize("word", WORDS)
def test_each_negation_word_is_found(word: str) -> None:
    assert negations(f"we {word} deploy") == [word]


def test_negations_are_found_after_folding() -> None:
    assert negations("We **DON’T** deploy, and NEVER on `Fridays`") == ["don't", "never"]


@pytest.mark.parametrize("text", ["knot notable", "nonetheless", "snow", "nothingness", "Nordic"])
def test_words_that_only_contain_a_negation_are_not_negations(text: str) -> None:
    assert negations(text) == []


def test_polarity_conflict_when_the_quote_negates_and_the_text_does_not() -> None:
    reason = polarity_conflict("We deploy on Fridays", "we will not deploy on Fridays")
    assert reason == 'the quote says "not" but the item\'s text has no negation'


def test_polarity_conflict_when_the_text_negates_and_the_quote_does_not() -> None:
    reason = polarity_conflict("Never deploy on Fridays", "deploy on Fridays")
    assert reason == 'the item\'s text says "never" but its quote has no negation'


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("No deploys on Fridays", "we will not deploy on Fridays"),
        ("Deploys happen on Fridays", "we deploy on Fridays"),
        ("We don’t deploy on Fridays", "We do NOT deploy… on Fridays"),
    ],
)
def test_polarity_agrees(text: str, quote: str) -> None:
    assert polarity_conflict(text, quote) is None
