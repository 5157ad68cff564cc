"""What a message sets aside rather than decides: an item of a list headed by options,
alternatives or rejected choices, a collapsed ``<details>`` block, a row of a markdown table
that rejects its choice or offers it among others. Read by :mod:`gitmem.capture.standing`,
which says why a quote does not stand as it was said. Pure; never raises."""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import islice

from gitmem.core.folding import fold
from gitmem.core.negation import CROSS_MARKS, NEGATION_RE

CHECK_MARKS = "✅✔✓☑"
"""Marks that say a line holds, or a row was chosen."""
_LIST_LINE_RE = re.compile(r"[ \t]*(?:[-*+]|\d+[.)])[ \t]+\S")
_HEADING_RE = re.compile(r"[ \t]*(?:#{1,6}[ \t]+(.+)|\*\*(.+?)\*\*:?|([^\n]{1,60}):)[ \t]*$")
_REJECTION = (
    r"reject(?:ed)?|discard(?:ed)?|dropped|ruled out|declined|abandoned|"
    r"not (?:chosen|picked|selected|doing|pursued|needed)|won'?t do|out of scope"
)
"""The words that set a choice aside: a heading of them heads no decision, and a table row
that says one of them outside the quote rejects it."""
_OPTIONS_RE = re.compile(
    rf"\b(?:options?|alternatives?|considered|candidates?|pros and cons|{_REJECTION})\b",
    re.IGNORECASE,
)


def list_heading(message: str, start: int) -> str | None:
    """The heading of the list whose item holds *start* ("## Rejected alternatives",
    "**Options considered:**", "Don't:"), or None. The list runs up from the item's line
    over list items, their indented lines and blank lines to the first other line, which
    must be a heading."""
    lines = message[: message.rfind("\n", 0, start) + 1].split("\n")[:-1]
    line_end = message.find("\n", start)
    own = message[message.rfind("\n", 0, start) + 1 : None if line_end < 0 else line_end]
    if _LIST_LINE_RE.match(own) is None:
        return None
    for line in reversed(lines):
        if not line.strip() or _LIST_LINE_RE.match(line) or line.startswith((" ", "\t")):
            continue
        return line if _HEADING_RE.fullmatch(line) else None
    return None


def under_options(message: str, start: int) -> bool:
    """Is the list item that holds *start* one of a list headed by options, alternatives
    or rejected choices?"""
    heading = list_heading(message, start)
    return heading is not None and _OPTIONS_RE.search(heading) is not None


# A <details> block is shown collapsed unless it is opened ("<details open>"): its
# <summary> shows, the rest is what its author set aside (alternatives, logs, background).
_DETAILS_TAG_RE = re.compile(r"<details\b([^<>]*)>|</details\s*>", re.IGNORECASE)
_SUMMARY_RE = re.compile(r"\s*<summary\b[^<>]*>.*?</summary\s*>", re.IGNORECASE | re.DOTALL)
_OPEN_RE = re.compile(r"\bopen\b", re.IGNORECASE)


def collapsed(message: str) -> list[tuple[int, int]]:
    """The spans of *message* that a collapsed ``<details>`` block hides: from after its
    ``<summary>`` to its close tag (or the end of the message), nesting counted."""
    spans: list[tuple[int, int]] = []
    opened: list[tuple[int, bool]] = []  # where each open block's hidden part starts
    for tag in _DETAILS_TAG_RE.finditer(message):
        if tag.group(1) is None:
            if opened:
                first, collapsed = opened.pop()
                if collapsed:
                    spans.append((first, tag.start()))
            continue
        summary = _SUMMARY_RE.match(message, tag.end())
        first = summary.end() if summary else tag.end()
        opened.append((first, _OPEN_RE.search(tag.group(1)) is None))
    spans.extend((first, len(message)) for first, collapsed in opened if collapsed)
    return spans


# A markdown table: rows of cells parted by "|", with a delimiter row ("|---|:--:|").
_ROW_RE = re.compile(r"[^\n]*\|[^\n]*")
_DELIMITER_RE = re.compile(r"[ \t]*\|?(?:[ \t]*:?-{3,}:?[ \t]*\|)+(?:[ \t]*:?-{3,}:?[ \t]*)?$")
# What a row says of its choice, outside the quote: rejected (in words, or a cross), or
# chosen (in words, or a check mark).
_REJECTS_RE = re.compile(rf"[{CROSS_MARKS}]|\b(?:{_REJECTION})\b", re.IGNORECASE)
_CHOSEN_RE = re.compile(
    rf"[{CHECK_MARKS}]|\b(?:chosen|picked|selected|adopted|accepted|decided|winner|go with|yes)\b",
    re.IGNORECASE,
)


def rejected_row(message: str, at: int, start: int, end: int) -> bool:
    """Is *at* in a row of a markdown table that, outside the span ``start:end``, rejects
    what it holds (in words, a cross or a negation), or in a table of options (its header
    row, or the heading above the table, names options or rejected choices) whose row
    does not say it was chosen?"""
    line_start = message.rfind("\n", 0, at) + 1
    line_end = message.find("\n", at)
    line_end = len(message) if line_end < 0 else line_end
    if "|" not in message[line_start:line_end]:
        return False
    above = _lines_up(message, line_start)
    table = []  # the rows above, nearest first
    heading = ""  # the first line above the table that is not blank
    for line in above:
        if _ROW_RE.fullmatch(line) is None:
            heading = line if line.strip() else next((h for h in above if h.strip()), "")
            break
        table.append(line)
    table = [*reversed(table), message[line_start:line_end]]
    table.extend(islice(_rows(_lines_down(message, line_end)), 1))  # a header's delimiter
    if len(table) < 2 or _DELIMITER_RE.match(table[1]) is None:
        return False
    outside = message[line_start : max(line_start, start)] + message[min(end, line_end) : line_end]
    if _REJECTS_RE.search(outside):
        return True
    if _CHOSEN_RE.search(outside):
        return False
    if NEGATION_RE.search(fold(outside)):
        return True
    return _OPTIONS_RE.search(table[0]) is not None or (
        _HEADING_RE.fullmatch(heading) is not None and _OPTIONS_RE.search(heading) is not None
    )


def _rows(lines: Iterator[str]) -> Iterator[str]:
    """The lines of *lines* up to the first that is no table row."""
    for line in lines:
        if _ROW_RE.fullmatch(line) is None:
            return
        yield line


def _lines_up(message: str, pos: int) -> Iterator[str]:
    """The lines of *message* before the line that starts at *pos*, nearest first."""
    while pos > 0:
        first = message.rfind("\n", 0, pos - 1) + 1
        yield message[first : pos - 1]
        pos = first


def _lines_down(message: str, pos: int) -> Iterator[str]:
    """The lines of *message* after the line that ends at *pos*, in order."""
    while pos < len(message):
        last = message.find("\n", pos + 1)
        last = len(message) if last < 0 else last
        yield message[pos + 1 : last]
        pos = last
