"""Tests for gitmem.core.support: what an item's text may say beyond its verified quote."""

from __future__ import annotations

import pytest

from gitmem.core.support import unsupported


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Keep the index in SQLite", "we keep the index in SQLite for now"),
        ("Retry the upload 3 times", "Retry the upload 3 times, then give up."),
        ("No deploys on Fridays", "we will not deploy on Fridays"),
        ("Unterminated ${ may break the depth counter", "I'm not sure the counter handles ${"),
        ("Bump to 1.12.0", "bump the version to 1.12.0"),
    ],
)
def test_a_summary_of_its_quote_is_supported(text: str, quote: str) -> None:
    assert unsupported(text, quote) is None


def test_a_reversal_is_not_supported() -> None:
    reason = unsupported("We deploy on Fridays", "we will not deploy on Fridays")
    assert reason == 'the quote says "not" but the item\'s text has no negation'


def test_a_negation_the_quote_lacks_is_not_supported() -> None:
    reason = unsupported(
        "The cache lives in SQLite, not in JSON files", "the cache lives in SQLite"
    )
    assert reason == 'the item\'s text says "not" but its quote has no negation'


@pytest.mark.parametrize(
    ("text", "quote", "number"),
    [
        ("Retry the upload 5 times", "Retry the upload 3 times", "5"),
        ("Retry the upload 3 times", "retry the upload three times", "3"),
        ("Timeout is 2.5 s", "the timeout is 25 s", "2.5"),
        ("The suite has 410 passing tests", "All tests pass, credo clean", "410"),
    ],
)
def test_a_number_the_quote_lacks_is_not_supported(text: str, quote: str, number: str) -> None:
    reason = unsupported(text, quote)
    assert reason == f'the item\'s text says "{number}", a number its quote does not hold'
