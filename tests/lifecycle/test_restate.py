"""Restatement, driven directly: when is a later statement the same claim?"""

from __future__ import annotations

from gitmem.lifecycle.restate import content_words, same_claim


def same(text: str, other: str, quote: str | None = None, other_quote: str | None = None) -> bool:
    return same_claim("decision", text, quote, "decision", other, other_quote)


def test_filler_words_and_word_order_do_not_make_another_claim() -> None:
    assert same("Keep the parser in src/parser.py", "We agreed: now keep parser in src/parser.py")
    assert same("Use SQLite for the cache", "for the cache, use SQLite")


def test_a_different_name_or_path_is_another_claim() -> None:
    assert not same(
        "Keep the parser module in src/parser.py", "Keep the tokenizer module in src/tokenizer.py"
    )


def test_an_extra_content_word_is_another_claim() -> None:
    assert not same("Use SQLite for the cache", "Use SQLite for the search cache")


def test_different_kinds_never_match_on_words() -> None:
    assert not same_claim("decision", "Ship it", None, "open_loop", "Ship it", None)


def test_a_quote_containing_the_earlier_quote_is_a_restatement() -> None:
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


def test_an_empty_statement_matches_nothing() -> None:
    assert not same("the", "a")
