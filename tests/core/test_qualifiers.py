"""Tests for gitmem.core.qualifiers: a text may not drop the word that says how likely,
how often, or that it is only meant or tried."""

from __future__ import annotations

import pytest

from gitmem.core.support import unsupported


@pytest.mark.parametrize(
    ("text", "quote", "word"),
    [
        (
            "We switch the cache to SQLite",
            "We will probably switch the cache to SQLite",
            "probably",
        ),
        ("The cache is stale", "the cache is apparently stale", "apparently"),
        ("We deploy on Fridays", "We rarely deploy on Fridays", "rarely"),
        ("The upload test fails", "the upload test sometimes fails", "sometimes"),
        ("We drop Redis", "We plan to drop Redis next sprint", "plan to"),
        ("We migrate to Postgres", "We want to migrate to Postgres", "want to"),
        ("We cached the sessions", "we tried to cache the sessions", "tried to"),
        ("We deploy on Fridays", "We deploy on Fridays, probably.", "probably"),
        ("We use Redis for the cache", "We tried Redis for the cache", "tried"),
        ("We chose Redis for the cache", "We considered Redis for the cache", "considered"),
        ("We adopted Redis for the cache", "we evaluated Redis for the cache", "evaluated"),
        ("Use Redis for the cache", "we proposed Redis for the cache", "proposed"),
        ("We lost the production data", "We almost lost the production data", "almost"),
        ("The migration is done", "The migration is partly done", "partly"),
        ("The migration is done", "the migration is mostly done", "mostly"),
        ("The tests fail on CI", "Half of the tests fail on CI", "half"),
        ("The client retries 5 times", "the client retries up to 5 times", "up to"),
        ("The client retries 5 times", "the client retries more than 5 times", "more than"),
        ("Admins can delete projects", "Only admins can delete projects", "only"),
        ("We drop Redis", "We should drop Redis eventually", "eventually"),
        ("We use Redis for the cache", "Initially we use Redis for the cache", "initially"),
        ("The cache is stale", "It seems the cache is stale", "seems"),
        ("The parser leaks memory", "I suspect the parser leaks memory", "suspect"),
        ("The index is corrupt", "the index appears to be corrupt", "appears to"),
    ],
)
def test_a_text_that_drops_its_quotes_qualifier_is_not_supported(
    text: str, quote: str, word: str
) -> None:
    reason = unsupported(text, quote)
    assert reason is not None and reason.startswith(f'the quote says "{word}" (')


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        (
            "We will likely switch the cache to SQLite",
            "We will probably switch the cache to SQLite",
        ),
        ("We seldom deploy on Fridays", "We rarely deploy on Fridays"),
        ("We intend to drop Redis", "We plan to drop Redis next sprint"),
        ("Metadata does not point back", "Metadata doesn't try to point back"),
        ("Keep the index in SQLite", "we keep the index in SQLite for now"),
        ("Use SQLite for the sessions", "Redis is probably overkill; use SQLite for the sessions"),
        ("We tried Redis and kept it", "We tried Redis for the cache"),
        ("The migration is nearly done", "The migration is almost done"),
        ("Retries: at most 5", "the client retries up to 5 times"),
        ("The upload test is flaky", "the only flaky test is the upload test"),
        ("We deploy only on Fridays", "we only deploy on Fridays"),
        ("Eventually we drop Redis", "We should drop Redis eventually"),
        ("At first we used Redis for the cache", "originally we used Redis for the cache"),
        ("The cache seems stale", "It seems the cache is stale"),
        ("The notice appears once", "the notice appears once, after enable"),
    ],
)
def test_a_text_that_keeps_the_qualifier_or_what_it_does_not_govern_is_supported(
    text: str, quote: str
) -> None:
    assert unsupported(text, quote) is None
