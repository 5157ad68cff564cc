"""A question the user answered leaves no item (issue 27: the session's last word wins;
docs/heuristic.md, "Questions the user answered"). Cases of their own, not copied from the
labelled corpus."""

from __future__ import annotations

from helpers.drafts import assert_verbatim, assistant, user

from gitmem.capture.extract.heuristic import explain, extract
from gitmem.core.transcript import ANSWER, Message

PREAMBLE = (
    "Before I write the migration, one question: the answer changes the schema.\n\n"
    "I'd rather not guess, since one option drops the archive table someone may still read."
)
ASKS = "**Should the old buffered path stay behind a flag?** It is unused, so removing it is safe."
ANSWERED = 'User has answered your questions: "Keep the archive table?"="No, drop it".'


def _asked(preamble: str) -> list[Message]:
    return [
        user("write the migration for the orders table"),
        assistant(preamble),
        Message("tool_use", "AskUserQuestion\n{}"),
        Message(ANSWER, ANSWERED),
        assistant("Done. The migration drops the archive table and adds the `shipped_at` column."),
    ]


def _quotes(messages: list[Message]) -> list[str]:
    return [d.quote or "" for d, _ in explain(messages, session_items=40)]


def test_the_reply_that_hands_the_user_a_question_tool_gives_no_item() -> None:
    messages = _asked(PREAMBLE)
    quotes = _quotes(messages)
    assert not any("rather not guess" in q for q in quotes)
    assert any("drops the archive table" in q for q in quotes)
    assert_verbatim(extract(messages), messages)


def test_a_session_that_ends_with_its_plan_approved_has_no_report_from_the_preamble() -> None:
    # The reply before the plan tool closes the user's turn, so it was read as the
    # session's report: its narration became the outcome.
    messages = [
        user("plan the migration of the orders table"),
        assistant("Good, the schema review confirms the approach. I'll write the plan now."),
        Message("tool_use", 'ExitPlanMode\n{"plan": "# Plan"}'),
        Message(ANSWER, "User has approved your plan."),
    ]
    assert extract(messages) == []


def test_a_reply_is_read_when_the_user_answers_in_words_not_the_tool() -> None:
    # Only the host's question tool marks a reply as the question's preamble: a reply the
    # user answers with a message of their own keeps its decisions.
    decided = "We'll keep the archive table read-only until the export job is retired."
    messages = [
        user("write the migration for the orders table"),
        assistant(decided),
        user("ok, and add the shipped_at column"),
        assistant("Done. The migration adds the `shipped_at` column."),
    ]
    assert decided in _quotes(messages)


def _wrapped(unit: str) -> list[Message]:
    report = (
        "The importer now streams rows instead of loading the whole file.\n\n"
        f"{unit}\n\n"
        "Peak memory on the 2 GB fixture fell from 3.1 GB to 180 MB."
    )
    return [
        user("the importer runs out of memory on big files"),
        assistant(report),
        user("commit"),
        assistant("Committed as `4f2a9c1`."),
    ]


def test_a_unit_of_the_reply_before_a_last_commit_request_that_asks_is_answered() -> None:
    messages = _wrapped(ASKS)
    found = explain(messages, session_items=40)
    wrapped = [d.quote or "" for d, rule in found if rule == "report-wrapped"]
    assert any("streams rows" in q for q in wrapped)
    assert not any("buffered path" in q for q in wrapped)
    assert_verbatim(extract(messages), messages)


def test_a_wrapped_unit_that_asks_and_answers_itself_is_kept() -> None:
    # A report's rhetorical question is its own heading: the rest of the unit answers it.
    explains = "**Why did the importer run out of memory?** It read the whole file into a list."
    assert any("whole file into a list" in q for q in _quotes(_wrapped(explains)))


def test_a_closing_reports_question_is_still_open() -> None:
    # Nobody answered the last reply: what it asks stays an open loop.
    report = f"The importer now streams rows instead of loading the whole file.\n\n{ASKS}"
    messages = [user("the importer runs out of memory on big files"), assistant(report)]
    assert any("buffered path" in q for q in _quotes(messages))


def test_a_wrapped_unit_that_states_is_kept() -> None:
    states = "The old buffered path is gone; nothing called it."
    assert any("buffered path is gone" in q for q in _quotes(_wrapped(states)))


# --- a heading is no item ------------------------------------------------------------------


def test_a_heading_that_a_phrase_marks_is_no_item() -> None:
    # "### Still open" titles what is open; the list under it says what.
    report = (
        "The exporter now writes one file per tenant.\n\n"
        "### Still open\n\n"
        "- The S3 upload retries forever on a 403.\n"
    )
    messages = [user("split the export by tenant"), assistant(report)]
    quotes = _quotes(messages)
    assert "Still open" not in quotes
    assert "The S3 upload retries forever on a 403." in quotes
    # The same words as a sentence of their own are still an item.
    said = [user("split the export by tenant"), assistant("The S3 upload is still open.")]
    assert "The S3 upload is still open." in _quotes(said)
    assert_verbatim(extract(messages), messages)
