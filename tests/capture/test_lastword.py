"""The session's last word wins, whatever the extractor: each rule with its own cases, and
the cases it must leave alone."""

from __future__ import annotations

from gitmem.capture.extract.lastword import last_word
from gitmem.core.items import Draft
from gitmem.core.transcript import Message


def said(kind: str, text: str, quote: str) -> Draft:
    return Draft(kind, text, "verbatim", quote, {})


def kept(drafts: list[Draft], messages: list[Message]) -> list[str]:
    return [d.text for d in last_word(drafts, messages)]


def test_the_same_claim_said_twice_is_one_item_the_later() -> None:
    messages = [
        Message("user", "Decision: keep the parser in src/parser.py."),
        Message("assistant", "Agreed, we keep the parser in src/parser.py."),
    ]
    early = said("decision", "Keep the parser in src/parser.py", "keep the parser in src/parser.py")
    late = said(
        "decision", "Keep the parser in src/parser.py", "we keep the parser in src/parser.py"
    )
    assert last_word([late, early], messages) == [late]


def test_a_changed_value_supersedes_the_earlier_one() -> None:
    messages = [
        Message("user", "The retry limit is 3 for now."),
        Message("user", "We raised it: the retry limit is 30."),
    ]
    early = said("fact", "The retry limit is 3", "The retry limit is 3")
    late = said("fact", "The retry limit is 30", "the retry limit is 30")
    assert kept([early, late], messages) == ["The retry limit is 30"]


def test_an_answer_the_user_overrode_two_messages_later_is_dropped() -> None:
    messages = [
        Message("assistant", "Which HTTP client should the importer use?"),
        Message("user", "Decision: use httpx for the importer."),
        Message("assistant", "Done, httpx is wired in."),
        Message("user", "Actually, let's use requests instead of httpx."),
    ]
    answer = said("decision", "Use httpx for the importer", "use httpx for the importer")
    assert kept([answer], messages) == []
    assert kept([answer], messages[:3]) == ["Use httpx for the importer"]


def test_a_changed_plan_drops_the_plan_it_replaced() -> None:
    messages = [
        Message("user", "We decided to store sessions in Postgres."),
        Message("user", "We switched from Postgres to SQLite for sessions."),
    ]
    plan = said("decision", "Store sessions in Postgres", "store sessions in Postgres")
    change = said(
        "decision", "Store sessions in SQLite", "We switched from Postgres to SQLite for sessions"
    )
    assert kept([plan, change], messages) == ["Store sessions in SQLite"]


def test_a_recaps_open_loop_later_reported_done_is_closed() -> None:
    messages = [
        Message(
            "assistant", "Summary so far.\nNext steps:\n- write the sync command\n- add retries"
        ),
        Message("assistant", "Done: the sync command is written and tested."),
    ]
    sync = said("open_loop", "Write the sync command", "write the sync command")
    retries = said("open_loop", "Add retries to the fetcher", "add retries")
    assert kept([sync, retries], messages) == ["Add retries to the fetcher"]


def test_a_loop_named_by_its_id_is_closed_by_a_report_of_that_id() -> None:
    # the report is one sentence though its id and a path hold dots ("gqc.6", "a.py")
    messages = [
        Message("assistant", "Next:\n- **proj-gqc.6** (in_progress): close the review session"),
        Message("assistant", "gqc.6 done and pushed, see src/review.py for the handler."),
    ]
    loop = said("open_loop", "proj-gqc.6: close the review session", "close the review session")
    assert kept([loop], messages) == []
    for report in ("gqc.5 done and pushed.", "Next, gqc.6 is still to be done."):
        other = [messages[0], Message("assistant", report)]
        assert kept([loop], other) == ["proj-gqc.6: close the review session"], report


def test_a_session_that_ends_all_done_closes_every_loop_before_it() -> None:
    messages = [
        Message("assistant", "TODO: migrate the schema.\nTODO: update the changelog."),
        Message("user", "go on"),
        Message("assistant", "All done. The entire epic is complete."),
    ]
    loops = [
        said("open_loop", "Migrate the schema", "TODO: migrate the schema."),
        said("open_loop", "Update the changelog", "TODO: update the changelog."),
    ]
    assert kept(loops, messages) == []
    assert kept(loops, messages[:2]) == ["Migrate the schema", "Update the changelog"]


def test_what_no_later_statement_reverses_stays() -> None:
    messages = [
        Message("user", "TODO: fix test 3.\nTODO: fix test 4."),
        Message("user", "Decision: push the release branch tonight."),
        Message("user", "Decision: do not push to main."),
        Message("assistant", "Done: the docs are updated."),
        Message("user", "Is the parser done?"),
    ]
    drafts = [
        said("open_loop", "Fix test 3", "fix test 3."),
        said("open_loop", "Fix test 4", "fix test 4."),
        said("decision", "Push the release branch tonight", "push the release branch tonight"),
        said("decision", "Do not push to main", "do not push to main"),
        Draft("belief", "The parser is slow", "inferred", None, {}),
    ]
    assert kept(drafts, messages) == [d.text for d in drafts]


def test_a_user_turning_away_from_a_word_of_another_decision_leaves_it() -> None:
    # The user's later sentences turn away from "only" and "commit", words the earlier
    # decisions hold, but they speak of other things: nothing is reversed.
    messages = [
        Message("user", "We should only run explain on unique commits."),
        Message("assistant", "Decision: metadata must not include the commit SHA."),
        Message("user", "Show the whole output, not only the summary. Replace the commit hook."),
    ]
    drafts = [
        said(
            "decision",
            "Run explain only on unique commits",
            "We should only run explain on unique commits.",
        ),
        said(
            "decision",
            "Metadata must not include the commit SHA",
            "metadata must not include the commit SHA.",
        ),
    ]
    assert kept(drafts, messages) == [d.text for d in drafts]


def test_a_user_turning_away_from_the_decision_itself_reverses_it() -> None:
    messages = [
        Message("user", "We should only run explain on unique commits."),
        Message("assistant", "Done."),
        Message(
            "user", "Thanks. On second thought, run explain on every commit, not only unique ones."
        ),
    ]
    rule = said(
        "decision",
        "Run explain only on unique commits",
        "We should only run explain on unique commits.",
    )
    assert kept([rule], messages) == []


def test_a_later_decision_turning_away_from_a_shared_word_leaves_the_earlier() -> None:
    messages = [
        Message("user", "Decision: keep the pricing table sorted by date."),
        Message("user", "Decision: render the changelog as bullets instead of the table."),
    ]
    table = said(
        "decision",
        "Keep the pricing table sorted by date",
        "keep the pricing table sorted by date.",
    )
    bullets = said(
        "decision",
        "Render the changelog as bullets instead of the table",
        "render the changelog as bullets instead of the table.",
    )
    assert kept([table, bullets], messages) == [table.text, bullets.text]


def test_what_nobody_said_has_no_last_word() -> None:
    # a file the agent read, and a reminder the host wrote into the user's turn, never
    # supersede, reverse or close what the session said
    messages = [
        Message("user", "The retry limit is 3 for every uploader job."),
        Message("user", "Use httpx for the client. TODO: write the uploader tests."),
        Message("tool_result", "Note: the retry limit is 30 for every uploader job."),
        Message("tool_result", "uploader tests written and fixed"),
        Message("user", "<system-reminder>We switched from httpx to requests.</system-reminder>"),
        Message("assistant", "Reading on."),
    ]
    early = said("fact", "The retry limit is 3", "The retry limit is 3 for every uploader job.")
    late = said("fact", "The retry limit is 30", "the retry limit is 30 for every uploader job.")
    client = said("decision", "Use httpx for the client", "Use httpx for the client.")
    loop = said("open_loop", "Write the uploader tests", "TODO: write the uploader tests.")
    assert kept([early, late, client, loop], messages) == [
        "The retry limit is 3",
        "The retry limit is 30",  # kept as it is, with no place (its quote will fail)
        "Use httpx for the client",
        "Write the uploader tests",
    ]
