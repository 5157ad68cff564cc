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


# --- a user's "let's …" that names an issue asks for the work; the reply says what came of it


def test_a_users_lets_that_names_an_issue_is_a_request() -> None:
    for request in (
        "lets fix this issue https://github.com/acme/parser/issues/41",
        "Let's look at PR #214 next.",
    ):
        messages = [user(request), assistant("Fixed: the tokenizer keeps its depth now.")]
        assert not any(request[:12] in (d.quote or "") for d in extract(messages))


def test_a_users_lets_go_with_stays_a_decision_and_a_plain_issue_a_reference() -> None:
    messages = [
        user("Let's go with the tokenizer from PR #214."),
        user("The crash is tracked in https://github.com/acme/parser/issues/41"),
        assistant("Done."),
    ]
    quotes = [d.quote for d in extract(messages)]
    assert "Let's go with the tokenizer from PR #214." in quotes
    assert "The crash is tracked in https://github.com/acme/parser/issues/41" in quotes


# --- "let's go for …" and "let's skip …" choose, as "let's go with …" does ------------------


def test_a_users_lets_go_for_and_lets_skip_are_decisions() -> None:
    messages = [
        user("Option A is slower. yeah let's go for the streaming parser"),
        assistant("Which cache should stay?"),
        user("Let's skip the disk cache for now."),
        assistant("Done: the streaming parser is in and the disk cache is gone."),
    ]
    drafts = extract(messages)
    found = kinds_and_quotes(drafts)
    assert ("decision", "yeah let's go for the streaming parser") in found
    assert ("decision", "Let's skip the disk cache for now.") in found
    assert_verbatim(drafts, messages)


def test_lets_go_alone_chooses_nothing() -> None:
    messages = [user("ok let's go, start with the parser"), assistant("Started.")]
    assert not any(d.kind == "decision" for d in extract(messages))


# --- a report's unit that closes on an offer leaves that offer open -------------------------


def test_a_unit_that_closes_on_an_offer_is_quoted_from_what_it_proposes() -> None:
    proposal = "The retries could also back off exponentially, but that changes the timeouts."
    offer = "Want me to add the backoff, or keep the fixed delay?"
    messages = [
        user("Why does the upload still time out?"),
        assistant(
            f"The upload timed out because the retry loop reset its clock.\n\n{proposal} {offer}"
        ),
    ]
    drafts = extract(messages)
    assert ("open_loop", f"{proposal} {offer}") in kinds_and_quotes(drafts)
    assert_verbatim(drafts, messages)


def test_a_long_report_keeps_its_closing_offer() -> None:
    body = "\n\n".join(f"Module {n} now logs its retries in `retry_{n}.log`." for n in range(12))
    offer = "Would you like me to open a PR with these changes?"
    messages = [user("Add retry logging everywhere."), assistant(f"{body}\n\n{offer}")]
    drafts = extract(messages)
    assert ("open_loop", offer) in kinds_and_quotes(drafts)
    # a long report's middle units are still left out
    assert not any("Module 5" in (d.quote or "") for d in drafts)


# --- "the fix is ready" is routine status, like "the fix is complete" ----------------------


def test_a_ready_fix_before_a_lead_in_gives_no_item() -> None:
    report = (
        "The tokenizer fix is ready. Changes made to `parser.py`:\n\n"
        "The parser keeps one token table per process, rebuilt on grammar changes."
    )
    messages = [user("fix the tokenizer please"), assistant(report)]
    assert [d.quote for d in extract(messages)] == [
        "The parser keeps one token table per process, rebuilt on grammar changes."
    ]
