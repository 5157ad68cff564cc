"""A sentence that only says the checks pass or the code builds, naming nothing of the work,
is routine status (issue 27, round 20; docs/heuristic.md, "The outcome"; status.checks_pass):
"Both build and vet pass.", "All changes compile cleanly.", "All 12 parser tests pass.", and
so is one that only says the branch is in sync ("Main is up to date with origin."). A
report unit is read from the sentence after it, and a unit of nothing else gives no item.
Cases of their own, not copied from the labelled corpus."""

from __future__ import annotations

import pytest
from helpers.drafts import assert_verbatim, assistant, user

from gitmem.capture.extract.heuristic import extract
from gitmem.capture.extract.heuristic.status import checks_pass, routine

CHANGE = "Removed the retry loop from `upload()` — it now fails fast on a 4xx."


@pytest.mark.parametrize(
    "sentence",
    [
        "Both build and vet pass.",
        "Both build and tests pass.",
        "Both `cargo build` and `cargo test` pass cleanly.",
        "Everything builds and tests pass.",
        "All changes compile cleanly.",
        "All changes compile and tests pass.",
        "Both compile clean.",
        "The code compiles.",
        "Clean build.",
        "Build succeeded.",
        "Build succeeded in 45s.",
        "`make lint` still passes.",
        "The code now passes `make lint` with 0 issues!",
        "All linting now passes with **0 issues**.",
        "✅ The fix is working.",
        "Everything looks clean.",
        "All 31 existing tests pass.",
        "All 7 parser tests pass (5 old + 2 new).",
        "All upload-related tests pass.",
        "All quality gates pass.",
        "All local checks pass.",
        "All the retry tests pass.",
        "Branch is in sync with origin, working tree clean.",
        "Main is up to date with origin.",
        "Everything is pushed.",
    ],
)
def test_checks_that_pass_are_routine(sentence: str) -> None:
    assert checks_pass(sentence)
    assert routine(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        CHANGE,
        "The fix works on Linux but not on macOS.",
        "Both changes applied and tests pass:",
        "Both retry runs succeeded against the staging bucket.",
        "Tests still fail on Windows.",
        "No errors.",
        "Is everything working now?",
        "The build now uses `uv` instead of pip.",
        "All uploads retry with backoff.",
        "Branch is 2 commits ahead of origin.",
        "The branch still has uncommitted changes.",
        "Main is now up to date with origin (fast-forwarded to the release merge).",
    ],
)
def test_a_statement_is_not_checks_pass(sentence: str) -> None:
    assert not checks_pass(sentence)


@pytest.mark.parametrize(
    "status", ["Both build and vet pass.", "All changes compile cleanly.", "Build succeeded."]
)
def test_a_report_unit_of_checks_only_gives_no_item(status: str) -> None:
    messages = [user("make uploads fail fast on client errors"), assistant(f"{status}\n\n{CHANGE}")]
    drafts = extract(messages)
    assert [d.quote for d in drafts] == [CHANGE]
    assert_verbatim(drafts, messages)


def test_a_unit_is_read_from_the_sentence_after_the_checks() -> None:
    messages = [
        user("make uploads fail fast on client errors"),
        assistant(f"Both build and tests pass. {CHANGE}"),
    ]
    drafts = extract(messages)
    assert [d.quote for d in drafts] == [CHANGE]
    assert_verbatim(drafts, messages)


def test_a_users_question_about_the_checks_is_still_read() -> None:
    messages = [
        user("add the retry test"),
        assistant("Added `test_retry_backoff` to the upload suite."),
        user("Is everything working now?"),
    ]
    quotes = [d.quote for d in extract(messages)]
    assert "Is everything working now?" in quotes
