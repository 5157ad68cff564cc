"""Tests for gitmem.core.folding: fold_map folds exactly as fold does, and says where
each folded character and each list item came from. fold itself is tested in
tests/test_verifier.py."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitmem.core import folding
from gitmem.core.folding import BULLET, fold, fold_map, list_label

MARKDOWN = st.text(alphabet="ab1 _*`~-+#>.)\n\r\t\u00a0’—İß", max_size=60)


@settings(max_examples=200)
@given(st.one_of(st.text(), MARKDOWN))
def test_fold_map_folds_as_fold_does(text: str) -> None:
    mapped = fold_map(text)
    assert mapped.folded == fold(text)
    assert len(mapped.origin) == len(mapped.folded)
    assert list(mapped.origin) == sorted(mapped.origin)
    assert all(0 <= n < len(text) for n in mapped.origin)
    for at in mapped.markers:
        assert 0 <= at < len(mapped.folded)


LINES = st.text(alphabet="ab1 _*`~-+#>.)\n\n\n\r\t\u00a0’—İß\u2028", max_size=80)


@settings(max_examples=300)
@given(st.one_of(st.text(), MARKDOWN, LINES), st.integers(min_value=1, max_value=12))
def test_a_long_text_folds_in_pieces_as_it_folds_whole(text: str, size: int) -> None:
    # fold works a piece at a time past a megabyte: cut after any line feed, with space
    # runs and blank pieces at the seams, the pieces must give the whole text's fold.
    from gitmem.core.folding import _fold_pieces

    assert _fold_pieces(text, size) == fold(text)


def test_fold_cuts_a_long_text_into_pieces_at_line_feeds(monkeypatch: pytest.MonkeyPatch) -> None:
    from gitmem.core import folding as f

    text = "- **One** item  \r\n\n  2. `two`  \n> __three__ ~~x~~\n   \n"
    whole = fold(text)
    monkeypatch.setattr(f, "_PIECE", 4)
    assert fold(text) == whole == "one item two three x"


def listed_origin(raw: str) -> list[int]:
    """The origin map as one int per character, the way fold_map kept it before it kept
    runs: the reference the runs must give back, character by character."""
    import re

    from gitmem.core import folding as f

    text = raw.casefold()
    origin = [n for n, char in enumerate(raw) for _ in char.casefold()]

    def delete(matches: object) -> None:
        nonlocal text, origin
        kept_text, kept_origin, pos = [], [], 0
        for match in matches:  # type: ignore[attr-defined]
            kept_text.append(text[pos : match.start()])
            kept_origin += origin[pos : match.start()]
            pos = match.end()
        text, origin = "".join([*kept_text, text[pos:]]), kept_origin + origin[pos:]

    delete(re.finditer(r"\r(?=\n)", text))
    for old, new in f._REPLACEMENTS:
        text = text.replace(old, new)
    delete(list(f.INVISIBLE_RE.finditer(text)))
    delete(list(f._WRAPPED_RE.finditer(text)))
    for pattern in (f._STAR_TICK_RE, f._EMPHASIS_UNDERSCORE_RE, f._STRIKE_RE):
        delete(list(pattern.finditer(text)))
    delete(list(f._LINE_MARKERS_RE.finditer(text)))
    text = text.replace("\n", " ")
    delete(list(f._EXTRA_SPACES_RE.finditer(text)))
    return origin


@settings(max_examples=300)
@given(st.one_of(st.text(), MARKDOWN))
def test_the_origin_runs_give_each_characters_raw_offset(text: str) -> None:
    mapped = fold_map(text)
    assert list(mapped.origin) == listed_origin(text)
    if mapped.origin:
        assert mapped.origin[-1] == listed_origin(text)[-1]


def test_origin_points_at_the_raw_character() -> None:
    raw = "- **We** DECIDED\r\nto use `x`"
    mapped = fold_map(raw)
    assert mapped.folded == "we decided to use x"
    assert [raw[n] for n in mapped.origin] == list("We DECIDED\nto use x")


def test_a_case_fold_expansion_maps_to_its_one_raw_character() -> None:
    mapped = fold_map("Straße ok")
    assert mapped.folded == "strasse ok"
    assert mapped.origin[4] == mapped.origin[5] == 4


@pytest.mark.parametrize(
    ("line", "label"),
    [("- a", BULLET), ("+ a", BULLET), ("* a", BULLET), ("1. a", "1"), ("12) a", "12")],
)
def test_markers_record_each_list_item_start(line: str, label: str) -> None:
    mapped = fold_map(f"intro\n{line}\n  {line}\n> {line}")
    assert mapped.folded == "intro a a a"
    assert mapped.markers == {6: label, 8: label, 10: label}


def test_markers_see_through_emphasis_at_the_item_start() -> None:
    assert fold_map("intro\n- **bold** item").markers == {6: BULLET}
    # fold removes "*" first, so "**3. Test**" starts a numbered item too.
    assert fold_map("intro\n**3. Test** gap").markers == {6: "3"}


@pytest.mark.parametrize(
    "text", ["a - b", "intro\n# heading", "intro\n> quoted", "intro\n-\nnext", "x\n2.0 is out"]
)
def test_no_marker_where_no_list_item_starts_a_line(text: str) -> None:
    assert fold_map(text).markers == {}


def test_list_label_compares_numbers_by_value_and_bullets_as_one() -> None:
    assert list_label("01.") == list_label("1)") == "1"
    assert list_label("-") == list_label("+") == list_label("*") == BULLET


def test_raw_span_widens_over_the_markup_that_hugs_it() -> None:
    raw = "- We **decided** to use `snake_case_name` — it’s “final”"
    mapped = fold_map(raw)
    start = mapped.folded.index("decided")
    end = mapped.folded.index("name") + len("name")
    assert mapped.raw_span(start, end) == "**decided** to use `snake_case_name`"
    assert mapped.raw_span(0, len(mapped.folded)) == raw[2:]


@pytest.mark.parametrize(
    "hidden", ["\u200b", "\u00ad", "\u2060", "\ufeff", "\u200d", "\u200e", "\U000e0041"]
)
def test_a_character_that_shows_nothing_is_folded_away(hidden: str) -> None:
    # "n\u200bot" shows "not", and must read as "not" to every rule after folding
    assert fold(f"We will n{hidden}ot deploy") == "we will not deploy"
    mapped = fold_map(f"We will n{hidden}ot deploy")
    assert mapped.folded == "we will not deploy"
    assert mapped.raw_span(8, 11) == f"n{hidden}ot"


def test_a_bidirectional_control_folds_to_a_stand_in_no_word_holds() -> None:
    assert fold("we will \u202eton\u202c deploy") == "we will \ufffdton\ufffd deploy"


CYRILLIC_O = "\u043e"


@pytest.mark.parametrize(
    ("disguised", "shown"),
    [
        (f"n{CYRILLIC_O}t", "not"),  # a Cyrillic "о"
        ("\u039d\u039f\u03a4", "not"),  # Greek capitals Nu, Omicron, Tau: "NOT"
        ("\uff4e\uff4f\uff54", "not"),  # fullwidth
        ("\U0001d427\U0001d428\U0001d42d", "not"),  # mathematical bold
        ("\u0274\u1d0f\u1d1b", "not"),  # small capitals
        ("\u0131f", "if"),  # a dotless i
        ("\uff15 ms\uff1f", "5 ms?"),
    ],
)
def test_a_look_alike_letter_folds_to_the_letter_it_shows(disguised: str, shown: str) -> None:
    assert fold(disguised) == shown
    assert fold_map(disguised).folded == shown
    assert fold(fold(disguised)) == fold(disguised)


LOOK_ALIKES = st.text(
    alphabet="ab1 _*`.\n\u043e\u0435\u0430\u041d\u039d\u039f\u03bd\u03bf\uff4e\uff3f\uff0a"
    "\U0001d427\u0274\u0131\u0130\u00df",
    max_size=40,
)


@settings(max_examples=200)
@given(LOOK_ALIKES)
def test_fold_map_folds_look_alikes_as_fold_does_and_fold_is_idempotent(text: str) -> None:
    mapped = fold_map(text)
    assert mapped.folded == fold(text)
    assert list(mapped.origin) == sorted(mapped.origin)
    assert fold(mapped.folded) == mapped.folded


@pytest.mark.parametrize(
    ("disguised", "shown"),
    [
        ("WIT\u041dOUT", "without"),  # a Cyrillic capital En shows "H"
        ("\u0412ARELY", "barely"),  # a Cyrillic capital Ve shows "B"
        ("NOT\u041dING", "nothing"),
        ("\u0397ARDLY", "hardly"),  # a Greek capital Eta shows "H"
        ("\u039cUSTN'T", "mustn't"),  # a Greek capital Mu shows "M"
        ("\u03a5ES", "yes"),  # a Greek capital Upsilon shows "Y"
        ("\u03b7ot", "not"),  # a small Eta shows "n"
        ("ne\u03bder", "never"),  # a small Nu shows "v"
        ("\u03c5nless", "unless"),  # a small Upsilon shows "u"
        ("n\u03c3t", "not"),  # a small sigma shows "o"
        ("\u03b3es", "yes"),  # a small gamma shows "y"
        ("\u0433ather", "rather"),  # a Cyrillic small Ghe shows "r"
        ("\u0461on't", "won't"),  # a Cyrillic small omega shows "w"
        ("\u03f2annot", "cannot"),  # a lunate sigma shows "c"
        ("\u03f9ANNOT", "cannot"),
        ("\u0405\u0399N", "sin"),  # Cyrillic Dze, Greek Iota, Latin N
    ],
)
def test_a_capital_or_small_look_alike_folds_to_the_letter_it_shows(
    disguised: str, shown: str
) -> None:
    assert fold(disguised) == shown
    assert fold_map(disguised).folded == shown
    assert fold(fold(disguised)) == fold(disguised)


@pytest.mark.parametrize(
    ("disguised", "shown"),
    [
        ("\ua4e0\ua4f3\ua4d4", "not"),  # Lisu NA, O, TA: "NOT"
        ("\u13b3ITHOUT", "without"),  # a Cherokee capital that shows "W"
        ("\uab83ithout", "without"),  # its small letter, which folds to the capital
        ("\u13a5f", "if"),  # a Cherokee "i"
        ("\u2115\u2c9ft", "not"),  # a double-struck N, a Coptic o
        ("\u2110F", "if"),  # a script capital I reads "i", as "I" does
        ("\u144cnless", "unless"),  # a Canadian syllabic that shows "U"
        ("\U000118a3ONG", "long"),  # a Warang Citi capital that shows "L" (its small: "i")
        ("\U0001d6b4\U0001d6b6\U0001d6bb", "not"),  # mathematical bold Greek capitals
    ],
)
def test_a_letter_of_another_script_that_shows_a_latin_one_folds_to_it(
    disguised: str, shown: str
) -> None:
    assert fold(disguised) == shown
    assert fold_map(disguised).folded == shown
    assert fold(fold(disguised)) == fold(disguised)


def test_digits_signs_and_the_letters_of_read_languages_are_not_look_alikes() -> None:
    # "×" is a sign of a number, a Devanagari zero a digit, a Thai or Georgian letter a
    # letter of a word: none is read as a Latin letter.
    for text in ("16\u00d79", "\u0966", "\u0e50", "\u10e7\u10d0", "\u0928\u0939\u0940\u0902"):
        assert fold(text) == text.casefold()


@pytest.mark.parametrize(
    "word", ["\u041d\u0415", "\u041d\u0415\u0422", "\u041d\u0418\u041a\u041e\u0413\u0414\u0410"]
)
def test_a_russian_word_in_capitals_keeps_its_letters(word: str) -> None:
    # "НЕ" ("not") shows "HE" in capitals, but a word written wholly in Cyrillic is
    # Russian: its En stays an En, so it is still the negation it is in small letters.
    assert fold(word) == fold(word.lower())


def test_a_space_that_groups_digits_folds_to_an_underscore_that_joins_them() -> None:
    # "37 500" with a no-break, narrow no-break or thin space is one number (French and SI
    # grouping); any other space, or one beside a letter, is a space.
    for space in "\u00a0\u202f\u2009":
        assert fold(f"We had 37{space}500 users") == "we had 37_500 users"
        assert fold_map(f"We had 37{space}500 users").folded == "we had 37_500 users"
        assert fold(f"page{space}5 of 37{space}x") == "page 5 of 37 x"
    assert fold("We had 37 500 users") == "we had 37 500 users"


def test_the_combining_underline_and_overline_go_like_emphasis() -> None:
    # they style a word one letter at a time, as "**" does a whole word
    assert (
        fold("n\u0332o\u0332t\u0332 n\u0305o\u0305t\u0305 n\u0333o\u0333t\u0333") == "not not not"
    )
    assert fold_map("we will n\u0332o\u0332t\u0332 go").folded == "we will not go"
    assert fold("cafe\u0301") == "cafe\u0301"  # an accent is no style


@settings(max_examples=500)
@given(st.text(alphabet=" -+#>=09.)ab\n", max_size=40))
def test_a_text_the_marker_check_passes_over_holds_no_marker(text: str) -> None:
    """fold skips the block-marker step for a text no line of which opens with a
    marker's first character: that step would have changed nothing there."""
    checked = folding._MARKER_FIRST_RE.match(text) or folding._MARKER_NEXT_RE.search(text)
    if not checked:
        assert folding._LINE_MARKERS_RE.sub("", text) == text
