"""Precision rules of the heuristic extractor (issue 27, fourth round; docs/heuristic.md):
each with cases of its own, not copied from the labelled corpus."""

from __future__ import annotations

import random
import re

import pytest
from helpers.drafts import assert_verbatim, assistant, kinds_and_quotes, user

from gitmem.capture.extract.heuristic import explain, extract, item
from gitmem.core.transcript import HOST_TAGS, said_text

summary = kinds_and_quotes


# --- an approved plan is the assistant's text, not the user's rules -------------------------

PLAN = """Implement the following plan:

# Plan: Cache the parser's token table

## Steps

1. Load the table once per process instead of on every call.
2. Only rebuild it when the grammar file changes.
3. Never write the cache into the repository.
- Decision: the cache lives in `~/.cache/tokparse`.
- TODO: port the old error messages

If you need specific details from before exiting plan mode (like exact code snippets, error
messages, or content you generated), read the full transcript at: /home/me/.claude/x.jsonl"""


def test_an_approved_plans_steps_are_not_the_users_rules() -> None:
    messages = [
        user(PLAN),
        assistant("Done. All three steps are in, and the parser tests cover them."),
    ]
    traced = explain(messages)
    assert all(rule != "user-rule" for _, rule in traced), traced
    quotes = [d.quote for d, _ in traced]
    assert "Load the table once per process instead of on every call." not in quotes
    assert "Only rebuild it when the grammar file changes." not in quotes
    # The plan's own decision label still counts (a plan the user approved), its open
    # loops do not (the session carried the plan out; its report says what is left).
    assert ("decision", "Decision: the cache lives in `~/.cache/tokparse`.") in summary(
        [d for d, _ in traced]
    )
    assert not any(d.kind == "open_loop" for d, _ in traced)
    assert_verbatim([d for d, _ in traced], messages)


def test_the_same_words_from_the_user_are_rules() -> None:
    text = PLAN.removeprefix("Implement the following plan:\n\n")
    messages = [user(text), assistant("Done: the table is cached.")]
    rules = [rule for _, rule in explain(messages)]
    assert "user-rule" in rules


def test_an_unanswered_plan_is_not_a_pending_request() -> None:
    messages = [assistant("The plan is ready."), user(PLAN)]
    assert all(rule != "pending" for _, rule in explain(messages))
    assert_verbatim(extract(messages), messages)


# --- "instead of" inside a user's sentence is not a rule -----------------------------------


def test_instead_of_inside_a_users_sentence_is_not_a_rule() -> None:
    messages = [
        user(
            "If the config file has CRLF endings, the parsed flag becomes 'on\\r' instead "
            "of 'on', and the comparison silently fails."
        ),
        assistant("Fixed: the parser now strips the carriage return."),
    ]
    assert all(rule != "user-rule" for _, rule in explain(messages))


def test_instead_at_the_start_of_a_users_sentence_is_a_rule() -> None:
    messages = [
        user("Instead, compare the whole result with one literal expectation."),
        assistant("Done: each test now compares the result with one literal."),
    ]
    traced = explain(messages)
    assert ("user-rule", "Instead, compare the whole result with one literal expectation.") in [
        (rule, d.quote) for d, rule in traced
    ]
    assert_verbatim([d for d, _ in traced], messages)


# --- a report unit that leads into what follows ------------------------------------------


def test_a_report_units_closing_narration_is_not_quoted() -> None:
    report = (
        "The token cache now lives in `~/.cache/tokparse`. Here's a summary of the changes:\n\n"
        "- `load_table()` reads the cache first"
    )
    messages = [user("cache the token table please"), assistant(report)]
    drafts = extract(messages)
    quotes = [d.quote for d in drafts]
    assert "The token cache now lives in `~/.cache/tokparse`." in quotes
    assert not any(q is not None and "Here's a summary" in q for q in quotes)
    assert_verbatim(drafts, messages)


@pytest.mark.parametrize(
    "lead",
    [
        "All green. Here's a summary of what was fixed:",
        "Both pass. Now let me commit and push.",
        "All four items addressed. Here's what changed:",
        "The implementation is complete. Let me provide a summary of what was implemented:",
        "All clean.",
        "The tests are now passing.",
    ],
)
def test_routine_status_before_narration_gives_no_item(lead: str) -> None:
    report = f"{lead}\n\nThe parser keeps one token table per process, rebuilt on grammar changes."
    messages = [user("cache the token table please"), assistant(report)]
    traced = explain(messages)
    assert [d.quote for d, _ in traced] == [
        "The parser keeps one token table per process, rebuilt on grammar changes."
    ]
    assert traced[0][1] == "report-first"


def test_a_named_outcome_is_not_routine_status() -> None:
    report = "The OAuth migration is complete. Here's a summary:\n\n- tokens are refreshed"
    messages = [user("finish the migration"), assistant(report)]
    assert ("fact", "The OAuth migration is complete.") in summary(extract(messages))


# --- a message that numbers its own points "#1", "#2" ---------------------------------------


def test_a_reviews_numbered_points_are_not_issues() -> None:
    review = (
        "**Issue #1 (Important): the cache is never invalidated** — a real bug.\n\n"
        "**Issue #2 (Minor): the log line repeats** — acceptable.\n\n"
        "Fixing #1 would mean touching the loader; #2 can wait."
    )
    messages = [
        user("review the cache change"),
        assistant("Reviewing."),
        user("go"),
        assistant(review),
    ]
    traced = explain(messages)
    assert all(rule != "forge" for _, rule in traced), traced
    assert not any(d.extra.get("external_state") for d, _ in traced)


def test_a_pull_request_in_a_numbered_review_is_still_one() -> None:
    review = (
        "Issue #1: the cache is never invalidated.\n\n"
        "The fix for it is in PR #214, which is still open."
    )
    messages = [user("review the cache change"), assistant(review)]
    traced = explain(messages)
    forge = [d for d, rule in traced if rule == "forge" or d.extra.get("external_state")]
    assert [d.quote for d in forge] == ["The fix for it is in PR #214, which is still open."]
    assert_verbatim([d for d, _ in traced], messages)


def test_an_issue_reference_without_numbering_is_still_one() -> None:
    messages = [
        user("look at the parser"),
        assistant("Refs #214: the tokenizer still drops the last token."),
    ]
    assert any(d.extra.get("external_state") for d in extract(messages))


def test_a_point_the_message_numbered_in_a_list_is_not_an_issue() -> None:
    # No "#1" anywhere: the list's own numbers say what "(#6)" points at.
    review = (
        "Findings:\n\n"
        "1. The cache key ignores the locale.\n"
        "2. The retry loop has no ceiling.\n"
        "3. The log line repeats.\n"
        "4. The README example is stale.\n"
        "5. A test is skipped on CI.\n"
        "6. The upload helper swallows timeouts.\n\n"
        "The timeout (#6) is the one to fix first, in the closing turn."
    )
    messages = [user("review the upload change"), assistant(review)]
    traced = explain(messages)
    assert all(rule != "forge" for _, rule in traced), traced
    assert not any(d.extra.get("external_state") for d, _ in traced)


def test_an_issue_beyond_the_messages_own_points_is_still_one() -> None:
    # A list of three steps does not make "#214" one of them; an issue in a message with no
    # list of its own stays an issue too.
    reply = (
        "Three steps:\n\n1. Patch the loader.\n2. Rerun the suite.\n3. Tag the release.\n\n"
        "This closes the crash in (#214), still open."
    )
    for text in (reply, "The timeout fix (#6) is still open upstream."):
        messages = [user("what is left on the upload change?"), assistant(text)]
        traced = explain(messages)
        assert any(d.extra.get("external_state") for d, _ in traced), (text, traced)
        assert_verbatim([d for d, _ in traced], messages)


# --- output the user pasted ----------------------------------------------------------------


@pytest.mark.parametrize(
    "pasted",
    [
        "❯ git log main\ncommit 8053fab9f03a3a6b2e1863504d23f44c154c3aee",
        "=== RUN   TestParser\n    parser_test.go:24: created branch feature/x-1",
        "✓ Created branch 'release/v2' for the build",
        "$ tokparse resume\nyou have uncommitted changes.",
        '{"level":"warn","msg":"the cache is still failing to load"}',
    ],
)
def test_output_the_user_pasted_gives_no_reference_or_phrase(pasted: str) -> None:
    messages = [
        assistant("Try it now."),
        user(pasted),
        assistant("That output is expected; the cache is rebuilt on the next run."),
    ]
    traced = explain(messages)
    assert all(d.quote is None or d.quote not in pasted for d, _ in traced), traced


def test_the_users_own_words_beside_nothing_pasted_still_count() -> None:
    messages = [
        assistant("Try it now."),
        user("the build is still failing on branch release/v2"),
        assistant("Looking."),
    ]
    quotes = [d.quote for d in extract(messages)]
    assert "the build is still failing on branch release/v2" in quotes


def test_a_rule_beside_pasted_output_still_counts() -> None:
    messages = [
        assistant("Try it now."),
        user("never run this against prod:\n$ tokparse migrate --all"),
        assistant("Understood."),
    ]
    rules = [rule for _, rule in explain(messages)]
    assert "user-rule" in rules


# --- a PR or issue named in passing before the closing turn ---------------------------------


def test_a_pr_named_in_passing_before_the_closing_turn_gives_no_item() -> None:
    messages = [
        user("why does the rewind test fail?"),
        assistant("The test was written before the condensation fix landed in #172."),
        user("ok, fix it"),
        assistant("Fixed: the rewind test now waits for condensation."),
    ]
    traced = explain(messages)
    assert all(rule != "forge" for _, rule in traced), traced


def test_a_pr_given_by_its_link_counts_wherever_it_stands() -> None:
    messages = [
        user("open a draft PR"),
        assistant("Draft PR created: https://github.com/acme/parser/pull/185"),
        user("now address the review comment"),
        assistant("Done: the review comment is addressed and pushed."),
    ]
    quotes = [d.quote for d, rule in explain(messages) if rule == "forge"]
    assert quotes == ["Draft PR created: https://github.com/acme/parser/pull/185"]


def test_a_pr_in_the_closing_turn_or_from_the_user_counts() -> None:
    messages = [
        user("compare the cache change with PR #343"),
        assistant("PR #343 keeps the old loader; ours replaces it."),
    ]
    quotes = [d.quote for d, rule in explain(messages) if rule == "forge"]
    assert "PR #343 keeps the old loader; ours replaces it." in quotes


# --- a file list written as paragraphs ------------------------------------------------------


def test_a_file_list_of_paragraphs_gives_no_item() -> None:
    report = (
        "**`parser/cache_test.go`** — `TestCacheReload` with 3 subtests\n\n"
        "**`parser/loader_test.go`** — `TestLoaderFallsBack`\n\n"
        "The loader now falls back to parsing when the cache is stale."
    )
    messages = [user("add the cache tests"), assistant(report)]
    quotes = [d.quote for d in extract(messages)]
    assert quotes == ["The loader now falls back to parsing when the cache is stale."]


def test_a_paragraph_that_names_a_file_in_prose_is_read() -> None:
    report = "`parser/cache.go` now drops the table when the grammar file changes."
    messages = [user("fix the stale cache"), assistant(report)]
    assert [d.quote for d in extract(messages)] == [report]


# --- what the host writes into the user's turn --------------------------------------------


@pytest.mark.parametrize("tag", HOST_TAGS)
def test_a_block_the_host_writes_into_the_users_turn_gives_no_item(tag: str) -> None:
    # The verifier never takes these words as said (core.transcript.said_text): the
    # heuristic reads the same list, so it proposes nothing from them.
    rule = "Always run the migrations before the tests. We decided to keep SQLite."
    messages = [
        user("Set up the project."),
        assistant("Done: the project is set up."),
        user(f"<{tag}>\n{rule}\n</{tag}>"),
        assistant("Noted."),
    ]
    assert all(d.quote is None or d.quote not in rule for d in extract(messages))
    said = [m for m in messages if m.text.startswith("<")]
    assert said and said_text(said[0]).strip("\0\n") == ""


def test_the_same_words_typed_by_the_user_still_give_an_item() -> None:
    rule = "Always run the migrations before the tests."
    messages = [user("Set up the project."), assistant("Done."), user(rule), assistant("Ok.")]
    assert any(d.quote == rule for d in extract(messages))


def test_a_bare_number_is_found_where_the_look_behind_first_pattern_finds_it() -> None:
    """The pattern of a bare "#N" opens with its "#" (fast on a long message) and finds
    what the same pattern opening with its look-behinds finds."""
    behind_first = re.compile(
        r"(?<![\w/#!&])(?<!pr )(?<!mr )(?<!request )#(\d{1,3})(?![\d\w])", re.IGNORECASE
    )
    rng = random.Random(27)
    alphabet = "#12 aprmPRMrequestREQUEST/!&_é\n3x("
    texts = ["Issue #2 (Important): see PR #12, (#6) and request #7; #1234 x#1 #1"]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randrange(40))) for _ in range(3000)]
    for text in texts:
        found = [(m.span(), m.group(1)) for m in item._BARE_NUMBER_RE.finditer(text)]
        assert found == [(m.span(), m.group(1)) for m in behind_first.finditer(text)], text
    assert item.own_points(texts[0]) == item.ALL_POINTS
