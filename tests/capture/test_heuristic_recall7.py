"""Round 9 of the heuristic extractor (issue 27, part 3; docs/heuristic.md): rules that read
more of a session's outcome, each with cases of its own (not copied from the corpus)."""

from __future__ import annotations

import pytest
from helpers.drafts import assert_verbatim, assistant, user

from gitmem.capture.extract.heuristic import explain, extract
from gitmem.core.transcript import Message

WORK = "The installer now finds all four skills: `name` was missing from three `SKILL.md` files."
"""What the work changed, said in the reply before the user's last request."""


def note(text: str) -> Message:
    """A reply the host marks as written while the turn ran (Codex's commentary)."""
    return Message("assistant", text, progress=True)


# --- a last request to open a pull request wraps up like one to commit --------------------


@pytest.mark.parametrize(
    "wrap",
    [
        "create draft PR",
        "okay let's open a PR",
        "Open a pull request.",
        "can you raise an MR",
        "yes, let’s create a PR",
    ],
)
def test_the_reply_before_a_request_to_open_a_pr_is_the_report(wrap: str) -> None:
    messages = [
        user("Find out why the installer lists one skill."),
        assistant(WORK),
        user(wrap),
        assistant("Draft PR created: https://github.com/acme/skills/pull/41"),
    ]
    drafts = explain(messages)
    assert (WORK, "report-wrapped") in [(d.quote, rule) for d, rule in drafts]
    assert_verbatim([d for d, _ in drafts], messages)


def test_a_request_to_open_a_pr_answered_by_progress_notes_only_keeps_the_report() -> None:
    # The capture came while the PR was being opened: what the work changed still stands.
    messages = [
        user("Find out why the installer lists one skill."),
        assistant(WORK),
        user("okay let's open a PR"),
        note("I'm going to create a fix branch, commit the three files and open a PR."),
    ]
    drafts = explain(messages)
    assert (WORK, "report-wrapped") in [(d.quote, rule) for d, rule in drafts]
    assert_verbatim([d for d, _ in drafts], messages)


@pytest.mark.parametrize(
    "last",
    [
        "open a PR for the docs fix too, then rename the module",
        "create a PR template for bug reports",
        "why did you open a PR?",
    ],
)
def test_a_request_that_asks_for_more_than_the_pr_is_not_a_wrap_up(last: str) -> None:
    messages = [
        user("Find out why the installer lists one skill."),
        assistant(WORK),
        user(last),
        assistant("Done: https://github.com/acme/skills/pull/41"),
    ]
    assert all(d.quote != WORK for d in extract(messages))
