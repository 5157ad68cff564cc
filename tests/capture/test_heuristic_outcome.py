"""The heuristic extractor reads how a session ends (docs/heuristic.md, "The outcome"):
the closing report unit by unit, what it skips, subjects kept, and the last word winning
(duplicates, closed loops, replaced decisions)."""

from __future__ import annotations

import pytest

from gitmem.capture.checkpoint import build_items
from gitmem.capture.extract.heuristic import extract
from gitmem.capture.extract.heuristic.lastword import last_word, same_claim
from gitmem.capture.extract.heuristic.select import Candidate
from gitmem.core.items import Draft, Kind
from gitmem.core.numbers import number_tokens
from gitmem.core.quotes import check_quote
from gitmem.core.transcript import Message, plain_transcript


def summary(drafts: list[Draft]) -> list[tuple[str, str | None]]:
    return [(d.kind, d.quote) for d in drafts]


def session(report: str, *before: Message) -> list[Message]:
    return [*before, Message("user", "Ship the parser fix."), Message("assistant", report)]


def assert_verbatim(drafts: list[Draft], messages: list[Message]) -> None:
    texts = [m.text for m in messages]
    for draft in drafts:
        assert draft.quote is not None and any(draft.quote in text for text in texts)
        assert check_quote(draft.quote, texts).verbatim, draft.quote


# --- the report ----------------------------------------------------------------------------

SHORT_REPORT = """Perfect! The parser fix is merged into `main` as `4f2a9c1`.

The tokenizer now counts nesting depth with a plain int, so deep files no longer crash.

### What's left

- The Windows wheel still has to be rebuilt by hand.

Want me to open the release checklist?
"""


def test_a_short_report_gives_one_item_per_unit() -> None:
    messages = session(SHORT_REPORT)
    drafts = extract(messages)
    assert summary(drafts) == [
        ("fact", "The parser fix is merged into `main` as `4f2a9c1`."),
        (
            "decision",
            "The tokenizer now counts nesting depth with a plain int, so deep files no longer "
            "crash.",
        ),
        ("open_loop", "The Windows wheel still has to be rebuilt by hand."),
        ("open_loop", "Want me to open the release checklist?"),
    ]
    assert all(d.extra["importance"] >= 1 for d in drafts)
    assert_verbatim(drafts, messages)


@pytest.mark.parametrize(
    "unit",
    [
        "Let me run the benchmark once more to be sure.",
        "Now I have all the information I need to write the report.",
        "Here's a summary of what changed:",
        "主な更新内容：",  # a lead-in with a full-width colon, as "Main changes:"
        "- The files I changed in this session:",
        "All 214 tests pass and lint is clean.",
        "Tests and lint pass.",  # a list of checks that pass
        "All tests, lint, and formatting pass cleanly.",
        "Build and tests pass.",
        "The working tree is clean.",
        "- `src/parser.py` (new, not committed)",
        "- [tokenizer.py](/home/me/parser/tokenizer.py:12): depth counter",
        "$ git status --short",
        "<summary>",
        "| file | change |\n|---|---|\n| parser.py | depth |",
        "```\ngit log --oneline\n```",
    ],
)
def test_a_report_skips_what_is_not_worth_carrying(unit: str) -> None:
    assert extract(session(unit)) == []


def test_a_long_report_gives_its_lead_and_its_status_sections() -> None:
    details = "\n".join(f"- Module {n} reads the config from the environment." for n in range(12))
    report = (
        "The migration to the new config loader is complete.\n\n"
        f"## Details\n\n{details}\n\n"
        "## Next steps\n\n- Delete the old loader once the release is out.\n"
    )
    assert summary(extract(session(report))) == [
        ("fact", "The migration to the new config loader is complete."),
        ("open_loop", "Delete the old loader once the release is out."),
    ]


def test_a_list_in_a_report_gives_its_first_item_and_a_list_of_what_is_left_all() -> None:
    done = "\n".join(f"{n}. Ported parser module number {n} to the new API" for n in range(1, 6))
    report = f"**Completed:**\n\n{done}\n"
    assert [d.quote for d in extract(session(report))] == [
        "Ported parser module number 1 to the new API",
    ]
    left = "\n".join(f"- Port parser module number {n} to the new API" for n in range(6, 9))
    loops = extract(session(f"{report}\n**Next steps:**\n\n{left}\n"))
    assert [d.quote for d in loops if d.kind == "open_loop"] == [
        f"Port parser module number {n} to the new API" for n in range(6, 9)
    ]


def test_a_long_report_that_opens_with_a_list_has_no_lead() -> None:
    survey = "\n".join(f"- Module {n} reads the config from the environment." for n in range(12))
    report = f"## Config loading\n\n{survey}\n\n## Next steps\n\n- Delete the old loader.\n"
    assert summary(extract(session(report))) == [("open_loop", "Delete the old loader.")]


def test_a_lone_reply_or_a_session_ending_with_the_user_has_no_report() -> None:
    assert extract([Message("assistant", "The cache now lives in SQLite.")]) == []
    ended = [Message("assistant", "The cache now lives in SQLite."), Message("user", "thanks")]
    assert extract(ended) == []


# --- what is never an item ------------------------------------------------------------------


def test_narration_is_not_a_decision_or_an_open_loop() -> None:
    messages = [
        Message("user", "Fix the flaky test."),
        Message("assistant", "Let me fix it by switching to the monotonic clock instead."),
        Message("assistant", "I'm checking whether the fixture still needs to be reset."),
        Message("user", "ok"),
    ]
    assert extract(messages) == []


def test_a_users_question_is_not_an_open_question() -> None:
    messages = [
        Message("user", "Should we keep the cache in .git, or is that a problem?"),
        Message("user", "can we split the commits in a hook?"),
    ]
    assert extract(messages) == []


def test_a_plan_step_named_pr_1_is_not_a_pull_request() -> None:
    messages = [
        Message("user", "Plan it."),
        Message("assistant", "PR 1 adds the flag and PR 2 the TUI."),
        Message("assistant", "PR #37 by Soph is merged."),
        Message("user", "ok"),
    ]
    assert summary(extract(messages)) == [("fact", "PR #37 by Soph is merged.")]


def test_a_negated_label_stays_in_the_text() -> None:
    (draft,) = extract([Message("user", "Not yet done: the migration of the old rows.")])
    assert draft.text == "Not yet done: the migration of the old rows."


# --- subjects -----------------------------------------------------------------------------


def test_an_item_keeps_its_subject_from_the_sentence_before() -> None:
    text = "The retry helper swallows timeouts. It still fails on Windows."
    (draft,) = extract([Message("user", text)])
    assert draft.quote == text and draft.text == text
    # A question before is not a subject to borrow.
    (draft,) = extract([Message("user", "Is that a problem? It still fails on Windows.")])
    assert draft.quote == "It still fails on Windows."


def test_todo_as_a_subject_is_not_a_label() -> None:
    said = "TODO is not acceptable, the implementation must be full."
    (draft,) = extract([Message("user", said)])
    assert (draft.kind, draft.text) == ("decision", said)
    (label,) = extract([Message("user", "TODO port the old error messages")])
    assert label.text == "Port the old error messages"


# --- the last word ----------------------------------------------------------------------------


def candidate(kind: Kind, quote: str, message: int, by_user: bool = False) -> Candidate:
    return Candidate(kind, quote, quote, 1, {}, (message, 0, 0), by_user)


def test_the_same_claim_twice_is_one_item_the_later() -> None:
    first = candidate(Kind.DECISION, "Keep the index in SQLite for now.", 1)
    again = candidate(Kind.DECISION, "We keep the index in SQLite for now, as agreed.", 4, True)
    (kept,) = last_word([first, again])
    assert kept.quote == again.quote and kept.by_user


def test_a_plain_restatement_keeps_the_marked_kind() -> None:
    loop = candidate(Kind.OPEN_LOOP, "Port the old error messages to the new parser.", 1)
    plain = candidate(Kind.FACT, "Port the old error messages to the new parser", 3)
    (kept,) = last_word([loop, plain])
    assert kept.kind == Kind.OPEN_LOOP


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Retry the upload 3 times before failing.", "Retry the upload 5 times before failing."),
        ("The cache is pushed with the ref.", "The cache is not pushed with the ref."),
    ],
)
def test_a_different_number_or_a_negation_is_a_different_claim(a: str, b: str) -> None:
    assert not same_claim(candidate(Kind.DECISION, a, 1), candidate(Kind.DECISION, b, 2))


def test_a_later_done_closes_an_open_loop_on_the_same_subject() -> None:
    loop = candidate(Kind.OPEN_LOOP, "Still need to fix the `parse_header` crash.", 1)
    other = candidate(Kind.OPEN_LOOP, "The Windows wheel has to be rebuilt.", 1)
    done = candidate(Kind.FACT, "Fixed the `parse_header` crash with a bounds check.", 3)
    assert [c.quote for c in last_word([loop, other, done])] == [other.quote, done.quote]
    # A later "not done" does not close it.
    not_done = candidate(Kind.FACT, "The `parse_header` crash is not fixed yet.", 3)
    assert loop in last_word([loop, not_done])


def test_a_report_that_says_all_is_done_closes_every_earlier_loop() -> None:
    messages = [
        Message("user", "Work through the epic."),
        Message("user", "TODO: port the old error messages"),
        Message("assistant", "All done. The whole epic is complete and pushed."),
    ]
    assert summary(extract(messages)) == [
        ("fact", "The whole epic is complete and pushed."),
    ]


def test_a_later_decision_that_replaces_an_earlier_one_wins() -> None:
    old = candidate(Kind.DECISION, "We decided to store the index in `index.json`.", 1)
    new = candidate(Kind.DECISION, "The index now lives in SQLite instead of `index.json`.", 3)
    assert last_word([old, new]) == [new]


def test_a_users_correction_overrides_an_earlier_decision() -> None:
    messages = [
        Message("user", "Set up the tokenizer."),
        Message("assistant", "We'll use `httpx` for the downloads."),
        Message("user", "no, don't use `httpx`: we keep `requests` for the downloads"),
    ]
    assert summary(extract(messages)) == [
        ("decision", "no, don't use `httpx`: we keep `requests` for the downloads")
    ]


def test_one_message_does_not_override_itself() -> None:
    a = candidate(Kind.DECISION, "We decided to keep `index.json` for the cache.", 2)
    b = candidate(Kind.DECISION, "We now use `index.json` instead for the config.", 2)
    assert last_word([a, b]) == [a, b]


# --- the user's last word, and requests ----------------------------------------------------


def test_an_unanswered_last_request_is_an_open_loop() -> None:
    messages = [
        Message("user", "Pin the parser to 1.14."),
        Message("assistant", "Pinned it in the lockfile."),
        Message("user", "Good. Open a ticket so we remove the pin once the wheels exist."),
    ]
    # The reply before the user's last message is no report: what came after is unknown.
    assert summary(extract(messages)) == [
        ("open_loop", "Open a ticket so we remove the pin once the wheels exist."),
    ]
    asked = [*messages[:2], Message("user", "Does the pin also hold on the arm64 runner?")]
    assert summary(extract(asked))[-1] == (
        "uncertainty",
        "Does the pin also hold on the arm64 runner?",
    )
    assert extract([*messages[:2], Message("user", "thanks!")]) == []
    for short in ("commit", "ok, push it"):
        # Not a request to carry; asking only to commit or push makes the reply before it
        # the session's report (see test_heuristic_generalise.py).
        assert summary(extract([*messages[:2], Message("user", short)])) == [
            ("fact", "Pinned it in the lockfile.")
        ]


def test_a_request_the_user_stopped_the_reply_to_is_left_open() -> None:
    messages = [
        Message("user", "mix phx.server doesnt seem to start"),
        Message("assistant", "Let me check the project structure and run the server."),
        Message("user", "[Request interrupted by user for tool use]"),
    ]
    assert summary(extract(messages)) == [("open_loop", "mix phx.server doesnt seem to start")]
    aborted = "<turn_aborted>\nThe user interrupted the previous turn on purpose.\n</turn_aborted>"
    codex = [*messages[:2], Message("user", aborted)]
    assert summary(extract(codex)) == [("open_loop", "mix phx.server doesnt seem to start")]
    # Not stopped: the reply answered it (here with narration only, which gives nothing).
    assert extract(messages[:2]) == []
    # A last word that states a rule is that rule, not a request left open.
    rule = "no, don't use `httpx`: we keep `requests` for the downloads"
    assert summary(extract([*messages[:2], Message("user", rule)])) == [("decision", rule)]


def test_a_users_request_that_names_an_issue_is_not_an_open_loop() -> None:
    messages = [
        Message("user", "can you read this and tell me what is going on in issue #3"),
        Message("assistant", "The reporter installs the skills by hand."),
        Message("user", "thanks"),
    ]
    assert extract(messages) == []


def test_only_the_first_list_of_what_is_left_counts_in_a_message() -> None:
    text = (
        "Pending Tasks:\n- Wire the hook into the installer\n\n"
        "Next Step:\n- Run the installer tests once the hook is wired\n"
    )
    assert summary(extract([Message("user", text)])) == [
        ("open_loop", "Wire the hook into the installer")
    ]


# --- the capture keeps every badge the extractor gives ---------------------------------


def test_a_question_the_report_leaves_is_an_uncertainty_not_a_fact() -> None:
    said = "The cache key now includes the locale, but is the time zone needed in it too?"
    assert summary(extract(session(said))) == [("uncertainty", said)]


@pytest.mark.parametrize(
    "messages",
    [
        session(SHORT_REPORT),
        session("Going with SQLite for the index?", Message("user", "We decided to use SQLite?")),
        [Message("user", "Should we go with SQLite? no, we keep JSON files for now")],
    ],
)
def test_every_draft_stays_verbatim_when_captured(messages: list[Message]) -> None:
    transcript = plain_transcript("", "s").with_messages(messages)
    drafts = extract(messages)
    items = build_items(drafts, transcript, "s", "0" * 64)
    assert [(i.trust, i.quote_reason) for i in items if i.trust != "verbatim"] == []


def test_a_list_number_inside_emphasis_is_not_in_the_text() -> None:
    # The verifier reads "1." at a line's start as a list marker, so the stored quote
    # starts after it: a text that kept it would add a number its quote lacks.
    report = (
        "The plan is saved.\n\n"
        "**1. Inline Execution** — I execute the tasks in this session, with checkpoints.\n"
    )
    messages = session(report)
    transcript = plain_transcript("", "s").with_messages(messages)
    items = build_items(extract(messages), transcript, "s", "0" * 64)
    assert [i.text for i in items] == [
        "The plan is saved.",
        "Inline Execution — I execute the tasks in this session, with checkpoints.",
    ]
    for item in items:
        assert item.trust == "verbatim" and item.quote is not None
        assert set(number_tokens(item.text)) <= set(number_tokens(item.quote))


def test_a_list_item_that_says_something_before_its_colon_is_a_statement() -> None:
    report = (
        "Before I touch more code, two quick checks I'd like to run:\n\n"
        "1. **Confirm the cache folder is read** — drop the probe there and see if it loads:\n"
        "   ```bash\n   ln -s probe ~/.cache/tool/probe\n   ```\n"
    )
    assert summary(extract(session(report))) == [
        (
            "fact",
            "**Confirm the cache folder is read** — drop the probe there and see if it loads:",
        ),
    ]


def test_a_report_that_names_what_it_changed_beside_its_checks_is_kept() -> None:
    unit = "Lint rules and the parser tests were rewritten for the tokenizer."
    assert [quote for _, quote in summary(extract(session(unit)))] == [unit]
