"""A message's layout: fenced code, speaker turns, the blocks that start or end a unit
(a paragraph or list item) and the sentences a unit is cut into."""

from __future__ import annotations

import bisect
import re
from array import array
from collections.abc import Sequence
from itertools import compress
from typing import overload

from gitmem.capture.extract.heuristic.markers import INTRO_RE, SECTION_RE
from gitmem.core.folding import UNSPACED
from gitmem.core.items import Kind

# Line chrome, skipped before a line is read: indentation, blockquote, list bullets and
# numbers, a task box, a heading, a speaker label ("**user:**").
CHROME_RE = re.compile(
    r"[ \t]*(?:(?:>[ \t]?|(?P<bullet>[-*+•●⏺◦▪]|\d{1,9}[.)])[ \t]+)[ \t]*)*"
    r"(?:\[(?P<box>[ xX])\][ \t]+)?(?:\#{1,6}[ \t]+)?"
)


def chrome_end(block: str) -> int:
    """Where *block*'s text starts: past a quote mark, a bullet, a task box or a heading."""
    chrome = CHROME_RE.match(block)
    return chrome.end() if chrome is not None else 0


SPEAKER_RE = re.compile(
    r"(?:\#{1,6}[ \t]+)?(?:\*\*|__)?(?P<who>user|human|assistant|agent|claude|codex)\b"
    r"(?:\*\*|__)?(?:[ \t]*:(?:\*\*|__)?[ \t]*|[ \t]*$)",
    re.IGNORECASE,
)
SPEAKERS = ("user", "human", "assistant", "agent", "claude", "codex")
BULLET_RE = re.compile(r"[ \t]*(?:>[ \t]?)*[ \t]*(?:[-*+•●⏺◦▪]|\d{1,9}[.)])[ \t]")
NUMBERED_RE = re.compile(r"[ \t]*\d{1,2}[.)][ \t]")
SUBHEADING_RE = re.compile(r"(?:\*\*|__)[^*_\n.!?:;]{1,60}(?:\*\*|__):?")
"""A line that is only a bold phrase ("**User / Codemie Demo**"): a heading inside a section."""
_BLOCK_RE = re.compile(
    r"(?:[-*+•●⏺◦▪]|\d{1,9}[.)])[ \t]|\#{1,6}(?:[ \t]|$)|>|`{3}|~{3}|\||\[[ xX]\]"
)
_FENCE_RE = re.compile(r"[ \t]*(?:>[ \t]?)*[ \t]*(?P<fence>`{3,}|~{3,})(?P<info>.*)")

# A list item that starts with a path, a dotfile (".dialyzerignore") or a link is an entry
# of a file list.
_PATH_CHAR = rf"[^\W{UNSPACED}]"
"""A letter, digit or "_" of a path: not one of a script written without spaces, where the
words around a path run into it ("docs/schema.mdに記載する" names a path inside a sentence)."""
FILE_ITEM_RE = re.compile(
    rf"(?:\*\*|__)?`?(?:\[[^\]\n]{{1,120}}\]\([^)\n]{{1,300}}\)|(?:{_PATH_CHAR}|[.~/-])*/"
    rf"(?:{_PATH_CHAR}|[.@/-])+|(?:{_PATH_CHAR}|[.-])+\.[A-Za-z]{_PATH_CHAR}{{0,5}}(?::\d+)?|"
    r"\.[A-Za-z][\w.-]{1,40})`?(?:\*\*|__)?"
    r"(?:[ \t]*(?:[-—–:(→]|->|$))"
)
SENTENCE_END_RE = re.compile(
    r"[.!?]+[\"'”’)\]*_`]*(?=\s+[\"'“‘(\[*_`]*"
    rf"[A-ZÀ-ÖØ-ÞΑ-ΩА-Я{UNSPACED}])"
    r"|[。！？]+[」』）)\]*_`]*(?=[ \t]*[^\s。！？」』）])"
)
"""A sentence ends at ".", "!" or "?" before a capital (or a letter of a script without
case), and at Chinese and Japanese "。", "！", "？" before whatever follows: those scripts
put no space after them."""
_LOWER_END_RE = re.compile(r"(?:(?<!\.)\.(?!\.)|[!?]+)[\"'”’)\]*_`]*(?=[ \t]+[\"'“‘(\[*_`]*[a-z])")
"""A sentence end before a lowercase word: how users write ("… one list view. can you …");
not an ellipsis ("run `git add ... && git commit ...` so I …")."""
_ABBREVIATIONS = frozenset(
    (
        *("e.g", "i.e", "etc", "vs", "cf", "approx", "incl", "dr", "mr", "mrs", "ms", "no", "fig"),
        *("eq", "st"),
    )
)


class Lines(Sequence[str]):
    """The lines of a text without a string per line: the text, and where each line
    starts (a long plain transcript is one message of a million lines; a list of them
    would cost more than the text itself)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = line_starts(text)
        """Where each line starts, then one past the text's end (as if it ended with a
        line break)."""

    def __len__(self) -> int:
        return len(self.starts) - 1

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self[n] for n in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self.text[self.starts[index] : self.starts[index + 1] - 1]

    def block(self, first: int, last: int) -> str:
        """Lines *first* to *last* (inclusive), joined by their line breaks."""
        return self.text[self.starts[first] : self.starts[last + 1] - 1]


def line_starts(text: str) -> array[int]:
    """Where each line of *text* starts, then ``len(text) + 1``."""
    starts = array("q", [0])
    pos = text.find("\n")
    while pos >= 0:
        starts.append(pos + 1)
        pos = text.find("\n", pos + 1)
    starts.append(len(text) + 1)
    return starts


def find_lines(low: str, starts: Sequence[int], needles: Sequence[str]) -> set[int]:
    """Indices of the lines of *low* holding any of *needles* (*starts*: line offsets)."""
    marks = bytearray(len(starts))
    mark_lines(low, starts, needles, marks)
    return {n for n in compress(range(len(marks)), marks)}


def mark_lines(low: str, starts: Sequence[int], needles: Sequence[str], marks: bytearray) -> None:
    """Mark in *marks* the lines of *low* holding any of *needles* (*starts*: line
    offsets)."""
    for needle in needles:
        pos = low.find(needle)
        while pos >= 0:
            n = bisect.bisect_right(starts, pos) - 1
            marks[n] = 1
            pos = low.find(needle, starts[n + 1])


def fenced_ranges(lines: Sequence[str], candidates: list[int]) -> list[tuple[int, int]]:
    """Line ranges (first, last) of fenced code blocks; an open fence runs to the end."""
    ranges: list[tuple[int, int]] = []
    opening: tuple[int, str] | None = None
    for n in candidates:
        match = _FENCE_RE.fullmatch(lines[n])
        if match is None:
            continue
        fence, info = match.group("fence"), match.group("info")
        if opening is None:
            if not (fence[0] == "`" and "`" in info):
                opening = (n, fence)
        elif fence[0] == opening[1][0] and len(fence) >= len(opening[1]) and not info.strip():
            ranges.append((opening[0], n))
            opening = None
    if opening is not None:
        ranges.append((opening[0], len(lines)))
    return ranges


def speaker_lines(lines: Sequence[str], candidates: list[int]) -> list[tuple[int, bool]]:
    """(line, is the user) for each speaker label of a plain transcript."""
    speakers: list[tuple[int, bool]] = []
    for n in candidates:
        chrome = CHROME_RE.match(lines[n])
        label = SPEAKER_RE.match(lines[n], chrome.end() if chrome else 0)
        if label is not None:
            speakers.append((n, label.group("who").lower() in ("user", "human")))
    return speakers


def spoken_by_user(speakers: list[tuple[int, bool]], n: int) -> bool:
    at = bisect.bisect_right(speakers, (n, True)) - 1
    return at >= 0 and speakers[at][1]


def section_kind(line: str) -> Kind | None:
    """The kind a label-only line ("## Next steps", "**Decisions:**", "7. Pending Tasks:",
    "The action items are:") gives what follows it."""
    if len(line) > 60 or (BULLET_RE.match(line) and not NUMBERED_RE.match(line)):
        return None
    stripped = line.strip(" \t>")
    match = SECTION_RE.fullmatch(stripped) or INTRO_RE.fullmatch(stripped)
    return None if match is None or match.lastgroup is None else Kind(match.lastgroup)


OUTCOME_HEADINGS = re.compile(
    r"(?:(?:final\s+|short\s+|quick\s+)?summary(?:\s+of\s+(?:changes|what\s+(?:was\s+)?"
    r"(?:done|changed|accomplished)))?|(?:key\s+|main\s+|code\s+)?changes(?:\s+made)?|"
    r"what\s+(?:changed|was\s+(?:done|changed|accomplished|fixed))|what\s+i\s+(?:did|changed)|"
    r"(?:key\s+)?(?:decisions?|fix(?:es)?|findings|results?|outcome|status|current\s+state)|"
    r"(?:completed|done|accomplished)(?:\s+tasks)?|limitations?|caveats?|notes?|"
    r"important(?:\s+notes?)?)",
    re.IGNORECASE,
)
"""Headings of a report's outcome sections (besides the open-loop and decision sections
of :data:`~gitmem.capture.extract.heuristic.markers.SECTION_RE`)."""


def status_heading(title: str) -> bool:
    """Is *title* the heading of a report's status section (open loops, decisions, or one
    of :data:`OUTCOME_HEADINGS`)?"""
    return (
        section_kind(title) is not None
        or OUTCOME_HEADINGS.fullmatch(heading_words(title)) is not None
    )


def heading_words(title: str) -> str:
    """A heading's words: emphasis, numbering, a leading symbol and the colon gone."""
    title = re.sub(r"[*_`#]", "", title).strip()
    title = re.sub(r"^(?:\d{1,2}[.)]\s*)?(?:[^\w\s]{1,3}\s*)?", "", title)
    return title.rstrip(" :").strip()


def is_intro(line: str) -> bool:
    """Does the section line introduce a sentence ("The action item is:") rather than a
    list?"""
    return INTRO_RE.fullmatch(line.strip(" \t>")) is not None


def indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def tagged_ranges(lines: Sequence[str], candidates: list[int], tag: str) -> list[tuple[int, int]]:
    """Line ranges (first, last) from a line opening ``<tag>`` to the line closing it; an
    unclosed tag marks nothing."""
    ranges: list[tuple[int, int]] = []
    opening: int | None = None
    for n in candidates:
        stripped = lines[n].strip()
        if opening is None and stripped.startswith(f"<{tag}>"):
            opening = n
        if opening is not None and stripped.endswith(f"</{tag}>"):
            ranges.append((opening, n))
            opening = None
    return ranges


def split_sentences(block: str, start: int, lower: bool = False) -> list[tuple[int, int]]:
    """Sentence spans: cut after ".", "!" or "?" before a capital (with *lower*, before
    a lowercase word too: a user's message), and at a line break unless a lowercase word
    carries an unfinished sentence over it."""
    cuts: set[int] = set()
    ends = list(SENTENCE_END_RE.finditer(block, start))
    if lower:
        ends += _LOWER_END_RE.finditer(block, start)
    for match in ends:
        word = block[max(start, match.start() - 12) : match.start()].rsplit(None, 1)[-1:]
        if not word or word[0].lstrip("(*_`\"'").lower() not in _ABBREVIATIONS:
            cuts.add(match.end())
    pos = block.find("\n", start)
    while pos >= 0:
        before = block[max(start, pos - 8) : pos].rstrip()
        after = block[pos + 1 : pos + 80].lstrip()
        if before.endswith((".", "!", "?")) or not after[:1].islower():
            cuts.add(pos)
        pos = block.find("\n", pos + 1)
    spans: list[tuple[int, int]] = []
    for cut in sorted(cuts):
        if block[start:cut].strip():
            spans.append((start, cut))
        start = cut
        while start < len(block) and block[start].isspace():
            start += 1
    if block[start:].strip():
        spans.append((start, len(block)))
    return spans


def starts_block(line: str) -> bool:
    """Blank, or the start of a list item, heading, fence, quote, table row, speaker
    turn or section label: never the continuation of the line before."""
    stripped = line.lstrip(" \t")
    if not stripped:
        return True
    marked = stripped[0] in "-*+•●⏺◦▪#>`~|[" or stripped[0].isdigit()
    if marked and _BLOCK_RE.match(stripped):
        return True
    if stripped.lstrip("*_#> ")[:9].lower().startswith(SPEAKERS) and SPEAKER_RE.match(stripped):
        return True
    return len(stripped) <= 40 and section_kind(stripped) is not None


def ends_block(line: str) -> bool:
    """A line nothing can continue: blank, a heading, a fence, a table row."""
    stripped = line.lstrip(" \t>")
    return not stripped or (stripped[0] in "#`~|" and _BLOCK_RE.match(stripped) is not None)
