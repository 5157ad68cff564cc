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


# --- a user's sentence that sets one way against another rules the work ------------------


@pytest.mark.parametrize(
    "said",
    [
        "Delete the old folder, don't archive it.",
        "The CLI should set the hook up by itself, not you editing the config by hand.",
        "Keep the token cache in memory; do not write it to disk.",
        "Cache the parsed tree per file — not per session.",
        "Drop the retry loop and log the failure instead.",
    ],
)
def test_a_users_contrast_is_a_rule(said: str) -> None:
    messages = [
        user(said),
        assistant("Done: the tokenizer change is in `src/tokenizer.py`."),
        user("thanks, now rename the module to `lexer`"),
        assistant("Renamed `tokenizer` to `lexer` everywhere."),
    ]
    drafts = explain(messages)
    assert (said, "user-rule") in [(d.quote, rule) for d, rule in drafts]
    assert_verbatim([d for d, _ in drafts], messages)


@pytest.mark.parametrize(
    "said",
    [
        "Line 31 compares against the error type, not a value.",
        "It's the settings panel, not this one.",
        "Should we archive the folder, not delete it?",
        "The upload fails on Windows, not on Linux, since the path has a backslash.",
    ],
)
def test_a_users_description_or_question_is_not_a_rule(said: str) -> None:
    messages = [
        user(said),
        assistant("Done: the tokenizer change is in `src/tokenizer.py`."),
        user("thanks, now rename the module to `lexer`"),
        assistant("Renamed `tokenizer` to `lexer` everywhere."),
    ]
    assert all(d.quote != said for d in extract(messages))


def test_the_assistants_contrast_is_not_a_rule() -> None:
    said = "I deleted the old folder, not archived it."
    messages = [
        user("Clean up the old folder."),
        assistant(said),
        user("thanks, now rename the module to `lexer`"),
        assistant("Renamed `tokenizer` to `lexer` everywhere."),
    ]
    assert all(d.quote != said for d in extract(messages))


# --- a user's decision phrase opens a clause as well as a sentence -------------------------


@pytest.mark.parametrize(
    "said",
    [
        "I looked at both parsers, let's go with the tokenizer.",
        "The YAML loader is the weakest option and the most work to keep in sync, let's skip",
        "Option three needs a daemon; let's not do that.",
        "the hook works — we'll stick with the pre-commit one",
    ],
)
def test_a_users_decision_phrase_after_a_clause_is_a_decision(said: str) -> None:
    messages = [
        user(said),
        assistant("Understood."),
        user("thanks, now update the changelog"),
        assistant("Added the release notes to `CHANGELOG.md`."),
    ]
    drafts = explain(messages)
    assert (said, "user-rule") in [(d.quote, rule) for d, rule in drafts]
    assert_verbatim([d for d, _ in drafts], messages)


def test_a_clause_decision_needs_the_user_and_a_statement() -> None:
    proposal = "I compared both parsers, let's go with the tokenizer."
    asked = "If the cache goes, let's use what instead?"
    messages = [
        user("Compare the two parsers."),
        assistant(proposal),
        user(asked),
        assistant("The tokenizer alone: it needs no cache."),
        user("thanks, now update the changelog"),
        assistant("Added the release notes to `CHANGELOG.md`."),
    ]
    assert all(d.quote not in (proposal, asked) for d in extract(messages))
