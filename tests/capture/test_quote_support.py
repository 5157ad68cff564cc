"""What a capture badges: only what the session's people said, a text its quote supports
(else the quote is the item), and never a decision or fact quoted from a question
(gitmem.capture.checkpoint.build_items; docs/verifier.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gitmem.capture.checkpoint import UNMATCHED, UNSAID, build_items
from gitmem.capture.evidence import check_in_file
from gitmem.capture.questions import QUESTION, RESTATED_QUESTION
from gitmem.core.items import Draft, Item, Kind, Trust
from gitmem.core.transcript import ANSWER, Message, Transcript, plain_transcript

SNAPSHOT = "0" * 64


def session(*messages: Message) -> Transcript:
    return plain_transcript("", "s").with_messages(messages)


def captured(transcript: Transcript, kind: Kind, text: str, quote: str) -> Item:
    (item,) = build_items([Draft(kind, text, Trust.VERBATIM, quote, {})], transcript, "s", SNAPSHOT)
    return item


TOOL = session(
    Message("user", "Why does the export skip March?"),
    Message("tool_use", 'Bash\n{"command": "grep -rn TODO export/"}'),
    Message("tool_result", "export/legacy.py:88: # TODO: remove the legacy exporter in v2"),
    Message("assistant", "The filter compares months without years."),
)


def test_a_quote_of_tool_output_is_not_what_the_session_said() -> None:
    quote = "TODO: remove the legacy exporter in v2"
    item = captured(TOOL, Kind.OPEN_LOOP, "Remove the legacy exporter", quote)
    assert item.trust == Trust.INFERRED and item.quote is None
    assert item.quote_reason == UNSAID.format(index=2)
    assert item.extra["unverified_quote"] == quote
    said = captured(TOOL, Kind.FACT, "The filter compares months", "filter compares months")
    assert said.trust == Trust.VERBATIM


def test_the_same_words_said_by_the_assistant_keep_the_badge() -> None:
    quote = "TODO: remove the legacy exporter in v2"
    said = session(*TOOL.messages, Message("assistant", f"Left as is: {quote}."))
    assert captured(said, Kind.OPEN_LOOP, "Remove the legacy exporter", quote).trust == "verbatim"


TERMINAL = (
    "> Run the parser tests\n\n"
    "⏺ Bash(pytest -q tests/parser)\n"
    "  ⎿  TODO: remove the legacy exporter in v2\n"
    "     All 200 tests passed on the parser branch\n\n"
    "⏺ The parser tests pass; the legacy exporter stays for now.\n"
)


@pytest.mark.parametrize(
    "quote", ["TODO: remove the legacy exporter in v2", "All 200 tests passed on the parser branch"]
)
def test_a_tool_result_as_the_terminal_shows_it_is_not_what_the_session_said(quote: str) -> None:
    # a session copied from Claude Code's terminal: "⎿" opens a tool's result
    for transcript in (
        plain_transcript(TERMINAL, "s"),
        session(Message("user", "See:"), Message("assistant", TERMINAL)),
    ):
        item = captured(transcript, Kind.FACT, quote, quote)
        assert item.trust == Trust.INFERRED
        assert "not what the session said" in (item.quote_reason or "")
    said = "The parser tests pass; the legacy exporter stays for now."
    assert captured(plain_transcript(TERMINAL, "s"), Kind.FACT, said, said).trust == "verbatim"


SPECSTORY = (
    "_**User (2026-07-13 13:40:49Z)**_\n\nfix the flaky test in app.py\n\n---\n\n"
    "_**Agent (claude-opus-4-8 2026-07-13 13:41:01Z)**_\n\n"
    '<tool-use data-tool-type="shell" data-tool-name="Bash"><details>\n'
    "<summary>Tool use: **Bash**</summary>\nRun the suite\n\n"
    "```text\nTODO: remove the legacy exporter in v2\n```\n</details></tool-use>\n\n"
    "<details>\n            <summary>Tool use: **grep** • Grep for cache</summary>\n"
    "All 200 tests passed on the parser branch\n</details>\n\n"
    "The flaky test waits on a real clock; I will mock it.\n"
)


@pytest.mark.parametrize(
    "quote", ["TODO: remove the legacy exporter in v2", "All 200 tests passed on the parser branch"]
)
def test_a_tool_block_of_a_specstory_export_is_not_what_the_session_said(quote: str) -> None:
    item = captured(plain_transcript(SPECSTORY, "s"), Kind.FACT, quote, quote)
    assert item.trust == Trust.INFERRED
    assert "not what the session said" in (item.quote_reason or "")
    said = "The flaky test waits on a real clock"
    assert captured(plain_transcript(SPECSTORY, "s"), Kind.FACT, said, said).trust == "verbatim"


ASKED = session(
    Message("user", "Should we use httpx for the downloads? I keep going back and forth."),
    Message("assistant", "No, we keep requests: it is already vendored."),
)


@pytest.mark.parametrize("kind", [Kind.DECISION, Kind.FACT])
@pytest.mark.parametrize("quote", ["Should we use httpx for the downloads?", "use httpx"])
def test_a_decision_or_fact_quoted_from_a_question_is_inferred(kind: Kind, quote: str) -> None:
    item = captured(ASKED, kind, "Use httpx", quote)
    assert item.trust == Trust.INFERRED
    assert item.quote_reason in (QUESTION, RESTATED_QUESTION)


@pytest.mark.parametrize("kind", [Kind.UNCERTAINTY, Kind.OPEN_LOOP])
def test_an_open_question_may_be_quoted_from_a_question(kind: Kind) -> None:
    item = captured(ASKED, kind, "httpx or requests?", "Should we use httpx for the downloads?")
    assert item.trust == Trust.VERBATIM


def test_the_answer_backs_the_decision() -> None:
    item = captured(ASKED, Kind.DECISION, "Keep requests", "we keep requests")
    assert item.trust == Trust.VERBATIM


def test_a_question_tools_answer_is_read_pair_by_pair() -> None:
    answered = session(
        Message("tool_use", "AskUserQuestion\n{}"),
        Message(
            ANSWER, 'User has answered your questions: "Which client?"="requests", "Cache?"="yes"'
        ),
    )
    item = captured(answered, Kind.DECISION, "Client: requests", '"Which client?"="requests"')
    assert item.trust == Trust.VERBATIM


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Retry the upload 5 times", "Retry the upload 3 times, then give up."),
        ("Never retry the upload", "Retry the upload 3 times, then give up."),
    ],
)
def test_a_text_that_adds_a_number_or_a_negation_gives_way_to_its_quote(
    text: str, quote: str
) -> None:
    transcript = session(Message("assistant", "Retry the upload 3 times, then give up."))
    item = captured(transcript, Kind.DECISION, text, quote)
    assert (item.trust, item.text, item.quote) == (Trust.VERBATIM, quote, quote)
    assert item.extra["summary"] == text and UNMATCHED in (item.quote_reason or "")


def test_evidence_from_tool_output_does_not_count(tmp_path: Path) -> None:
    path = tmp_path / "session.json"
    path.write_text(
        json.dumps(
            [
                {"role": "user", "content": "Why does the export skip March?"},
                {"role": "tool", "content": "export/legacy.py:88: # TODO: drop the exporter"},
                {"role": "assistant", "content": "The filter compares months without years."},
            ]
        )
    )
    tool = check_in_file("TODO: drop the exporter", path, None, None)
    assert not tool.check.verbatim and tool.check.reason == UNSAID.format(index=1)
    assert check_in_file("compares months without years", path, None, None).check.verbatim


LOOK_ALIKE_NOT = "n\u043et"  # a Cyrillic "о": it shows "not"


@pytest.mark.parametrize(
    ("said", "text", "quote"),
    [
        # An ellipsis over a negation that look-alike letters hide from the rule.
        (
            f"We will {LOOK_ALIKE_NOT} deploy on Fridays.",
            "We will deploy on Fridays",
            "We will… deploy on Fridays",
        ),
        (
            "We will \uff4e\uff4f\uff54 deploy on Fridays.",
            "We will deploy on Fridays",
            "We will… deploy on Fridays",
        ),
        (
            "We deploy \u043enly on Fridays after the freeze.",
            "We deploy on Fridays",
            "We deploy… on Fridays after the freeze",
        ),
        # underlined or overlined letter by letter with combining marks: it shows "not"
        (
            "We will n\u0332o\u0332t\u0332 deploy on Fridays.",
            "We will deploy on Fridays",
            "We will… deploy on Fridays",
        ),
        (
            "We will n\u0305o\u0305t\u0305 deploy on Fridays.",
            "We will deploy on Fridays",
            "We will… deploy on Fridays",
        ),
    ],
)
def test_an_elision_over_a_disguised_negation_is_not_verbatim(
    said: str, text: str, quote: str
) -> None:
    transcript = session(Message("user", "Plan it."), Message("assistant", said))
    item = captured(transcript, Kind.DECISION, text, quote)
    assert not item.quote_verified
    assert item.trust == Trust.INFERRED


@pytest.mark.parametrize(
    "text",
    [
        f"We will {LOOK_ALIKE_NOT} deploy on Fridays",
        "We will \uff4e\uff45\uff56\uff45\uff52 deploy on Fridays",
        "We will \u039d\u039f\u03a4 deploy on Fridays",
        "We will dis\u0430ble deploys on Fridays",
    ],
)
def test_a_text_that_adds_a_disguised_negation_or_opposite_gives_way_to_its_quote(
    text: str,
) -> None:
    said = "We will enable deploys on Fridays. We will deploy on Fridays."
    transcript = session(Message("user", "Plan it."), Message("assistant", said))
    quote = "We will enable deploys on Fridays" if "ble" in text else "We will deploy on Fridays"
    item = captured(transcript, Kind.DECISION, text, quote)
    assert item.quote_verified
    assert item.text == quote


@pytest.mark.parametrize(
    ("said", "quote"),
    [
        (
            "Wir deployen nicht am Freitag, sagt das Team.",
            "Wir deployen… am Freitag, sagt das Team",
        ),
        (
            "Vamos a desplegar nunca los viernes en producción.",
            "Vamos a desplegar… los viernes en producción",
        ),
        ("Мы будем не деплоить по пятницам в прод.", "Мы будем… деплоить по пятницам в прод"),
        (
            "On ne déploie jamais le vendredi en production.",
            "On ne déploie… le vendredi en production",
        ),
        ("我们周五不部署到生产环境里面", "我们周五…部署到生产环境里面"),
    ],
)
def test_an_elision_over_a_negation_of_another_language_is_not_verbatim(
    said: str, quote: str
) -> None:
    item = captured(session(Message("user", said)), Kind.DECISION, "the decision", quote)
    assert not item.quote_verified


@pytest.mark.parametrize(
    ("said", "text"),
    [
        (
            "Wir deployen am Freitag in die Produktion.",
            "Wir deployen nicht am Freitag in die Produktion",
        ),
        ("On déploie le vendredi en production.", "On ne déploie pas le vendredi en production"),
        ("我们周五部署到生产环境里面", "我们周五不部署到生产环境里面"),
    ],
)
def test_a_text_that_adds_a_negation_of_another_language_gives_way_to_its_quote(
    said: str, text: str
) -> None:
    item = captured(session(Message("user", said)), Kind.DECISION, text, said.rstrip("."))
    assert item.quote_verified
    assert item.text == said.rstrip(".")


@pytest.mark.parametrize(
    ("said", "quote"),
    [
        (
            "Wir deployen nur am Freitag in die Produktion.",
            "Wir deployen… am Freitag in die Produktion",
        ),
        ("Desplegamos solo los viernes en producción.", "Desplegamos… los viernes en producción"),
        ("Мы деплоим только по пятницам в прод.", "Мы деплоим… по пятницам в прод"),
        (
            "Nous déployons sauf le vendredi en production.",
            "Nous déployons… le vendredi en production",
        ),
        ("我们只在周五部署到生产环境里面", "我们…在周五部署到生产环境里面"),
        (
            "On déploie le vendredi si la QA approuve les tests.",
            "On déploie le vendredi… la QA approuve les tests",
        ),
    ],
)
def test_an_elision_over_a_limit_of_another_language_is_not_verbatim(said: str, quote: str) -> None:
    item = captured(session(Message("user", said)), Kind.DECISION, "the decision", quote)
    assert not item.quote_verified


def test_a_text_that_drops_its_quotes_condition_gives_way_to_the_quote() -> None:
    said = "We deploy on Fridays, for the team's sake, if QA approves."
    item = captured(session(Message("user", said)), Kind.DECISION, "We deploy on Fridays", said)
    assert item.trust == Trust.VERBATIM
    assert (item.text, item.extra["summary"]) == (said, "We deploy on Fridays")
    assert UNMATCHED in (item.quote_reason or "")
    assert "states it unconditionally" in (item.quote_reason or "")


@pytest.mark.parametrize(
    ("said", "text", "cause"),
    [
        ("We used Redis for the cache, now we use SQLite.", "We use Redis for the cache", "past"),
        ("Set the timeout to 30 seconds.", "Set the timeout to thirty minutes", "another unit"),
        ("We tried Redis for the cache.", "We use Redis for the cache", '"tried"'),
        ("We considered Redis for the cache.", "We chose Redis for the cache", '"considered"'),
        ("Alice dropped the cache layer.", "Bob dropped the cache layer", '"alice"'),
        ("We use Redis for the cache.", "We use Memcached for the cache", '"redis"'),
        ("We replaced Redis with SQLite.", "We replaced SQLite with Redis", "other way round"),
        ("We will probably switch the cache to SQLite.", "We switch the cache", "probably"),
        ("We plan to drop Redis next sprint.", "We drop Redis", "plan to"),
    ],
)
def test_a_text_that_keeps_the_words_but_changes_the_claim_gives_way_to_its_quote(
    said: str, text: str, cause: str
) -> None:
    quote = said.rstrip(".").split(",")[0]
    item = captured(session(Message("assistant", said)), Kind.DECISION, text, quote)
    assert (item.trust, item.text, item.quote) == (Trust.VERBATIM, quote, quote)
    assert item.extra["summary"] == text
    assert UNMATCHED in (item.quote_reason or "") and cause in (item.quote_reason or "")


SAID = session(
    Message("user", "We keep requests for the HTTP client; don't stop the retries."),
    Message("assistant", 'Noted: "a" and "b" stay as they are.'),
)


@pytest.mark.parametrize(
    "quote",
    [
        '"We keep requests for the HTTP client"',
        "“We keep requests for the HTTP client”",
        "«We keep requests for the HTTP client»",
        "'don't stop the retries'",
        "  「We keep requests」 ",
    ],
)
def test_quotation_marks_around_the_whole_quote_are_the_extractors_not_the_sessions(
    quote: str,
) -> None:
    item = captured(SAID, Kind.DECISION, "Keep requests for the HTTP client", quote)
    assert item.trust == Trust.VERBATIM
    # what is stored is the transcript's own span, without the marks
    assert item.quote is not None and item.quote[0] not in "\"“«'「"
    assert item.quote in SAID.messages[0].text


@pytest.mark.parametrize(
    ("quote", "verbatim"),
    [
        ('"a" and "b" stay as they are', True),  # the session's own marks
        ('"We keep httpx for the HTTP client"', False),  # unwrapped, still not said
        ('"We keep requests', False),  # one mark is no pair
    ],
)
def test_marks_that_are_no_pair_around_the_whole_quote_stay(quote: str, verbatim: bool) -> None:
    item = captured(SAID, Kind.DECISION, "Keep them", quote)
    assert (item.trust == Trust.VERBATIM) is verbatim
