"""A constraint found the hard way (heuristic/constraint.py, issue 27 round 22): the
assistant's statement that a tool, a platform or the repository cannot do something is a
fact, wherever in the session it is said; a question, a hypothetical, narration, a table,
code, an approved plan and a compaction's recap give none."""

from __future__ import annotations

from helpers.drafts import assistant, user

from gitmem.capture.extract.heuristic import explain
from gitmem.capture.extract.heuristic.constraint import constraints
from gitmem.core.items import Kind


def _constraints(*replies: str) -> list[str]:
    messages = [user("Add a nullable column and ship it.")]
    for reply in replies:
        messages += [assistant(reply), user("go on")]
    messages.append(assistant("Done: the column is added and the release is tagged."))
    return [d.quote or "" for d, rule in explain(messages) if rule == "constraint"]


def test_what_a_tool_does_not_support_is_a_fact_mid_session() -> None:
    messages = [
        user("Add a nullable column and ship it."),
        assistant(
            "The generated migration uses `ALTER TABLE … modify`, which SQLite doesn't "
            "support for nullability changes. I'll rewrite it as a table copy."
        ),
        user("ok"),
        assistant("Done: the migration copies the table, and the tests pass."),
    ]
    found = [(rule, d.kind, d.quote) for d, rule in explain(messages)]
    assert (
        "constraint",
        Kind.FACT,
        "The generated migration uses `ALTER TABLE … modify`, which SQLite doesn't support "
        "for nullability changes.",
    ) in found


def test_the_forms_of_a_constraint() -> None:
    quotes = _constraints(
        "Built in namespace `ai` because `mcp` enforces PodSecurity `restricted`, which kaniko "
        "can't satisfy.",
        "Since the pre-commit hook won't let me commit, the fix stays staged.",
        "Force-pushing to `main` is not allowed on this repository.",
        "`main` 브랜치는 보호 규칙 때문에 직접 push 불가.",
    )
    assert quotes == [
        "Built in namespace `ai` because `mcp` enforces PodSecurity `restricted`, which kaniko "
        "can't satisfy.",
        "Since the pre-commit hook won't let me commit, the fix stays staged.",
        "Force-pushing to `main` is not allowed on this repository.",
        "`main` 브랜치는 보호 규칙 때문에 직접 push 불가.",
    ]


def test_a_question_a_hypothetical_or_narration_is_no_constraint() -> None:
    assert (
        _constraints(
            "Does SQLite not support `ALTER TABLE ... MODIFY` here?",
            "If the hook doesn't let me commit, I'll ask you to run it.",
            "Let me check whether the runner doesn't allow `--privileged` jobs.",
            "Previously the strategy didn't support reset, so it returned `nil`.",
        )
        == []
    )


def test_a_check_the_assistant_could_not_run_is_no_constraint() -> None:
    # "확인 불가": the assistant could not confirm something, not a limit of the system.
    assert _constraints("GitHub Release 상세는 classifier에서 차단되어 확인 불가입니다.") == []


def test_a_table_a_heading_and_code_give_none() -> None:
    reply = (
        "| feature | status |\n|---|---|\n| debug mode | ❌ not supported |\n\n"
        "## What SQLite doesn't support\n\n"
        "```\nerror: push is not allowed\n```\n"
    )
    assert list(constraints(1, reply)) == []


def test_a_compaction_recap_gives_none() -> None:
    # A compaction's file: the host's prompt, then the recap; no user turn is read.
    messages = [
        user("Your task is to create a detailed summary of the conversation so far."),
        assistant(
            "4. Errors and fixes:\n   - The migration used `MODIFY`, which SQLite doesn't "
            "support - rewrote it as a table copy."
        ),
    ]
    assert [rule for _, rule in explain(messages) if rule == "constraint"] == []


def test_the_users_words_and_an_approved_plan_give_none() -> None:
    messages = [
        user(
            "Implement the following plan:\n\n# Plan\n\n## Context\n\nSQLite doesn't support "
            "`MODIFY`, so the migration copies the table."
        ),
        assistant("Done: the migration copies the table."),
        user("The runner doesn't allow privileged jobs, keep that in mind."),
        assistant("Noted: builds run unprivileged."),
    ]
    assert [rule for _, rule in explain(messages) if rule == "constraint"] == []
