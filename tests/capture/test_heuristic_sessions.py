"""The heuristic extractor on what real sessions say (docs/heuristic.md, "Sessions"): the
user's answers to question tools, approved plans, status sections of recaps and reports,
turns written by the host, and which of the assistant's turns still count."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import TESTS
from helpers.drafts import assert_verbatim
from hypothesis import given, settings
from hypothesis import strategies as st

from gitmem.capture.checkpoint import build_items
from gitmem.capture.extract.heuristic import extract
from gitmem.capture.extract.heuristic.turns import HOST_TEXT
from gitmem.capture.prepare import prepare
from gitmem.capture.transcripts import load_transcript
from gitmem.core.items import Draft
from gitmem.core.transcript import ANSWER, Message, plain_transcript

REAL = TESTS / "data" / "heuristic" / "real"


def summary(drafts: list[Draft]) -> list[tuple[str, str | None]]:
    return [(d.kind, d.quote) for d in drafts]


# --- real sessions, pinned ---------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(REAL.glob("*.jsonl")), ids=lambda p: p.stem)
def test_real_sessions_give_exactly_these_items(path: Path) -> None:
    messages = prepare(load_transcript(path), {}, None).clean_messages()
    drafts = extract(messages)
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    assert [{"kind": d.kind, "text": d.text, "quote": d.quote} for d in drafts] == expected
    assert_verbatim(drafts, messages)


# --- answers to the host's question and plan tools ----------------------------------------

ANSWERED = (
    'User has answered your questions: "Which store should we use?"="SQLite", '
    '"Keep the old flag? (It is unused)"="No, drop it". '
    "You can now continue with the user's answers in mind."
)


@pytest.mark.parametrize(
    "text",
    [
        ANSWERED,
        "User has approved your plan.\n\n## Approved Plan:\n# Plan: Keep the index in SQLite\n",
        "The user doesn't want to proceed with this tool use. The tool use was rejected.",
    ],
)
def test_a_question_tools_answer_is_context_not_a_quote(text: str) -> None:
    # A question-and-answer pair backs no decision (its quote holds a question); what was
    # decided is what the text around it says.
    messages = [
        Message("user", "Set up the store."),
        Message("tool_use", "AskUserQuestion\n{}"),
        Message(ANSWER, text),
        Message("assistant", "Done. The store is now SQLite, and the old flag is gone."),
    ]
    assert summary(extract(messages)) == [
        ("decision", "The store is now SQLite, and the old flag is gone.")
    ]


# --- turns the host wrote ------------------------------------------------------------------


@pytest.mark.parametrize("prefix", HOST_TEXT)
def test_text_the_host_wrote_into_the_users_turn_is_not_read(prefix: str) -> None:
    text = f"{prefix}\nDecision: we keep the cache local.\nTODO: port the old error messages"
    assert extract([Message("user", text)]) == []
    assert len(extract([Message("user", "Decision: we keep the cache local.")])) == 1


# --- which assistant turns count ------------------------------------------------------------


def test_an_assistants_open_loops_before_the_users_last_message_are_not_carried() -> None:
    messages = [
        Message("user", "Port the parser."),
        Message("assistant", "TODO: port the old error messages.\nWe still need to wire the hook."),
        Message("assistant", "We decided to keep the old wire format."),
        Message("user", "continue until all are done"),
        Message("assistant", "All done. We still need to update the changelog."),
    ]
    assert summary(extract(messages)) == [
        ("decision", "We decided to keep the old wire format."),
        ("open_loop", "We still need to update the changelog."),
    ]


def test_phrases_count_only_in_the_assistants_last_replies() -> None:
    early = Message("assistant", "This is not tested on Windows yet.")
    filler = [Message("assistant", f"Step {n} of the work is running.") for n in range(3)]
    late = Message("assistant", "The retry path is untested.")
    drafts = extract([Message("user", "Fix the flake."), early, *filler, late])
    assert summary(drafts) == [("uncertainty", "The retry path is untested.")]
    # Labels and sections still count anywhere in the closing turn.
    labelled = Message("assistant", "Open question: do we version the ref name?")
    drafts = extract([Message("user", "Go."), labelled, *filler])
    assert summary(drafts)[0] == ("uncertainty", "Open question: do we version the ref name?")


def test_a_pr_reference_counts_wherever_it_stands_a_file_only_at_the_end() -> None:
    messages = [
        Message("user", "Fix the tokenizer."),
        Message("assistant", "I opened PR #123 for the fix."),
        Message("assistant", "I created `src/tokenizer.py` with the new counter."),
        *[Message("assistant", f"Step {n} of the work is running.") for n in range(3)],
        Message("user", "thanks"),
    ]
    assert summary(extract(messages)) == [("open_loop", "I opened PR #123 for the fix.")]


def test_what_the_user_says_counts_wherever_it_stands() -> None:
    messages = [
        Message("user", "The Windows build is still failing on CI."),
        Message("assistant", "Looking."),
        Message("user", "continue"),
        Message("assistant", "Done."),
    ]
    assert summary(extract(messages)) == [
        ("open_loop", "The Windows build is still failing on CI.")
    ]


# --- decisions as people phrase them -----------------------------------------------------


def test_a_users_lets_is_a_request_and_a_users_rule_is_a_decision() -> None:
    # "let's update the default to 90" asks for work; the outcome is in the reply.
    assert extract([Message("user", "let's update the default compaction threshold to 90")]) == []
    for rule in (
        "we should only run the explain command on unique commits",
        "no, just add the entire name",
        "First and foremost, this skill is now called Handoff, not wat anymore.",
        "only the first response and not on error paths",
    ):
        assert summary(extract([Message("user", rule)])) == [("decision", rule)]
    for request in ("can we add logging? we should", "I want to see all options"):
        assert extract([Message("user", request)]) == []
    assert extract([Message("assistant", "We should only run it on unique commits.")]) == []


def test_the_options_a_question_offers_are_not_decisions() -> None:
    option = "Ask only once at enable, and do not ask anymore once the config holds the answer."
    for asked in (
        "Which approach do you think is better?",
        "**What should we do here?**",
    ):
        for author in ("user", "assistant"):
            for listed in (f"1. {option}\n2. something else?", f"- {option}\n  in every shell"):
                message = Message(author, f"{asked}\n\n{listed}")
                assert [d for d in extract([message]) if d.kind == "decision"] == [], message
    # The same list under a statement, or under a heading that asks, says what was chosen.
    for lead in ("We settled this:", "## Why?"):
        decisions = extract([Message("user", f"{lead}\n1. {option}")])
        assert summary(decisions) == [("decision", option)], lead
    # The choice that follows the options is the decision.
    chosen = "Which is better?\n1. Ask every time\n2. Ask once\n\nWe should only ask once."
    assert summary(extract([Message("user", chosen)])) == [("decision", "We should only ask once.")]


@pytest.mark.parametrize(
    "sentence",
    [
        "**Key fix:** Resolved the warning by using `:otel_span.hex_id/1` instead of parsing.",
        "We'll use SQLite for the local index.",
        "Go ahead with the table rewrite for the migration.",
        "I'd rather not vendor the parser.",
        "Generated migrations should always be reviewed for SQLite.",
    ],
)
def test_choices_and_rules_are_decisions(sentence: str) -> None:
    assert summary(extract([Message("assistant", sentence)])) == [("decision", sentence)]


@pytest.mark.parametrize(
    "sentence",
    [
        "Let me use find instead and read the key files.",
        "Same annotation saving with `subagent_id` instead of terminal coordinates.",
        "Using `with` instead of `case` did not help.",
        # Narration of the next step is not a choice made.
        "I should remove my manual migration and use the generated one instead.",
        "Let me put the script in `priv/scripts/` instead since releases package it.",
        "I'll take the next small step rather than broadening the change set.",
    ],
)
def test_a_passing_instead_is_not_a_decision(sentence: str) -> None:
    assert [d.kind for d in extract([Message("assistant", sentence)])] != ["decision"]


# --- status sections of recaps and reports -------------------------------------------------

RECAP = """<analysis>
Still need to:
- fix the scratch note that the summary repeats
</analysis>

<summary>
7. Pending Tasks:
   - **task-3** (in progress): wire the hook into the installer
     - Fix the compile error in installer.ex
   - Session close protocol after all tasks complete

8. Current Work:
   Working on task-3; the hook is half wired.
   Still needed for task-3:
   - Run the full test suite

9. Optional Next Step:
   Fix the compile error in installer.ex, then commit.
   The user's original request was: "Work on the installer."
</summary>
"""


def test_a_recap_gives_its_pending_tasks_and_next_step_and_skips_its_analysis() -> None:
    prompt = "Your task is to create a detailed summary of the conversation so far"
    messages = [Message("user", prompt), Message("assistant", RECAP)]
    # A nested item is a step of the task above it; a second list of what is left
    # ("Still needed", "Next Step") says the first again in other words.
    assert summary(extract(messages)) == [
        ("open_loop", "**task-3** (in progress): wire the hook into the installer"),
        ("open_loop", "Session close protocol after all tasks complete"),
    ]


def test_code_inside_an_analysis_block_does_not_end_it() -> None:
    text = (
        "<analysis>\n```elixir\nx = 1\n```\nStill need to: fix the scratch note\n</analysis>\n"
        "TODO: port the old error messages\n"
    )
    assert summary(extract([Message("assistant", text)])) == [
        ("open_loop", "TODO: port the old error messages")
    ]


@pytest.mark.parametrize(
    ("text", "quotes"),
    [
        ("### 🚀 Next Steps\n1. Review the specification\n2. Ship phase one\n",
         ["Review the specification", "Ship phase one"]),
        ("So the practical action item is:\n\n**Draft the governance demo for Friday.**\n",
         ["Draft the governance demo for Friday."]),
        ("## Blocking\n- The signing key is not rotated yet\n",
         ["The signing key is not rotated yet"]),
        ("**Unsolved/Blocking**: the dialyzer warning on the helper.\n",
         ["**Unsolved/Blocking**: the dialyzer warning on the helper."]),
        ("**Discovered & filed:** `app-5` — the loader drops the agent id.\n",
         ["**Discovered & filed:** `app-5` — the loader drops the agent id."]),
    ],
)  # fmt: skip
def test_status_sections_and_labels_give_open_loops(text: str, quotes: list[str]) -> None:
    drafts = extract([Message("assistant", text)])
    assert [(d.kind, d.quote) for d in drafts] == [("open_loop", q) for q in quotes]


def test_a_list_item_that_only_names_a_file_is_not_carried() -> None:
    report = "Done:\n- Added `src/parser.py` with the new tokenizer\n- Created `tests/test_x.py`\n"
    assert extract([Message("assistant", report)]) == []
    (draft,) = extract([Message("assistant", "I added `src/parser.py` with the new tokenizer.")])
    assert draft.extra["claims"] == [{"type": "file-exists", "path": "src/parser.py"}]
    assert extract([Message("assistant", "I added `render/2` with an options list.")]) == []


def test_the_last_turn_says_what_is_left() -> None:
    messages = [
        Message("user", "finish it"),
        Message("assistant", "Everything is committed and pushed."),
        Message("assistant", "The only remaining unstaged change is `.mcp.json`."),
        Message("assistant", "Paste the screenshots when ready, and I'll write the script."),
    ]
    # "Everything is committed and pushed" is routine: what is left is what to carry.
    assert summary(extract(messages)) == [
        ("open_loop", "The only remaining unstaged change is `.mcp.json`."),
        ("open_loop", "Paste the screenshots when ready, and I'll write the script."),
    ]
    assert extract([Message("assistant", "Now commit and push once the tests pass.")]) == []


# --- the guarantee, over generated sessions ----------------------------------------------

_PIECES = [
    ANSWERED,
    'User has answered your questions: "Q?"="',
    "User has approved your plan.\n## Approved Plan:\n# Plan: Keep X\n",
    "User has approved exiting plan mode.",
    "7. Pending Tasks:\n   - **t-1** (open): wire it\n8. Current Work:\n",
    "9. Optional Next Step:\n   Fix the thing first.\n",
    "<analysis>\nStill need to: x\n</analysis>\n",
    "<analysis>",
    "### 🚀 Next Steps\n- ship it\n",
    "I'll use the alias instead of the path.",
    "let's update the default to 90",
    "Everything is pushed.",
    "uncommitted `.mcp.json`",
    "<command-name>/compact</command-name>",
    "# AGENTS.md instructions for /x",
    "…",
    '"',
    "=",
]
_TEXT = st.lists(
    st.one_of(st.sampled_from(_PIECES), st.text(alphabet=list('ab #:*-\n"=.'), max_size=12)),
    max_size=6,
).map("".join)
_SESSION = st.lists(
    st.builds(
        Message,
        role=st.sampled_from(["user", "assistant", ANSWER, "tool_use"]),
        text=_TEXT,
    ),
    max_size=5,
)


@settings(max_examples=300)
@given(messages=_SESSION)
def test_every_quote_is_verbatim_in_generated_sessions(messages: list[Message]) -> None:
    drafts = extract(messages)
    assert_verbatim(drafts, messages)
    assert extract(messages) == drafts
    # and a capture keeps every badge: no quote of tool output, none a question backs
    transcript = plain_transcript("", "s").with_messages(messages)
    items = build_items(drafts, transcript, "s", "0" * 64)
    assert [i.quote_reason for i in items if i.trust != "verbatim"] == []
