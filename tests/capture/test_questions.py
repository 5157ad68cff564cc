"""A quote from a question backs no decision or fact, and a text that cannot be matched to
its genuine quote keeps the evidence: the quote itself carries the badge."""

from __future__ import annotations

import pytest

from gitmem.capture.checkpoint import build_items
from gitmem.capture.questions import QUESTION, RESTATED_QUESTION, rests_on_question
from gitmem.capture.transcripts import parse_transcript
from gitmem.core.items import Draft, Item

ASKED = "Should we use httpx? No, we keep requests for now."


def items(transcript: str, *drafts: Draft) -> list[Item]:
    parsed = parse_transcript(transcript.encode(), "t.md", "text")
    return build_items(drafts, parsed, "s1", "0" * 64)  # type: ignore[arg-type]


def decision(text: str, quote: str, kind: str = "decision") -> Draft:
    return Draft(kind, text, "verbatim", quote, {})


def test_should_we_use_httpx_never_yields_a_verbatim_use_httpx() -> None:
    for quote in ("use httpx", "Should we use httpx?", ASKED):
        (item,) = items(ASKED, decision("Use httpx", quote))
        assert item.trust == "inferred" and item.quote is None, quote
        assert item.quote_reason in (QUESTION, RESTATED_QUESTION)
        assert item.extra["unverified_quote"]
    (answer,) = items(ASKED, decision("Keep requests", "No, we keep requests for now."))
    assert answer.trust == "verbatim" and answer.quote == "No, we keep requests for now."


def test_a_fact_from_a_question_degrades_but_an_open_question_stays_verbatim() -> None:
    text = "Is the cache shared between workers? We should add retries?"
    (fact,) = items(
        text, decision("The cache is shared between workers", "the cache shared", "fact")
    )
    assert fact.trust == "inferred"
    (loop,) = items(
        text, decision("Is the cache shared?", "Is the cache shared between workers?", "open_loop")
    )
    assert loop.trust == "verbatim"


def test_a_question_in_another_sentence_does_not_taint_the_answer() -> None:
    message = "Which store? Decision: keep checkpoints under refs/gitmem/memory."
    assert (
        rests_on_question(
            "Keep checkpoints under refs/gitmem/memory",
            "keep checkpoints under refs/gitmem/memory",
            message,
        )
        is None
    )
    assert rests_on_question("Use httpx", "use httpx", "Do we use httpx?") == QUESTION
    assert rests_on_question("anything", "not in the message", "Do we?") is None


def test_a_summary_that_cannot_be_matched_keeps_its_quote_as_the_verbatim_item() -> None:
    said = 'I\'ve changed the button variant from "ghost" to "default".'
    draft = decision(
        "The + button uses variant 'default', not 'ghost'",
        "I've changed the button variant from “ghost” to “default”",
    )
    (item,) = items(said, draft)
    assert item.trust == "verbatim" and item.quote_verified
    assert item.text == item.quote == 'I\'ve changed the button variant from "ghost" to "default"'
    assert item.extra["summary"] == draft.text
    assert "the quote is the item" in (item.quote_reason or "")


def test_a_reversing_text_on_an_elided_negation_stays_unverified() -> None:
    said = "We will not deploy on Fridays, ever."
    (item,) = items(said, decision("We deploy on Fridays", "We will… deploy on Fridays"))
    assert item.trust == "inferred" and item.quote is None and "summary" not in item.extra


def test_a_question_ends_at_its_mark_whatever_follows_and_pulls_in_no_next_sentence() -> None:
    for said in (
        "**Should we use httpx for the downloads?** I keep going back and forth.",
        "Should we use httpx for the downloads? httpx downloads are faster, I read.",
        "(Should we use httpx for the downloads?), asked Ann.",
    ):
        reason = rests_on_question(
            "Use httpx for the downloads", "Should we use httpx for the downloads?", said
        )
        assert reason == QUESTION, said
    # a statement's span ends on its own full stop: the question after it is not its passage
    said = "We keep requests for the downloads. Should we revisit requests for the downloads?"
    assert rests_on_question("Keep requests", "We keep requests for the downloads.", said) is None


def test_a_question_tools_answer_pair_is_one_sentence() -> None:
    answered = 'User has answered your questions: "Which client?"="requests", "Cache?"="yes"'
    assert rests_on_question("Client: requests", '"Which client?"="requests"', answered) is None


def test_a_quote_of_the_question_a_question_tools_answer_repeats_decides_nothing() -> None:
    import json

    asked = {"questions": [{"question": "Should we use httpx for the client?"}]}
    answer = (
        'User has answered your questions: "Should we use httpx for the client?"="requests". '
        "You can now continue with the user's answers in mind."
    )
    lines = [
        {
            "type": "user",
            "uuid": "u0",
            "sessionId": "s",
            "message": {"role": "user", "content": "which http library for the client?"},
        },
        {
            "type": "assistant",
            "uuid": "u1",
            "sessionId": "s",
            "message": {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "q1", "name": "AskUserQuestion", "input": asked}
                ],
            },
        },
        {
            "type": "user",
            "uuid": "u2",
            "sessionId": "s",
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "q1", "content": answer}],
            },
        },
        {
            "type": "assistant",
            "uuid": "u3",
            "sessionId": "s",
            "message": {"role": "assistant", "content": "Going with requests."},
        },
    ]
    parsed = parse_transcript("\n".join(map(json.dumps, lines)).encode(), "s.jsonl", "claude")
    drafts = (
        decision("Use httpx for the client", "use httpx for the client"),
        decision("Use httpx", '"Should we use httpx for the client?"="requests"'),
        decision("Use requests", '"Should we use httpx for the client?"="requests"'),
    )
    asked_item, restated, chosen = build_items(drafts, parsed, "s1", "0" * 64)  # type: ignore[arg-type]
    assert asked_item.trust == "inferred" and asked_item.quote_reason == QUESTION
    assert restated.trust == "inferred" and restated.quote_reason == RESTATED_QUESTION
    assert chosen.trust == "verbatim"


@pytest.mark.parametrize(
    ("span", "message"),
    [
        # The question marks of other scripts: fullwidth (Chinese, Japanese), Arabic,
        # Greek (which shows as a semicolon), and the small form.
        ("我们下周五要不要把解析器部署到生产环境", "我们下周五要不要把解析器部署到生产环境？"),
        ("deploy the parser on Friday", "Should we deploy the parser on Friday\uff1f"),
        ("deploy the parser on Friday", "Should we deploy the parser on Friday\u061f"),
        ("deploy the parser on Friday", "Should we deploy the parser on Friday\u037e"),
        ("deploy the parser on Friday", "Should we deploy the parser on Friday\ufe56"),
    ],
)
def test_a_question_in_another_script_decides_nothing(span: str, message: str) -> None:
    assert rests_on_question("Deploy the parser", span, message) == QUESTION


def test_a_chinese_answer_after_a_chinese_question_stands() -> None:
    message = "我们要不要换成httpx？不，我们继续用requests。"
    assert rests_on_question("继续用requests", "不，我们继续用requests", message) is None
    assert rests_on_question("换成httpx", "我们要不要换成httpx", message) == QUESTION


@pytest.mark.parametrize(
    "span",
    [
        "drop the cache layer",
        "we drop the cache layer\nand move the sessions to Redis",
    ],
)
def test_a_question_wrapped_over_two_lines_decides_nothing(span: str) -> None:
    # a line that goes on in small letters continues the sentence up to its "?"
    message = "Should we drop the cache layer\nand move the sessions to Redis?"
    assert rests_on_question("Drop the cache layer", span, message) == QUESTION


def test_a_next_line_that_starts_anew_ends_the_sentence() -> None:
    message = "We drop the cache layer\nShould we move the sessions to Redis?"
    assert rests_on_question("Drop the cache layer", "We drop the cache layer", message) is None


@pytest.mark.parametrize(
    "span",
    [
        "We agreed … drop the cache layer",
        "We agreed to keep the cache layer … drop the cache layer",
    ],
)
def test_an_ellipsis_that_ends_the_quote_in_a_question_decides_nothing(span: str) -> None:
    # the statement before the ellipsis does not make the question after it one
    message = "We agreed to keep the cache layer. Should we drop the cache layer?"
    assert rests_on_question("Drop the cache layer", span, message) == QUESTION


def test_an_ellipsis_from_a_question_to_its_answer_stands() -> None:
    message = "Should we use httpx for downloads? Then we keep requests for downloads."
    span = "Should we use httpx … we keep requests for downloads"
    assert rests_on_question("Keep requests", span, message) is None


@pytest.mark.parametrize(
    ("span", "message"),
    [
        ("use httpx for the client", "Should we use httpx for the client"),
        ("keep requests", "do we keep requests\nI think yes"),
        ("the cache warm", "Is the cache warm"),
        ("it work on Windows", "Does it work on Windows"),
        ("ship on Friday", "**Will we ship on Friday**"),
        ("run the tests on Windows", "Can you run the tests on Windows"),
    ],
)
def test_a_question_typed_without_its_mark_decides_nothing(span: str, message: str) -> None:
    # Users type questions without "?": the verb before its subject says it.
    assert rests_on_question(span, span, message) == QUESTION


@pytest.mark.parametrize(
    ("span", "message"),
    [
        ("Do the rename in a separate PR", "Do the rename in a separate PR"),
        ("Do it in a separate PR", "Do it in a separate PR"),
        ("Have the team review it first", "Have the team review it first"),
        (
            "we revert the parser change",
            "Should the benchmark regress, we revert the parser change",
        ),
        ("Is the cache warm", "Is the cache warm. Yes, since the deploy."),
        ("We should use httpx", "We should use httpx"),
        ("There are flaky tests", "There are flaky tests"),
    ],
)
def test_an_imperative_a_condition_or_a_statement_is_no_question(span: str, message: str) -> None:
    # "Do the …" and "Have the team …" tell; a comma after the inversion makes a
    # condition (gitmem.capture.standing); a full stop ends a statement.
    assert rests_on_question(span, span, message) is None
