"""An item's text that cannot be compared with its quote (another language of the same
letters, or not one word in common) is not shown beside the badge: no rule could tell that
it reverses its quote."""

from __future__ import annotations

import pytest

from gitmem.core.comparable import incomparable, no_shared_word, other_language
from gitmem.core.support import shown_text, unsupported

REVERSED_IN_ANOTHER_LANGUAGE = [
    ("We deploy on Fridays.", "Wir deployen freitags nicht mehr."),
    ("Use Redis for the cache.", "Redis için önbellek kullanmayalım."),
    ("Keep the legacy API.", "On supprime l'ancienne API."),
    ("Retries are enabled.", "Los reintentos están desactivados."),
    ("The migration is done.", "La migração ainda não está pronta."),
    ("The cache is shared.", "La cache non è condivisa tra i worker."),
    ("Tests run on every push.", "De tests draaien niet meer bij elke push."),
]


@pytest.mark.parametrize(("text", "quote"), REVERSED_IN_ANOTHER_LANGUAGE)
def test_a_text_in_another_language_than_its_quote_is_not_supported(text: str, quote: str) -> None:
    reason = unsupported(text, quote)
    assert reason is not None and "no word of one can be checked" in reason
    # the quote, the transcript's own words, is what is shown
    assert shown_text(text, quote)[0] == quote


@pytest.mark.parametrize(
    ("text", "quote", "language"),
    [
        ("We deploy on Fridays.", "Wir deployen freitags nicht mehr.", "German"),
        ("Use Redis for the cache.", "Redis için önbellek kullanmayalım.", "Turkish"),
        ("The cache is shared.", "La cache non è condivisa tra i worker.", "Italian"),
    ],
)
def test_the_reason_names_the_quotes_language(text: str, quote: str, language: str) -> None:
    reason = other_language(text, quote)
    assert reason is not None and f"its quote in {language}" in reason


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Redis nicht mehr nutzen", "Wir nutzen Redis nicht mehr."),
        ("Önbellek için Redis kullanılmayacak", "Redis için önbellek kullanmayalım."),
        ("We keep Postgres", "we keep Postgres for now"),
        ("Tests run in CI", "the tests now run in CI on every push"),
        # code and names are in no language: "env var", "per" and "non-" are English too
        ("The resolution order ends at the env var", "explicit param → env var → default"),
        ("Squash-merge per repo convention", "All green. Squash-merging per repo convention."),
        ("`--agent` runs non-interactively", "`--agent` runs in non-interactive mode"),
        # too little to tell: one short word of three languages
        ("Keep the legacy API.", "Eliminamos la API antigua."),
    ],
)
def test_a_text_in_its_quotes_language_or_too_short_to_tell_is_left_to_the_other_rules(
    text: str, quote: str
) -> None:
    assert other_language(text, quote) is None


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("The migration is done.", "La migración todavía no está hecha."),
        ("Tests are green", "All 59 checks passed."),
        ("Cleanup of the probe skill is pending", "2. **Feature Flags Needed:**"),
    ],
)
def test_a_text_that_shares_no_word_with_its_quote_is_not_supported(text: str, quote: str) -> None:
    assert no_shared_word(text, quote) is not None
    assert incomparable(text, quote) is not None


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Deployment done", "deployed to prod"),  # one word in two forms
        ("Caching enabled", "We cache the responses now"),
        ("Retries enabled", "the retry is on"),  # a plural
        ("NewClient takes the enabled flag", "Changed `NewClient(version string)`"),  # a name
        ("Not yet.", "The build is green."),  # only short words: the other rules decide
    ],
)
def test_one_word_in_any_form_is_enough(text: str, quote: str) -> None:
    assert no_shared_word(text, quote) is None


@pytest.mark.parametrize(
    "pair",
    [
        ("", ""),
        ("'''", "’’’"),
        ("l'", "l'"),
        ("a" * 5000, "a " * 5000),
        ("\u0301\u200d", "de de de"),
    ],
)
def test_odd_input_raises_nothing(pair: tuple[str, str]) -> None:
    incomparable(*pair)


def test_a_huge_text_and_quote_are_compared_within_a_bound() -> None:
    """A teammate's record may hold a megabyte of words that all begin alike; past
    MOST_COMPARED words a side, a text is refused rather than trusted."""
    from gitmem.core import comparable

    tails = [a + b + c + d for a in "klmnopq" for b in "klmnopq" for c in "klmnopq" for d in "kl"]
    assert len(tails) > comparable.MOST_COMPARED
    # every word begins "abcd", and no two are one word in another form
    text = " ".join(f"abcdxxxx{tail}" for tail in tails)
    quote = " ".join(f"abcdyyyy{tail}" for tail in tails)
    assert no_shared_word(text, quote) is not None
    # a word the quote holds in another form is looked for among those that begin alike
    assert no_shared_word("zzzzdeploying", quote + " zzzzdeployed") is None
    # but only among the first MOST_COMPARED of them, and for as many of the text's
    assert no_shared_word("abcdyyyyzzing", quote + " abcdyyyyzzed") is not None
    assert no_shared_word(text + " zzzzdeploying", quote + " zzzzdeployed") is not None
