"""Restatement, driven directly: when is a later statement the same claim?"""

from __future__ import annotations

import pytest

from gitmem.lifecycle.sameclaim import content_words, same_claim, same_subject


def same(text: str, other: str, quote: str | None = None, other_quote: str | None = None) -> bool:
    return same_claim("decision", text, quote, "decision", other, other_quote)


def test_filler_words_and_word_order_do_not_make_another_claim() -> None:
    assert same("Keep the parser in src/parser.py", "We agreed: now keep parser in src/parser.py")
    assert same("Use SQLite for the cache", "for the cache, use SQLite")


@pytest.mark.parametrize(
    ("text", "other"),
    [
        (
            "Keep the parser module in src/parser.py",
            "Keep the tokenizer module in src/tokenizer.py",
        ),
        ("Use SQLite for the cache", "Use SQLite for the search cache"),
        ("the", "a"),
    ],
    ids=["a different name or path", "an extra content word", "an empty statement"],
)
def test_another_claim(text: str, other: str) -> None:
    assert not same(text, other)


def test_different_kinds_never_match_on_words() -> None:
    assert not same_claim("decision", "Ship it", None, "open_loop", "Ship it", None)


def test_a_quote_containing_the_earlier_quote_is_the_same_claim() -> None:
    assert same(
        "Freeze the API",
        "API frozen until 2.0",
        quote="as I said before, we freeze the public API until 2.0",
        other_quote="we freeze the public API until 2.0",
    )


def test_a_short_quote_pins_nothing() -> None:
    assert not same("A", "B", quote="ok then yes", other_quote="ok then")


def test_content_words_fold_case_punctuation_and_dashes() -> None:
    assert content_words("We’ll use the “fast” path — OK?") == content_words(
        'we\'ll use the "fast" path - ok'
    )
    assert "src/parser.py" in content_words("keep src/parser.py")


@pytest.mark.parametrize(
    ("earlier", "later"),
    [
        ("set the retry limit to 3", "set the retry limit to 30"),
        ("the timeout is 5 seconds", "the timeout is 2.5 seconds"),
        ("the batch holds 500 rows", "the batch holds 37,500 rows"),
        ("the offset is 37 ms", "the offset is -37 ms"),
        ("pin the parser at 12.0", "pin the parser at 1.12.0"),
    ],
)
def test_a_different_number_is_a_different_claim(earlier: str, later: str) -> None:
    for quote, other in ((later, earlier), (earlier, later)):
        assert not same(quote.capitalize(), other.capitalize(), quote, other)
    assert same_subject("decision", later, "decision", earlier)


@pytest.mark.parametrize("negation", ["not", "never", "no longer", "don't"])
def test_a_negation_added_or_removed_is_a_different_claim(negation: str) -> None:
    plain = "we ship the parser on friday"
    negated = f"we {negation} ship the parser on friday"
    assert not same(plain.capitalize(), negated.capitalize(), plain, negated)
    assert not same(negated.capitalize(), plain.capitalize(), negated, plain)
    assert same_subject("decision", negated, "decision", plain)


@pytest.mark.parametrize(
    ("earlier", "later"),
    [
        ("keep the parser in src/parser.py", "keep the parser in lib/parser.py"),
        ("review PR #12 before the release", "review PR #14 before the release"),
        ("pin click at 8.1", "pin click at 8.2"),
    ],
)
def test_a_different_named_thing_is_a_different_claim(earlier: str, later: str) -> None:
    assert not same(earlier.capitalize(), later.capitalize(), earlier, later)
    assert same_subject("decision", later, "decision", earlier)


def test_a_longer_quote_with_the_same_values_is_the_same_claim() -> None:
    assert same(
        "Freeze the API",
        "API frozen",
        "as I said before, we freeze the public API until 2.0",
        "we freeze the public API until 2.0",
    )


def test_different_subjects_are_no_supersession() -> None:
    assert not same_subject(
        "decision",
        "Keep the tokenizer module in src/tokenizer.py",
        "decision",
        "Keep the parser module in src/parser.py",
    )
    assert not same_subject("decision", "Use SQLite", "decision", "Use SQLite")
    assert not same_subject("decision", "limit 3", "open_loop", "limit 30")
