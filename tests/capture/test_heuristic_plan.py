"""An approved plan's decision (plan.plan_decisions): Claude Code writes the plan the user
approved into the user's turn ("Implement the following plan: …"), and the plan states what
it decided, without a marker, as the opening paragraph under its fix, approach or trade-off
heading. That paragraph is a decision; what stands under the other headings (context,
steps, files, checks) is not."""

from __future__ import annotations

from helpers.drafts import assistant, user

from gitmem.capture.extract.heuristic import explain
from gitmem.core.items import Kind

PLAN = """Implement the following plan:

# Fix: memory growth in the archiver

## Context

The archiver keeps every host's rows in one slice before it writes them out.

## Fix: stream each host to the writer

Instead of collecting all rows, write each host's rows as a separate row group.

### Step 1: add a streaming writer

- Add `archiveWriter` with `WriteHost` and `Close`.

## Ordering trade-off

The output changes from one sorted row group to one row group per host, each sorted by metric.

## Verification

Run `go test ./pkg/archive/...` and compare peak memory before and after.
"""


def _found(plan: str) -> list[tuple[str, Kind, str]]:
    messages = [user(plan), assistant("Done: the archiver now streams each host.")]
    return [(rule, d.kind, d.quote or "") for d, rule in explain(messages)]


def test_the_paragraph_under_a_fix_heading_is_a_decision() -> None:
    found = _found(PLAN)
    assert (
        "plan",
        Kind.DECISION,
        "Instead of collecting all rows, write each host's rows as a separate row group.",
    ) in found
    assert (
        "plan",
        Kind.DECISION,
        "The output changes from one sorted row group to one row group per host, each sorted"
        " by metric.",
    ) in found


def test_context_steps_and_checks_of_a_plan_are_no_decision() -> None:
    quotes = [q for rule, _, q in _found(PLAN) if rule == "plan"]
    assert len(quotes) == 2
    assert not any("keeps every host's rows" in q or "go test" in q for q in quotes)


def test_a_fix_heading_over_a_lead_in_or_a_list_gives_nothing() -> None:
    plan = (
        "Implement the following plan:\n\n# Fix the panic\n\n## Fix (in `metrics.go`)\n\n"
        "Replace lines 307-324 to use the local `series`:\n\n```go\nx := 1\n```\n\n"
        "## Approach\n\n- Sort each host's rows before writing.\n"
    )
    assert not [q for rule, _, q in _found(plan) if rule == "plan"]


def test_the_same_paragraph_outside_an_approved_plan_is_no_plan_decision() -> None:
    # A user's own notes under "## Fix" are theirs to mark; only a plan the host wrote
    # into the user's turn is read this way.
    notes = PLAN.removeprefix("Implement the following plan:\n\n")
    assert not [q for rule, _, q in _found(notes) if rule == "plan"]


def test_a_heading_that_only_starts_with_the_word_is_no_deciding_heading() -> None:
    plan = (
        "Implement the following plan:\n\n# Cleanup\n\n## Fixes applied earlier\n\n"
        "The parser already drops the trailing comma.\n\n## Design notes\n\n"
        "The cache sits beside the index.\n"
    )
    assert not [q for rule, _, q in _found(plan) if rule == "plan"]
