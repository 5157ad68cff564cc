"""Tests for gitmem.core.measures: a number's unit, magnitude and words, in digits or in
words."""

from __future__ import annotations

import pytest

from gitmem.core.measures import in_digits
from gitmem.core.support import unsupported


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Set the timeout to thirty minutes", "Set the timeout to 30 seconds"),
        ("The timeout is five seconds", "the timeout is 5 minutes"),
        ("The timeout is five seconds", "the timeout is five minutes"),
        ("Poll every twenty-five ms", "poll every 25 s"),
        ("Keep one hour of logs", "keep 1 day of logs"),
    ],
)
def test_a_number_in_words_in_another_unit_is_not_supported(text: str, quote: str) -> None:
    reason = unsupported(text, quote)
    assert reason is not None and "in another unit" in reason


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Set the timeout to thirty seconds", "Set the timeout to 30 seconds"),
        ("The timeout is five minutes", "the timeout is 5 minutes"),
        ("Poll every twenty five ms", "poll every 25 milliseconds"),
    ],
)
def test_a_number_in_words_in_its_unit_is_supported(text: str, quote: str) -> None:
    assert unsupported(text, quote) is None


def test_only_a_number_in_words_before_a_unit_is_read_as_digits() -> None:
    assert in_digits("thirty minutes, twenty-five ms") == "30 minutes, 25 ms"
    assert in_digits("one of the five users") == "one of the five users"
    assert in_digits("seventeen seconds") == "17 seconds"
