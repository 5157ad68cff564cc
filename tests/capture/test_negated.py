"""A quote may not start after, or end before, the negation its clause puts on it, nor
start after a possibility (gitmem.capture.negated, through standing and build_items)."""

from __future__ import annotations

import pytest

from gitmem.capture.checkpoint import build_items
from gitmem.capture.standing import LIMITED, NEGATED, POSSIBLE, REPORTED
from gitmem.core.items import Draft, Item, Kind, Trust
from gitmem.core.transcript import Message, plain_transcript

SNAPSHOT = "0" * 64


def captured(message: str, kind: Kind, quote: str) -> Item:
    transcript = plain_transcript("", "s").with_messages(
        [Message("user", message), Message("assistant", "ok")]
    )
    (item,) = build_items(
        [Draft(kind, quote, Trust.VERBATIM, quote, {})], transcript, "s", SNAPSHOT
    )
    return item


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        ("Don't use Redis for the cache.", "use Redis for the cache."),
        ("Never deploy the parser on Fridays.", "deploy the parser on Fridays."),
        ("I don't think we should use Redis for the cache.", "we should use Redis for the cache."),
        ("I'm not sure we need Redis for the cache.", "we need Redis for the cache."),
        ("It is not true that we deploy on Fridays.", "we deploy on Fridays."),
        ("Nobody said we deploy the parser on Fridays.", "we deploy the parser on Fridays."),
        ("I doubt we need Redis for the cache.", "we need Redis for the cache."),
        ("We no longer use Redis for the cache.", "use Redis for the cache."),
        ("We stopped using Redis for the cache.", "using Redis for the cache."),
        ("We decided against using Redis for the cache.", "using Redis for the cache."),
        ("Rather than use Redis for the cache, we keep SQLite.", "use Redis for the cache"),
        ("Let's not use Redis for the cache.", "use Redis for the cache."),
        ("Don't build and deploy the parser on Fridays.", "deploy the parser on Fridays."),
        ("Don't go, because the parser breaks on Fridays.", "go, because the parser breaks"),
        # disguised: emphasis, a Cyrillic "о", a zero-width space, a curly apostrophe
        ("**Don't** use Redis for the cache.", "use Redis for the cache."),
        ("We will n\u043et deploy the parser on Fridays.", "deploy the parser on Fridays."),
        ("We will n\u200bot deploy the parser on Fridays.", "deploy the parser on Fridays."),
        ("We won\u2019t deploy the parser on Fridays.", "deploy the parser on Fridays."),
        ("We will n\u0332o\u0332t\u0332 deploy the parser.", "deploy the parser."),
        # after the quote, in its clause
        ("Using Redis for the cache is not an option.", "Using Redis for the cache"),
        ("Redis for the cache isn't needed anymore.", "Redis for the cache"),
        ("We will deploy the parser on Fridays no longer.", "We will deploy the parser on Fridays"),
        ("Wir benutzen Redis für den Cache nicht.", "Wir benutzen Redis für den Cache"),
        ("Wir benutzen Redis für den Cache nicht mehr.", "Wir benutzen Redis für den Cache"),
        ("We gebruiken Redis voor de cache niet.", "We gebruiken Redis voor de cache"),
        ("We use Redis for the cache or not, who knows.", "We use Redis for the cache"),
    ],
)
@pytest.mark.parametrize("kind", [Kind.DECISION, Kind.FACT, Kind.BELIEF])
def test_a_quote_cut_from_its_negation_is_not_verbatim(
    message: str, quote: str, kind: Kind
) -> None:
    item = captured(message, kind, quote)
    assert item.trust == Trust.INFERRED
    assert item.quote_reason == NEGATED


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        ("Don't use Redis for the cache.", "Don't use Redis for the cache."),
        ("No, we use Redis for the cache.", "we use Redis for the cache."),
        ("I don't like it, but we use Redis for the cache.", "we use Redis for the cache."),
        ("It never worked and we use Redis for the cache now.", "we use Redis for the cache now."),
        (
            "We don't need Memcached because we use Redis for the cache.",
            "we use Redis for the cache.",
        ),
        ("Not only do we deploy on Fridays, we deploy on Mondays.", "we deploy on Mondays."),
        ("Don't forget we deploy the parser on Fridays.", "we deploy the parser on Fridays."),
        ("We use Postgres for the events, not MySQL.", "We use Postgres for the events"),
        (
            "We deploy the parser on Fridays and never on Mondays.",
            "We deploy the parser on Fridays",
        ),
        ("We use Redis for the cache, which is not persistent.", "We use Redis for the cache"),
        ("We use Redis for the cache that never expires.", "We use Redis for the cache"),
        ("We deploy the parser on Fridays without the canary.", "We deploy the parser on Fridays"),
        ("We keep the cache in memory with no TTL.", "We keep the cache in memory"),
        ("We deploy the parser on Fridays. Not on Mondays.", "We deploy the parser on Fridays."),
    ],
)
def test_a_negation_outside_the_quotes_clause_leaves_it_standing(message: str, quote: str) -> None:
    assert captured(message, Kind.DECISION, quote).trust == Trust.VERBATIM


@pytest.mark.parametrize("kind", [Kind.OPEN_LOOP, Kind.UNCERTAINTY])
def test_an_open_loop_or_uncertainty_may_live_in_a_negation(kind: Kind) -> None:
    item = captured(
        "We haven't fixed the flaky parser test yet.", kind, "fixed the flaky parser test"
    )
    assert item.trust == Trust.VERBATIM


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        ("We could use Redis for the cache.", "use Redis for the cache."),
        ("Maybe we should use Redis for the cache.", "we should use Redis for the cache."),
        ("Perhaps we deploy the parser on Fridays.", "we deploy the parser on Fridays."),
        ("We almost lost the production data last night.", "lost the production data last night."),
        ("Wir deployen vielleicht den Parser am Freitag.", "den Parser am Freitag."),
        ("We deploy the parser on Fridays, maybe.", "We deploy the parser on Fridays"),
        ("Apparently the cache is never invalidated on deploy.", "the cache is never invalidated"),
        ("We'll probably deploy the parser on Fridays.", "deploy the parser on Fridays."),
        ("We deploy the parser on Fridays perhaps.", "We deploy the parser on Fridays"),
    ],
)
@pytest.mark.parametrize("kind", [Kind.DECISION, Kind.FACT])
def test_a_quote_cut_from_its_possibility_is_not_verbatim(
    message: str, quote: str, kind: Kind
) -> None:
    item = captured(message, kind, quote)
    assert item.trust == Trust.INFERRED
    assert item.quote_reason == POSSIBLE


def test_a_possibility_in_a_clause_of_its_own_leaves_the_quote_standing() -> None:
    message = "It could break, but we deploy the parser on Fridays."
    assert captured(message, Kind.DECISION, "we deploy the parser on Fridays.").trust == "verbatim"
    said = "We could use Redis for the cache."
    assert captured(said, Kind.DECISION, said).trust == Trust.VERBATIM


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        ("Some of the integration tests pass on CI now.", "the integration tests pass on CI now."),
        ("Few of the integration tests pass on CI now.", "the integration tests pass on CI now."),
        ("Half the integration tests pass on CI now.", "integration tests pass on CI now."),
        ("Two of the workers crashed during the migration.", "the workers crashed"),
        ("We rarely deploy the parser on Fridays.", "deploy the parser on Fridays."),
        ("We seldom deploy the parser on Fridays.", "deploy the parser on Fridays."),
    ],
)
def test_a_quote_cut_from_its_limit_is_not_verbatim(message: str, quote: str) -> None:
    item = captured(message, Kind.FACT, quote)
    assert item.trust == Trust.INFERRED
    assert item.quote_reason == LIMITED


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        ("All of the integration tests pass on CI now.", "the integration tests pass on CI now."),
        (
            "Both of the integration suites pass on CI now.",
            "the integration suites pass on CI now.",
        ),
        (
            "In one of the PRs, the integration tests pass on CI.",
            "the integration tests pass on CI.",
        ),
        ("We ran some of them and the integration tests pass on CI.", "the integration tests pass"),
    ],
)
def test_a_whole_or_a_limit_that_does_not_reach_the_quote_leaves_it_standing(
    message: str, quote: str
) -> None:
    assert captured(message, Kind.FACT, quote).trust == Trust.VERBATIM


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        ("**Don't:**\n- use Redis for the cache\n- deploy on Fridays", "use Redis for the cache"),
        ("## Avoid\n- global state in the parser module", "global state in the parser module"),
        (
            "Never:\n1. deploy the parser on Fridays\n2. skip the review",
            "deploy the parser on Fridays",
        ),
        ("Not in scope:\n- a rewrite of the exporter in Rust", "a rewrite of the exporter in Rust"),
    ],
)
@pytest.mark.parametrize("kind", [Kind.DECISION, Kind.FACT])
def test_an_item_of_a_list_headed_by_a_negation_is_not_verbatim(
    message: str, quote: str, kind: Kind
) -> None:
    item = captured(message, kind, quote)
    assert item.trust == Trust.INFERRED
    assert item.quote_reason == NEGATED


def test_a_list_whose_heading_does_not_open_with_a_negation_stands() -> None:
    plan = "Do:\n- deploy the parser on Mondays\n\nDon't:\n- deploy the parser on Fridays"
    assert captured(plan, Kind.DECISION, "deploy the parser on Mondays").trust == "verbatim"
    kept = "Two things I did not change:\n- the spec still says flutter-android"
    assert captured(kept, Kind.FACT, "the spec still says flutter-android").trust == "verbatim"


@pytest.mark.parametrize("kind", [Kind.DECISION, Kind.FACT, Kind.BELIEF])
@pytest.mark.parametrize(
    ("message", "quote"),
    [
        ("He said we should move the sessions to Redis.", "we should move the sessions to Redis."),
        ("Bob wants us to move the sessions to Redis.", "move the sessions to Redis."),
        ("The reviewer suggested that we move the sessions to Redis.", "we move the sessions"),
        ("According to the wiki, the sessions live in Redis.", "the sessions live in Redis."),
    ],
)
def test_a_quote_cut_from_its_report_of_another_is_not_verbatim(
    kind: Kind, message: str, quote: str
) -> None:
    item = captured(message, kind, quote)
    assert item.trust == Trust.INFERRED
    assert item.quote_reason == REPORTED


@pytest.mark.parametrize(
    "message",
    [
        "I said we should move the sessions to Redis.",
        "As you said, we should move the sessions to Redis.",
        "We said we should move the sessions to Redis.",
        "Then Alice said: we should move the sessions to Redis.",
    ],
)
def test_the_speakers_own_words_are_not_a_report(message: str) -> None:
    item = captured(message, Kind.DECISION, "we should move the sessions to Redis.")
    assert item.trust == Trust.VERBATIM


@pytest.mark.parametrize(
    "message",
    ["Apparently, the cache is never invalidated.", "Probably, the cache is never invalidated."],
)
def test_hearsay_that_opens_the_sentence_reaches_past_its_comma(message: str) -> None:
    item = captured(message, Kind.FACT, "the cache is never invalidated.")
    assert item.trust == Trust.INFERRED
    assert item.quote_reason == POSSIBLE
    contrast = captured(
        "Maybe, but the cache is never invalidated.", Kind.FACT, "the cache is never invalidated."
    )
    assert contrast.trust == Trust.VERBATIM


@pytest.mark.parametrize(
    ("message", "quote", "why"),
    [
        ("I failed to make the tests pass on Windows.", "make the tests pass on Windows", NEGATED),
        ("We were unable to reproduce the crash on CI.", "reproduce the crash on CI", NEGATED),
        ("We used to deploy on Fridays.", "deploy on Fridays", NEGATED),
        (
            "We were going to use Redis for the cache, but ops vetoed it.",
            "use Redis for the cache",
            POSSIBLE,
        ),
        ("I tried to make the tests pass on Windows.", "make the tests pass on Windows", POSSIBLE),
        ("Hopefully the tests pass on Windows.", "the tests pass on Windows", POSSIBLE),
        ("I wish the tests passed on Windows.", "the tests passed on Windows", POSSIBLE),
        ("TODO: decide whether to use Redis for the cache.", "use Redis for the cache", POSSIBLE),
        ("It's unclear whether the tests pass on Windows.", "the tests pass on Windows", POSSIBLE),
        ('The log line says "all tests pass" but three fail.', "all tests pass", REPORTED),
    ],
)
def test_a_quote_cut_from_a_failure_a_habit_a_hope_or_an_attempt_is_not_verbatim(
    message: str, quote: str, why: str
) -> None:
    for kind in (Kind.DECISION, Kind.FACT):
        item = captured(message, kind, quote)
        assert (item.trust, item.quote_reason) == (Trust.INFERRED, why), kind


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        ("Redis is used to cache sessions.", "cache sessions"),
        ("We got used to deploying on Fridays.", "deploying on Fridays"),
        ("Whether or not CI is green, we ship on Friday.", "we ship on Friday"),
        ("I hope you enjoyed it. We use Redis for the cache.", "We use Redis for the cache"),
        ('I said "use Redis for the cache".', "use Redis for the cache"),
    ],
)
def test_a_use_an_unconditional_whether_or_the_speakers_own_words_stay_verbatim(
    message: str, quote: str
) -> None:
    assert captured(message, Kind.DECISION, quote).trust == Trust.VERBATIM


@pytest.mark.parametrize(
    ("message", "quote", "kind", "why"),
    [
        ("False: the tests pass on Windows.", "the tests pass on Windows", Kind.FACT, NEGATED),
        (
            "**Myth:** Redis is needed for the cache.",
            "Redis is needed for the cache",
            Kind.BELIEF,
            NEGATED,
        ),
        ("- Rejected: use Redis for the cache.", "use Redis for the cache", Kind.DECISION, NEGATED),
        ("Not: deploy on Fridays", "deploy on Fridays", Kind.DECISION, NEGATED),
        (
            "Before: retries are capped at 3.\nAfter: 5.",
            "retries are capped at 3",
            Kind.FACT,
            NEGATED,
        ),
        (
            "Old: the cache lives in Redis. New: SQLite.",
            "the cache lives in Redis",
            Kind.FACT,
            NEGATED,
        ),
        (
            "Hypothesis: the cache is stale after deploys.",
            "the cache is stale after deploys",
            Kind.FACT,
            POSSIBLE,
        ),
        ("Idea: use Redis for the cache.", "use Redis for the cache", Kind.DECISION, POSSIBLE),
        ("Goal: all tests pass on Windows.", "all tests pass on Windows", Kind.FACT, POSSIBLE),
        (
            "1. Expected — the migration finishes in 5 minutes",
            "the migration finishes in 5 minutes",
            Kind.FACT,
            POSSIBLE,
        ),
    ],
)
def test_a_quote_cut_from_the_label_that_opens_its_sentence_is_not_verbatim(
    message: str, quote: str, kind: Kind, why: str
) -> None:
    # "False:", "Hypothesis:", "Goal:", "Before:" say what the words after them are worth.
    item = captured(message, kind, quote)
    assert (item.trust, item.quote_reason) == (Trust.INFERRED, why)


@pytest.mark.parametrize(
    ("message", "quote", "kind"),
    [
        ("Note: the tests pass on Windows.", "the tests pass on Windows", Kind.FACT),
        ("Before: run the migrations.", "run the migrations", Kind.DECISION),  # a step
        ("Goal: all tests pass on Windows.", "all tests pass on Windows", Kind.DECISION),
        (
            "Idea: the cache is stale after deploys.",
            "the cache is stale after deploys",
            Kind.BELIEF,
        ),
        (
            "Hypothesis:\nThe cache is stale after deploys.",
            "The cache is stale after deploys",
            Kind.FACT,
        ),
        ("False: the tests pass on Windows.", "False: the tests pass on Windows", Kind.FACT),
    ],
)
def test_a_label_that_does_not_govern_the_quote_leaves_it_verbatim(
    message: str, quote: str, kind: Kind
) -> None:
    # Another label, a kind it does not speak for, a label on a line of its own (a list
    # heading's rules apply there), or a quote that holds its label.
    assert captured(message, kind, quote).trust == Trust.VERBATIM
