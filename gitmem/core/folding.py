"""Folding: the normal form a quote and a transcript are compared in.

:func:`fold` is steps 1 to 5 of ``docs/verifier.md``. :func:`fold_map` folds the same
way and also says where each folded character came from and where the transcript had a
list marker at the start of a line; the verifier needs that only for the one message a
quote matched (to give back the transcript's own bytes) and for a quote that reflows a
list, so it is kept off the common path. Pure string operations; never raises.
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import NamedTuple, overload

from gitmem.core.lookalikes import LOOK_ALIKE_RE, read_capitals, read_look_alikes
from gitmem.core.patterns import LazyPattern, lazy_pattern

KANA_HAN = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff"
"""Japanese kana and the Chinese characters (as the body of a regex character class):
scripts that write their words without spaces between them."""
HANGUL = "\uac00-\ud7a3"
"""Korean syllables (a class body): words between spaces, each with its particles joined."""
UNSPACED = KANA_HAN + HANGUL
"""Chinese, Japanese and Korean (a class body): a tokenizer that cuts at spaces and
punctuation takes a run of them, particles and all, as one word."""

BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
"""Bidirectional embeddings, overrides and isolates: they can show the words around them
in another order than the text holds them ("we will \u202eton\u202c deploy" shows "not")."""
BIDI_STAND_IN = "\ufffd"
"""What a bidirectional control folds to: a character no word holds, which a quote cannot
match across, and an ellipsis may not skip (``gitmem.core.negation``)."""

# Step 1: characters that show nothing (zero-width spaces and joiners, the soft hyphen,
# the byte order mark, direction marks, invisible operators, tag characters) are removed,
# so that "n\u200bot" is the word "not" it shows.
_INVISIBLE = "[\u00ad\u034f\u061c\u180e\u200b-\u200f\u2060-\u2064\ufeff\U000e0000-\U000e007f]"
INVISIBLE_RE = lazy_pattern(_INVISIBLE)


# Step 1, as (old, new) pairs for str.replace, which is several times faster than a
# regex or str.translate on non-ASCII text. Every character str.isspace() knows becomes
# a space or a newline, so that step 2 sees every line start. "\r\n" → "\n" goes first;
# it is the only replacement that changes the length.
_REPLACEMENTS = (
    *((char, "'") for char in "‘’‚‛"),
    *((char, '"') for char in "“”„‟"),
    *((char, "-") for char in "‐‑‒–—―−"),
    *((char, "\n") for char in "\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"),
    *((char, " ") for char in "\t\x1f\xa0\u1680\u202f\u205f\u3000"),
    *((chr(code), " ") for code in range(0x2000, 0x200B)),
    *((char, BIDI_STAND_IN) for char in BIDI_CONTROLS),
)
_DIGIT_GROUP_RE = lazy_pattern(r"(?<=\d)[\u00a0\u202f\u2009](?=\d)")
"""A no-break, narrow no-break or thin space between two digits groups them ("37 500",
French and SI): it folds to "_", which joins one number (``gitmem.core.numbers``), where
any other space would part two."""
# Step 1 ends by joining a word wrapped at its hyphen ("near-\nzero" is "near-zero"), so
# that no rule reads its parts as words of their own: a next line that opens with a
# letter or a digit (behind emphasis) goes on the word, not a list item's marker.
_WRAPPED_RE = lazy_pattern(r"(?<=[^\W_]-)\n[ ]*(?=[*_`]*[^\W_])(?![0-9]+[.)](?:[ \n]|$))")
_CRLF_FIRST = (("\r\n", "\n"), *_REPLACEMENTS)
_ASCII_FIRST = tuple((old, new) for old, new in _CRLF_FIRST if old.isascii())
"""The pairs of :data:`_CRLF_FIRST` an ASCII text can hold (most of any transcript)."""

# Step 3. An underscore run is emphasis unless it sits between two word characters
# (snake_case_name). The pattern starts with a literal "_" so the regex engine can skip
# ahead to it; "(?<!__)" anchors it at the start of a run, and the possessive "_*+"
# judges the run as a whole, so "a__b" keeps both underscores and "__bold__" loses all
# four. Underscores are judged once "*" and backticks are gone ("snake_`case`" keeps its
# underscore); tilde runs go last, since removing an underscore can join two tildes.
# The combining overline and underline marks style a text one letter at a time, as "**"
# does a word ("n\u0332o\u0332t\u0332" shows "not" underlined): they go with the stars.
_STYLE_MARKS = "\u0305\u0332\u0333\u033f"
_STYLE_MARK_RE = lazy_pattern(f"[{_STYLE_MARKS}]")
_STAR_TICK_RE = lazy_pattern(f"[*`{_STYLE_MARKS}]")
IN_WORDS_RE = lazy_pattern(f"{_INVISIBLE}|[{_STYLE_MARKS}]")
"""What a word may hold that changes nothing a reader reads in it: the characters of
:data:`INVISIBLE_RE` and the style marks ("i\u200bf", "i\u0332f\u0332" are "if")."""
_EMPHASIS_UNDERSCORE_RE = lazy_pattern(r"_(?<!__)(?:(?<![^\W_]_)_*+|_*+(?![^\W_]))")
_STRIKE_RE = lazy_pattern(r"~~+")

# Step 2: block markers at the start of a line, after optional indentation, possibly
# stacked ("> - item"): list bullets "-" and "+" ("*" is already gone in step 3), ordered
# list numbers "12." and "12)", ATX headings "#" to "######", and the blockquote ">".
# A marker must be followed by a space or end the line, so "2.0" and "#60" stay text; a
# ">" right before a digit or "=" is a comparison (">500 ms", ">=2"), not a blockquote.
_LINE_MARKERS_RE = lazy_pattern(
    r"^[ ]*(?:(?:(?:[-+]|[0-9]+[.)]|\#{1,6})(?=[ ]|$)|>(?![0-9=]))[ ]*)+", re.MULTILINE
)
_MARKER_FIRST_RE = lazy_pattern(r"[ ]*[-+0-9#>]")
_MARKER_NEXT_RE = lazy_pattern(r"\n[ ]*[-+0-9#>]")
"""A line that opens with the first character of a marker of :data:`_LINE_MARKERS_RE`,
the first one or another (a search for a line feed first is several times faster than
that pattern's, which tries every place for a line's start): without one, it matches
nothing."""

# List items are read off the markers step 2 removes (the last list marker of a stacked
# run, "> 2. item"), except "* " bullets, which step 3 has removed by then: those are read
# before it. The item's text starts where the marker ends.
_LIST_TOKEN_RE = lazy_pattern(r"(?:^|(?<=[ >]))([-+]|[0-9]+[.)])(?= |$)")
_STAR_ITEM_RE = lazy_pattern(r"^[ ]*(?:>[ ]*)*\*[ ]+(?=[^ \n])", re.MULTILINE)

_SPACES_RE = lazy_pattern("  +")
_EXTRA_SPACES_RE = lazy_pattern("^ +| +$|(?<= ) +")

_LINE_BREAK_RE = lazy_pattern("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
_CR_BEFORE_LF = lazy_pattern(r"\r(?=\n)")
Pattern = re.Pattern[str] | LazyPattern

BULLET = "-"
"""The label of a bullet list marker (``-``, ``+`` or ``*``) in :attr:`FoldMap.markers`."""


def group_digits(text: str) -> str:
    """*text* with each no-break, narrow no-break or thin space between two digits, which
    groups them ("10\u202f000"), read as ``_``, as step 1 of :func:`fold` reads it: one
    number, not two. Never raises."""
    return _DIGIT_GROUP_RE.sub("_", text) if not text.isascii() else text


def fold(text: str) -> str:
    """Fold *text* for comparison (steps 1 to 5 of ``docs/verifier.md``; not step 0).

    Case folding (step 5) is applied first: it never creates a character the other steps
    act on, and doing it first keeps :func:`fold` idempotent for characters such as
    "İ", whose fold adds a combining mark next to a possible underscore. Step 3 runs
    before step 2, so that a list marker hidden behind emphasis ("`-` item") is judged
    the same way on the first fold and on a second one. A long text is folded a piece
    at a time (:func:`_fold_pieces`). Never raises.
    """
    if len(text) > _PIECE:
        return _fold_pieces(text, _PIECE)
    return _fold_lines(text).strip(" ")


_PIECE = 1 << 20
"""The length (in characters) past which :func:`fold` works a piece at a time."""


def _fold_lines(text: str) -> str:
    """:func:`fold` of *text* without the final trim. Each step reads only within a line,
    except the joining of space runs, so whole lines fold the same alone as together."""
    # 5. Case; capitals that show another letter than their small ones are read first.
    if not text.isascii():
        text = read_capitals(text)
    text = text.casefold()
    # 1. Quotes, dashes, spaces and line breaks; a space that groups digits first.
    if not text.isascii() and _DIGIT_GROUP_RE.search(text):
        text = _DIGIT_GROUP_RE.sub("_", text)
    for old, new in _ASCII_FIRST if text.isascii() else _CRLF_FIRST:
        if old in text:
            text = text.replace(old, new)
    if not text.isascii():
        text = INVISIBLE_RE.sub("", text)
        if LOOK_ALIKE_RE.search(text):
            text = read_look_alikes(text)
    if "-\n" in text:
        text = _WRAPPED_RE.sub("", text)
    # 3. Emphasis and code markers. One step a statement, so that a long text is held at
    # most twice at a time (the step's input and its result), besides the caller's copy.
    text = text.replace("*", "")
    text = text.replace("`", "")
    if not text.isascii():
        text = _STYLE_MARK_RE.sub("", text)
    if "_" in text:  # each pattern tried only on a text that holds what it needs
        text = _EMPHASIS_UNDERSCORE_RE.sub("", text)
    if "~~" in text:
        text = _STRIKE_RE.sub("", text)
    # 2. Block markers at the start of a line.
    if _MARKER_FIRST_RE.match(text) or _MARKER_NEXT_RE.search(text):
        text = _LINE_MARKERS_RE.sub("", text)
    # 4. Whitespace runs to one space (only " " and "\n" are left after step 1).
    text = text.replace("\n", " ")
    return _SPACES_RE.sub(" ", text) if "  " in text else text


def _fold_pieces(text: str, size: int) -> str:
    """:func:`fold` of *text*, folded in pieces of about *size* characters cut just after
    a line feed (never inside a "\r\n"), then joined. A substitution over a long text
    holds the text, its pieces and the result at once: over a piece it holds a piece's
    worth. Where two pieces meet, the space run they share is one space, as
    :func:`_fold_lines` makes it within a piece."""
    parts: list[str] = []
    spaced = False  # does what is folded so far end with a space?
    start = 0
    while start < len(text):
        end = _seam(text, start + size)
        part = _fold_lines(text[start:end])
        if spaced and part.startswith(" "):
            part = part[1:]
        if part:
            spaced = part.endswith(" ")
            parts.append(part)
        start = end
    folded = "".join(parts)
    parts.clear()
    return folded.strip(" ")


def _seam(text: str, at: int) -> int:
    """Where a piece that runs past *at* ends: just after the first line feed from *at* on
    whose line ends (before a "\r") with a letter, a digit, a space or a mark other than a
    dash, none of which folds to the hyphen of a word wrapped across the line feed
    (:data:`_WRAPPED_RE`); the end of *text* when there is none."""
    end = text.find("\n", at)
    while end >= 0:
        last = end - 1 if end and text[end - 1] != "\r" else end - 2
        if last >= 0 and _no_dash(text[last]):
            return end + 1
        end = text.find("\n", end + 1)
    return len(text)


def _no_dash(char: str) -> bool:
    category = unicodedata.category(char)
    return char.isalnum() or char == " " or (category[0] == "P" and category != "Pd")


def fold_inline(text: str) -> str:
    """:func:`fold` of *text* as if it continued a line rather than starting one, so a
    leading "2." or "- " stays text: how a quote's fragment after an ellipsis reads.
    Never raises."""
    return fold("x " + text)[2:]


def list_label(marker: str) -> str:
    """The label a list marker (``-``, ``+``, ``*``, ``12.``, ``12)``) is compared by:
    every bullet is :data:`BULLET`, a number is its value ("01." and "1)" are "1").
    Never raises; the input is one marker as the regexes of this module match it."""
    digits = marker.rstrip(".)")
    return (digits.lstrip("0") or "0") if digits.isdecimal() else BULLET


class FoldMap(NamedTuple):
    """One text folded, with where each folded character came from."""

    raw: str
    folded: str
    """``fold(raw)``."""
    origin: Sequence[int]
    """For each character of :attr:`folded`, the offset in :attr:`raw` it came from
    (non-decreasing; the characters of one case-fold expansion share an offset)."""
    markers: dict[int, str]
    """Offsets in :attr:`folded` where a list item's text starts because *raw* had a list
    marker at the start of that line, with the marker's :func:`list_label`."""

    def raw_span(self, start: int, end: int) -> str:
        """The raw text behind ``folded[start:end]`` (``start < end``), widened over the
        emphasis and code marks that hug it ("**bold**", "`code`"), so that what is shown
        is what the transcript said. Never raises for offsets inside :attr:`folded`."""
        low = self.origin[start - 1] + 1 if start > 0 else 0
        high = self.origin[end] if end < len(self.folded) else len(self.raw)
        first, last = self.origin[start], self.origin[end - 1] + 1
        while first > low and self.raw[first - 1] in "*`_~":
            first -= 1
        while last < high and self.raw[last] in "*`_~":
            last += 1
        return self.raw[first:last]


class Origin(Sequence[int]):
    """Where each folded character came from, kept as runs: from folded offset
    ``starts[k]`` on, characters come from raw offsets ``bases[k]``, ``bases[k] + 1``, …
    (each character of a case-fold expansion is a run of its own, so several share an
    offset). A list of one int per character costs about 36 bytes a character, 1.8 GB
    for a 50 MB plain transcript; a run costs 16 bytes, and there is one per deletion."""

    __slots__ = ("_bases", "_length", "_starts")

    def __init__(self, starts: array[int], bases: array[int], length: int) -> None:
        self._starts, self._bases, self._length = starts, bases, length

    @classmethod
    def identity(cls, length: int) -> Origin:
        return cls(array("q", [0]), array("q", [0]), length)

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[int]: ...

    def __getitem__(self, index: int | slice) -> int | Sequence[int]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._length))]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError(index)
        k = bisect_right(self._starts, index) - 1
        return self._bases[k] + index - self._starts[k]

    def kept(self, ranges: Iterable[tuple[int, int]]) -> Origin:
        """The origin of the characters of *ranges* (in order, not overlapping), put
        side by side."""
        starts, bases = array("q"), array("q")
        at = 0
        for first, last in ranges:
            if first >= last:
                continue
            k = bisect_right(self._starts, first) - 1
            starts.append(at)
            bases.append(self._bases[k] + first - self._starts[k])
            k += 1
            while k < len(self._starts) and self._starts[k] < last:
                starts.append(at + self._starts[k] - first)
                bases.append(self._bases[k])
                k += 1
            at += last - first
        return Origin(starts or array("q", [0]), bases or array("q", [0]), at)


class _Mapped:
    """The text being folded and where its characters came from. Each step replaces
    both, and a deletion lets go of the text it reads before it joins its result, so a
    long message is held, besides its raw text, at most twice at a time."""

    __slots__ = ("origin", "text")

    def __init__(self, text: str, origin: Origin) -> None:
        self.text, self.origin = text, origin


def fold_map(raw: str) -> FoldMap:
    """:func:`fold` of *raw*, with the offset map and the list markers of :class:`FoldMap`.

    The same steps in the same order as :func:`fold` (a test holds the two equal), each
    one carrying the map along; deletions are done a slice at a time. Never raises.
    """
    # 5. Case: str.casefold works one character at a time, so a longer result means
    # some character expanded ("ß" → "ss") and the map is built character by character.
    shown = raw if raw.isascii() else read_capitals(raw)
    mapped = _Mapped(shown.casefold(), Origin.identity(len(raw)))
    if len(mapped.text) != len(raw):
        mapped.origin = _expanded(shown)
    # 1. "\r\n" loses its "\r"; every other replacement keeps the length.
    _delete(mapped, _CR_BEFORE_LF)
    if not mapped.text.isascii() and _DIGIT_GROUP_RE.search(mapped.text):
        mapped.text = _DIGIT_GROUP_RE.sub("_", mapped.text)
    for old, new in _REPLACEMENTS:
        if old in mapped.text:
            mapped.text = mapped.text.replace(old, new)
    if not mapped.text.isascii():
        _delete(mapped, INVISIBLE_RE)
        if LOOK_ALIKE_RE.search(mapped.text):
            mapped.text = read_look_alikes(mapped.text)
    if "-\n" in mapped.text:
        _delete(mapped, _WRAPPED_RE)
    items = [(mapped.origin[item.end()], BULLET) for item in _STAR_ITEM_RE.finditer(mapped.text)]
    # 3, then 2, then 4, as in fold.
    for pattern in (_STAR_TICK_RE, _EMPHASIS_UNDERSCORE_RE, _STRIKE_RE):
        _delete(mapped, pattern)
    origin = mapped.origin

    def item(marker: re.Match[str]) -> None:
        text, end = marker.string, marker.end()
        tokens = _LIST_TOKEN_RE.findall(marker.group(0))
        if tokens and end < len(text) and text[end] != "\n":
            items.append((origin[end], list_label(tokens[-1])))

    _delete(mapped, _LINE_MARKERS_RE, item)
    mapped.text = mapped.text.replace("\n", " ")
    _delete(mapped, _EXTRA_SPACES_RE)
    return FoldMap(raw, mapped.text, mapped.origin, _markers(raw, mapped, items))


def _expanded(raw: str) -> Origin:
    """The origin of ``raw.casefold()`` when some character expanded ("ß" → "ss")."""
    starts, bases = array("q", [0]), array("q", [0])
    at = 0
    for n, char in enumerate(raw):
        width = len(char.casefold())
        if width != 1 or bases[-1] + at - starts[-1] != n:
            for extra in range(width):
                starts.append(at + extra)
                bases.append(n)
            if width != 1 and n + 1 < len(raw):
                starts.append(at + width)
                bases.append(n + 1)
        at += width
    return Origin(starts, bases, at)


def _delete(
    mapped: _Mapped, pattern: Pattern, seen: Callable[[re.Match[str]], None] | None = None
) -> None:
    """Take out of *mapped* what *pattern* matches (each match shown to *seen* first).
    The origin keeps two numbers a match; the text is rebuilt from what is kept, in
    blocks, and the text it was rebuilt from is let go before the blocks are joined: a
    substitution would hold the text, a string per piece kept and the result at once."""
    bounds = _bounds(mapped.text, pattern, seen)
    if not bounds:
        return
    size = len(mapped.text)
    mapped.origin = mapped.origin.kept(_kept(bounds, size))
    blocks = _blocks(mapped.text, _kept(bounds, size))
    mapped.text = ""
    mapped.text = "".join(blocks)


def _bounds(
    text: str, pattern: Pattern, seen: Callable[[re.Match[str]], None] | None
) -> array[int]:
    """Where each match of *pattern* in *text* starts and ends (start, end, start, end,
    …), each match shown to *seen* first."""
    bounds = array("q")
    for match in pattern.finditer(text):
        bounds.append(match.start())
        bounds.append(match.end())
        if seen is not None:
            seen(match)
    return bounds


def _kept(bounds: array[int], size: int) -> Iterator[tuple[int, int]]:
    """The ranges of a text of *size* characters between the deleted spans *bounds*
    (start, end, start, end, …)."""
    pos = 0
    for n in range(0, len(bounds), 2):
        yield pos, bounds[n]
        pos = bounds[n + 1]
    yield pos, size


_BLOCK = 1 << 16
"""About how many characters :func:`_blocks` puts in one block."""


def _blocks(text: str, ranges: Iterable[tuple[int, int]]) -> list[str]:
    """The characters of *ranges* of *text*, in order, in blocks of about :data:`_BLOCK`
    characters (one string per range would cost about 60 bytes each besides the text)."""
    blocks: list[str] = []
    pieces: list[str] = []
    size = 0
    for first, last in ranges:
        if first < last:
            pieces.append(text[first:last])
            size += last - first
            if size >= _BLOCK:
                blocks.append("".join(pieces))
                pieces.clear()
                size = 0
    blocks.append("".join(pieces))
    return blocks


def _markers(raw: str, mapped: _Mapped, items: list[tuple[int, str]]) -> dict[int, str]:
    """Folded offsets of the list items' first characters. An item's first raw character
    may be markup that folding removed ("- **bold**"), so the first folded character at
    or after it stands in for it, provided no line break lies between the two."""
    markers: dict[int, str] = {}
    for raw_start, label in items:
        at = bisect_left(mapped.origin, raw_start)
        if at == len(mapped.origin) or (at > 0 and mapped.text[at - 1] != " "):
            continue
        if _LINE_BREAK_RE.search(raw, raw_start, mapped.origin[at]) is None:
            markers[at] = label
    return markers


def bare(word: str) -> str:
    """*word* (folded) without the "s" of a plural or a present ("docs", "succeeds": "doc",
    "succeed"), so that a rule finds a word in either form; a word of three letters or
    fewer ("is", "bus") or one in "ss" ("class") is kept. Raises nothing."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word
