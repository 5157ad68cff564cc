"""A user's "don't" that only bounds how the assistant does the task at hand ("don't change
anything, just tell me", "Do not edit files", "do not run tests or commands") is no rule
the project keeps: it gives no decision. A "don't" about a thing of the project ("don't
touch the migrations") still does (stance._THIS_TURN_RE)."""

from __future__ import annotations

import pytest
from helpers.drafts import assistant, user

from gitmem.capture.extract.heuristic import explain
from gitmem.capture.extract.heuristic.markers import find_marker
from gitmem.core.items import Kind


@pytest.mark.parametrize(
    "sentence",
    [
        "Don't change anything, just tell me why the build is slow.",
        "ok, do not edit files.",
        "Do not run tests, linters or network commands.",
        "please look at the flaky job, but don't fix anything yet",
        "Read the config, never touch any files.",
    ],
)
def test_a_users_bound_on_this_turns_task_is_no_rule(sentence: str) -> None:
    assert find_marker(sentence, by_user=True) is None


@pytest.mark.parametrize(
    "sentence",
    [
        "Don't change the public API of the parser.",
        "Keep the cache dir, don't touch the migrations.",
        "Only use httpx, don't change anything else.",
        "Never run the e2e suite against production.",
    ],
)
def test_a_users_rule_about_the_project_stays_a_decision(sentence: str) -> None:
    marker = find_marker(sentence, by_user=True)
    assert marker is not None and marker.kind == Kind.DECISION


def test_a_review_request_that_forbids_edits_leaves_no_decision() -> None:
    messages = [
        user("Review the retry module. Do not edit files. Do not run tests or commands."),
        assistant("The retry loop never backs off: it sleeps a fixed 100 ms between attempts."),
    ]
    kinds = [(d.kind, d.quote) for d, _ in explain(messages)]
    assert not any(kind == Kind.DECISION and "Do not" in (quote or "") for kind, quote in kinds)
