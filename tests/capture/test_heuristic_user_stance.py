"""A user's own stance (issue 27, round 17; docs/heuristic.md, *Markers*, and
``heuristic/stance.py``): the work the user keeps for themselves ("I'll handle renaming the
folder") is an open loop; what they will not have ("I don't want a runner yet"), their
principle ("my philosophy is …") and a standard they set ("going forward …", "make that
standard") are their rules. The assistant's "I'll …" stays narration. Cases of their own,
not copied from the labelled corpus."""

from __future__ import annotations

import pytest
from helpers.drafts import assert_verbatim, assistant, user

from gitmem.capture.extract.heuristic import explain, extract
from gitmem.capture.extract.heuristic.markers import find_marker
from gitmem.capture.extract.lastword import last_word
from gitmem.core.items import Kind

ASKED = "Move the fixtures under tests/data and rename the loader module."
DONE = "Moved the fixtures under `tests/data`; the loader module is now `fixtures.py`."


def _items(said: str) -> list[tuple[str, str, str]]:
    messages = [user(ASKED), assistant(DONE), user(said), assistant("Understood.")]
    found = explain(messages)
    assert_verbatim([d for d, _ in found], messages)
    return [(d.kind, d.quote or "", rule) for d, rule in found if rule.startswith("user-")]


@pytest.mark.parametrize(
    "said",
    [
        "I'll handle renaming the data folder",
        "ok, I will update the CI matrix myself.",
        "I’m going to merge the release branch tonight.",
        "Also I'll take care of the changelog entry.",
    ],
)
def test_work_the_user_keeps_is_an_open_loop(said: str) -> None:
    assert _items(said) == [(Kind.OPEN_LOOP, said, "user-keeps")]


@pytest.mark.parametrize(
    "said",
    [
        "I don't want a nightly runner at this time.",
        "For the loader, my philosophy is to fail loudly on the first bad row.",
        "Fix the headings so that going forward the H1 matches the file name.",
        "request a review from the bot. Make that standard in your workflow.",
    ],
)
def test_what_the_user_will_not_have_or_sets_as_standard_is_a_rule(said: str) -> None:
    kinds = [(kind, rule) for kind, _, rule in _items(said)]
    assert kinds == [(Kind.DECISION, "user-rule")]


def test_a_kept_piece_that_refers_back_keeps_its_subject() -> None:
    said = "I don't want a nightly runner at this time.  I will add it later."
    assert [quote for _, quote, _ in _items(said)] == [said]


@pytest.mark.parametrize(
    "said",
    [
        "I'll check back in an hour.",  # no work kept: the conversation's next step
        "I'll let you know if it breaks again.",
        "I don't want to bother you, but the loader still looks odd",  # a courtesy
        "I don't want to see the whole log, just the failing test.",  # asks to be shown
        "Will you handle renaming the folder going forward?",  # a question
        "Is my preference is the default here?",
    ],
)
def test_what_these_forms_do_not_reach(said: str) -> None:
    assert find_marker(said, by_user=True) is None
    assert _items(said) == []


def test_the_assistants_ill_is_narration_not_work_kept() -> None:
    messages = [
        user(ASKED),
        assistant("I'll handle renaming the data folder next."),
        assistant(DONE),
        user("thanks"),
    ]
    assert [rule for _, rule in explain(messages) if rule.startswith("user-")] == []


def test_a_kept_piece_reported_done_later_is_closed_by_the_sessions_last_word() -> None:
    kept = "I'll handle renaming the data folder."
    messages = [user(ASKED + " " + kept), assistant(DONE), user("go on")]
    assert kept in [d.quote for d in last_word(extract(messages), messages)]
    messages += [
        assistant("Next I'll wire the loader into the CLI."),
        user("The data folder renaming is done on my side."),
        assistant("Wired the loader into the CLI."),
    ]
    assert kept not in [d.quote for d in last_word(extract(messages), messages)]
