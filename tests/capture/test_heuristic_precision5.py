"""Precision rules of the heuristic extractor (issue 27, fifth round; docs/heuristic.md):
each with cases of its own, not copied from the labelled corpus."""

from __future__ import annotations

from helpers.drafts import assert_verbatim, assistant, kinds_and_quotes, user

from gitmem.capture.extract.heuristic import extract

# --- a user's labelled question asks; the session answers it --------------------------------


def test_a_users_follow_up_question_is_no_open_loop() -> None:
    messages = [
        user("Drop the legacy flag.\n\nFollow-up: how do we stop new flags from being added?"),
        assistant("A lint rule now rejects new flags in `config.py`."),
        user("ok, thanks"),
    ]
    drafts = extract(messages)
    assert not any(d.kind == "open_loop" for d in drafts), kinds_and_quotes(drafts)


def test_a_users_follow_up_that_states_the_work_is_still_an_open_loop() -> None:
    messages = [
        user("Follow-up: add a lint rule so no new flags get added."),
        assistant("Noted."),
    ]
    drafts = extract(messages)
    assert ("open_loop", "Follow-up: add a lint rule so no new flags get added.") in (
        kinds_and_quotes(drafts)
    )
    assert_verbatim(drafts, messages)
