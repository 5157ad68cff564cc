"""A sentence that only records where the work went — a commit's sha, with its branch and
diffstat at most — gives no item (issue 27, round 19; docs/heuristic.md, "Markers" and "The
outcome"; status.bookkeeping): the commit says what it holds. A sentence that says what the
commit holds is a reference as before, whose commit world-check can test. Cases of their
own, not copied from the labelled corpus."""

from __future__ import annotations

import pytest
from helpers.drafts import assert_verbatim, assistant, user

from gitmem.capture.extract.heuristic import explain
from gitmem.capture.extract.heuristic.status import bookkeeping


@pytest.mark.parametrize(
    "sentence",
    [
        "Committed `a1b2c3d4`.",
        "Committed as `9f8e7d6`.",
        "Committed as 9f8e7d6c5b4a on `fix/retry`.",
        "Committed and pushed to `fix/retry` as `9f8e7d6`.",
        "**Branch:** `fix/retry` → `main`, commit `9f8e7d6`, 3 files / 40 deletions.",
    ],
)
def test_a_record_of_the_commit_is_bookkeeping(sentence: str) -> None:
    assert bookkeeping(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Committed as `9f8e7d6` with message `Retry uploads with backoff`.",
        "Committed the retry guard as 9f8e7d6.",
        "The fix landed in commit 9f8e7d6.",
        "Commit `9f8e7d6` moved the retry loop into the uploader.",
        "Committed and pushed.",  # no commit named: routine status (RECORDED_RE), not this
        "Branch `fix/retry` is two commits ahead of `main`.",
    ],
)
def test_a_sentence_that_says_more_is_no_bookkeeping(sentence: str) -> None:
    assert not bookkeeping(sentence)


def test_a_bare_commit_gives_no_item_and_the_report_reads_on() -> None:
    outcome = "Uploads now retry three times with backoff."
    reply = f"Committed as `9f8e7d6`. {outcome}"
    messages = [user("make uploads retry"), assistant(reply)]
    found = [(d.quote, rule) for d, rule in explain(messages)]
    assert found == [(outcome, "report-first")]
    assert_verbatim([d for d, _ in explain(messages)], messages)


def test_a_bare_commit_before_the_report_gives_no_reference() -> None:
    messages = [
        user("make uploads retry"),
        assistant("Committed as `9f8e7d6`."),
        user("and the docs?"),
        assistant("The README now documents the retry count."),
    ]
    assert all("9f8e7d6" not in (d.quote or "") for d, _ in explain(messages))


def test_a_commit_named_with_what_it_holds_is_still_a_checked_reference() -> None:
    sentence = "Committed as 9f8e7d6 with the retry guard."
    messages = [user("commit it"), assistant(f"{sentence}\n\nEverything is clean and pushed.")]
    (draft,) = [d for d, _ in explain(messages)]
    assert draft.quote == sentence
    assert draft.extra["claims"] == [{"type": "commit-exists", "sha": "9f8e7d6"}]
