"""Tests for the matching rules of the quote verifier (gitmem.core.align, through
gitmem.core.quotes.check_quote): whole numbers, elisions that keep every negation, list
reflow, and the matched span. The rules are in docs/verifier.md."""

from __future__ import annotations

import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from gitmem.core.folding import fold
from gitmem.core.negation import negations
from gitmem.core.quotes import MIN_PIN_CHARS, SPAN_JOIN, check_quote, check_quotes, split_fragments

# A number is one token ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("quote", "message"),
    [
        ("5 seconds to time out", "it takes 2.5 seconds to time out"),
        ("500 users signed up", "we had 37,500 users signed up"),
        ("37 ms of latency", "we measured -37 ms of latency"),
        ("5 points ahead", "we were +5 points ahead"),
        ("12.0 is the release", "1.12.0 is the release"),
        ("the release is 1.12", "the release is 1.12.0"),
        ("latency of 37", "latency of 37.5 ms"),
        ("we had 37 users", "we had 37,500 users"),
        ("-20 items in stock", "there are 10-20 items in stock"),
        ("version 1.", "version 1.5 ships"),
        ("the gain is 5 percent", "the gain is .5 percent"),
        ("release v1 today", "release v1.2 today"),
    ],
)
def test_a_number_never_matches_inside_a_longer_one(quote: str, message: str) -> None:
    check = check_quote(quote, [message])
    assert not check.verbatim
    assert check.reason == f'not found in any message: "{quote}"'


@pytest.mark.parametrize(
    ("quote", "message"),
    [
        ("20 items in stock", "there are 10-20 items in stock"),  # a range
        ("the port is 37.", "we said: the port is 37. then we left"),  # sentence end
        ("the port is 37", "we said: the port is 37. then we left"),
        ("we said 37, 500 times", "and we said 37, 500 times"),
        ("2.5 seconds to time out", "it takes 2.5 seconds to time out"),
        ("-37 ms of latency", "we measured -37 ms of latency"),
        ("release 1.12.0 today", "we cut release 1.12.0 today"),
        ("pages 10-20 are done", "pages 10-20 are done"),
    ],
)
def test_a_whole_number_matches(quote: str, message: str) -> None:
    assert check_quote(quote, [message]).verbatim


def test_the_search_skips_a_number_inside_a_longer_one_and_keeps_looking() -> None:
    check = check_quote("5 seconds to wait", ["2.5 seconds to wait, or 5 seconds to wait"])
    assert check.verbatim
    assert check.fragments[0].offset == 24


# An elision may not skip a negation --------------------------------------------------


def test_the_issue_example_fails_with_its_reason() -> None:
    check = check_quote(
        "WE WILL… DEPLOY ON FRIDAYS, EVER.", ["We will not deploy on Fridays, ever."]
    )
    assert not check.verbatim
    assert check.reason == (
        'the ellipsis before fragment 2 of 2 skips "not"; an elision may not drop a negation'
    )
    assert [f.found for f in check.fragments] == [True, False]


@pytest.mark.parametrize(
    "word",
    [
        *("not", "never", "no", "none", "nobody", "nothing", "nowhere", "neither", "nor"),
        *("without", "cannot", "don't", "won’t", "isn't", "shouldn't", "NOT", "**not**"),
    ],
)
def test_an_ellipsis_may_not_skip_any_negation_word(word: str) -> None:
    message = f"the team will {word} deploy the parser on friday"
    check = check_quote("the team will… deploy the parser on friday", [message])
    assert not check.verbatim
    assert "an elision may not drop a negation" in check.reason


def test_a_later_occurrence_without_a_negation_in_between_verifies() -> None:
    # Greedy leftmost picks the first "we will", whose gap skips "not"; the second fits.
    message = "We will not wait. We will, after all, deploy on Fridays."
    check = check_quote("we will… deploy on fridays", [message])
    assert check.verbatim, check.reason
    assert [f.offset for f in check.fragments] == [18, 38]


@pytest.mark.parametrize(
    ("quote", "message"),
    [
        ("we will not… deploy on fridays", "we will not, after a long talk, deploy on fridays"),
        ("we agreed… to ship the parser", "no. we agreed, after a long talk, to ship the parser"),
        ("we tied… we shipped the parser", "we tied a knot, then we shipped the parser"),
    ],
    ids=["kept inside a fragment", "outside the elided gap", "inside a longer word"],
)
def test_a_negation_the_ellipsis_does_not_skip_is_fine(quote: str, message: str) -> None:
    assert check_quote(quote, [message]).verbatim


def test_the_negation_reason_names_the_closest_message_when_there_are_several() -> None:
    check = check_quote("we will… deploy on fridays", ["hello", "we will never deploy on fridays"])
    assert check.reason == (
        'the ellipsis before fragment 2 of 2 skips "never"; an elision may not drop a '
        "negation (closest: message 1)"
    )


def test_three_fragments_search_every_alignment() -> None:
    message = "we agreed not to ship. we agreed to ship the parser, early on friday"
    check = check_quote("we agreed… the parser… on friday", [message])
    assert check.verbatim, check.reason
    assert check.fragments[0].offset == 23


# List reflow ---------------------------------------------------------------------------

PLAN = "Plan:\n- migrate the database\n- then deploy the service"


@pytest.mark.parametrize(
    "quote",
    [
        "Plan: - migrate the database - then deploy the service",
        "Plan: + migrate the database + then deploy the service",
        "Plan: * migrate the database * then deploy the service",
        "Plan: migrate the database then deploy the service",  # markers omitted, as before
        "Plan: - migrate the database then deploy the service",  # some reflowed, some not
        "migrate the database - then deploy the service",
    ],
)
def test_a_bulleted_list_may_be_quoted_on_one_line(quote: str) -> None:
    check = check_quote(quote, [PLAN], with_span=True)
    assert check.verbatim, check.reason


@pytest.mark.parametrize("bullet", ["- ", "* ", "+ ", "  - ", "> - "])
def test_every_bullet_style_in_the_transcript_reflows(bullet: str) -> None:
    message = f"Options:\n{bullet}use the cache\n{bullet}or rebuild it"
    assert check_quote("Options: - use the cache - or rebuild it", [message]).verbatim


def test_a_numbered_list_reflows_with_the_same_numbers() -> None:
    message = "Steps:\n1. build the wheel\n2) run the tests\n3. tag the release"
    assert check_quote("Steps: 1. build the wheel 2. run the tests 3) tag", [message]).verbatim
    assert not check_quote("Steps: 1. build the wheel 3. run the tests", [message]).verbatim
    assert not check_quote("Steps: - build the wheel - run the tests", [message]).verbatim


def test_a_marker_the_transcript_never_had_fails() -> None:
    assert not check_quote("use X - it is faster", ["use X it is faster"]).verbatim
    assert not check_quote("use X 2. it is faster", ["use X\nit is faster"]).verbatim
    assert not check_quote(
        "Plan: - migrate the database - then", ["Plan: migrate the database then"]
    ).verbatim


def test_a_literal_mid_line_marker_still_matches_itself() -> None:
    assert check_quote("use X - it is faster", ["so: use X - it is faster"]).verbatim
    assert check_quote("version 2. Then we", ["we shipped version 2. Then we moved on"]).verbatim
    message = "Plan:\n- use X - it is faster\n- then deploy"
    assert check_quote("Plan: - use X - it is faster - then deploy", [message]).verbatim
    assert not check_quote("Plan: - use X it is faster - then deploy", [message]).verbatim


def test_a_reflowed_quote_keeps_the_other_rules() -> None:
    message = "Limits:\n- 2.5 seconds per request\n- we will not retry"
    assert not check_quote("Limits: - 5 seconds per request", [message]).verbatim
    assert not check_quote("Limits: - 2.5 seconds per request - we will… retry", [message]).verbatim
    assert check_quote("Limits: - 2.5 seconds per request - we will not retry", [message]).verbatim


def test_a_reflowed_fragment_after_an_ellipsis_verifies() -> None:
    message = "We looked at it for a while.\nPlan:\n- migrate the database\n- then deploy"
    assert check_quote(
        "We looked at it… Plan: - migrate the database - then deploy", [message]
    ).verbatim


def test_a_fragment_that_opens_with_a_number_keeps_it() -> None:
    # Folded as a line start, "2." would be a list marker and the number never checked.
    assert check_quote("2. then we moved on", ["version 2. then we moved on"]).verbatim
    assert check_quote("2. then we moved on", ["Steps:\n2. then we moved on"]).verbatim
    assert not check_quote("2. then we moved on", ["version 3. then we moved on"]).verbatim
    assert not check_quote("2. then we moved on", ["then we moved on"]).verbatim
    message = "Plan:\n1. build it\n2. run the tests"
    assert check_quote("Plan:… 2. run the tests", [message]).verbatim
    assert not check_quote("Plan:… 3. run the tests", [message]).verbatim


def test_a_lead_matches_a_numbered_item_behind_emphasis() -> None:
    message = "Gaps:\n**3. Test coverage gap** - AC8 (cross-platform)"
    assert check_quote("**3. Test coverage gap** - AC8", [message]).verbatim
    assert not check_quote("**4. Test coverage gap** - AC8", [message]).verbatim


def test_a_fragment_that_is_only_a_number_is_checked() -> None:
    assert split_fragments("we agreed on it… 37.") == ["we agreed on it", "37."]
    assert check_quote("we agreed on it… 37.", ["we agreed on it, it is 37."]).verbatim
    assert not check_quote("we agreed on it… 37.", ["we agreed on it, it is 38."]).verbatim
    assert not check_quote("we agreed on it… 37.", ["we agreed on it, not 37."]).verbatim


# The matched span ----------------------------------------------------------------------


def test_the_span_is_the_transcripts_own_text() -> None:
    check = check_quote(
        'we decided to use snake_case_name - it\'s "FINAL"',
        ["Status:\n- We **decided** to use `snake_case_name` — it’s “final”, says Bo"],
        with_span=True,
    )
    assert check.span == "We **decided** to use `snake_case_name` — it’s “final”"
    assert check.fragments[0].said == check.span


def test_the_span_of_an_elided_quote_joins_the_fragments() -> None:
    check = check_quote(
        "WE AGREED… TO SHIP THE PARSER",
        ["So we agreed, after a talk, to ship the parser."],
        with_span=True,
    )
    assert check.span == f"we agreed{SPAN_JOIN}to ship the parser"
    assert [f.said for f in check.fragments] == ["we agreed", "to ship the parser"]


def test_the_span_of_a_reflowed_quote_keeps_the_line_breaks() -> None:
    check = check_quote(
        "Plan: - migrate the database - then deploy the service", [PLAN], with_span=True
    )
    assert check.span == PLAN
    again = check_quote(check.span or "", [PLAN])
    assert again.verbatim


def test_the_span_comes_from_the_message_that_matched() -> None:
    messages = ["nothing here", "We Ship The Parser today", "we ship the parser again"]
    check = check_quote("we ship the parser", messages, with_span=True)
    assert check.message_index == 1
    assert check.span == "We Ship The Parser"


def test_no_span_unless_asked_or_when_not_verbatim() -> None:
    assert check_quote("we ship the parser", ["we ship the parser"]).span is None
    failed = check_quote("we ship the lexer", ["we ship the parser"], with_span=True)
    assert failed.span is None and all(f.said is None for f in failed.fragments)
    generic = check_quote("ship it", ["ship it"], with_span=True)
    assert generic.span is None


def test_the_span_is_in_to_dict_when_there_is_one() -> None:
    data = check_quote("we ship the parser", ["We ship the parser"], with_span=True).to_dict()
    assert list(data) == ["verbatim", "reason", "fragments", "message", "span"]
    assert data["span"] == "We ship the parser"
    assert data["fragments"] == [
        {
            "text": "we ship the parser",
            "folded": "we ship the parser",
            "pins": True,
            "found": True,
            "offset": 0,
            "said": "We ship the parser",
        }
    ]


def test_check_quotes_gives_spans_when_asked() -> None:
    checks = check_quotes(
        ["we ship the parser", "absent words here"], ["We SHIP the parser"], with_span=True
    )
    assert [c.span for c in checks] == ["We SHIP the parser", None]


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        ("we ship<gitmem-context>PR #60</gitmem-context> the parser now", "we ship the parser"),
        ("we ship<gitmem-context>PR #60</gitmem-context> the parser now", "we ship… the parser"),
        ("We will <gitmem-context>not</gitmem-context> deploy on Fridays", "We will… deploy on"),
    ],
)
def test_a_quote_does_not_run_across_gitmem_output(message: str, quote: str) -> None:
    # gitmem's output stood between the words on either side, which were shown apart.
    check = check_quote(quote, [message], with_span=True)
    assert not check.verbatim
    assert check.reason.startswith("found only by joining the words on either side of gitmem")
    said = message.split(">")[-1].strip()
    assert check_quote(said, [message], with_span=True).span == said


# Properties ------------------------------------------------------------------------------

_PLAIN = [
    *("we", "agreed", "ship", "parser", "friday", "port", "deploy", "cache", "review"),
    *("team", "merge", "branch", "release", "tests", "service", "database", "build"),
    *("café", "Straße", "snake_case_name", "PR", "#60", "v2", "it's", "naïve", "then"),
]
_NUMBERS = ["2.5", "37,500", "-37", "+5", "1.12.0", "v1.2", "10-20", "37.", "137", "0.25"]
_NEGATIONS = ["not", "never", "no", "without", "cannot", "don't", "won't", "nothing"]
_WRAPPERS = ["{}", "{}", "{}", "**{}**", "`{}`", "_{}_"]
_SEPARATORS = [" ", " ", " ", ", ", " — ", ": "]
_MARKERS = ["", "", "- ", "* ", "+ ", "1. ", "2) ", "  - "]


@st.composite
def _listy_message(draw: st.DrawFn) -> tuple[str, list[tuple[int, int, str]]]:
    """A message of a few lines (some of them list items) of distinct words, and each
    word's (start, end, kind) in it; a word is whole: a number keeps its sign and dots."""
    vocabulary = draw(
        st.lists(
            st.sampled_from(_PLAIN + _NUMBERS + _NEGATIONS), min_size=4, max_size=24, unique=True
        )
    )
    text, words, at = "", [], 0
    for line_number in range(draw(st.integers(min_value=1, max_value=4))):
        line_words = vocabulary[at : at + draw(st.integers(min_value=1, max_value=8))]
        at += len(line_words)
        if not line_words:
            break
        if line_number:
            text += "\n"
        text += draw(st.sampled_from(_MARKERS))
        for n, word in enumerate(line_words):
            if n:
                text += draw(st.sampled_from(_SEPARATORS))
            shown = (
                word
                if word in _NUMBERS or word in _NEGATIONS
                else draw(st.sampled_from(_WRAPPERS)).format(word)
            )
            kind = "number" if word in _NUMBERS else "negation" if word in _NEGATIONS else "plain"
            words.append((len(text), len(text) + len(shown), kind))
            text += shown
    return text, words


def _reflow(text: str) -> str:
    """*text* with every line break made a space, keeping each list marker mid-line."""
    return re.sub(r"\n *", " ", text)


@pytest.mark.slow
@settings(max_examples=200)
@given(_listy_message(), st.data())
def test_a_quote_cut_at_word_boundaries_verifies(
    sample: tuple[str, list[tuple[int, int, str]]], data: st.DataObject
) -> None:
    message, words = sample
    first = data.draw(st.integers(min_value=0, max_value=len(words) - 1))
    last = data.draw(st.integers(min_value=first, max_value=len(words) - 1))
    piece = message[words[first][0] : words[last][1]]
    quote = _reflow(piece) if data.draw(st.booleans()) else piece
    if data.draw(st.booleans()) and last - first >= 2:
        cut = data.draw(st.integers(min_value=first + 1, max_value=last - 1))
        gap = message[words[cut - 1][1] : words[cut + 1][0]]
        assume(not negations(gap))
        left = message[words[first][0] : words[cut - 1][1]]
        right = message[words[cut + 1][0] : words[last][1]]
        quote = f"{_reflow(left)}… {_reflow(right)}"
    assume(any(len(fold(part)) >= MIN_PIN_CHARS for part in split_fragments(quote)))
    check = check_quote(quote, ["unrelated words", message], with_span=True)
    assert check.verbatim, (quote, message, check.reason)
    assert check.message_index == 1
    # The span is the message's own text, and it verifies against the message again.
    assert check.span is not None
    # (A reflowed fragment is shorter without its markers; it must still pin on its own.)
    assume(any(len(fold(part)) >= MIN_PIN_CHARS for part in split_fragments(check.span)))
    again = check_quote(check.span, [message])
    assert again.verbatim, (check.span, message, again.reason)
    assert [f.offset for f in again.fragments] == [f.offset for f in check.fragments]


@settings(max_examples=200)
@given(_listy_message(), st.data())
def test_a_quote_with_one_digit_changed_never_verifies(
    sample: tuple[str, list[tuple[int, int, str]]], data: st.DataObject
) -> None:
    message, words = sample
    numbers = [n for n, word in enumerate(words) if word[2] == "number"]
    assume(numbers)
    target = data.draw(st.sampled_from(numbers))
    first = data.draw(st.integers(min_value=0, max_value=target))
    last = data.draw(st.integers(min_value=target, max_value=len(words) - 1))
    start, end, _ = words[target]
    digits = [n for n in range(start, end) if message[n].isdigit()]
    at = data.draw(st.sampled_from(digits))
    digit = data.draw(st.sampled_from([d for d in "0123456789" if d != message[at]]))
    changed = message[:at] + digit + message[at + 1 :]
    assume(fold(changed[start:end]) not in fold(message))  # not a number said elsewhere
    piece = changed[words[first][0] : words[last][1]]
    quote = _reflow(piece) if data.draw(st.booleans()) else piece
    check = check_quote(quote, [message])
    assert not check.verbatim, (quote, message)


@pytest.mark.slow
@settings(max_examples=200)
@given(_listy_message(), st.data())
def test_a_quote_whose_ellipsis_drops_a_negation_never_verifies(
    sample: tuple[str, list[tuple[int, int, str]]], data: st.DataObject
) -> None:
    message, words = sample
    inner = [n for n, word in enumerate(words) if word[2] == "negation" and 0 < n < len(words) - 1]
    assume(inner)
    negation = data.draw(st.sampled_from(inner))
    first = data.draw(st.integers(min_value=0, max_value=negation - 1))
    last = data.draw(st.integers(min_value=negation + 1, max_value=len(words) - 1))
    left = message[words[first][0] : words[negation - 1][1]]
    right = message[words[negation + 1][0] : words[last][1]]
    quote = f"{_reflow(left)}… {_reflow(right)}"
    assume(len(fold(left)) >= MIN_PIN_CHARS or len(fold(right)) >= MIN_PIN_CHARS)
    check = check_quote(quote, [message])
    assert not check.verbatim, (quote, message)


@pytest.mark.parametrize(
    ("quote", "message", "skipped"),
    [
        (
            "We deploy on Fridays … the release manager approves it.",
            "We deploy on Fridays only if the release manager approves it.",
            '"only"',
        ),
        (
            "Use the cache for every request … the user is an admin.",
            "Use the cache for every request unless the user is an admin.",
            '"unless"',
        ),
        (
            "All endpoints require auth … the health check endpoint.",
            "All endpoints require auth except the health check endpoint.",
            '"except"',
        ),
        (
            "We will store the events … in MongoDB for now.",
            "We will store the events in Postgres instead of in MongoDB for now.",
            '"instead"',
        ),
        (
            "We will store the events … in MongoDB for now.",
            "We will store the events in Postgres rather than in MongoDB for now.",
            '"rather"',
        ),
        (
            "Wir speichern die Events … in MongoDB.",
            "Wir speichern die Events in Postgres statt in MongoDB.",
            '"statt"',
        ),
        (
            "Мы храним события … MongoDB.",
            "Мы храним события в Postgres вместо MongoDB.",
            '"вmecto"',
        ),
        (
            "We will … deploy the parser on Fridays.",
            "We will \u202eton\u202c deploy the parser on Fridays.",
            "a bidirectional control",
        ),
    ],
)
def test_an_ellipsis_may_not_skip_a_limit_a_condition_or_a_bidi_control(
    quote: str, message: str, skipped: str
) -> None:
    check = check_quote(quote, [message])
    assert not check.verbatim
    assert f"skips {skipped}" in check.reason


def test_an_ellipsis_may_not_skip_a_negation_hidden_by_an_invisible_character() -> None:
    check = check_quote(
        "We will … deploy the parser on Fridays.",
        ["We will n\u200bot deploy the parser on Fridays."],
    )
    assert not check.verbatim
    assert 'skips "not"; an elision may not drop a negation' in check.reason


def test_a_quote_holding_a_bidirectional_control_is_not_verbatim() -> None:
    message = "We will \u202eton\u202c deploy the parser on Fridays."
    check = check_quote(message, [message])
    assert not check.verbatim
    assert "bidirectional control" in check.reason


def test_a_quote_with_invisible_characters_is_a_formatting_difference() -> None:
    check = check_quote(
        "we decided to keep the retry\u200b limit", ["We decided to keep the retry limit."]
    )
    assert check.verbatim


@pytest.mark.parametrize(
    ("quote", "message"),
    [
        ("3 seconds is the timeout", "1e-3 seconds is the timeout"),
        ("6 rows per batch", "1e+6 rows per batch"),
        ("6 rows per batch", "1E+6 rows per batch"),
        ("the timeout is 1e", "the timeout is 1e-3"),
        ("000 workers", "keep 1_000 workers"),
        ("500 users signed up", "we had 1\u2019500 users signed up"),  # Swiss grouping
        ("500 users signed up", "we had 37\u202f500 users signed up"),  # French grouping
        ("500 users signed up", "we had 37\u00a0500 users signed up"),
        ("we had 37", "we had 37\u2009500 users signed up"),  # a thin space
    ],
)
def test_a_quote_never_pins_part_of_a_number_in_scientific_notation(
    quote: str, message: str
) -> None:
    assert not check_quote(quote, [message]).verbatim


@pytest.mark.parametrize(
    "word",
    [
        "WIT\u041dOUT",  # a Cyrillic capital En in a Latin word
        "\u0412ARELY",  # a Cyrillic capital Ve
        "\u041d\u0410\u0433\u0501\u04cf\u0443",  # "НАгԁӏу": wholly Cyrillic, shows "HArdly"
        "\u0397ARDLY",  # a Greek capital Eta
        "\u03b7ot",  # a Greek small Eta shows "n"
        "ne\u03bder",  # a Greek small Nu shows "v"
        "n\u0585t",  # an Armenian small Oh
        "\u0578ever",  # an Armenian small Vo shows "n"
        "\u041d\u0415",  # the Russian "не" in capitals
        "\ua4e0\ua4f3\ua4d4",  # Lisu letters that show "NOT"
        "\u2115\u2c9fT",  # a double-struck N, a Coptic o
        "\u13b3ON'T",  # a Cherokee W
    ],
)
def test_an_ellipsis_may_not_skip_a_negation_spelt_with_capital_or_other_look_alikes(
    word: str,
) -> None:
    _the_ellipsis_may_not_skip(word)


def test_an_ellipsis_may_not_skip_en_or_et_in_a_finnish_message() -> None:
    message = "Me päätimme: en deployaa parseria perjantaisin, koska tämä on riski."
    check = check_quote("Me päätimme: … deployaa parseria perjantaisin", [message])
    assert not check.verbatim
    assert "an elision may not drop a negation" in check.reason
    # in French, "en" is "in": an ellipsis may skip it
    french = "Nous avons décidé de déployer en production le vendredi."
    assert check_quote("Nous avons décidé de déployer… production le vendredi", [french]).verbatim


@pytest.mark.parametrize(
    "word",
    ["once", "when", "as long as", "provided", "in case", "as soon as", "subject to", "只要"],
)
def test_an_ellipsis_may_not_skip_a_condition(word: str) -> None:
    # the words of gitmem.core.conditions: "We deploy on Fridays … QA signs off" is not
    # said by "We deploy on Fridays once QA signs off"
    message = f"We deploy on Fridays {word} QA signs off the build."
    check = check_quote("We deploy on Fridays … QA signs off the build.", [message])
    assert not check.verbatim
    assert "an elision may not drop a limit or a condition" in check.reason


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        ("We might deploy the parser on Fridays.", "We… deploy the parser on Fridays."),
        ("We could maybe deploy the parser on Fridays.", "We… deploy the parser on Fridays."),
        ("We will possibly deploy the parser on Fridays.", "We will… deploy the parser"),
        ("We almost lost the production data last night.", "We… lost the production data"),
        ("We nearly dropped the users table in prod.", "We… dropped the users table in prod."),
        ("Wir deployen vielleicht den Parser am Freitag.", "Wir deployen… den Parser am Freitag."),
        ("Nous allons peut-être déployer le parser vendredi.", "Nous allons… déployer le parser"),
    ],
)
def test_an_ellipsis_may_not_turn_a_possibility_into_a_fact(message: str, quote: str) -> None:
    check = check_quote(quote, [message])
    assert not check.verbatim
    assert "an elision may not turn a possibility into a fact" in check.reason


def test_an_ellipsis_over_other_words_of_a_plain_statement_still_verifies() -> None:
    message = "We decided, after a long talk, to deploy the parser on Fridays."
    assert check_quote("We decided… to deploy the parser on Fridays.", [message]).verbatim


def _the_ellipsis_may_not_skip(word: str) -> None:
    check = check_quote(
        "We will … deploy the parser on Fridays.",
        [f"We will {word} deploy the parser on Fridays."],
    )
    assert not check.verbatim
    assert "an elision may not drop a negation" in check.reason


@pytest.mark.parametrize(
    "word",
    [
        *("inte", "ikke", "aldrig", "değil", "asla", "nem", "soha", "tidak", "jangan"),
        *("không", "chưa", "δεν", "ΔΕΝ", "όχι", "ΟΧΙ", "μην", "لا", "ليس", "לא", "בלי"),
        *("नहीं", "ไม่", "fără", "niciodată"),
        *("nu", "NU", "emme", "ette"),
    ],
)
def test_an_ellipsis_may_not_skip_a_negation_of_another_language(word: str) -> None:
    _the_ellipsis_may_not_skip(word)


@pytest.mark.parametrize(
    ("quote", "message"),
    [
        ("blocking calls in the handler are fine", "non-blocking calls in the handler are fine"),
        ("zero exit codes are errors", "non-zero exit codes are errors"),
        ("this call is thread", "this call is thread-unsafe"),
        ("we want a lock", "we want a lock-free queue"),
        ("merged branches are kept", "un-merged branches are kept"),
        ("we will use … blocking calls", "we will use non-blocking calls"),
    ],
)
def test_a_match_may_not_start_or_end_inside_a_hyphenated_word(quote: str, message: str) -> None:
    assert not check_quote(quote, [message]).verbatim


@pytest.mark.parametrize(
    ("quote", "message"),
    [
        ("zero downtime with blue-green", "We get near-zero downtime with blue-green."),
        ("automatic deploys are on", "semi-automatic deploys are on"),
        ("The deploy script is Linux", "The deploy script is Linux-only for now"),
        ("The tests are safe", "The tests are safe-ish"),
        ("19 cases were logged", "COVID-19 cases were logged"),
        ("we ship v1.2", "we ship v1.2-beta to users"),
        # a dash of another shape is a hyphen once folded; a look-alike letter is its letter
        ("zero downtime with blue-green", "We get near\u2011zero downtime with blue-green"),
        ("zero downtime with blue-green", "We get ne\u0430r-zero downtime with blue-green"),
        ("zero downtime with blue-green", "We get near-\u200bzero downtime with blue-green"),
        # a word wrapped at its hyphen is still one word
        ("zero downtime with blue-green", "We get near-\nzero downtime with blue-green"),
        ("zero downtime with blue-green", "We get near-\r\n   **zero** downtime with blue-green"),
        ("19 cases were logged", "COVID-\n19 cases were logged"),
    ],
)
def test_a_match_may_not_start_or_end_inside_any_hyphenated_word(quote: str, message: str) -> None:
    # A compound is one word and one claim: "zero downtime" is not said by "near-zero
    # downtime", nor "the script is Linux" by "the script is Linux-only".
    assert not check_quote(quote, [message]).verbatim


def test_a_whole_compound_a_range_or_a_quote_that_keeps_the_hyphen_matches() -> None:
    message = "We get near-zero downtime with blue-green deploys on 10-20 hosts"
    for quote in ("near-zero downtime with blue-green", "-zero downtime", "20 hosts"):
        assert check_quote(quote, [message]).verbatim, quote


@pytest.mark.parametrize(
    "quote",
    ["15 users saw errors in checkout", "01-15 users saw errors", "-15 users saw errors"],
)
def test_a_quote_may_not_start_inside_a_date(quote: str) -> None:
    message = "On 2026-01-15 users saw errors in checkout"
    assert not check_quote(quote, [message]).verbatim
    assert check_quote("2026-01-15 users saw errors", [message]).verbatim


def test_a_word_wrapped_at_its_hyphen_is_quoted_whole() -> None:
    message = "We get near-\n  zero downtime with blue-green deploys"
    check = check_quote("near-zero downtime", [message], with_span=True)
    assert check.verbatim and check.span == "near-\n  zero downtime"
    # a list item after a line that ends with a hyphen is no wrapped word
    for item in ("- the plan is set", "1. the plan is set"):
        assert check_quote("the plan is set", [f"we pick plan a-\n{item}"]).verbatim


def test_a_range_or_a_quote_that_keeps_the_hyphen_still_matches() -> None:
    assert check_quote("20 items in stock", ["there are 10-20 items in stock"]).verbatim
    assert check_quote("-based parser is fast", ["the regex-based parser is fast"]).verbatim
    assert check_quote("non-blocking calls are fine", ["use non-blocking calls are fine"]).verbatim
