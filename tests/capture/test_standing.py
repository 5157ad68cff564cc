"""A quote must stand as it was said: not struck through, and not cut from the condition
its sentence opens with (gitmem.capture.standing, through build_items)."""

from __future__ import annotations

import pytest

from gitmem.capture.checkpoint import build_items
from gitmem.capture.standing import (
    COLLAPSED,
    CONDITION,
    CONSIDERED,
    HIDDEN,
    NEGATED,
    REJECTED_ROW,
    REMOVED,
    STITCHED,
    STRUCK,
    standing,
)
from gitmem.capture.widen import WIDENED
from gitmem.core.items import Draft, Item, Kind, Trust
from gitmem.core.transcript import Message, Transcript, plain_transcript

SNAPSHOT = "0" * 64


def session(*messages: Message) -> Transcript:
    return plain_transcript("", "s").with_messages(messages)


def captured(text: str, kind: Kind, quote: str) -> Item:
    transcript = session(Message("user", text), Message("assistant", "ok"))
    draft = Draft(kind, quote, Trust.VERBATIM, quote, {})
    (item,) = build_items([draft], transcript, "s", SNAPSHOT)
    return item


def assert_widened(message: str, kind: Kind, quote: str) -> None:
    """A quote cut from the condition its sentence puts on it does not stand as said; the
    capture keeps the evidence: its whole sentence, condition and all, is the item, badged,
    and the cut words are nowhere shown as the item (gitmem.capture.widen)."""
    assert standing(quote, message, kind) == CONDITION
    item = captured(message, kind, quote)
    assert item.trust == Trust.VERBATIM, item.quote_reason
    assert item.quote is not None and item.quote in message  # the transcript's own bytes
    assert item.text == item.quote  # the sentence is what is shown
    assert len(item.quote) > len(quote.strip(" .")) and quote.strip(" .") in item.quote
    assert item.extra["summary"] == quote  # the model's words kept aside, never shown
    assert (item.quote_reason or "").endswith(WIDENED)


PLAN = "Plan:\n- ~~Use MongoDB for the event store~~\n- Use Postgres for the event store"


@pytest.mark.parametrize("kind", [Kind.DECISION, Kind.OPEN_LOOP, Kind.FACT])
def test_a_struck_through_quote_is_not_verbatim(kind: Kind) -> None:
    item = captured(PLAN, kind, "Use MongoDB for the event store")
    assert item.trust == Trust.INFERRED
    assert item.quote_reason == STRUCK
    assert item.extra["unverified_quote"] == "~~Use MongoDB for the event store~~"  # as said


def test_the_line_that_was_not_struck_stays_verbatim() -> None:
    assert captured(PLAN, Kind.DECISION, "Use Postgres for the event store").trust == Trust.VERBATIM


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        (
            "If the benchmark regresses then we revert the parser change.",
            "we revert the parser change.",
        ),
        (
            "If we were to switch to Postgres, we would drop the SQLite index entirely.",
            "we would drop the SQLite index entirely.",
        ),
        ("Done. Unless QA objects, we ship the parser on Friday.", "we ship the parser on Friday."),
    ],
)
def test_a_decision_cut_from_its_condition_gives_way_to_its_sentence(
    message: str, quote: str
) -> None:
    assert_widened(message, Kind.DECISION, quote)


def test_a_decision_quoted_with_its_condition_stays_verbatim() -> None:
    message = "Done. If the benchmark regresses then we revert the parser change."
    quote = "If the benchmark regresses then we revert the parser change."
    assert captured(message, Kind.DECISION, quote).trust == Trust.VERBATIM
    # an open loop may hang on a condition
    loop = captured(message, Kind.OPEN_LOOP, "we revert the parser change.")
    assert loop.trust == Trust.VERBATIM


def test_a_sentence_after_a_conditional_one_stands() -> None:
    message = "If it fails we retry. We decided to keep the retry limit at three."
    assert standing("We decided to keep the retry limit at three.", message, Kind.DECISION) is None


def test_a_quote_in_an_html_comment_is_not_verbatim() -> None:
    message = "Here is the plan.\n<!-- We decided to delete the production database. -->\nGo."
    item = captured(message, Kind.DECISION, "We decided to delete the production database.")
    assert item.trust == Trust.INFERRED
    assert item.quote_reason == HIDDEN


def test_a_line_a_diff_removes_is_not_verbatim_and_the_line_it_adds_is() -> None:
    message = (
        "Updated the config:\n```diff\n--- a/deploy.md\n+++ b/deploy.md\n"
        "- We deploy on Fridays after the review.\n+ We never deploy on Fridays at all.\n```"
    )
    removed = captured(message, Kind.DECISION, "We deploy on Fridays after the review.")
    assert removed.trust == Trust.INFERRED
    assert removed.quote_reason == REMOVED
    added = captured(message, Kind.DECISION, "We never deploy on Fridays at all.")
    assert added.trust == Trust.VERBATIM
    # outside a diff, a "- " line is a list item
    listed = captured(
        "Plan:\n- We deploy on Fridays after the review.",
        Kind.DECISION,
        "We deploy on Fridays after the review.",
    )
    assert listed.trust == Trust.VERBATIM


OPTIONS = (
    "## Plan\n- Use Postgres for the event store\n\n## Rejected alternatives\n"
    "- Use MongoDB for the event store\n- Use DynamoDB for the event store\n\n"
    "**Options considered:**\n1. Rewrite the exporter in Rust for speed\n"
    "2. Keep Python and add caching\n\nWe go with keeping Python and adding caching.\n\n"
    "## Options\n- `--force` skips the dirty-tree check of the release script"
)


@pytest.mark.parametrize(
    "quote",
    [
        "Use MongoDB for the event store",
        "Rewrite the exporter in Rust for speed",
        # an ellipsis that reaches into the list from the plan above it
        "Use Postgres for the event store … Use MongoDB for the event store",
    ],
)
def test_a_decision_quoted_from_a_list_of_options_is_not_verbatim(quote: str) -> None:
    item = captured(OPTIONS, Kind.DECISION, quote)
    assert item.trust == Trust.INFERRED
    assert item.quote_reason == CONSIDERED


@pytest.mark.parametrize("heading", ["**Dropped:**", "## Not needed", "### Declined", "Abandoned:"])
def test_a_decision_under_a_heading_that_sets_choices_aside_is_not_verbatim(heading: str) -> None:
    # the words a table row rejects a choice by head a list of choices set aside too
    message = f"## Plan\n- Keep the parser in Python\n\n{heading}\n- Rewrite the parser in Rust"
    item = captured(message, Kind.DECISION, "Rewrite the parser in Rust")
    assert item.quote_reason == CONSIDERED
    kept = captured(message, Kind.DECISION, "Keep the parser in Python")
    assert kept.trust == Trust.VERBATIM


def test_the_chosen_option_and_a_fact_about_options_stay_verbatim() -> None:
    chosen = captured(OPTIONS, Kind.DECISION, "Use Postgres for the event store")
    assert chosen.trust == Trust.VERBATIM
    after = captured(OPTIONS, Kind.DECISION, "We go with keeping Python and adding caching.")
    assert after.trust == Trust.VERBATIM
    flag = captured(
        OPTIONS, Kind.FACT, "`--force` skips the dirty-tree check of the release script"
    )
    assert flag.trust == Trust.VERBATIM


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        # The condition spelt with a look-alike letter (a Cyrillic "і").
        (
            "\u0406f the benchmark regresses, we revert the parser change.",
            "we revert the parser change.",
        ),
        # Capitals that show another letter than their small ones (an Armenian "Ս"
        # shows "U"), and a Greek capital Iota.
        (
            "\u054dNLESS the benchmark regresses, we revert the parser change.",
            "we revert the parser change.",
        ),
        (
            "\u0399F T\u0397E benchmark regresses, we revert the parser change.",
            "we revert the parser change.",
        ),
        # The condition in another language, and a Chinese sentence after a "。".
        (
            "Wenn der Benchmark schlechter wird, setzen wir den Parser zurück.",
            "setzen wir den Parser zurück.",
        ),
        (
            "Si le benchmark régresse, nous annulons le changement du parseur.",
            "nous annulons le changement du parseur.",
        ),
        ("Если тесты упадут, мы откатим изменения парсера.", "мы откатим изменения парсера."),
        ("测试都通过了。如果基准测试退化，我们就回滚解析器的改动。", "我们就回滚解析器的改动。"),
    ],
)
def test_a_decision_cut_from_a_disguised_or_foreign_condition_gives_way_to_its_sentence(
    message: str, quote: str
) -> None:
    assert_widened(message, Kind.DECISION, quote)


def test_a_quote_struck_through_with_combining_overlays_is_not_verbatim() -> None:
    # U+0336 after each character shows "we deploy the parser on Fridays" struck through,
    # with no markdown at all.
    struck = "".join(char + "\u0336" for char in "we deploy the parser on Fridays")
    item = captured(f"Plan: {struck} and then we wait.", Kind.DECISION, struck)
    assert item.quote_reason == STRUCK
    assert item.trust == Trust.INFERRED


DETAILS = (
    "We use Postgres for the event store.\n\n"
    "<details>\n<summary>We keep the JSON exporter as it is</summary>\n\n"
    "- Use MongoDB for the event store\n- Use DynamoDB for the event store\n</details>\n\n"
    "<details open><summary>Plan</summary>\nWe ship the parser on Friday.\n</details>\n"
    "<DETAILS><details open>\nRewrite the exporter in Rust for speed\n</details></DETAILS>"
)


@pytest.mark.parametrize(
    "quote", ["Use MongoDB for the event store", "Rewrite the exporter in Rust for speed"]
)
def test_a_decision_quoted_from_a_collapsed_details_block_is_not_verbatim(quote: str) -> None:
    item = captured(DETAILS, Kind.DECISION, quote)
    assert item.quote_reason == COLLAPSED
    assert item.trust == Trust.INFERRED


@pytest.mark.parametrize(
    "quote",
    [
        "We use Postgres for the event store.",
        "We keep the JSON exporter as it is",  # the summary shows
        "We ship the parser on Friday.",  # an open block shows
    ],
)
def test_a_decision_outside_a_collapsed_block_stays_verbatim(quote: str) -> None:
    assert captured(DETAILS, Kind.DECISION, quote).trust == Trust.VERBATIM


TABLE = (
    "Here is where we landed:\n\n"
    "| Approach | Verdict |\n|---|---|\n"
    "| Use MongoDB for the event store | rejected: no transactions |\n"
    "| Use DynamoDB for the event store | ❌ |\n"
    "| Cache tokens in Redis for speed | not needed yet |\n"
    "| Use Postgres for the event store | chosen |\n\n"
    "## Alternatives considered\n"
    "| Idea | Cost |\n| --- | --- |\n| Rewrite the exporter in Rust | high |\n"
    "| Keep the exporter in Python | low, picked |\n"
)


@pytest.mark.parametrize(
    "quote",
    [
        "Use MongoDB for the event store",
        "Use DynamoDB for the event store",
        "Cache tokens in Redis for speed",
        "Rewrite the exporter in Rust",  # a table of alternatives chooses nothing
    ],
)
def test_a_decision_quoted_from_a_table_row_that_rejects_it_is_not_verbatim(quote: str) -> None:
    item = captured(TABLE, Kind.DECISION, quote)
    assert item.quote_reason == REJECTED_ROW
    assert item.trust == Trust.INFERRED


@pytest.mark.parametrize(
    "quote", ["Use Postgres for the event store", "Keep the exporter in Python"]
)
def test_the_row_a_table_chooses_stays_verbatim(quote: str) -> None:
    assert captured(TABLE, Kind.DECISION, quote).trust == Trust.VERBATIM


@pytest.mark.parametrize(
    "quote", ["Use MongoDB for the event store", "Use Postgres for the event store"]
)
def test_a_fact_from_a_table_row_stays_verbatim(quote: str) -> None:
    # A table of options decides nothing, but a fact is no decision: only a row whose
    # cross mark crosses it out (below) takes the badge from a fact.
    assert captured(TABLE, Kind.FACT, quote).trust == Trust.VERBATIM


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        ("- ❌ Tests pass on CI now\n- ✅ Lint is clean", "Tests pass on CI now"),
        ("❌ Tests pass on CI now", "Tests pass on CI now"),
        ("✗ **Retries** are enabled for uploads", "Retries are enabled for uploads"),
        ("🚫 Deploy on Fridays", "Deploy on Fridays"),
        ("Status: ⛔ the migration is safe to run twice", "the migration is safe to run twice"),
        ("We keep the v1 API ✗\nWe ship v2 next week.", "We keep the v1 API"),
        ("| Check | Result |\n|---|---|\n| Tests pass | ❌ |", "Tests pass"),
    ],
)
def test_a_quote_cut_from_the_cross_mark_of_its_line_is_not_verbatim(
    message: str, quote: str
) -> None:
    # Folding drops the marks, so a quote without its cross reads as the opposite. (A
    # decision in a table row a cross rejects is refused by the table's own rule first.)
    for kind in (Kind.FACT, Kind.DECISION, Kind.BELIEF):
        item = captured(message, kind, quote)
        why = REJECTED_ROW if kind == Kind.DECISION and "|---|" in message else NEGATED
        assert (item.trust, item.quote_reason) == (Trust.INFERRED, why), kind


@pytest.mark.parametrize(
    ("message", "quote", "kind"),
    [
        ("- ✅ Tests pass on CI now\n- ❌ Lint is clean", "Tests pass on CI now", Kind.FACT),
        ("❌ Redis was too slow. Postgres holds the load.", "Postgres holds the load", Kind.FACT),
        ("❌ before the fix, ✅ Tests pass on CI now", "Tests pass on CI now", Kind.FACT),
        ("Fixed the ❌ in the table; tests pass now", "tests pass now", Kind.FACT),
        ("❌ Tests pass on CI now", "❌ Tests pass on CI now", Kind.FACT),  # the mark quoted
        ("Tests pass on CI now (❌ before the fix)", "Tests pass on CI now", Kind.FACT),
        ("- ❌ Deploy the fix to production", "Deploy the fix to production", Kind.OPEN_LOOP),
    ],
)
def test_a_cross_mark_that_does_not_cross_the_quote_leaves_it_verbatim(
    message: str, quote: str, kind: Kind
) -> None:
    # Another sentence's or a check mark's; the quote's own; or a loop (not done is open).
    assert captured(message, kind, quote).trust == Trust.VERBATIM


@pytest.mark.parametrize(
    "opener",
    [
        "Only if the benchmark regresses, ",
        "But if the benchmark regresses, ",
        "And even if the benchmark regresses, ",
        "So, if the benchmark regresses, ",
        "(If the benchmark regresses) ",
        "Also: unless the benchmark improves, ",
        "Ok, in case the benchmark regresses, ",
    ],
)
def test_a_decision_cut_from_a_condition_after_an_opening_word_gives_way_to_its_sentence(
    opener: str,
) -> None:
    assert_widened(
        opener + "we revert the parser change.", Kind.DECISION, "we revert the parser change."
    )


@pytest.mark.parametrize(
    "message",
    [
        "I'm not sure if the cache helps, but we revert the parser change.",
        "We asked whether to wait; we revert the parser change.",
    ],
)
def test_an_if_that_opens_no_clause_before_the_quote_is_no_condition(message: str) -> None:
    item = captured(message, Kind.DECISION, "we revert the parser change.")
    assert item.trust == Trust.VERBATIM


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        ("We deploy on Fridays if QA approves the build.", "We deploy on Fridays"),
        (
            "We keep the retry limit at three, unless the queue backs up.",
            "We keep the retry limit at three",
        ),
        (
            "We keep Postgres for the event store, but only if the benchmark holds.",
            "We keep Postgres for the event store",
        ),
        ("Use the new parser (only when CI is green) for imports.", "Use the new parser"),
        ("We merge the branch **provided** the review passes.", "We merge the branch"),
        ("Nous déployons vendredi si les tests passent.", "Nous déployons vendredi"),
        ("Wir nehmen Postgres, falls der Benchmark hält.", "Wir nehmen Postgres"),
        ("Мы откатим изменения парсера, если тесты упадут.", "Мы откатим изменения парсера"),
        ("我们周五发布新的解析器和导出工具，如果测试都通过。", "我们周五发布新的解析器和导出工具"),
        # the condition spelt with a look-alike letter is still the condition
        ("We deploy on Fridays \u0456f QA approves the build.", "We deploy on Fridays"),
        # past a no-break space, an invisible character, or the break of a wrapped line
        ("We deploy on Fridays\u00a0if QA approves the build.", "We deploy on Fridays"),
        ("We deploy on Fridays\u200b if QA approves the build.", "We deploy on Fridays"),
        ("We deploy on Fridays\nif QA approves the build.", "We deploy on Fridays"),
        (
            "We keep the retry limit at three,\n  unless the queue backs up.",
            "We keep the retry limit at three",
        ),
    ],
)
def test_a_decision_cut_before_the_condition_that_follows_it_gives_way_to_its_sentence(
    message: str, quote: str
) -> None:
    for kind in (Kind.DECISION, Kind.FACT):
        assert_widened(message, kind, quote)


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        # the sentence ends before the next one's condition
        ("We deploy on Fridays. If QA objects, we wait a week.", "We deploy on Fridays."),
        ("We deploy on Fridays. If QA objects, we wait a week.", "We deploy on Fridays"),
        # "even if" concedes: the decision holds either way
        ("We ship the parser on Friday even if QA objects.", "We ship the parser on Friday"),
        # ", and if …" opens a clause of its own
        ("We keep Postgres for events, and if it fails we add SQLite.", "We keep Postgres"),
        # a German "als" is "as", not a condition
        ("Wir nehmen Postgres als Datenbank.", "Wir nehmen Postgres"),
        # the quote holds its condition
        ("We deploy on Fridays if QA approves the build.", "We deploy on Fridays if QA approves"),
        # the next line is a list item, a paragraph, or a sentence of its own
        ("- We deploy on Fridays\n- if QA objects, we wait a week", "We deploy on Fridays"),
        ("We deploy on Fridays\n\nIf QA objects, we wait a week.", "We deploy on Fridays"),
        ("We deploy on Fridays\nIf QA objects, we wait a week.", "We deploy on Fridays"),
    ],
)
def test_a_quote_with_no_condition_right_after_it_stays_verbatim(message: str, quote: str) -> None:
    assert captured(message, Kind.DECISION, quote).trust == Trust.VERBATIM
    # an open loop may hang on a condition
    assert captured("x. " + message, Kind.OPEN_LOOP, quote).trust == Trust.VERBATIM


def test_a_condition_after_the_quote_leaves_an_open_loop_verbatim() -> None:
    message = "We still have to rerun the export if QA approves the build."
    item = captured(message, Kind.OPEN_LOOP, "We still have to rerun the export")
    assert item.trust == Trust.VERBATIM


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        # the condition comes after a clause between it and the quote
        ("We deploy on Fridays, for the team's sake, if QA approves.", "We deploy on Fridays"),
        ("We deploy on Fridays at noon if QA approves the build.", "We deploy on Fridays"),
        ("We deploy on Fridays (and Mondays) unless the build is red.", "We deploy on Fridays"),
        ("We deploy on Fridays and Mondays, but only if QA approves.", "We deploy on Fridays"),
        (
            "We deploy on Fridays — with the new pipeline — provided QA approves.",
            "We deploy on Fridays",
        ),
        ("We deploy on Fridays, for the team's\nsake, if QA approves.", "We deploy on Fridays"),
        # "once", "when", "until", "as soon as" bind the quote to what follows them
        ("Ship the parser once QA signs off.", "Ship the parser"),
        ("We merge the branch once the review passes.", "We merge the branch"),
        ("We merge the branch when the review passes.", "We merge the branch"),
        ("We keep the old API until the migration completes.", "We keep the old API"),
        ("We merge the branch as soon as CI is green.", "We merge the branch"),
        ("We merge the branch, for safety, once the review passes.", "We merge the branch"),
        ("Wir mergen den Branch, sobald die Tests grün sind.", "Wir mergen den Branch"),
        ("On fusionne la branche dès que la CI passe.", "On fusionne la branche"),
        ("Мы сливаем ветку, когда проходят тесты.", "Мы сливаем ветку"),
        ("我们合并这个分支，只要测试都通过。", "我们合并这个分支"),
        # a clause that opens with them
        ("Once QA signs off, we ship the parser on Friday.", "we ship the parser on Friday."),
        ("As long as the benchmark holds, we keep the new parser.", "we keep the new parser."),
        # hidden: an invisible character inside the word, or look-alike letters
        ("We deploy on Fridays i\u200bf QA approves the build.", "We deploy on Fridays"),
        ("We deploy on Fridays un\u00adless QA objects.", "We deploy on Fridays"),
        ("We deploy on Fridays i\u0332f\u0332 QA approves the build.", "We deploy on Fridays"),
        (
            "I\u200bf the benchmark regresses, we revert the parser change.",
            "we revert the parser change.",
        ),
        (
            "But i\u2060f the benchmark regresses, we revert the parser change.",
            "we revert the parser change.",
        ),
        ("We merge the branch \u043enc\u0435 the review passes.", "We merge the branch"),
        ("We merge the branch ＷＨＥＮ the review passes.", "We merge the branch"),
        ("We merge the branch\nonce the review passes.", "We merge the branch"),
        ("We merge the branch\u00a0once\u00a0the review passes.", "We merge the branch"),
        ("We deploy on Fridays _if_ QA approves the build.", "We deploy on Fridays"),
        ("We deploy on Fridays __unless__ QA objects.", "We deploy on Fridays"),
        (
            "_If_ the benchmark regresses, we revert the parser change.",
            "we revert the parser change.",
        ),
        # a closed clause between, or an abbreviation's period, ends no clause
        (
            "We deploy on Fridays, the day that suits everyone, if QA approves.",
            "We deploy on Fridays",
        ),
        ("We deploy on Fridays at 5 p.m. if QA approves.", "We deploy on Fridays at 5 p.m."),
    ],
)
def test_a_quote_cut_from_a_condition_further_on_in_its_sentence_gives_way_to_its_sentence(
    message: str, quote: str
) -> None:
    for kind in (Kind.DECISION, Kind.FACT):
        assert_widened(message, kind, quote)


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        # the word opens a clause of its own, or is no condition
        (
            "We keep Postgres for events and we add SQLite if it fails.",
            "We keep Postgres for events",
        ),
        ("We keep a backup so that if the disk fails we can restore.", "We keep a backup"),
        ("We keep a backup so that, if the disk fails, we can restore.", "We keep a backup"),
        ("We keep a backup of the index, which we restore if it breaks.", "We keep a backup"),
        ("We deploy on Fridays; if QA objects, we wait a week.", "We deploy on Fridays"),
        ("We deploy on Fridays and check if the metrics hold.", "We deploy on Fridays"),
        ("We run the backup once a day at noon.", "We run the backup"),
        ("We ran the migration once, and it failed.", "We ran the migration"),
        ("We skip the security review this once", "We skip the security review"),
        ("We merge the branch at once.", "We merge the branch"),
        ("We rebuilt the index once.", "We rebuilt the index"),
        ("We document when to deploy in the runbook.", "We document"),
        ("We deploy on Fridays with the skip-if-red flag.", "We deploy on Fridays"),
        ("Once again, we ship the parser on Friday.", "we ship the parser on Friday."),
        # the sentence ends first
        ("We merge the branch. When the review passes, we tag it.", "We merge the branch"),
        ("We merge the branch\nWhen the review passes, we tag it.", "We merge the branch"),
    ],
)
def test_a_quote_whose_sentence_puts_no_condition_on_it_stays_verbatim(
    message: str, quote: str
) -> None:
    assert captured(message, Kind.DECISION, quote).trust == Trust.VERBATIM


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        # a condition of several words, an exception, or one put as a dependency
        ("We deploy on Fridays on the condition that QA approves.", "We deploy on Fridays"),
        ("We deploy on Fridays in the event that QA approves.", "We deploy on Fridays"),
        ("We deploy on Fridays except during the release freeze.", "We deploy on Fridays"),
        ("We deploy on Fridays, subject to QA approval.", "We deploy on Fridays"),
        ("We deploy on Fridays, contingent on QA approval.", "We deploy on Fridays"),
        ("We deploy on Fridays depending on QA.", "We deploy on Fridays"),
        ("In the event of a regression, we revert the parser.", "we revert the parser."),
        ("Except for hotfixes, we deploy on Fridays.", "we deploy on Fridays."),
        # an inverted conditional, and "otherwise", which is "if not"
        ("Should the benchmark regress, we revert the parser.", "we revert the parser."),
        ("Were it to regress, we would revert the parser.", "we would revert the parser."),
        ("Had we known, we would have reverted the parser.", "we would have reverted the parser."),
        ("Otherwise we revert the parser change.", "we revert the parser change."),
    ],
)
def test_a_quote_cut_from_a_condition_of_another_form_gives_way_to_its_sentence(
    message: str, quote: str
) -> None:
    assert_widened(message, Kind.DECISION, quote)


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        ("Had a look at the logs, we revert the parser change.", "we revert the parser change."),
        ("Should we revert? We revert the parser change.", "We revert the parser change."),
        ("Given that QA approved, we deploy on Fridays.", "we deploy on Fridays."),
    ],
)
def test_a_sentence_that_opens_with_no_condition_stands(message: str, quote: str) -> None:
    assert captured(message, Kind.DECISION, quote).trust == Trust.VERBATIM


@pytest.mark.parametrize(
    "message",
    [
        # a clause that refers back to a condition, or an inverted one after an opening word
        "If QA objects, we wait. In that case we revert the parser change.",
        "In that case, we revert the parser change.",
        "But should the benchmark regress, we revert the parser change.",
        "Or else we revert the parser change.",
    ],
)
def test_a_quote_cut_from_a_condition_it_refers_to_gives_way_to_its_sentence(
    message: str,
) -> None:
    assert_widened(message, Kind.DECISION, "we revert the parser change.")


def test_in_any_case_is_no_condition() -> None:
    item = captured(
        "In any case, we revert the parser change.", Kind.DECISION, "we revert the parser change."
    )
    assert item.trust == Trust.VERBATIM


NESTED = "Plan:\n- We deploy the parser on Fridays\n  - {}\n- We tag each release"


@pytest.mark.parametrize(
    "sub", ["only if QA approves the build", "unless the build is red", "**If** QA approves"]
)
def test_a_quote_whose_list_item_a_nested_condition_qualifies_is_not_verbatim(sub: str) -> None:
    item = captured(NESTED.format(sub), Kind.DECISION, "We deploy the parser on Fridays")
    assert (item.trust, item.quote_reason) == (Trust.INFERRED, CONDITION)


def test_a_nested_item_that_is_no_condition_or_a_sibling_leaves_the_quote_standing() -> None:
    message = NESTED.format("with the new pipeline")
    assert (
        captured(message, Kind.DECISION, "We deploy the parser on Fridays").trust == Trust.VERBATIM
    )
    nested = NESTED.format("only if QA approves the build")
    assert captured(nested, Kind.DECISION, "We tag each release").trust == Trust.VERBATIM


@pytest.mark.parametrize("kind", [Kind.DECISION, Kind.FACT, Kind.OPEN_LOOP])
@pytest.mark.parametrize(
    ("message", "quote"),
    [
        (
            "We keep Postgres for the sessions. We drop Redis for the cache.",
            "We keep… Redis for the cache",
        ),
        (
            "We keep Postgres for the sessions! We drop Redis for the cache.",
            "We keep Postgres for the sessions… Redis for the cache",
        ),
        (
            "- We keep Postgres for the sessions\n- We drop Redis for the cache",
            "We keep... Redis for the cache",
        ),
        (
            "We ship the parser on Monday. The exporter goes on Friday.",
            "We ship the parser… on Friday",
        ),
    ],
)
def test_an_ellipsis_that_joins_parts_of_two_sentences_is_not_verbatim(
    kind: Kind, message: str, quote: str
) -> None:
    item = captured(message, kind, quote)
    assert item.trust == Trust.INFERRED
    assert item.quote_reason == STITCHED


@pytest.mark.parametrize(
    "quote",
    [
        "We keep Postgres for the sessions.… We drop Redis for the cache.",
        "We keep Postgres for the sessions… We drop Redis for the cache",
        "We keep Postgres… for the sessions",
    ],
)
def test_an_ellipsis_over_whole_sentences_or_inside_one_stays_verbatim(quote: str) -> None:
    message = "We keep Postgres for the sessions. Ok. We drop Redis for the cache."
    assert captured(message, Kind.DECISION, quote).trust == Trust.VERBATIM


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        ("Αν περάσουν τα τεστ, χρησιμοποιούμε το Redis.", "χρησιμοποιούμε το Redis"),
        ("אם הבדיקות עוברות, נשתמש ב-Redis עבור המטמון.", "נשתמש ב-Redis עבור המטמון"),
        ("테스트가 통과하면 캐시에 Redis를 사용합니다.", "캐시에 Redis를 사용합니다"),
        ("テストが通ったら、キャッシュにRedisを使います。", "キャッシュにRedisを使います"),
    ],
)
def test_a_decision_cut_from_a_greek_hebrew_korean_or_japanese_condition_gives_way(
    message: str, quote: str
) -> None:
    assert_widened(message, Kind.DECISION, quote)


def test_a_sentence_after_a_japanese_report_stands() -> None:
    message = "テストは通りました。キャッシュにRedisを使います。"
    assert captured(message, Kind.DECISION, "キャッシュにRedisを使います").trust == Trust.VERBATIM


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        ("Option A: use Redis for the cache. Option B: use Memcached.", "use Redis for the cache"),
        ("**Alternative 2** — keep SQLite for the sessions", "keep SQLite for the sessions"),
        ("1. Option B) move the sessions to Postgres", "move the sessions to Postgres"),
    ],
)
def test_a_decision_from_a_sentence_an_options_label_opens_is_not_verbatim(
    message: str, quote: str
) -> None:
    assert captured(message, Kind.DECISION, quote).quote_reason == CONSIDERED


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        ("We went with option B: use Memcached for the cache.", "use Memcached for the cache"),
        ("Option B is better: use Memcached for the cache.", "use Memcached for the cache"),
    ],
)
def test_a_chosen_option_stays_verbatim(message: str, quote: str) -> None:
    assert captured(message, Kind.DECISION, quote).trust == Trust.VERBATIM
