"""Where a quote's fragments lie in one folded message: the matching rules of
``docs/verifier.md`` (order, word boundaries, whole numbers, elisions that keep every
negation, list reflow).

The common path is today's: each fragment's first valid occurrence after the previous
one (greedy, leftmost, exact). That alignment is the answer whenever it exists and no
ellipsis in it skips a negation. Otherwise, when it matters, every alignment is searched
(:func:`_search`): per fragment, the set of ends it can reach; an occurrence at ``s``
takes the latest reachable end of the previous fragment at or before ``s``, whose gap is
the shortest and so skips the fewest words. That is linear in the occurrences, with no
backtracking. Pure; never raises.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from itertools import pairwise
from typing import NamedTuple

from gitmem.core.folding import FoldMap, fold, fold_inline, fold_map, list_label
from gitmem.core.negation import SPEAKER_LINE_RE, elision_stops
from gitmem.core.numbers import cuts_number, hyphen_as_sign, is_word_char
from gitmem.core.patterns import LazyPattern

# A list marker written in the middle of a quote that reflows a list onto one line
# ("plan: - migrate - deploy", "steps: 1. build 2. test"): a bullet or a number of at most
# nine digits, after a space and before a space or the end. "*" bullets need no rule:
# folding removes every "*", so a quote that writes them matches as one that omits them.
_QUOTE_MARKER_RE = re.compile(r" ([-+]|[0-9]{1,9}[.)])(?= |$)")

Span = tuple[int, int]


# The list markers a fragment opens with, as folding would remove them at a line start;
# the last number among them is the fragment's lead.
_LEADING_MARKERS_RE = re.compile(r"(?:(?:[-+>]|\#{1,6}|([0-9]+[.)])) )+")


class Fragment(NamedTuple):
    """One fragment of a quote, folded, and cut at the list markers it writes."""

    folded: str
    """The fragment as compared: folded, with a leading number kept."""
    pieces: tuple[str, ...]
    """The folded text between candidate markers (after the lead); every piece after the
    first starts with a space (or is empty, between two markers)."""
    marks: tuple[tuple[str, str], ...]
    """Each candidate marker written mid-line, as written (with its leading space), and
    its list label."""
    lead: tuple[str, str] | None = None
    """A numbered marker the fragment opens with ("2. then we"), as written and as a
    label: it must be in the text as written, or stand for the same number at the start
    of a list line. Folding a fragment as a line start would drop it, and with it a
    number the quote claims."""

    @property
    def reflows(self) -> bool:
        return bool(self.marks) or self.lead is not None


def parse_fragment(raw: str, body: str | None = None) -> Fragment:
    """*raw* folded, with its lead and its candidate list markers; *body* is ``fold(raw)``
    when the caller has it already. Never raises."""
    if body is None:
        body = fold(raw)
    inline = body if _reads_inline(raw) else fold_inline(raw)
    lead: tuple[str, str] | None = None
    if inline != body:
        opening = _LEADING_MARKERS_RE.match(inline + " ")
        numbers = re.findall(r"[0-9]+[.)]", opening.group(0)) if opening else []
        if not body:
            body = inline  # only markers: "37." is a number, compared as written
        elif numbers:
            lead = (numbers[-1], list_label(numbers[-1]))
    pieces: list[str] = []
    marks: list[tuple[str, str]] = []
    pos = 0
    for marker in _QUOTE_MARKER_RE.finditer(body):
        pieces.append(body[pos : marker.start()])
        marks.append((marker.group(0), list_label(marker.group(1))))
        pos = marker.end()
    pieces.append(body[pos:])
    folded = f"{lead[0]} {body}" if lead is not None else body
    return Fragment(folded, tuple(pieces), tuple(marks), lead)


def _reads_inline(raw: str) -> bool:
    """Whether ``fold_inline(raw) == fold(raw)`` without folding it again: an ASCII text
    (no look-alike or capital that folds by its neighbours) that does not start with a
    space, a list marker's first character (``-+#>``, a digit) or a mark folding removes
    (``*`_~``), so its first line starts the same with or without a word before it.
    Raises nothing."""
    return (
        bool(raw)
        and raw.isascii()
        and len(raw) < _INLINE_MAX
        and not raw[0].isspace()
        and raw[0] not in _LINE_OPENERS
    )


_LINE_OPENERS = frozenset("-+#>0123456789*`_~")
_INLINE_MAX = 1 << 16
"""Longer texts are folded a piece at a time (:func:`~gitmem.core.folding.fold`): left
to :func:`~gitmem.core.folding.fold_inline` itself."""


class View:
    """One folded message, or a stand-in for one (messages joined, gitmem's output
    kept), searched without list reflow."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._negation_starts: list[int] | None = None
        self._negations: list[re.Match[str]] = []
        self._stops_re: LazyPattern | None = None

    def markers(self) -> dict[int, str]:
        """Where the message had list markers at line starts (see :class:`FoldMap`).
        Never raises."""
        return {}

    def negation_between(self, start: int, end: int) -> str | None:
        """The first negation word lying wholly inside ``text[start:end]``, if any.

        Matches sit on word boundaries, so a gap between two of them never cuts a word in
        a way that would invent or hide one: a search bounded to the gap sees exactly the
        words of the whole text that lie inside it. The greedy path asks about a few gaps
        and searches each; the full search asks about many and first builds an index of
        every negation in the text (:meth:`index_negations`), read by bisection. Never
        raises.
        """
        if self._negation_starts is None:
            word = self._stops().search(self.text, start, end)
            return None if word is None else word.group(0)
        at = bisect_left(self._negation_starts, start)
        if at < len(self._negations) and self._negations[at].end() <= end:
            return self._negations[at].group(0)
        return None

    def _stops(self) -> LazyPattern:
        """What an ellipsis may not skip in this message's languages, found once."""
        if self._stops_re is None:
            self._stops_re = elision_stops(self.text)
        return self._stops_re

    def index_negations(self) -> None:
        """Index every negation of the text, for many questions. Never raises."""
        if self._negation_starts is None:
            self._negations = list(self._stops().finditer(self.text))
            self._negation_starts = [word.start() for word in self._negations]


class MessageView(View):
    """One message, with the raw text behind it, for its list markers and its spans;
    the offset-mapping fold they need is computed on first use, since most checks never
    need it."""

    def __init__(self, raw: str) -> None:
        super().__init__(fold(raw))
        self._raw = raw
        self._map: FoldMap | None = None
        self._labels: tuple[list[int], list[int], list[str]] | None = None

    def fold_map(self) -> FoldMap:
        """The message's offset-mapping fold, computed once. Never raises."""
        if self._map is None:
            # The map folds the message again: its fold is held once, not twice (a long
            # message's fold is as big as the message).
            self.text = ""
            self._map = fold_map(self._raw)
            self.text = self._map.folded
        return self._map

    def markers(self) -> dict[int, str]:
        return self.fold_map().markers

    def negation_between(self, start: int, end: int) -> str | None:
        """As :meth:`View.negation_between`, and a speaker's label written as a line of
        its own (:data:`~gitmem.core.negation.SPEAKER_LINE_RE`), as written, when one
        lies wholly inside the gap: folding leaves only the name ("## User" is "user"),
        which no rule on folded text can tell from the word. Never raises."""
        word = super().negation_between(start, end)
        if word is not None:
            return word
        starts, ends, labels = self._speaker_labels()
        at = bisect_left(starts, start)
        if at < len(starts) and ends[at] <= end:
            return labels[at]
        return None

    def _speaker_labels(self) -> tuple[list[int], list[int], list[str]]:
        """Where each speaker's label line lies in the folded text (starts, ends) and
        its raw text, found once; the offset map is built only for a message that has
        one."""
        if self._labels is None:
            found = list(SPEAKER_LINE_RE.finditer(self._raw))
            self._labels = ([], [], [])
            if found:
                origin = self.fold_map().origin
                for line in found:
                    first = bisect_left(origin, line.start())
                    last = bisect_left(origin, line.end())
                    if first < last:
                        self._labels[0].append(first)
                        self._labels[1].append(last)
                        self._labels[2].append(line.group().strip())
        return self._labels


class Alignment(NamedTuple):
    """The leading fragments placed in one message, as (start, end) spans in its folded
    text; ``skipped`` is the negation that kept the next fragment from being placed,
    when nothing else did."""

    placed: tuple[Span, ...]
    skipped: str | None = None


def align(fragments: Sequence[Fragment], view: View) -> Alignment:
    """The best alignment of *fragments* in *view*: all of them when they can all be
    placed, else the longest prefix that can. Never raises."""
    text = view.text
    placed: list[Span] = []
    start = 0
    for fragment in fragments:
        found = _first_exact(fragment.folded, text, start)
        if found is None:
            break
        placed.append(found)
        start = found[1]
    if len(placed) == len(fragments):
        gaps = pairwise(placed)
        if all(view.negation_between(a[1], b[0]) is None for a, b in gaps):
            return Alignment(tuple(placed))
    elif not any(fragment.reflows for fragment in fragments):
        return Alignment(tuple(placed))  # some fragment is absent: nothing can do better
    elif not all(piece.strip() in text for f in fragments for piece in f.pieces):
        return Alignment(tuple(placed))
    return _search(fragments, view)


def _search(fragments: Sequence[Fragment], view: View) -> Alignment:
    """Every alignment at once: for each fragment, the ends it can reach (each with the
    start and previous end that reach it), built from the previous fragment's."""
    text = view.text
    markers = view.markers() if any(fragment.reflows for fragment in fragments) else {}
    view.index_negations()
    reached: list[dict[int, Span]] = []
    previous: list[int] = []
    for number, fragment in enumerate(fragments):
        if fragment.reflows and markers:
            occurrences = _reflowed(fragment, text, markers)
        else:
            occurrences = _exact(fragment.folded, text, 0)
        ends: dict[int, Span] = {}
        skipped: str | None = None
        for start, end in occurrences:
            if end in ends:
                continue
            if number == 0:
                ends[end] = (start, -1)
                continue
            at = bisect_right(previous, start) - 1
            if at < 0:
                continue
            word = view.negation_between(previous[at], start)
            if word is None:
                ends[end] = (start, previous[at])
            elif skipped is None:
                skipped = word
        if not ends:
            return Alignment(_trace(reached), skipped)
        reached.append(ends)
        previous = sorted(ends)
    return Alignment(_trace(reached))


def _trace(reached: list[dict[int, Span]]) -> tuple[Span, ...]:
    """The spans of the alignment ending earliest, walked back from its last fragment."""
    if not reached:
        return ()
    spans: list[Span] = []
    end = min(reached[-1])
    for ends in reversed(reached):
        start, before = ends[end]
        spans.append((start, end))
        end = before
    return tuple(reversed(spans))


def _first_exact(fragment: str, text: str, start: int) -> Span | None:
    """The first occurrence of *fragment* in *text* from *start* on, on word boundaries
    and whole numbers."""
    offset = text.find(fragment, start)
    while offset >= 0:
        end = offset + len(fragment)
        if _edges_hold(text, offset, end):
            return offset, end
        offset = text.find(fragment, offset + 1)
    return None


def _exact(fragment: str, text: str, start: int) -> Iterator[Span]:
    """Every occurrence of *fragment* in *text* from *start* on, as :func:`_first_exact`."""
    found = _first_exact(fragment, text, start)
    while found is not None:
        yield found
        found = _first_exact(fragment, text, found[0] + 1)


def _reflowed(fragment: Fragment, text: str, markers: dict[int, str]) -> Iterator[Span]:
    """Every occurrence of *fragment* in *text* where each marker it writes is either in
    the text as written or stands for a list marker that started a line there (same
    kind; a number the same number). The set of positions reachable after each piece is
    carried along, so a marker that could be read both ways costs no backtracking."""
    first = fragment.pieces[0]
    offset = text.find(first)
    while offset >= 0:
        ends = {offset + len(first)}
        for (written, label), piece in zip(fragment.marks, fragment.pieces[1:], strict=True):
            starts = set()
            for end in ends:
                if text.startswith(written, end):
                    starts.add(end + len(written))
                if piece and markers.get(end + 1) == label and text.startswith(" ", end):
                    starts.add(end)
            ends = {at + len(piece) for at in starts if text.startswith(piece, at)}
            if not ends:
                break
        for start in _lead_starts(fragment, text, markers, offset):
            for end in sorted(ends):
                if _edges_hold(text, start, end):
                    yield start, end
        offset = text.find(first, offset + 1)


def _lead_starts(fragment: Fragment, text: str, markers: dict[int, str], at: int) -> list[int]:
    """Where a match whose text after the lead starts at *at* starts: there, when the
    fragment has no lead or its number started a list line there; before the number,
    when the text says it as written."""
    if fragment.lead is None:
        return [at]
    written, label = fragment.lead
    starts = [at] if markers.get(at) == label else []
    before = at - len(written) - 1
    if before >= 0 and text.startswith(f"{written} ", before):
        starts.insert(0, before)
    return starts


def _edges_hold(text: str, start: int, end: int) -> bool:
    """A match may not start or end inside a word ("37" in "137", "prod" in
    "production") or inside a number ("5" in "2.5", "37" in "-37", "12.0" in "1.12.0"),
    nor read a range's hyphen as a sign ("-20" in "10-20"), nor part a combining mark
    from the letter it marks ("cafe" in "cafe\u0301", shown "café")."""
    if start > 0 and is_word_char(text[start]) and is_word_char(text[start - 1]):
        return False
    if end < len(text) and is_word_char(text[end - 1]) and is_word_char(text[end]):
        return False
    if _marks(text, start) or _marks(text, end):
        return False
    if _in_compound(text, start, end):
        return False
    return not (cuts_number(text, start) or cuts_number(text, end) or hyphen_as_sign(text, start))


def _in_compound(text: str, start: int, end: int) -> bool:
    """Does the match ``text[start:end]`` start or end inside a hyphenated word: right
    after "near-" of "near-zero", before "-only" of "Linux-only"? The word is one claim,
    and the part quoted may say another or its opposite: "zero downtime" is not said by
    "near-zero downtime", nor "blocking calls are fine" by "non-blocking calls are fine".
    A hyphen between two digits is a range's (``10-20``), which the number rule reads. A
    quote that keeps the hyphen ("-based") is checked as written."""
    if start >= 2 and text[start - 1] == "-" and _joins(text[start - 2], text[start]):
        return True
    return end + 1 < len(text) and text[end] == "-" and _joins(text[end - 1], text[end + 1])


def _joins(before: str, after: str) -> bool:
    """Does a hyphen between *before* and *after* join them into one word?"""
    return before.isalnum() and after.isalnum() and not (before.isdigit() and after.isdigit())


def _marks(text: str, pos: int) -> bool:
    """Is ``text[pos]`` a combining mark, which belongs with the character before it?"""
    if pos >= len(text) or pos == 0 or text[pos].isascii():
        return False
    return unicodedata.category(text[pos]).startswith("M")
