"""Tests for the quote verifier (gitmem/core/quotes.py); the rules are in docs/verifier.md."""

from __future__ import annotations

import json
import re
import sys
import unicodedata

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from gitmem.core.quotes import (
    MIN_PIN_CHARS,
    FragmentResult,
    QuoteCheck,
    check_quote,
    check_quotes,
    fold,
    split_fragments,
    strip_gitmem_context,
)
from gitmem.core.shown import quoted_line

GITMEM_REASON = (
    "found only inside gitmem's own output (<gitmem-context>), which never counts as evidence"
)
STITCHED_REASON = "found only by joining two messages; a quote must lie inside one message"


# Step 0: gitmem's own output ---------------------------------------------------------


def test_strip_removes_a_span_and_leaves_a_newline_so_words_do_not_join() -> None:
    assert strip_gitmem_context("a<gitmem-context>x</gitmem-context>b") == "a\nb"


def test_strip_matches_tags_case_insensitively_and_with_attributes() -> None:
    text = 'a <GitMem-Context source="brief" n=2>x</GITMEM-CONTEXT > b'
    assert strip_gitmem_context(text) == "a \n b"


def test_strip_counts_nesting() -> None:
    text = "a<gitmem-context>x<gitmem-context>y</gitmem-context>still inside</gitmem-context>b"
    assert strip_gitmem_context(text) == "a\nb"


def test_strip_runs_an_unterminated_span_to_the_end_of_the_message() -> None:
    assert strip_gitmem_context("a<gitmem-context>x\ny\nz") == "a\n"


def test_strip_removes_a_stray_close_tag_on_its_own() -> None:
    assert strip_gitmem_context("a</gitmem-context>b") == "a\nb"


def test_strip_removes_a_self_closing_tag_without_opening_a_span() -> None:
    assert strip_gitmem_context("a<gitmem-context/>b") == "a\nb"


def test_strip_leaves_similar_tags_and_plain_text_alone() -> None:
    text = "a <gitmem-contextual>x</gitmem-contextual> <context> b"
    assert strip_gitmem_context(text) == text
    assert strip_gitmem_context("") == ""


def test_fold_does_not_strip_gitmem_context() -> None:
    assert "gitmem-context" in fold("<gitmem-context>x</gitmem-context>")


# Step 1: characters ------------------------------------------------------------------


@pytest.mark.parametrize("char", "‘’‚‛")
def test_fold_straightens_single_quotes(char: str) -> None:
    assert fold(f"it{char}s") == "it's"


@pytest.mark.parametrize("char", "“”„‟")
def test_fold_straightens_double_quotes(char: str) -> None:
    assert fold(f"{char}hi{char}") == '"hi"'


@pytest.mark.parametrize("char", "‐‑‒–—―−")
def test_fold_turns_dash_variants_into_hyphens(char: str) -> None:
    assert fold(f"a{char}b") == "a-b"


def test_fold_turns_every_unicode_space_and_line_break_into_one_space() -> None:
    spaces = [
        char
        for char in map(chr, range(sys.maxunicode + 1))
        if char.isspace() or unicodedata.category(char) == "Zs"
    ]
    assert "\u00a0" in spaces and "\t" in spaces and "\u3000" in spaces
    for char in spaces:
        assert fold(f"a{char}b") == "a b", hex(ord(char))


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r", "\u2028"])
def test_fold_treats_every_line_break_as_a_line_start(newline: str) -> None:
    assert fold(f"intro{newline}- item") == "intro item"


# Step 2: block markers at the start of a line -----------------------------------------


@pytest.mark.parametrize(
    "line", ["- item", "* item", "+ item", "1. item", "12. item", "1) item", "   - item"]
)
def test_fold_removes_list_markers_at_line_start(line: str) -> None:
    assert fold(f"intro\n{line}") == "intro item"
    assert fold(line) == "item"


@pytest.mark.parametrize("line", ["> item", ">item", "# item", "### item", "> - item", "\t- item"])
def test_fold_removes_blockquote_and_heading_markers_at_line_start(line: str) -> None:
    assert fold(f"intro\n{line}") == "intro item"


def test_fold_keeps_markers_in_the_middle_of_a_line() -> None:
    assert fold("a - b + c 1) d > e # f") == "a - b + c 1) d > e # f"


def test_fold_keeps_a_number_followed_by_a_period_mid_sentence() -> None:
    assert (
        fold("we shipped version 2. Then we moved on") == "we shipped version 2. then we moved on"
    )
    check = check_quote("version 2. Then we", ["we shipped version 2. Then we moved on"])
    assert check.verbatim, check.reason


def test_fold_keeps_line_start_text_that_only_looks_like_a_marker() -> None:
    assert fold("2.0 is out\n#60 is merged\n-v flag\n####### seven") == (
        "2.0 is out #60 is merged -v flag ####### seven"
    )


# Step 3: emphasis and code markers --------------------------------------------------


def test_fold_removes_every_star_and_backtick() -> None:
    assert fold("**bold** *it* `code` ```py") == "bold it code py"


def test_fold_removes_strikethrough_but_keeps_a_single_tilde() -> None:
    assert fold("~~old~~ about ~5 ms") == "old about ~5 ms"


def test_fold_keeps_underscores_between_word_characters() -> None:
    assert fold("snake_case_name a__b x_1 naïve_name 名前_変数") == (
        "snake_case_name a__b x_1 naïve_name 名前_変数"
    )
    assert fold("snake_`case` **snake**_case") == "snake_case snake_case"


def test_fold_removes_underscores_used_as_emphasis() -> None:
    assert fold("_word_ __bold__ __init__ trailing_ _leading") == "word bold init trailing leading"


# Steps 4 and 5 -----------------------------------------------------------------------


def test_fold_collapses_whitespace_runs_and_trims() -> None:
    assert fold("  a \n\n\t b  ") == "a b"


def test_fold_case_folds() -> None:
    assert fold("STRASSE") == fold("Straße") == "strasse"


@pytest.mark.parametrize("text", ["`-` foo", "İ_a", "1.\nfoo", "~_~", "a\n> > - b", "*1.* x"])
def test_fold_is_idempotent_on_known_tricky_inputs(text: str) -> None:
    assert fold(fold(text)) == fold(text)


@settings(max_examples=200)
@given(st.text())
def test_fold_is_idempotent(text: str) -> None:
    folded = fold(text)
    assert fold(folded) == folded
    assert folded == folded.strip() and "  " not in folded
    assert not set(folded) & set("*`\n\t\u00a0’“—")


def test_adversarial_input_stays_linear() -> None:
    # A regex that backtracks on these would hang here; the timing lives in
    # benchmarks/bench_verifier.py, not in a timed assertion.
    text = "<gitmem-context " * 20_000 + "_a_" * 20_000 + "~" * 20_000 + "\n- " * 20_000
    assert not check_quote("not in there at all", [text]).verbatim
    lines = "## User" + " " * 50_000 + "(" * 50_000 + "x\n" + "_" * 50_000 + "user said" * 20_000
    message = f"we will deploy the parser\n{lines}\non Fridays the queue is quiet"
    assert check_quote("we will deploy the parser… on Fridays the queue", [message]).verbatim


# Fragments ---------------------------------------------------------------------------


def test_split_fragments_cuts_at_ellipses_and_drops_empty_ones() -> None:
    assert split_fragments("a … b... c.... d") == ["a", "b", "c", "d"]
    assert split_fragments("…start … ** … end...") == ["start", "end"]
    assert split_fragments("two.. dots") == ["two.. dots"]
    assert split_fragments("... … ....") == []


def test_fragments_in_order_verify() -> None:
    check = check_quote(
        "we agreed… to ship the parser… on friday",
        "we agreed, after a long talk, to ship the parser next week, on friday",
    )
    assert check.verbatim
    assert check.reason == "all 3 fragments found in order in message 0"
    assert [f.offset for f in check.fragments] == [0, 30, 60]


def test_fragments_out_of_order_fail() -> None:
    check = check_quote("to ship the parser… we agreed", ["we agreed to ship the parser"])
    assert not check.verbatim
    assert check.reason == 'fragment 2 of 2 not found after fragment 1: "we agreed"'
    assert [f.found for f in check.fragments] == [True, False]


def test_overlapping_fragments_fail_and_repeated_words_need_two_occurrences() -> None:
    quote = "ship the parser… ship the parser"
    assert not check_quote(quote, ["we will ship the parser"]).verbatim
    assert not check_quote("ship the parser… the parser today", ["ship the parser today"]).verbatim
    check = check_quote(quote, ["ship the parser, then ship the parser again"])
    assert check.verbatim
    assert [f.offset for f in check.fragments] == [0, 22]


def test_an_invented_short_fragment_fails() -> None:
    transcript = "we agreed, after all, to ship the parser on friday"
    check = check_quote("we agreed… yes… to ship the parser on friday", [transcript])
    assert not check.verbatim
    assert check.reason == 'fragment 2 of 3 not found after fragment 1: "yes"'
    real = check_quote("we agreed… all… to ship the parser on friday", [transcript])
    assert real.verbatim
    assert [f.pins for f in real.fragments] == [True, False, True]


def test_a_quote_of_only_short_fragments_is_too_generic_even_when_found() -> None:
    check = check_quote("agreed… to ship", ["we agreed to ship"])
    assert not check.verbatim
    assert check.reason == "too generic: no fragment has 8 or more characters after folding"
    assert all(f.found and not f.pins for f in check.fragments)


def test_a_whole_quote_under_eight_characters_is_too_generic() -> None:
    check = check_quote("`Ship` IT", ["ship it"])
    assert not check.verbatim
    assert check.reason.startswith("too generic")
    assert check_quote("ship it!", ["ship it!"]).verbatim  # exactly 8 pins


def test_min_pin_chars_is_eight() -> None:
    assert MIN_PIN_CHARS == 8


# Word boundaries ---------------------------------------------------------------------


def test_a_match_may_not_start_inside_a_word() -> None:
    assert not check_quote("37 is the open port", ["port 137 is the open port"]).verbatim
    assert check_quote("37 is the open port", ["port 37 is the open port"]).verbatim


def test_a_match_may_not_end_inside_a_word() -> None:
    assert not check_quote("deploy to prod", ["deploy to production"]).verbatim
    assert check_quote("deploy to prod", ["deploy to prod, then stop"]).verbatim


def test_the_search_skips_a_match_on_a_bad_boundary_and_keeps_looking() -> None:
    check = check_quote("open port 37", ["open port 377, later open port 37."])
    assert check.verbatim
    assert check.fragments[0].offset == 21


def test_edges_that_are_not_word_characters_are_not_checked() -> None:
    assert check_quote("-based parser", ["a regex-based parser"]).verbatim


# Transcript text and markdown ----------------------------------------------------------


def test_a_quote_matches_across_markdown_curly_quotes_dashes_and_case() -> None:
    transcript = "Status:\n- We **decided** to use `snake_case_name` — it’s “final”"
    assert check_quote('we decided to use snake_case_name - it\'s "FINAL"', transcript).verbatim


# gitmem's own output ----------------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        "intro <gitmem-context>PR #60 awaiting review</gitmem-context> outro",
        'intro <gitmem-context source="brief">PR #60 awaiting review</gitmem-context>',
        "intro <gitmem-context>\n- PR #60 awaiting review\nand so on",
        "<gitmem-context><gitmem-context>x</gitmem-context>PR #60 awaiting review</gitmem-context>",
    ],
)
def test_a_quote_only_inside_gitmem_context_fails_with_its_own_reason(message: str) -> None:
    check = check_quote("PR #60 awaiting review", ["hello", message])
    assert not check.verbatim
    assert check.reason == GITMEM_REASON
    assert check.message_index is None


def test_a_quote_also_said_outside_gitmem_context_verifies() -> None:
    message = "<gitmem-context>PR #60 awaiting review</gitmem-context> yes, PR #60 awaiting review"
    assert check_quote("PR #60 awaiting review", [message]).verbatim


def test_a_quote_that_is_only_gitmem_context_is_not_evidence() -> None:
    check = check_quote("<gitmem-context>PR #60 awaiting review</gitmem-context>", ["x"])
    assert not check.verbatim
    assert "gitmem's own output" in check.reason


# Messages ----------------------------------------------------------------------------


def test_a_quote_stitched_across_two_messages_fails_with_its_own_reason() -> None:
    check = check_quote("ship the parser on friday", ["we will ship the", "parser on friday"])
    assert not check.verbatim
    assert check.reason == STITCHED_REASON


def test_fragments_spread_over_two_messages_fail_as_stitched() -> None:
    check = check_quote("we agreed today… ship on friday", ["we agreed today", "ship on friday"])
    assert check.reason == STITCHED_REASON


def test_the_first_message_that_fully_matches_is_reported() -> None:
    messages = ["nothing here", "ship the parser", "ship the parser again"]
    check = check_quote("ship the parser", messages)
    assert check.verbatim
    assert check.message_index == 1
    assert check.reason == "found in message 1"


def test_a_failure_reports_the_message_that_got_furthest() -> None:
    messages = ["we agreed today", "we agreed today and then to ship", "unrelated"]
    check = check_quote("we agreed today… to ship… on friday evening", messages)
    assert not check.verbatim
    assert check.message_index is None
    assert [f.found for f in check.fragments] == [True, True, False]
    assert check.fragments[1].offset == 25
    assert check.reason == (
        'fragment 3 of 3 not found after fragment 2: "on friday evening" (closest: message 1)'
    )


def test_a_failure_reports_the_first_of_the_messages_that_got_equally_far() -> None:
    messages = ["we agreed today", "unrelated", "so we agreed today"]
    check = check_quote("we agreed today… on friday evening", messages)
    assert check.reason.endswith("(closest: message 0)")
    assert check.fragments[0].offset == 0


def test_a_plain_string_is_one_message() -> None:
    assert check_quote("ship the parser", "we ship the parser").message_index == 0


def test_check_quotes_checks_each_quote_against_one_transcript() -> None:
    results = check_quotes(["ship the parser", "not said at all"], ["we ship the parser"])
    assert [result.verbatim for result in results] == [True, False]
    assert results[1].reason == 'not found in any message: "not said at all"'


# Odd input ---------------------------------------------------------------------------


@pytest.mark.parametrize("quote", ["", "   ", "...", "…", "… …", "** __ ``"])
def test_an_empty_quote_is_not_verbatim(quote: str) -> None:
    check = check_quote(quote, ["anything at all"])
    assert check == QuoteCheck(False, "the quote is empty", (), None)


@pytest.mark.parametrize(
    ("quote", "messages"),
    [
        ("🎉🎉🎉🎉🎉🎉🎉🎉", ["🎉🎉🎉🎉🎉🎉🎉🎉"]),
        ("…", []),
        ("a long enough quote", []),
        ("x", [""]),
    ],
)
def test_odd_input_never_raises(quote: str, messages: list[str]) -> None:
    check_quote(quote, messages)


def test_emoji_quotes_verify() -> None:
    assert check_quote("🎉🎉🎉🎉🎉🎉🎉🎉", ["party 🎉🎉🎉🎉🎉🎉🎉🎉"]).verbatim


@settings(max_examples=200)
@given(st.text(), st.lists(st.text(), max_size=3))
def test_check_quote_never_raises(quote: str, messages: list[str]) -> None:
    check = check_quote(quote, messages)
    assert check.verbatim == (check.message_index is not None)


# Any piece of a message verifies -----------------------------------------------------

_WORDS = st.sampled_from(
    [
        *("we", "agreed", "ship", "parser", "Friday", "port", "137", "snake_case_name"),
        *("café", "Straße", "İstanbul", "v2", "it", "s", "PR", "#60", "naïve"),
    ]
)
_SEPARATORS = st.sampled_from(
    [
        *(" ", "  ", "\n", ", ", ". ", " — ", "\u00a0", "’", " “", "” ", "\t", "\r\n", "-"),
        *(": ", "/", "\n- ", "\n> ", "\n## ", "\n  * "),
    ]
)
_WRAPPERS = st.sampled_from(["{}", "{}", "{}", "**{}**", "*{}*", "`{}`", "_{}_", "~~{}~~"])


@st.composite
def _messages(draw: st.DrawFn) -> str:
    parts: list[str] = []
    for _ in range(draw(st.integers(min_value=2, max_value=25))):
        parts.append(draw(_WRAPPERS).format(draw(_WORDS)))
        parts.append(draw(_SEPARATORS))
    return "".join(parts)


@settings(max_examples=200)
@given(_messages(), st.data())
def test_any_piece_cut_at_word_boundaries_verifies(message: str, data: st.DataObject) -> None:
    # A word joined to the next by a hyphen, past emphasis, is one word with it
    # ("near-zero", "near-**zero**").
    words = list(re.finditer(r"\w+(?:[*`_~]*-[*`_~]*\w+)*", message))
    first = data.draw(st.integers(min_value=0, max_value=len(words) - 1))
    last = data.draw(st.integers(min_value=first, max_value=len(words) - 1))
    piece = message[words[first].start() : words[last].end()]
    assume(len(fold(piece)) >= MIN_PIN_CHARS)
    check = check_quote(piece, ["unrelated words", message])
    assert check.verbatim, (piece, check.reason)
    assert check.message_index == 1


# Shapes ------------------------------------------------------------------------------


def test_fragment_result_to_dict_shape() -> None:
    result = FragmentResult(text="We agreed", folded="we agreed", pins=True, found=True, offset=3)
    assert result.to_dict() == {
        "text": "We agreed",
        "folded": "we agreed",
        "pins": True,
        "found": True,
        "offset": 3,
    }


def test_quote_check_to_dict_shape_is_json_ready() -> None:
    check = check_quote("We agreed… to ship… on friday", ["so we agreed to ship"])
    data = check.to_dict()
    assert list(data) == ["verbatim", "reason", "fragments", "message"]
    assert data["verbatim"] is False
    assert data["message"] is None
    assert data["fragments"] == [f.to_dict() for f in check.fragments]
    assert json.loads(json.dumps(data)) == data
    passed = check_quote("we agreed to ship", ["so we agreed to ship"]).to_dict()
    assert passed["message"] == 0 and passed["verbatim"] is True


def test_results_are_frozen() -> None:
    check = check_quote("we agreed to ship", ["we agreed to ship"])
    with pytest.raises(AttributeError):
        check.verbatim = False  # type: ignore[misc]


@pytest.mark.parametrize(
    ("quote", "message"),
    [
        ("The table holds 10 rows", "The table holds 10^6 rows"),
        ("the meeting starts at 10 sharp", "the meeting starts at 10:30 sharp"),
        ("we sent exactly 3 of them", "we sent exactly 3/4 of them"),
        ("The table holds 10", "The table holds 10^6 rows"),
        ("the screen ratio is 16", "the screen ratio is 16:9 now"),
    ],
)
def test_a_quote_does_not_pin_a_number_a_time_a_fraction_or_a_power_cuts(
    quote: str, message: str
) -> None:
    assert not check_quote(quote, [message]).verbatim
    assert check_quote(message, [message]).verbatim


@pytest.mark.parametrize(
    ("quote", "message"),
    [
        # A combining mark belongs to the letter before it: "prod" is not "prod́uction",
        # "cafe" is not "café" (written decomposed), nor is "\u0301ction" a word's start.
        ("we deploy to prod", "we deploy to prod\u0301uction on Fridays"),
        ("we meet at the cafe", "we meet at the cafe\u0301 on Fridays"),
        ("\u0301uction on Fridays", "we deploy to prod\u0301uction on Fridays"),
    ],
)
def test_a_match_does_not_start_or_end_beside_a_combining_mark(quote: str, message: str) -> None:
    assert not check_quote(quote, [message]).verbatim


def test_a_quote_that_keeps_the_combining_mark_verifies() -> None:
    message = "we meet at the cafe\u0301 on Fridays"
    assert check_quote("we meet at the cafe\u0301", [message]).verbatim


@pytest.mark.parametrize("line", [">500 ms is a failure", ">=500 ms is a failure"])
def test_a_greater_than_sign_before_a_number_at_line_start_is_text(line: str) -> None:
    # ">500 ms" says "more than 500 ms": read as a blockquote marker, the quote "500 ms is
    # a failure" would verify and be stored without its ">".
    assert fold(f"Latency budget:\n{line}") == f"latency budget: {line}"
    assert not check_quote("500 ms is a failure", [f"Latency budget:\n{line}"]).verbatim
    assert check_quote(line, [f"Latency budget:\n{line}"]).verbatim


@pytest.mark.parametrize(
    "transcript",
    [
        "User: We will deploy the parser next week\nAssistant: on Fridays the queue is quiet",
        "**Human:** We will deploy the parser next week\n**Claude:** on Fridays the queue is quiet",
        # a chat export's labels
        "You: We will deploy the parser next week\nChatGPT: on Fridays the queue is quiet",
        "Me: We will deploy the parser next week\nAI: on Fridays the queue is quiet",
        "ChatGPT: We will deploy the parser next week\nYou: on Fridays the queue is quiet",
        # a time in brackets before the colon, a model's name
        "User (10:02): We will deploy the parser next week\nAssistant (10:03): on Fridays the"
        " queue is quiet",
        "Me: We will deploy the parser next week\nGPT-4o: on Fridays the queue is quiet",
        "Me: We will deploy the parser next week\n\n## GPT-4o\n\non Fridays the queue is quiet",
    ],
)
def test_an_ellipsis_may_not_join_two_speakers_of_a_plain_transcript(transcript: str) -> None:
    check = check_quote("We will deploy the parser… on Fridays the queue is quiet", [transcript])
    assert not check.verbatim
    assert "speaker" in check.reason
    assert check_quote("on Fridays the queue is quiet", [transcript]).verbatim


class TestQuotedLine:
    """An item's line shows its text and its quote, the quote alone when the text only
    restates it (the brief's room is spent once)."""

    def test_a_text_that_summarises_keeps_both(self) -> None:
        line = quoted_line("Keep requests, not httpx", "we keep requests; no httpx")
        assert line == 'Keep requests, not httpx — "we keep requests; no httpx"'

    @pytest.mark.parametrize(
        ("text", "quote"),
        [
            ("Make sure it's in Project: Troy", "make sure it's in Project: Troy"),
            ("Session ID: now uses uuidgen", "**Session ID**: now uses `uuidgen`"),
            ("The cache is “warm” now", 'The  cache is "warm"\nnow'),
            (
                "The parser drops blank lines before…",
                "The parser drops blank lines before it tokenises.",
            ),
            (
                "The parser drops blank lines before...",
                "The parser drops blank lines before it tokenises.",
            ),
            # the transcript's own three dots, stored in the verified quote as an elision
            ("Run `ln -s ... ~/x` once", "Run `ln -s … ~/x` once"),
            ("Run `ln -s … ~/x` once. Then…", "Run `ln -s ... ~/x` once. Then restart."),
            # the text is the quote without the label it opens with
            ("Keep requests for the HTTP client.", "Decision: keep requests for the HTTP client."),
            ("Add a test for empty input", "**TODO:** add a test for empty input"),
            ("Keep requests", "Decision 2: keep requests"),
            ("The parser drops blank lines…", "Next step: the parser drops blank lines first."),
        ],
    )
    def test_a_text_that_restates_its_quote_shows_the_quote_alone(
        self, text: str, quote: str
    ) -> None:
        assert quoted_line(text, quote) == '"' + " ".join(quote.split()) + '"'

    @pytest.mark.parametrize(
        ("text", "quote"),
        [
            # a cut text must be the quote's own start
            ("The parser keeps blank lines…", "The parser drops blank lines before it tokenises."),
            # a start too short to say what it restates is not taken as the quote's
            ("The…", "The parser drops blank lines."),
            # one word more or less is a different text
            ("Use the parser", "use the new parser"),
            # an ellipsis that stands for words is not the words
            ("Run `ln -s … ~/x` once", "Run `ln -s /opt/tool ~/x` once"),
            # a label is left out only at the quote's start, and only a label
            ("Keep requests", "We agreed, decision: keep requests"),
            ("keep requests", "Options: httpx, or keep requests"),
        ],
    )
    def test_a_text_that_differs_keeps_both(self, text: str, quote: str) -> None:
        assert quoted_line(text, quote) == f'{text} — "{quote}"'

    def test_no_quote_is_the_text(self) -> None:
        assert quoted_line("Module 3 is stable", None) == "Module 3 is stable"


@pytest.mark.parametrize(
    "transcript",
    [
        "## User\nWe will deploy the parser next week\n\n## Assistant\n{}",
        "### Human\n\nWe will deploy the parser next week\n### Claude\n{}",
        "_**User**_\n\nWe will deploy the parser next week\n\n---\n\n_**Assistant**_\n\n{}",
        "**User**\nWe will deploy the parser next week\n**Assistant**\n{}",
        "> ## Copilot\n> We will deploy the parser next week\n\n# USER\n{}",
    ],
)
def test_an_ellipsis_may_not_skip_a_speakers_label_written_as_a_line_of_its_own(
    transcript: str,
) -> None:
    transcript = transcript.format("on Fridays the queue is quiet")
    quote = "We will deploy the parser… on Fridays the queue is quiet"
    check = check_quote(quote, [transcript])
    assert not check.verbatim
    assert "an elision may not join two speakers' words" in check.reason
    assert check_quote("on Fridays the queue is quiet", [transcript]).verbatim
    # A later pair of the same words, inside one turn, still verifies.
    again = f"{transcript}\nWe will deploy the parser, and on Fridays the queue is quiet"
    assert check_quote(quote, [again]).verbatim


def test_a_heading_that_only_mentions_a_speaker_is_no_label() -> None:
    message = "## User guide\nWe will deploy the parser next week; on Fridays the queue is quiet"
    assert check_quote(
        "We will deploy the parser… on Fridays the queue is quiet", [message]
    ).verbatim


def test_a_check_folds_the_messages_only_as_far_as_it_reads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Messages are folded as a check reaches them: quotes found early fold few of a long
    session's messages, and the answers (and a failure's explanation, which reads them
    all) are the ones an eager fold gives."""
    import gitmem.core.quotes as quotes

    folded: list[str] = []
    real = quotes.MessageView

    def counted(raw: str) -> object:
        folded.append(raw)
        return real(raw)

    messages = [f"Message {n}: we keep the parser number {n} as it is." for n in range(40)]
    eager = check_quotes(["the parser number 2 as it", "parser number 39 as"], messages)
    monkeypatch.setattr(quotes, "MessageView", counted)
    early = check_quotes(["we keep the parser number 1 as it is"], messages)
    assert early[0].verbatim and early[0].message_index == 1 and len(folded) == 2
    lazy = check_quotes(["the parser number 2 as it", "parser number 39 as"], messages)
    assert lazy == eager and len(folded) == 2 + 40
    missing = check_quotes(["the parser number 77 as it"], messages)
    assert not missing[0].verbatim and "not found in any message" in missing[0].reason
