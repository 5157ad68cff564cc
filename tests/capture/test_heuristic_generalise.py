"""Rules of the heuristic extractor measured on the development split of the labelled
corpus (issue 27; docs/heuristic.md): each with cases of its own, not copied from it."""

from __future__ import annotations

import pytest
from helpers.drafts import assert_verbatim, assistant, kinds_and_quotes, user

from gitmem.capture.extract.heuristic import explain, extract
from gitmem.capture.extract.heuristic.sentences import split_sentences
from gitmem.core.transcript import Message

summary = kinds_and_quotes


# --- a user's sentences end before a lowercase word ---------------------------------------


def test_a_users_sentence_ends_before_a_lowercase_word() -> None:
    text = "yeah, I think we should only keep one cache. can you redo the diagram with both?"
    spans = split_sentences(text, 0, lower=True)
    assert [text[s:e] for s, e in spans] == [
        "yeah, I think we should only keep one cache.",
        "can you redo the diagram with both?",
    ]
    # An assistant's text is cut before a capital only; an abbreviation never ends one.
    assert len(split_sentences(text, 0)) == 1
    assert len(split_sentences("use a cache, e.g. the one in sqlite", 0, lower=True)) == 1


def test_a_users_rule_before_a_question_in_lowercase_is_kept() -> None:
    messages = [
        user("yeah, I think we should only keep one cache. can you redo the diagram with both?"),
        assistant("Here is the diagram with both caches merged into one."),
    ]
    drafts = extract(messages)
    assert ("decision", "yeah, I think we should only keep one cache.") in summary(drafts)
    assert_verbatim(drafts, messages)


# --- a last message that only asks to commit -----------------------------------------------

WORK = "Renamed every `agent-plugins` reference; the URLs now point to `entireio/skills`."


@pytest.mark.parametrize("wrap", ["commit", "Commit it\n", "did you push?", "ok, commit and push"])
def test_the_reply_before_a_request_to_commit_is_the_report(wrap: str) -> None:
    messages = [
        user("Rename the package everywhere."),
        assistant(WORK),
        user(wrap),
        assistant("Committed as `900b1aa` with message `Rename agent-plugins to skills`."),
    ]
    drafts = explain(messages)
    assert [(d.quote, rule) for d, rule in drafts] == [
        (WORK, "report-wrapped"),
        ("Committed as `900b1aa` with message `Rename agent-plugins to skills`.", "reference"),
    ]
    assert_verbatim([d for d, _ in drafts], messages)
    # Asked and not answered yet (the session ends with it): the reply before is the report
    # (and a request of four words or more is still left open).
    assert summary(extract(messages[:3]))[0] == ("decision", WORK)


def test_the_reply_before_any_other_last_request_is_not_the_report() -> None:
    for last in ("now fix the docs too, they still say agent-plugins", "thanks", "continue"):
        messages = [user("Rename the package."), assistant(WORK), user(last)]
        assert all(d.quote != WORK for d in extract(messages))
        answered = [*messages, assistant("Done: the docs say `skills` now.")]
        assert all(d.quote != WORK for d in extract(answered))


@pytest.mark.parametrize(
    "done",
    [
        "All done. The **tokenizer** epic is fully implemented and pushed.",
        'All references to "agent-plugins" have been renamed.',
        "Everything is committed and pushed.",
    ],
)
def test_the_reply_before_a_request_to_commit_says_the_work_is_done_in_vain(done: str) -> None:
    # That the work is done is what the commit request and the closing reply settle; what
    # the work changed is read from the units after it.
    reply = f"{done} Here's a summary of the changes:\n\n{WORK}"
    messages = [
        user("Rename the package everywhere."),
        assistant(reply),
        user("did you push?"),
        assistant("Yes, the branch is on origin and the epic is closed."),
    ]
    drafts = explain(messages)
    wrapped = [d.quote for d, rule in drafts if rule == "report-wrapped"]
    assert wrapped == [WORK]
    assert_verbatim([d for d, _ in drafts], messages)


def test_a_closing_report_that_says_the_work_is_done_is_still_read() -> None:
    done = "The **tokenizer** epic is fully implemented and pushed."
    messages = [user("Finish the tokenizer epic."), assistant(done)]
    assert [d.quote for d in extract(messages)] == [done]


WORK = "The tokenizer now counts nesting depth with a plain int."
"""What a fix report says was done: the one item each report below should give."""


def fix_report(reply: str) -> list[Message]:
    """The user asks for a fix and the assistant's *reply* reports it."""
    return [user("Fix the tokenizer."), assistant(reply)]


# --- a report's account of the checks it ran is routine status ------------------------------


@pytest.mark.parametrize(
    "checks",
    [
        "Verification: I ran the parser tests and confirmed the CLI surface with `--help`.",
        "**Verification passed:** `pytest -q` and `ruff check` are clean.",
        "Verification:\n- ran `pytest -q`\n- `git status --short` shows one untracked file",
        "Tests run: 214, all green on the arm64 runner.",
    ],
)
def test_a_report_of_the_checks_run_gives_no_item(checks: str) -> None:
    messages = fix_report(f"{WORK}\n\n{checks}")
    assert summary(extract(messages)) == [("decision", WORK)]


def test_a_units_word_testing_is_not_a_check() -> None:
    fact = "**Testing**: Vitest 4.0 runs the integration suites first."
    messages = [user("Describe the repository."), assistant(fact)]
    assert summary(extract(messages)) == [("fact", fact)]


# --- a report's side notes, and lists a paragraph keeps apart ------------------------------


@pytest.mark.parametrize(
    "note",
    [
        "Also fixed two old lint warnings in `cache.py`.",
        "Also relevant: the arm64 wheel uses the same flag, so it needs no change.",
        "Additionally, the README mentions the new flag.",
    ],
)
def test_a_side_note_in_a_report_gives_no_item(note: str) -> None:
    messages = fix_report(f"{WORK}\n\n{note}")
    assert summary(extract(messages)) == [("decision", WORK)]
    # The user's own "also" is read as ever.
    rule = "Also, never run the migration on the production database."
    assert ("decision", rule) in summary(extract([*messages, user(rule)]))


def test_a_paragraph_between_two_lists_makes_them_two_lists() -> None:
    report = (
        "The parser fix is merged.\n\n"
        "1. The old README steps are wrong.\n"
        "2. The wheel is built by CI now.\n\n"
        "Two checks I'd like to run first:\n\n"
        "1. **Confirm the arm64 runner picks up the wheel** — rerun the release job.\n"
        "2. **Confirm the docs build** — run `make docs`."
    )
    messages = [user("Merge the parser fix."), assistant(report)]
    assert [d.quote for d in extract(messages)] == [
        "The parser fix is merged.",
        "The old README steps are wrong.",
        "**Confirm the arm64 runner picks up the wheel** — rerun the release job.",
    ]


# --- a user's correction ------------------------------------------------------------------


@pytest.mark.parametrize(
    "correction",
    [
        "no remove the sha again, someone will take it for a stable link",
        "No, keep the retries at three.",
        "What I said was run `git add ... && git commit ...` so I approve it once.",
        "I told you that the two lines belong to the other skill.",
    ],
)
def test_a_users_correction_is_a_decision(correction: str) -> None:
    messages = [
        user("Store the attribution in the metadata."),
        assistant("Added the commit sha to the metadata as well."),
        user(correction),
        assistant("Understood, changed."),
    ]
    drafts = explain(messages)
    assert (correction, "user-rule") in [(d.quote, rule) for d, rule in drafts]
    assert_verbatim([d for d, _ in drafts], messages)


def not_quoted_after_a_change(reply: str) -> bool:
    """No item quotes *reply*, the user's answer to a change the assistant reports."""
    messages = [
        user("Store the attribution in the metadata."),
        assistant("Added the commit sha to the metadata as well."),
        user(reply),
        assistant("Understood."),
    ]
    return all(d.quote != reply for d in extract(messages))


@pytest.mark.parametrize(
    "reply",
    [
        "no worries, take your time",
        "nope I don't see it in the panel",
        "No idea why the runner is slow.",
        "no, that's fine",
        "no, not yet",
        "nope, sorry, wrong window",
        "I didn't tell you to undo your changes.",
    ],
)
def test_a_plain_no_is_not_a_correction(reply: str) -> None:
    assert not_quoted_after_a_change(reply)


@pytest.mark.parametrize(
    "reply",
    [
        "no, write the plan",
        "no read the design doc first",
        "nope, continue with the next task",
        "no Im talking about this https://example.com/docs/skills#tools",
        "no its the other panel",
        "No, you're right, the sidebar",
    ],
)
def test_a_no_that_directs_the_next_reply_is_not_a_rule(reply: str) -> None:
    # A one-off instruction (what to do next in the conversation) or a clarification: the
    # next reply does it, and nothing of it holds afterwards.
    assert not_quoted_after_a_change(reply)


def test_a_no_that_corrects_the_work_is_still_a_rule() -> None:
    for correction in ("no, drop the sha from the metadata", "nope, keep the old flag name"):
        messages = [
            user("Store the attribution in the metadata."),
            assistant("Added the commit sha to the metadata as well."),
            user(correction),
            assistant("Understood, changed."),
        ]
        drafts = explain(messages)
        assert (correction, "user-rule") in [(d.quote, rule) for d, rule in drafts]


def test_an_ellipsis_does_not_end_a_users_sentence() -> None:
    text = "run `git add ... && git commit ...` so I approve it once. then push"
    spans = split_sentences(text, 0, lower=True)
    assert [text[s:e] for s, e in spans] == [
        "run `git add ... && git commit ...` so I approve it once.",
        "then push",
    ]


@pytest.mark.parametrize(
    "lead",
    [
        "Based on my exploration of the codebase, I've identified the parts to change.",
        "Based on the design doc, I'm thinking of three steps.",
        "Based on your codebase, I'll write the plan in `PLAN.md`.",
    ],
)
def test_a_report_unit_opening_based_on_is_narration(lead: str) -> None:
    messages = fix_report(f"{lead}\n\n{WORK}")
    assert summary(extract(messages)) == [("decision", WORK)]


# --- a host's progress note is not the turn's answer ---------------------------------------


def note(text: str) -> Message:
    """A reply the host marks as written while the turn ran (Codex's commentary)."""
    return Message("assistant", text, progress=True)


def test_a_progress_note_is_not_the_report() -> None:
    answer = "Committed as `900b1aa` with message `Add the search skill`."
    messages = [
        user("commit the search skill"),
        note("The commit succeeded, but an unstaged change is left in `SKILL.md`."),
        assistant(answer),
    ]
    drafts = extract(messages)
    assert [d.quote for d in drafts] == [answer]
    assert_verbatim(drafts, messages)


def test_a_turn_of_progress_notes_only_has_no_report() -> None:
    # The user stopped it, or the capture came while it ran: nothing closed the turn.
    messages = [
        user("Fix the installer issue."),
        assistant("The installer now finds all four skills."),
        user("okay let's open a PR"),
        note("The workspace is clean apart from one untracked file. Next I'm branching."),
    ]
    assert all("workspace" not in d.quote for d in extract(messages) if d.quote)


def test_a_progress_notes_decision_is_still_read() -> None:
    decided = "We'll use SQLite for the token cache."
    messages = [
        user("Cache the token table."),
        note(f"{decided} I'm wiring it into the loader now."),
        assistant("The token table is cached in `cache.db`."),
    ]
    assert ("decision", decided) in summary(extract(messages))
