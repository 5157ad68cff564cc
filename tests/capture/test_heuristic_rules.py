"""Which rule family found each draft (docs/heuristic.md, "Rule families"): the benchmark's
provenance breakdown reads it through ``explain``; it is never stored."""

from __future__ import annotations

import pytest

from gitmem.capture.extract.heuristic import SESSION_ITEMS, explain, extract
from gitmem.core.transcript import Message


def user(text: str) -> Message:
    return Message("user", text)


def assistant(text: str) -> Message:
    return Message("assistant", text)


@pytest.mark.parametrize(
    ("messages", "rule"),
    [
        ([user("Decision: keep the index in SQLite.")], "label-decision"),
        ([user("TODO: port the old error messages")], "label-open_loop"),
        ([user("Next steps:\n- port the old error messages")], "section-open_loop"),
        ([user("- [ ] port the old error messages")], "taskbox"),
        ([user("We decided to keep the index in SQLite.")], "decision-start"),
        ([user("We should only run the hook on unique commits.")], "user-rule"),
        ([user("Replaced the regex parser with a tokenizer instead.")], "choice"),
        ([user("The migration is still failing on Windows.")], "phrase-open_loop"),
        ([user("From now on the cache lives in the repository.")], "phrase-decision"),
        ([user("See PR #214 for the tokenizer change.")], "forge"),
        ([user("I pushed the fix to branch `fix/tokenizer-depth`.")], "reference"),
        (
            [user("Port the parser."), assistant("The parser now reads tokens one by one.")],
            "report-first",
        ),
        (
            [assistant("Done."), user("Open a ticket so we remove the pin once wheels exist.")],
            "pending",
        ),
    ],
)
def test_each_draft_names_the_rule_family_that_found_it(messages: list[Message], rule: str) -> None:
    assert [r for _, r in explain(messages)] == [rule]


def test_explain_returns_what_extract_returns() -> None:
    messages = [
        user("Decision: keep the index in SQLite. TODO: port the old error messages"),
        assistant("Should we also drop the legacy flag? The parser is still failing on CI."),
        user("Fix the parser."),
        assistant("The parser now reads tokens one by one. See PR #214."),
    ]
    assert [d for d, _ in explain(messages)] == extract(messages)
    assert all(rule for _, rule in explain(messages))


def test_a_long_reports_lead_and_status_sections_are_their_own_families() -> None:
    paragraphs = "\n\n".join(
        f"Paragraph {n} describes module number {n} at length." for n in range(12)
    )
    lead, summary = (
        "The tokenizer rewrite is merged and deployed.",
        "The cache moved to the repository.",
    )
    report = f"{lead}\n\n{paragraphs}\n\n## Summary\n\n{summary}"
    found = explain([user("Rewrite the tokenizer."), assistant(report)])
    assert ("report-lead", "The tokenizer rewrite is merged and deployed.") in [
        (r, d.quote) for d, r in found
    ]
    assert ("report-section", "The cache moved to the repository.") in [
        (r, d.quote) for d, r in found
    ]


NOTIFICATION = (
    "<task-notification>\n<task-id>b7636e2</task-id>\n<status>completed</status>\n"
    '<summary>Background command "Run the tests" completed (exit code 0)</summary>\n'
    "</task-notification>"
)


def test_a_reply_that_only_acknowledges_a_notification_is_not_the_report() -> None:
    messages = [
        user("Move the cache into the repository."),
        assistant("The cache now lives in the repository under `.cache/`."),
        user(NOTIFICATION),
        assistant("Background task completed successfully. Everything is clean and pushed."),
    ]
    found = [(r, d.quote) for d, r in explain(messages)]
    assert found == [("report-first", "The cache now lives in the repository under `.cache/`.")]


def test_a_reply_that_works_on_after_a_notification_is_the_report() -> None:
    messages = [
        user("Move the cache into the repository."),
        assistant("The cache now lives in the repository under `.cache/`."),
        user(NOTIFICATION),
        Message("tool_use", '{"command": "pytest"}'),
        Message("tool_result", "2 failed"),
        assistant("The two failing tests now read the cache from `.cache/` instead of /tmp."),
    ]
    found = [(r, d.quote) for d, r in explain(messages)]
    assert ("report-first", found[-1][1]) == found[-1]
    assert "failing tests" in found[-1][1]


@pytest.mark.parametrize(
    "request_",
    [
        "We need to break this up into smaller chunks.",
        "I think we should also keep agent lines at each prompt start",
        "The comment should be updated to say lines added by the agent.",
        "The hook should provide all the functions that components need.",
        "I want to inform about telemetry only the first time.",
        "I'd like a TUI for the explain command.",
    ],
)
def test_a_users_request_for_the_work_at_hand_is_not_a_rule(request_: str) -> None:
    assert [r for _, r in explain([user(request_)]) if r == "user-rule"] == []


@pytest.mark.parametrize(
    "rule",
    [
        "We must keep the wire format stable.",
        "You shouldn't touch the public API.",
        "We should only run the hook on unique commits.",
        "The parser should never read past the buffer.",
        "Never push to main directly.",
    ],
)
def test_a_users_constraint_is_a_rule(rule: str) -> None:
    assert [(d.kind, d.quote, r) for d, r in explain([user(rule)])] == [
        ("decision", rule, "user-rule")
    ]


@pytest.mark.parametrize(
    "entry",
    [
        "- **.dialyzerignore** (new, **NOT committed**)",
        "- `.env.example` — still missing the new key",
        "- .github/workflows/ci.yml: not yet committed",
    ],
)
def test_a_list_entry_that_starts_with_a_dotfile_is_a_file_list_entry(entry: str) -> None:
    assert explain([user(f"Status:\n\n{entry}")]) == []


def test_a_list_item_about_a_dotted_name_is_still_read() -> None:
    item = "- .NET 8 builds are still failing on CI."
    assert [r for _, r in explain([user(item)])] == ["phrase-open_loop"]


def test_a_reports_later_units_are_report_short() -> None:
    report = "The parser now reads tokens one by one.\n\nThe old regex tables are gone as well."
    found = [r for _, r in explain([user("Port the parser."), assistant(report)])]
    assert found == ["report-first", "report-short"]


# --- the session cap: what the session marks first ----------------------------------------

LATER_UNITS = "\n\n".join(
    f"The module number {n} now reads its input from the shared buffer." for n in range(6)
)


def test_a_conversation_keeps_at_most_session_items_what_it_marks_first() -> None:
    marked = [
        user("Decision: keep the index in SQLite."),
        user("TODO: port the old error messages"),
        user("Never push to main directly."),
    ]
    report = f"The tokenizer rewrite is merged.\n\n{LATER_UNITS}"
    found = explain([*marked, user("Rewrite the tokenizer."), assistant(report)])
    assert len(found) == SESSION_ITEMS
    rules = [r for _, r in found]
    # The three marks and the report's first unit are kept; its later units fill the rest.
    assert rules[:4] == ["label-decision", "label-open_loop", "user-rule", "report-first"]
    assert rules[4:] == ["report-short"] * (SESSION_ITEMS - 4)
    # The later units kept are the latest ones (the rank's last key).
    assert found[-1][0].quote == "The module number 5 now reads its input from the shared buffer."
    assert explain([*marked, user("Go."), assistant(report)], session_items=40)[-1][1] == (
        "report-short"
    )
    assert len(explain([*marked, user("Go."), assistant(report)], session_items=40)) == 10


def test_a_commit_message_or_notes_keep_max_items() -> None:
    names = "parser lexer printer loader cache index hook shell store brief viewer sync"
    lines = "\n".join(f"TODO: port the {name} messages" for name in names.split())
    assert len(extract([Message(None, lines)])) == 12
    assert len(extract([user(lines)])) == 12
    assert len(extract([user(lines), assistant("On it.")])) == SESSION_ITEMS


def test_a_marked_item_outranks_a_more_important_unmarked_one() -> None:
    # A choice (importance 2, rarely labelled) yields to an open loop (importance 1) under
    # the cap: the family ranks before the importance.
    messages = [
        user("Fix the build."),
        assistant("Replaced the regex parser with a tokenizer instead of patching it."),
        user("TODO: port the old error messages"),
    ]
    assert [r for _, r in explain(messages, max_items=1)] == ["label-open_loop"]


def test_an_open_loop_section_gives_its_first_two_list_items() -> None:
    steps = "\n".join(
        f"- {step}"
        for step in (
            "Review the specification with the team",
            "Prioritise the commands by what users ask for",
            "Implement the first phase of the commands",
            "Gather feedback before the next phase",
        )
    )
    found = explain([user(f"## Next steps\n{steps}")])
    assert [(r, d.quote) for d, r in found] == [
        ("section-open_loop", "Review the specification with the team"),
        ("section-open_loop", "Prioritise the commands by what users ask for"),
    ]


def test_every_task_box_of_a_section_counts() -> None:
    boxes = "\n".join(
        f"- [ ] {task}"
        for task in (
            "Port the old error messages",
            "Add a fuzz test for deep nesting",
            "Ask Dana about the Windows wheel",
            "Publish the release notes",
        )
    )
    assert len(explain([user(f"## Next steps\n{boxes}")])) == 4


def test_a_decision_section_is_not_cut() -> None:
    decisions = "\n".join(
        f"- {d}"
        for d in (
            "Keep the index in SQLite",
            "Drop support for Python 3.9",
            "Sign every record with the user's key",
        )
    )
    assert len(explain([user(f"Decisions:\n{decisions}")])) == 3


def test_everything_is_clean_is_routine_status_not_an_item() -> None:
    report = "Committed as 3f9c2ab with the depth guard.\n\nEverything is clean and pushed."
    found = [(r, d.quote) for d, r in explain([user("commit this"), assistant(report)])]
    assert found == [("reference", "Committed as 3f9c2ab with the depth guard.")]


def test_a_teammates_message_gives_no_item_and_the_reply_before_it_stays_the_report() -> None:
    teammate = (
        "Another Claude session sent a message:\n"
        '<teammate-message teammate_id="reviewer">\n'
        "No further probes warranted. We should always squash the release commits.\n"
        "</teammate-message>"
    )
    messages = [
        user("Write the release notes."),
        assistant("The release notes now list the three parser fixes."),
        user(teammate),
        assistant("Thanks, noted."),
    ]
    found = [(r, d.quote) for d, r in explain(messages)]
    assert found == [("report-first", "The release notes now list the three parser fixes.")]
