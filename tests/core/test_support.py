"""Tests for gitmem.core.support: what an item's text may say beyond its verified quote."""

from __future__ import annotations

import pytest

from gitmem.core.conditions import turned_condition
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


@pytest.mark.parametrize(
    ("text", "quote", "reason"),
    [
        (
            "Disable the write cache for the uploader",
            "We decided to enable the write cache for the uploader service.",
            'the item\'s text says "disable" where its quote says "enable"',
        ),
        (
            "httpx made the test suite slower",
            "Switching to httpx made the test suite faster by a wide margin.",
            'the item\'s text says "slower" where its quote says "faster"',
        ),
        (
            "Keep using the legacy exporter",
            "We will stop using the legacy exporter after this release.",
            'the item\'s text says "keep" where its quote says "stop"',
        ),
        (
            "Ship the parser with strict mode on by default",
            "Ship the parser with the strict mode turned off by default.",
            'the item\'s text says "on" where its quote says "off"',
        ),
        (
            "The upload path is unsafe",
            "the upload path is safe now",
            'the item\'s text says "unsafe" where its quote says "safe"',
        ),
        (
            "The timeout is 5 s for every health check",
            "The timeout is 5 ms for every health check request.",
            'the item\'s text says "5 s" where its quote measures 5 in another unit',
        ),
        (
            "Use httpx instead of requests in the client module",
            "We use requests instead of httpx in the client module.",
            'the item\'s text puts the two sides of "instead of" the other way round',
        ),
        (
            "The config lives in src/gitmem/settings.py",
            "The config lives in src/gitmem/config.py from now on.",
            'the item\'s text names "src/gitmem/settings.py" where its quote names '
            '"src/gitmem/config.py"',
        ),
        (
            "Removed silent truncation, removed a 10-line default",
            "Removed silent truncation, added a 10-line default",
            'the item\'s text says "removed" where its quote says "added"',
        ),
        (
            "Before starting, run the baseline; run tests before each phase",
            "Before starting, run the baseline. Then run tests after each phase.",
            'the item\'s text says "before" where its quote says "after"',
        ),
        (
            "xterm.css was force-removed",
            "`xterm.css` was force-added.",
            'the item\'s text says "removed" where its quote says "added"',
        ),
        (
            "The adapter is /tmp/public/src/core/adapter.ts",
            "the adapter is /tmp/private/src/core/adapter.ts (new)",
            'the item\'s text says "public" where its quote says "private"',
        ),
        (
            "Use the legacy exporter",
            "We will stop using the legacy exporter after this release.",
            'the quote says "stop" and the item\'s text states the rest plainly',
        ),
        (
            "The deployment uses the Redis cache",
            "We dropped the Redis cache from the deployment last week.",
            'the quote says "dropped" and the item\'s text states the rest plainly',
        ),
        (
            "Avoid global state in the parser",
            "let's keep global state in the parser for now",
            'the item\'s text says "avoid" and its quote states the rest plainly',
        ),
        (
            "Ship the parser on Monday",
            "We ship the parser on Friday after the review meeting.",
            'the item\'s text says "monday" where its quote says "friday"',
        ),
        (
            "Release planned for June 1",
            "The release is planned for July 1 after the freeze.",
            'the item\'s text says "june" where its quote says "july"',
        ),
        (
            "retry limit <= 3",
            "Keep the retry limit >= 3 for every uploader job.",
            'the item\'s text says "<=" where its quote says ">="',
        ),
        (
            "Keep latency over 200 ms",
            "Keep latency under 200 ms for the search endpoint.",
            'the item\'s text says "over" where its quote says "under"',
        ),
        (
            "We must run the migration before the deploy",
            "we may run the migration before the deploy",
            'the item\'s text says "must" where its quote says "may"',
        ),
        (
            "You can skip the pre-commit hook",
            "you must skip the pre-commit hook for generated files",
            'the item\'s text says "can" where its quote says "must"',
        ),
        (
            "All parser tests pass on CI",
            "most parser tests pass on CI now",
            'the item\'s text says "all" where its quote says "most"',
        ),
        (
            "We cache the sessions in Redis in production",
            "we cache the sessions in Redis in staging for now",
            'the item\'s text says "production" where its quote says "staging"',
        ),
        (
            "We always run the migration on deploy",
            "we usually run the migration on deploy",
            'the item\'s text says "always" where its quote says "usually"',
        ),
        (
            "Raise retry_count for uploads",
            "raise retry_limit for uploads",
            'the item\'s text names "retry_count" where its quote names "retry_limit"',
        ),
    ],
)
def test_a_text_that_changes_a_word_a_unit_a_name_or_an_order_is_not_supported(
    text: str, quote: str, reason: str
) -> None:
    assert unsupported(text, quote) == reason


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Enable the write cache", "we decided to enable the write cache for uploads"),
        ("The timeout is 5 ms", "the timeout is 5 milliseconds for every check"),
        ("Use requests instead of httpx", "we use requests instead of httpx for the client"),
        ("CSS lives in priv/static/assets/app.css", "already unified in app.css, no changes"),
        ("Parser: only elixir and bash are highlighted", "the parser highlights elixir and bash"),
        ("Spotter app.js registers five languages", "Imported hljs core and five languages"),
        ("Drop the legacy exporter", "we will stop using the legacy exporter"),
        ("gqc.7 is still open", "gqc.7 (open, blocked by gqc.5) is still open"),
        ("This may break the parser in March", "this might break the parser in March"),
        ("Deploy to prod after the canary", "deploy to production after the canary"),
    ],
)
def test_a_summary_that_keeps_words_units_names_and_order_is_supported(
    text: str, quote: str
) -> None:
    assert unsupported(text, quote) is None


@pytest.mark.parametrize(
    ("text", "quote", "word"),
    [
        ("Retry the upload six times", "We agreed to retry the upload 5 times", "six"),
        ("Retry the upload four times", "we retry the upload three times", "four"),
    ],
)
def test_a_number_in_words_the_quote_lacks_is_not_supported(
    text: str, quote: str, word: str
) -> None:
    reason = unsupported(text, quote)
    assert reason == f'the item\'s text says "{word}", a number its quote does not hold'


def test_a_number_in_words_the_quote_holds_is_supported() -> None:
    assert unsupported("Retry the upload three times", "retry the upload 3 times") is None
    assert unsupported("No one uses the old exporter", "nobody uses the old exporter") is None


@pytest.mark.parametrize(
    ("text", "quote", "word"),
    [
        ("Drop the SQLite index", "we could drop the SQLite index entirely", "could"),
        ("The race is in the flush path", "the race might be in the flush path", "might"),
        ("Build the skill standalone first", "maybe build the skill standalone first", "maybe"),
    ],
)
def test_a_text_that_settles_what_its_quote_only_puts_as_possible_is_not_supported(
    text: str, quote: str, word: str
) -> None:
    reason = unsupported(text, quote)
    assert reason == f'the quote says "{word}" and the item\'s text states it as settled'


def test_a_text_that_keeps_the_possibility_is_supported() -> None:
    assert unsupported("The race might be in flush", "the race might be in the flush path") is None
    assert unsupported("Replace the env var", "I would replace the env var with a setting") is None


@pytest.mark.parametrize(
    ("text", "quote", "number"),
    [
        ("The table holds 10 rows", "the table holds 10\u2076 rows", "10"),
        ("The build takes 1 hour", "the build takes 1\u00bd hours", "1"),
        ("The table holds 10 rows", "the table holds 10^6 rows", "10"),
        ("Standup is at 10", "standup is at 10:30", "10"),
        ("The timeout is 3 seconds", "the timeout is 1e-3 seconds", "3"),
        ("Batches hold 6 rows", "batches hold 1E+6 rows", "6"),
        ("Keep 1 worker warm", "keep 1_000 workers warm", "1"),
    ],
)
def test_a_number_a_power_time_or_fraction_of_the_quote_holds_is_another_number(
    text: str, quote: str, number: str
) -> None:
    reason = unsupported(text, quote)
    assert reason == f'the item\'s text says "{number}", a number its quote does not hold'


@pytest.mark.parametrize(
    ("text", "quote", "shown"),
    [
        ("We have 5k users signed up", "we have 5 users signed up", "5 k"),
        ("We keep 5 million rows", "we keep 5 rows in the cache", "5 million"),
        ("We keep 5 rows in the cache", "we keep 5k rows in the cache", "5"),
        ("Coverage is 80", "coverage must stay at 80% on main", "80"),
        ("We have 3 billion events", "we have 3 events queued", "3 billion"),
    ],
)
def test_a_text_that_adds_or_drops_a_magnitude_is_not_supported(
    text: str, quote: str, shown: str
) -> None:
    reason = unsupported(text, quote)
    assert reason is not None
    assert f'"{shown}"' in reason


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("5k users signed up", "we have 5 thousand users signed up"),
        ("Coverage stays at 80 percent", "coverage must stay at 80% on main"),
        ("Retry 3 times", "retry the upload 3 times"),
    ],
)
def test_a_text_that_keeps_the_magnitude_is_supported(text: str, quote: str) -> None:
    assert unsupported(text, quote) is None


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("We deploy on Fridays", "we refuse to deploy on Fridays"),
        ("The cache speeds up the build", "the cache fails to speed up the build"),
        ("The cache fails to speed up the build", "the cache speeds up the build"),
        ("We migrate the index", "we declined to migrate the index"),
        ("We pin the lockfile", "we neglected to pin the lockfile"),
    ],
)
def test_a_text_that_drops_or_adds_a_verb_that_turns_away_is_not_supported(
    text: str, quote: str
) -> None:
    assert unsupported(text, quote) is not None


def test_a_failure_that_turns_nothing_away_is_still_a_summary() -> None:
    assert unsupported("Tests run on CI", "the tests fail on CI, then run on CI again") is None


@pytest.mark.parametrize(
    ("text", "quote", "word"),
    [
        ("We deploy on Fridays", "We deploy on Fridays if QA approves the build.", "if"),
        ("Deploy on Fridays.", "Unless QA objects, we deploy on Fridays.", "unless"),
        ("We merge the branch", "We merge the branch once the review passes.", "once"),
        ("Keep the old API", "We keep the old API until the migration completes.", "until"),
        ("Keep Postgres", "We keep Postgres, as long as the benchmark holds.", "as long as"),
        ("Wir nehmen Postgres", "Wir nehmen Postgres, falls der Benchmark hält.", "falls"),
        ("我们周五发布", "我们周五发布，如果测试都通过。", "如果"),
        ("Facem deploy vineri", "Facem deploy vineri dacă trec testele.", "dacă"),
        (
            "Cuma günü deploy ederiz",
            "Testler geçerse, eğer QA onaylarsa, Cuma günü deploy ederiz.",
            "eğer",
        ),
        ("We deploy on Fridays", "We deploy on Fridays iff QA approves.", "iff"),
        # spelt to hide: an invisible character, look-alike letters
        ("We deploy on Fridays", "We deploy on Fridays i\u200bf QA approves.", "if"),
        ("We deploy on Fridays", "We deploy on Fridays \u0456f QA approves.", "if"),
    ],
)
def test_a_text_that_drops_its_quotes_condition_is_not_supported(
    text: str, quote: str, word: str
) -> None:
    reason = unsupported(text, quote)
    assert reason == f'the quote says "{word}" and the item\'s text states it unconditionally'


@pytest.mark.parametrize(
    ("text", "quote", "word"),
    [
        ("Deploy on Fridays only if QA approves", "We deploy on Fridays.", "if"),
        ("Merge the branch once the review passes", "We merge the branch.", "once"),
        ("Unless QA objects, deploy on Fridays", "We deploy on Fridays.", "unless"),
    ],
)
def test_a_text_that_adds_a_condition_is_not_supported(text: str, quote: str, word: str) -> None:
    reason = unsupported(text, quote)
    assert reason == f'the item\'s text says "{word}", a condition its quote does not hold'


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        # the condition kept, in other words
        ("Deploy on Fridays, provided QA approves", "We deploy on Fridays if QA approves."),
        ("Merge after the review passes", "We merge the branch once the review passes."),
        ("Deploy Fridays only with QA approval", "We deploy on Fridays if QA approves."),
        # no condition: a question's "if", a concession, a count
        ("Unsure whether the cache helps", "I'm not sure if the cache helps."),
        ("Check whether the cache helps", "We should check if the cache helps."),
        ("Ship on Friday regardless of QA", "We ship on Friday even if QA objects."),
        ("Run the backup daily", "We run the backup once a day."),
        ("The parser falls back to JSON", "The parser falls back to JSON."),
    ],
)
def test_a_text_that_keeps_its_quotes_condition_or_has_none_is_supported(
    text: str, quote: str
) -> None:
    assert unsupported(text, quote) is None


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("We dropped Redis for the cache", "They dropped Redis for the cache last week"),
        ("They dropped Redis for the cache", "We dropped Redis for the cache last week"),
        ("He dropped Redis for the cache", "she dropped Redis for the cache"),
        ("Our cache stays in Redis", "their cache stays in Redis"),
    ],
)
def test_a_text_that_puts_another_person_in_the_quotes_place_is_not_supported(
    text: str, quote: str
) -> None:
    reason = unsupported(text, quote)
    assert reason is not None and reason.startswith("the item's text names")


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("We dropped Redis for the cache", "I dropped Redis for the cache"),
        ("We should drop Redis for the cache", "you should drop Redis for the cache"),
        ("We dropped Redis because they were slow", "we dropped Redis: the servers were slow"),
        ("Keep the retries as they are", "We agreed on this: the retries stay"),
        ("Keep their cache in Redis", "keep our cache in Redis"),
    ],
)
def test_the_speakers_side_or_an_added_person_is_no_swap(text: str, quote: str) -> None:
    assert unsupported(text, quote) is None


@pytest.mark.parametrize("space", ["\u00a0", "\u202f", "\u2009", " "])
@pytest.mark.parametrize("text", ["We have 10 users on the beta", "We have 000 users on the beta"])
def test_a_part_of_a_number_grouped_by_a_no_break_space_is_another_number(
    space: str, text: str
) -> None:
    reason = unsupported(text, f"We have 10{space}000 users on the beta")
    assert reason is not None and "a number its quote does not hold" in reason
    assert unsupported(f"We have 10{space}000 users", f"we have 10{space}000 users") is None


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("χρησιμοποιούμε το Redis", "Αν περάσουν τα τεστ, χρησιμοποιούμε το Redis"),
        ("χρησιμοποιούμε το Redis", "Όταν περάσουν τα τεστ, χρησιμοποιούμε το Redis"),
        ("נשתמש ב-Redis עבור המטמון", "אם הבדיקות עוברות, נשתמש ב-Redis עבור המטמון"),
        ("נשתמש ב-Redis", "כאשר הבדיקות עוברות, נשתמש ב-Redis"),
        ("캐시에 Redis를 사용합니다", "테스트가 통과하면 캐시에 Redis를 사용합니다"),
        ("キャッシュにRedisを使います", "テストが通ったら、キャッシュにRedisを使います"),
        ("キャッシュにRedisを使います", "テストが通れば、キャッシュにRedisを使います"),
        ("キャッシュにRedisを使います", "テストが通る場合、キャッシュにRedisを使います"),
    ],
)
def test_a_text_that_drops_a_greek_hebrew_korean_or_japanese_condition_is_not_supported(
    text: str, quote: str
) -> None:
    reason = unsupported(text, quote)
    assert reason is not None and "states it unconditionally" in reason


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Vi använder Redis för cachen", "Vi använder Redis av prestandaskäl för cachen"),
        ("커밋 명령을 실행합니다", "아래 커밋 명령만 실행하면 됩니다"),
        ("キャッシュにRedisを使います", "テストは通りました。キャッシュにRedisを使います"),
    ],
)
def test_words_that_only_look_like_those_conditions_are_none(text: str, quote: str) -> None:
    assert unsupported(text, quote) is None


def test_numbers_grouped_in_threes_are_read_alike_whatever_their_space() -> None:
    assert unsupported("We have 10 000 users", "we have 10\u202f000 users") is None
    assert unsupported("Rows 1 000 000 and up", "rows 1 000 000 and up") is None
    assert unsupported("Port 8080 and 443", "port 8080 and 443") is None


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("We keep the cache in git", "we keep the cache out of git"),
        ("We decided on Redis for the cache", "we decided against Redis for the cache"),
        ("We chose Redis for the cache", "we decided against Redis for the cache"),
    ],
)
def test_in_for_out_of_and_a_choice_against_are_not_supported(text: str, quote: str) -> None:
    assert unsupported(text, quote) is not None


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("The rate limit window is 30 seconds.", "the window should be 60s not 30s"),
        ("We deploy on Friday.", "we will not deploy on Fridays"),
        ("The timeout is 10 minutes.", "a timeout of 5m, not 10m"),
        ("Cache entries live 2 hours.", "entries live 90min, never 2h"),
    ],
)
def test_a_text_asserting_what_its_quote_negates_in_another_form_is_not_supported(
    text: str, quote: str
) -> None:
    """A number written with its unit on it ("30s") and a plural ("Fridays") are the words
    the negation governs, whatever form the text writes them in."""
    assert unsupported(text, quote) is not None


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("The window is 60 seconds.", "the window should be 60s not 30s"),
        ("The timeout is 5 minutes.", "a timeout of 5m, not 10m"),
        ("Keep the cache in .git/gitmem.", "the cache lives in .git/gitmem and is never pushed"),
        ("The class is a list of items.", "the class is a list of items, not a set"),
    ],
)
def test_a_text_keeping_the_side_its_quote_affirms_is_supported(text: str, quote: str) -> None:
    assert unsupported(text, quote) is None


@pytest.mark.parametrize(
    ("text", "quote", "word"),
    [
        ("We use MySQL", "we use Postgres instead of MySQL", "mysql"),
        ("Tests run locally", "tests run in CI rather than locally", "locally"),
        ("The cache is in Redis", "we moved the cache from Redis to Postgres", "redis"),
        (
            "The importer uses requests",
            "we switched the importer from requests to httpx",
            "requests",
        ),
        ("Redis for sessions", "we picked Postgres for sessions over Redis", "redis"),
        ("The project uses Python 3.10", "we upgraded from Python 3.10 to 3.11", "3.10"),
        (
            "The button uses the ghost variant",
            'I changed the variant from "ghost" to "default"',
            "ghost",
        ),
    ],
)
def test_a_text_choosing_what_its_quote_turned_away_from_is_not_supported(
    text: str, quote: str, word: str
) -> None:
    assert unsupported(text, quote) == (
        f'the item\'s text chooses "{word}", which its quote turned away from'
    )


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("We use Postgres", "we use Postgres instead of MySQL"),
        ("Postgres over MySQL", "we use Postgres instead of MySQL"),
        ("MySQL is gone; Postgres holds the data", "we use Postgres instead of MySQL"),
        ("Moved off Redis", "we moved the cache from Redis to Postgres"),
        ("The project uses Python 3.11", "we upgraded from Python 3.10 to 3.11"),
        ("The + button uses variant default", 'I changed the variant from "ghost" to "default"'),
        ("Reads data from S3", "it reads data from S3 and writes to GCS"),
        (
            "Direct casts get a validating constructor/helper",
            "Add a constructor that's consistently used instead of direct type casts",
        ),
    ],
)
def test_a_text_keeping_the_choice_or_saying_the_change_is_supported(text: str, quote: str) -> None:
    assert unsupported(text, quote) is None


@pytest.mark.parametrize(
    ("text", "quote", "reason"),
    [
        ("The build includes the docs", "the build is missing the docs", "missing"),
        ("The image has curl", "the image lacks curl", "lacks"),
        ("The report includes totals", "the report omits totals", "omits"),
        ("The import succeeds", "the import is unable to succeed", "unable"),
    ],
)
def test_a_text_stating_what_its_quote_says_is_absent_is_not_supported(
    text: str, quote: str, reason: str
) -> None:
    assert unsupported(text, quote) == (
        f'the quote says "{reason}" and the item\'s text states the rest plainly'
    )


def test_a_verb_of_absence_governs_only_its_own_clause() -> None:
    quote = "It would fail if its file were missing; it only works today because of the cache."
    assert unsupported("It only works today because of the cache", quote) is None


@pytest.mark.parametrize(
    ("text", "quote", "word"),
    [
        ("The migration is done", "the migration will be done tomorrow", "done"),
        ("The fix is merged", "the fix will be merged after review", "merged"),
        ("The PR is merged", "the PR is ready to be merged", "merged"),
        ("The bug is fixed", "the bug is yet to be fixed", "fixed"),
        ("The fix has been deployed", "the fix needs to be deployed", "deployed"),
        (
            "The docs are updated",
            "we'll be updated on the docs... the docs will be updated",
            "updated",
        ),
    ],
)
def test_a_text_saying_done_what_its_quote_leaves_to_come_is_not_supported(
    text: str, quote: str, word: str
) -> None:
    assert unsupported(text, quote) == (
        f'the item\'s text says "{word}" has come about where its quote leaves it to come'
    )


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("The fix will be merged", "the fix will be merged after review"),
        ("The PR is ready to be merged", "the PR is ready to be merged"),
        ("The fix is to be merged", "the fix will be merged"),
        ("The fix was merged", "the fix was merged and the tag will be merged later"),
    ],
)
def test_a_text_keeping_what_is_to_come_to_come_is_supported(text: str, quote: str) -> None:
    assert unsupported(text, quote) is None


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Use httpx", "should we use httpx?"),
        ("We drop Python 3.8", "do we drop Python 3.8?"),
        ("The timeout is too short", "I wonder whether the timeout is too short"),
        ("The bug is in the parser", "we don't know if the bug is in the parser"),
        ("Postgres is faster here", "it is unclear whether Postgres is faster here"),
    ],
)
def test_a_text_that_answers_what_its_quote_asks_is_not_supported(text: str, quote: str) -> None:
    reason = unsupported(text, quote)
    assert reason is not None and "asks" in reason


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Open question: use httpx?", "should we use httpx?"),
        ("Decide whether to drop Python 3.8", "do we drop Python 3.8?"),
        ("Use httpx", "should we use httpx? Yes, use httpx for the client"),
        ("Unclear whether Postgres is faster", "it is unclear whether Postgres is faster"),
        ("The timeout may be too short", "I wonder whether the timeout is too short"),
    ],
)
def test_a_text_that_keeps_the_question_open_is_supported(text: str, quote: str) -> None:
    assert unsupported(text, quote) is None


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("The API is idempotent", "the docs claim the API is idempotent, but it is not"),
        ("The library is thread-safe", "the README says the library is thread-safe"),
        ("The issue is caused by the CDN", "the user thinks the issue is caused by the CDN"),
        ("The test suite is green", "according to the bot, the test suite is green"),
    ],
)
def test_a_text_that_drops_who_says_it_is_not_supported(text: str, quote: str) -> None:
    reason = unsupported(text, quote)
    assert reason is not None and "another source" in reason


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Per the README, it is thread-safe", "the README says the library is thread-safe"),
        ("The user suspects the CDN", "the user thinks the issue is caused by the CDN"),
        ("The vendor claims a 3x speedup", "the vendor claims a 3x speedup"),
        ("The cache is stale", "I said the cache is stale"),
    ],
)
def test_a_text_that_keeps_who_says_it_is_supported(text: str, quote: str) -> None:
    assert unsupported(text, quote) is None


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("We migrated to Postgres", "we are going to migrate to Postgres"),
        ("Added retries to the client", "next step: add retries to the client"),
        ("The flaky test is fixed", "I am going to fix the flaky test next"),
        ("The endpoint validates input", "the endpoint should validate input"),
        ("The cache saves 200 ms", "the cache would save 200 ms per request"),
        ("The old schema failed on the import", "the old schema would have failed on the import"),
    ],
)
def test_a_text_that_says_done_what_its_quote_asks_for_is_not_supported(
    text: str, quote: str
) -> None:
    reason = unsupported(text, quote)
    assert reason is not None and ("to come" in reason or "would" in reason)


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Retries are next for the client", "next step: add retries to the client"),
        ("The endpoint should validate input", "the endpoint should validate input"),
        ("Validate input at the endpoint", "the endpoint should validate input"),
        ("We use Redis", "we will use Redis for the cache"),
        ("Added retries to the client", "I added retries to the client; next, add a timeout"),
        ("The cached value is stale", "we should cache the value; it is stale"),
    ],
)
def test_a_text_that_keeps_it_to_come_is_supported(text: str, quote: str) -> None:
    assert unsupported(text, quote) is None


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("gRPC uses less memory than REST", "REST uses less memory than gRPC for small payloads"),
        ("Python 3.12 is older than 3.11", "Python 3.11 is older than 3.12"),
        ("The cache fix caused the memory leak", "the memory leak caused the cache bug"),
        ("Postgres beats MySQL on writes", "MySQL beats Postgres on writes here"),
    ],
)
def test_a_relation_turned_around_is_not_supported(text: str, quote: str) -> None:
    reason = unsupported(text, quote)
    assert reason is not None and "other way round" in reason


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("REST uses less memory", "REST uses less memory than gRPC for small payloads"),
        ("The memory leak caused the cache bug", "the memory leak caused the cache bug"),
        ("MySQL is faster than Postgres on writes", "MySQL beats Postgres on writes here"),
    ],
)
def test_a_relation_kept_is_supported(text: str, quote: str) -> None:
    assert unsupported(text, quote) is None


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("The linter checks every file", "the linter checks only the files under src/"),
        ("The build works on ARM", "in principle the build works on ARM"),
        ("Caching helped", "we experimented with caching, without a clear result"),
        ("Deploys go through Jenkins", "deploys used to go through Jenkins"),
        ("Use the REST API", "prefer the GraphQL API to the REST API"),
        ("Usamos MySQL", "usamos Postgres en vez de MySQL"),
        ("On garde MySQL", "on garde Postgres au lieu de MySQL"),
        ("The client uses requests", "we swapped requests for httpx in the client"),
    ],
)
def test_a_scope_a_stance_or_a_choice_dropped_is_not_supported(text: str, quote: str) -> None:
    assert unsupported(text, quote) is not None


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("The linter checks src/ only", "the linter checks only the files under src/"),
        ("In principle the build works on ARM", "in principle the build works on ARM"),
        ("Prefer GraphQL to REST", "prefer the GraphQL API to the REST API"),
        ("Usamos Postgres", "usamos Postgres en vez de MySQL"),
        ("The client uses httpx", "we swapped requests for httpx in the client"),
        ("Deploys used to go through Jenkins", "deploys used to go through Jenkins"),
    ],
)
def test_a_scope_a_stance_or_a_choice_kept_is_supported(text: str, quote: str) -> None:
    assert unsupported(text, quote) is None


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Backups run weekly", "backups run daily at 02:00"),
        ("The release is today", "the release is tomorrow"),
        ("Raise the limit by 10", "raise the limit to 10"),
        ("Increase the pool to 5", "increase the pool by 5"),
        ("Wir nutzen Redis noch", "wir nutzen Redis nicht mehr"),
        ("Tests pass", "tests pass? not yet"),
        ("Docs were written", "we still have to write the docs"),
        ("Tests were added", "tests still need adding"),
    ],
)
def test_a_class_a_change_or_a_late_negation_turned_is_not_supported(text: str, quote: str) -> None:
    assert unsupported(text, quote) is not None


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Backups run daily", "backups run daily at 02:00"),
        ("The pool grows by 5", "increase the pool by 5"),
        ("Wir nutzen Redis nicht mehr", "wir nutzen Redis nicht mehr"),
        ("Tests are recommended for each PR", "tests are recommended for every PR"),
        ("The docs still need writing", "we still have to write the docs"),
        ("We had to rewrite the parser", "we had to rewrite the parser"),
    ],
)
def test_a_class_a_change_or_a_late_negation_kept_is_supported(text: str, quote: str) -> None:
    assert unsupported(text, quote) is None


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Use Redis", "~~use Redis~~ use Postgres"),
        ("The cache is per-user", "the cache is ~~per-user~~ global"),
        ("Use Redis for sessions", "❌ Redis for sessions"),
        ("We keep the v1 API", "keep the v1 API ✗"),
        ("Tests added for the parser", "- [ ] add tests for the parser"),
        ("Retry 5 times", "retry between 3 and 5 times"),
        ("Keep 30 days of logs", "keep 30 to 90 days of logs"),
        ("We ship next sprint", "we shipped last sprint"),
        ("Redisを使う", "Redisは使わない"),
        ("Redis를 사용한다", "Redis를 사용하지 않는다"),
    ],
)
def test_a_word_taken_back_a_range_end_or_a_late_verb_negated_is_not_supported(
    text: str, quote: str
) -> None:
    assert unsupported(text, quote) is not None


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Use Postgres", "~~use Redis~~ use Postgres"),
        ("Redis was struck for sessions", "❌ Redis for sessions"),
        ("Tests for the parser are still to do", "- [ ] add tests for the parser"),
        ("Tests added for the parser", "- [x] add tests for the parser"),
        ("Retry between 3 and 5 times", "retry between 3 and 5 times"),
        ("Bumped to 3.11", "bump Python from 3.10 to 3.11"),
        ("Redisは使わない", "Redisは使わない"),
    ],
)
def test_a_word_taken_back_a_range_or_a_late_negation_kept_is_supported(
    text: str, quote: str
) -> None:
    assert unsupported(text, quote) is None


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Users don't have to sign in", "users must not sign in"),
        ("We must not log tokens", "we don't have to log tokens"),
        ("Contributors can't push to main", "contributors don't need to push to main"),
        ("The migration was reviewed", "the migration is waiting for review"),
        ("The release was approved", "the release is awaiting approval"),
        ("The flag was removed", "the flag is pending removal"),
        ("Redis has been removed", "Redis is scheduled for removal in 2.0"),
        ("Everyone agreed on the plan", "most of the team agreed on the plan"),
    ],
)
def test_a_modal_swapped_or_an_awaited_act_said_done_is_not_supported(
    text: str, quote: str
) -> None:
    assert unsupported(text, quote) is not None


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Users must not sign in twice", "users mustn't sign in twice"),
        ("No need to push to main", "contributors don't need to push to main"),
        ("The migration awaits review", "the migration is waiting for review"),
        ("The flag's removal is pending", "the flag is pending removal"),
        ("Most of the team agreed", "most of the team agreed on the plan"),
        ("The most common error is a timeout", "the most common error is a timeout"),
    ],
)
def test_a_modal_or_an_awaited_act_kept_is_supported(text: str, quote: str) -> None:
    assert unsupported(text, quote) is None


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Deploy if QA objects", "deploy unless QA objects"),
        ("Merge unless CI is green", "merge if CI is green"),
        ("Keep the old API after the migration", "keep the old API until the migration"),
        ("Run the backfill when the flag is off", "run the backfill unless the flag is off"),
    ],
)
def test_a_condition_turned_around_is_not_supported(text: str, quote: str) -> None:
    reason = unsupported(text, quote)
    assert reason is not None and "where its quote says" in reason


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Deploy unless QA objects", "deploy unless QA objects"),
        ("Merge when CI is green", "merge if CI is green"),
        ("Keep the old API until the migration lands", "keep the old API until the migration"),
    ],
)
def test_a_condition_of_the_same_kind_is_supported(text: str, quote: str) -> None:
    assert unsupported(text, quote) is None


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Run blame only after the range is resolved", "no blame until the range is resolved"),
        ("Merge only if CI is green", "don't merge unless CI is green"),
    ],
)
def test_a_negated_until_or_unless_reads_as_after_or_if(text: str, quote: str) -> None:
    # the negation rule reads the "no" and the "don't"; the kind of condition agrees
    assert turned_condition(text, quote) is None


@pytest.mark.parametrize(
    ("text", "quote", "word"),
    [
        ("Most users use dark mode", "some users use dark mode", "most"),
        ("Many users read the changelog", "few users read the changelog", "many"),
        ("All of the tests are slow", "a few of the tests are slow", "all"),
    ],
)
def test_a_larger_share_than_the_quote_says_is_not_supported(
    text: str, quote: str, word: str
) -> None:
    reason = unsupported(text, quote)
    assert reason is not None and f'says "{word}"' in reason


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Dark mode was added", "the user asked for dark mode"),
        ("The README has install steps", "please add install steps to the README"),
        ("Tests cover the parser", "we need tests for the parser"),
    ],
)
def test_a_text_that_says_done_what_its_quote_requests_is_not_supported(
    text: str, quote: str
) -> None:
    reason = unsupported(text, quote)
    assert reason is not None and "asks for" in reason


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("The user asked for dark mode", "the user asked for dark mode"),
        ("Parser tests are still needed", "we need tests for the parser"),
        ("Dark mode was added", "the user asked for dark mode and I added it"),
    ],
)
def test_a_text_that_keeps_the_request_is_supported(text: str, quote: str) -> None:
    assert unsupported(text, quote) is None


@pytest.mark.parametrize(
    ("text", "quote", "supported"),
    [
        ("Ship by Friday", "ship after Friday", False),
        ("Reply by noon", "reply after noon", False),
        ("The freeze lasts until Friday", "the freeze starts from Friday", False),
        ("Reply before noon", "reply by noon", True),
        ("The freeze starts from Friday on", "the freeze starts from Friday", True),
    ],
)
def test_a_deadline_read_as_a_start_is_not_supported(
    text: str, quote: str, supported: bool
) -> None:
    assert (unsupported(text, quote) is None) is supported


@pytest.mark.parametrize(
    ("text", "quote", "supported"),
    [
        ("Both services use the shared config", "one of the two services uses it", False),
        ("Redis is one store we use", "Redis is one of the stores we use", True),
        ("Use httpx? Yes", "should we use httpx?", False),
        ("Use httpx? Undecided", "should we use httpx?", True),
    ],
)
def test_one_of_many_and_a_question_the_text_answers(
    text: str, quote: str, supported: bool
) -> None:
    assert (unsupported(text, quote) is None) is supported


@pytest.mark.parametrize(
    ("text", "quote", "supported"),
    [
        ("Upstream fixed the bug", "we fixed the bug in our patch", False),
        ("The vendor patched the driver", "we patched the driver ourselves", False),
        ("We dropped Python 3.8", "the maintainers dropped Python 3.8", False),
        ("Upstream fixed the bug", "upstream fixed the bug in 2.4.1", True),
        ("The cache is stale", "we think the cache is stale", True),
    ],
)
def test_another_party_in_the_speakers_place(text: str, quote: str, supported: bool) -> None:
    assert (unsupported(text, quote) is None) is supported
