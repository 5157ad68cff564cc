"""Tests for gitmem.core.numbers: a number is one token."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitmem.core.numbers import NUMBER_RE, cuts_number, has_number, hyphen_as_sign, number_tokens


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("took 2.5 seconds", ["2.5"]),
        ("37,500 users", ["37,500"]),
        ("-37 ms and +5 points", ["-37", "+5"]),
        ("release 1.12.0 on 192.168.1.1", ["1.12.0", "192.168.1.1"]),
        ("v1.2 is out", ["1.2"]),
        ("pages 10-20", ["10", "20"]),
        ("the port is 37.", ["37"]),
        ("we said 37, 500 times", ["37", "500"]),
        ("a gain of .5 and -.25", [".5", "-.25"]),
        ("end.5 and wait...5", ["5", "5"]),
        ("no numbers here", []),
        ("at 10:30 in 16:9", ["10:30", "16:9"]),
        ("3/4 of them on 2026/01/02", ["3/4", "2026/01/02"]),
        ("10^6 rows, 10\u2076 rows, 10\u207b\u00b3 s", ["10^6", "10\u2076", "10\u207b\u00b3"]),
        ("1\u00bd hours", ["1\u00bd"]),
        (">500 ms, >=2, ~5 ms, \u22653 but x<5", [">500", ">=2", "~5", "\u22653", "5"]),
        ("api/v1/users at host:8080", ["1", "8080"]),
    ],
)
def test_number_tokens_keep_sign_point_separators_and_version_dots(
    text: str, tokens: list[str]
) -> None:
    assert number_tokens(text) == tokens


@pytest.mark.parametrize(
    ("text", "number", "present"),
    [
        ("took 37.5 ms", "37", False),
        ("37,500 users", "37", False),
        ("37,500 users", "500", False),
        ("-37 ms", "37", False),
        ("+5 points", "5", False),
        ("1.12.0", "12.0", False),
        ("2.5 seconds", "5", False),
        ("see 37.", "37", True),
        ("pages 10-37", "37", True),
        ("37, 500", "500", True),
        ("-37 ms", "-37", True),
        ("at 10:30", "10", False),
        ("3/4 of them", "3", False),
        ("10^6 rows", "10", False),
        ("10\u2076 rows", "10", False),
        ("1\u00bd hours", "1", False),
    ],
)
def test_has_number_compares_whole_tokens(text: str, number: str, present: bool) -> None:
    assert has_number(text, number) is present


@pytest.mark.parametrize(
    ("text", "pos", "cuts"),
    [
        ("2.5", 2, True),  # "2.|5"
        ("2.5", 1, True),  # "2|.5"
        ("37,500", 3, True),
        ("-37", 1, True),
        ("+5", 1, True),
        ("1.12.0", 2, True),
        ("10-20", 3, False),  # a range: "20" is a whole token
        ("10-20", 2, False),
        ("37. next", 2, False),  # sentence-final period
        ("37, 500", 3, False),
        ("v1.2", 1, False),  # letters do not join
        ("x .5", 3, True),
        ("a.5", 2, False),
        ("37", 0, False),
        ("37", 2, False),
        ("10:30", 2, True),
        ("3/4", 1, True),
        ("10^6", 2, True),
        ("10\u2076", 2, True),
        ("1\u00bd", 1, True),
        ("37: open", 2, False),  # a colon that leads to no digit
        ("a/4", 1, False),
    ],
)
def test_cuts_number(text: str, pos: int, cuts: bool) -> None:
    assert cuts_number(text, pos) is cuts


def test_hyphen_as_sign_is_a_range_hyphen_before_a_number() -> None:
    assert hyphen_as_sign("10-20", 2)
    assert hyphen_as_sign("v-.5", 1)
    assert not hyphen_as_sign("x -20", 2)  # a real sign
    assert not hyphen_as_sign("regex-based", 5)
    assert not hyphen_as_sign("10-", 2)


@settings(max_examples=200)
@given(st.text(alphabet="0123456789.,:/^-+<>=~ xa_\u2076\u207b\u00bd", max_size=20))
def test_cuts_number_is_the_token_rule(text: str) -> None:
    inside = {
        pos for token in NUMBER_RE.finditer(text) for pos in range(token.start() + 1, token.end())
    }
    for pos in range(len(text) + 1):
        assert cuts_number(text, pos) is (pos in inside), (text, pos)


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("batch 1e6 rows", ["1e6"]),
        ("a step of 1E-3 and 2.5e+10 ops", ["1E-3", "2.5e+10"]),
        ("-3.0e-7 and .5e2", ["-3.0e-7", ".5e2"]),
        ("1_000_000 rows and 0_5", ["1_000_000", "0_5"]),
        ("1'500 users, 5'10\" tall, the '90s", ["1'500", "5'10", "90"]),
        ("the e-3 flag and 1e- x", ["3", "1"]),
    ],
)
def test_scientific_notation_and_digit_groups_are_one_token(text: str, tokens: list[str]) -> None:
    assert number_tokens(text) == tokens


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("timeout 1e-3 s", "3"),
        ("timeout 1e-3 s", "1"),
        ("batch 1e+6 rows", "6"),
        ("rate 2.5e10 ops", "2.5"),
        ("keep 1_000 workers", "1"),
        ("keep 1_000 workers", "000"),
        ("we had 1'500 users", "500"),
    ],
)
def test_a_part_of_scientific_notation_is_not_its_number(text: str, number: str) -> None:
    assert not has_number(text, number)


@settings(max_examples=300)
@given(st.text(alphabet="0123456789.,:/^-+<>=~ xeE_a'\u2076\u207b\u00bd", max_size=20))
def test_cuts_number_is_the_token_rule_with_exponents(text: str) -> None:
    inside = {
        pos for token in NUMBER_RE.finditer(text) for pos in range(token.start() + 1, token.end())
    }
    for pos in range(len(text) + 1):
        assert cuts_number(text, pos) is (pos in inside), (text, pos)


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("on 2026-01-15 users saw errors", ["2026-01-15"]),
        ("call 555-123-4567 now", ["555-123-4567"]),
        ("in 2026-01 and on 12-05", ["2026-01", "12-05"]),
        ("pages 10-20, steps 1-2-3", ["10", "20", "1-2-3"]),
        ("from 2026-01-15T10:30", ["2026-01-15", "10:30"]),
        ("v-1-2 and 1.5-2-3 and 1-2.3-4", ["1", "2", "1.5-2-3", "1", "2.3", "4"]),
    ],
)
def test_a_date_or_a_chain_of_hyphened_numbers_is_one_token(text: str, tokens: list[str]) -> None:
    # A range ("10-20") is two numbers; a date, a phone number or a zero-padded part
    # ("12-05") is one: "15 users" is not said by "2026-01-15 users".
    assert number_tokens(text) == tokens


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("on 2026-01-15 users saw errors", "15"),
        ("on 2026-01-15 users saw errors", "01-15"),
        ("on 2026-01-15 users saw errors", "2026"),
        ("on 2026-01-15 users saw errors", "2026-01"),
        ("call 555-123-4567", "4567"),
        ("due 12-05", "05"),
    ],
)
def test_a_part_of_a_date_is_not_its_number(text: str, number: str) -> None:
    assert not has_number(text, number)


@settings(max_examples=300)
@given(st.text(alphabet="0123456789-.e x", max_size=24))
def test_cuts_number_is_the_token_rule_with_hyphens(text: str) -> None:
    inside = {
        pos for token in NUMBER_RE.finditer(text) for pos in range(token.start() + 1, token.end())
    }
    for pos in range(len(text) + 1):
        assert cuts_number(text, pos) is (pos in inside), (text, pos)
