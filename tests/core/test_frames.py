"""Tests for gitmem.core.frames: a text that keeps its quote's words around may not put
another word in one's place, another tense, or two words the other way round."""

from __future__ import annotations

import pytest

from gitmem.core.support import READ_CHARS, unsupported


@pytest.mark.parametrize(
    ("text", "quote", "word"),
    [
        ("We use Memcached for the cache", "We use Redis for the cache", "memcached"),
        ("Use Memcached", "we use Redis", "memcached"),
        ("Bob dropped the cache layer", "Alice dropped the cache layer", "bob"),
        ("The Python client uses Redis", "the Go client uses Redis", "python"),
        ("We chose Redis for the cache", "We benchmarked Redis for the cache", "chose"),
        (
            "Use Redis for the cache in production",
            "use Redis for the cache in the tests",
            "production",
        ),
        ("Users can write the bucket", "users can read the bucket", "write"),
        ("We deactivated the feature flag", "We activated the feature flag", "deactivated"),
        ("We deregistered the webhook", "we registered the webhook", "deregistered"),
    ],
)
def test_a_word_put_in_another_words_place_is_not_supported(
    text: str, quote: str, word: str
) -> None:
    reason = unsupported(text, quote)
    assert reason is not None and f'says "{word}" where its quote says' in reason


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("We use Redis for the cache", "we used Redis for the cache"),
        ("We use Redis for the cache", "Last year we used Redis for the cache"),
        ("We use Redis for the cache", "We used to use Redis for the cache"),
        ("We keep Redis for the cache", "We kept Redis for the cache"),
        ("We choose Redis for the cache", "We chose Redis for the cache"),
        ("Redis is used for the cache", "Redis was used for the cache"),
        ("We are using Redis for the cache", "We were using Redis for the cache"),
        ("The cache is fast", "The cache was fast before the migration"),
        ("The parser tests pass", "The parser tests passed yesterday"),
    ],
)
def test_a_text_in_the_present_on_a_quote_in_the_past_is_not_supported(
    text: str, quote: str
) -> None:
    reason = unsupported(text, quote)
    assert reason is not None and reason.endswith("in the past")


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("We migrated from Postgres to MySQL", "we migrated from MySQL to Postgres"),
        ("We replaced SQLite with Redis", "We replaced Redis with SQLite"),
        ("SQLite is faster than Postgres", "Postgres is faster than SQLite"),
    ],
)
def test_two_words_the_other_way_round_are_not_supported(text: str, quote: str) -> None:
    reason = unsupported(text, quote)
    assert reason is not None and reason.endswith("the other way round")


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Use Redis for the cache", "Redis is used for the cache"),
        ("We'll use Redis for the cache", "We will use Redis for the cache"),
        ("We don't use Redis for the cache", "we do not use Redis for the cache"),
        ("Retry the upload three times", "retry the upload 3 times"),
        ("Deploy to prod after the canary", "deploy to production after the canary"),
        ("The timeout is 5 ms", "the timeout is 5 milliseconds"),
        ("Use a cache for the sessions", "use the cache for the sessions"),
        ("We cache the results", "we are caching the results"),
        ("Use SQLite and Redis", "use Redis and SQLite"),
        ("Deploy Fridays only with QA approval", "We deploy on Fridays if QA approves."),
        ("Parser: only elixir and bash are highlighted", "the parser highlights elixir and bash"),
        ("We use Postgres", "We used Redis; we use Postgres now"),
        ("Drop the column", "drop the old users table"),
        (
            "Spotter keeps pane state in Redis: the sync worker writes it and the UI reads it",
            "the worker writes pane state to Redis",
        ),
    ],
)
def test_a_summary_that_keeps_its_words_in_place_is_supported(text: str, quote: str) -> None:
    assert unsupported(text, quote) is None


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        (
            "We use Memcached for the cache: the session store, the rate limiter and the job"
            " queue all read from it",
            "We use Redis for the cache",
        ),
        (
            "Spotter's release notes, changelog and upgrade guide agree: the new client"
            " uses Memcached for the cache",
            "the new client uses Redis for the cache",
        ),
        ("For the cache we use Memcached", "We use Redis for the cache"),
        ("For the cache we use Mem\u200bcached", "We use Redis for the cache"),
        ("For the cache we use Мemcached", "We use Redis for the cache"),
    ],
)
def test_a_name_put_for_a_name_is_not_supported_however_much_the_text_adds(
    text: str, quote: str
) -> None:
    reason = unsupported(text, quote)
    assert reason is not None and "where its quote says" in reason


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("We migrated to MySQL from Postgres", "we migrated from MySQL to Postgres"),
        ("Move the sessions to MySQL", "we move the sessions from MySQL to Postgres"),
    ],
)
def test_a_move_turned_around_is_not_supported(text: str, quote: str) -> None:
    reason = unsupported(text, quote)
    assert reason is not None and reason.endswith("the other way round")


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Switch to Postgres from MySQL", "we switch from MySQL to Postgres"),
        ("message_id now prefers msg[:id]", "changed it from msg[:uuid] to msg[:id] || msg[:uuid]"),
        (
            "The Go client keeps its sessions in Redis and the web app reads them there",
            "the Go client uses Redis",
        ),
    ],
)
def test_a_move_kept_or_a_long_text_in_its_own_words_is_supported(text: str, quote: str) -> None:
    assert unsupported(text, quote) is None


def test_a_long_text_and_quote_are_read_whole_up_to_the_bound_and_refused_past_it() -> None:
    # 16,000 words a side (a model may hand back a whole message as its quote) took over 5 s
    # of CPU when every word was paired with every other. Past READ_CHARS nothing is read
    # and the text gives way to its quote; up to it, the order and the changed words are
    # still found. How long the worst pairs take is benchmarks/hostile_wording.py's, as a
    # ratio (no time is asserted here: a loaded machine would fail it).
    words = ["".join(chr(97 + (n // 26**k) % 26) for k in range(4)) for n in range(8000)]
    other = [word + "x" for word in words]
    text = " ".join(w for pair in zip(words, other, strict=True) for w in pair)
    quote = " ".join(w for pair in zip(words, reversed(words), strict=True) for w in pair)
    for long_text, long_quote in ((text, quote), (" ".join(reversed(words)), " ".join(words))):
        reason = unsupported(long_text, long_quote)
        assert reason is not None and "more than the rules read" in reason
    within = words[: READ_CHARS // 5]  # four letters and a space a word
    reversed_ = unsupported(" ".join(reversed(within)), " ".join(within))
    assert reversed_ is not None and "the other way round" in reversed_
    changed = unsupported(text[:READ_CHARS], quote[:READ_CHARS])
    assert changed is not None and "where its quote says" in changed
