"""Where a quote sits in its file: its lines, the section of a table, the block of a rule.
Pure.

A **section** runs from the heading above a table (or the file's start) to the next
heading. A **rule block** is the paragraph or list a prose quote lies in: the run of
non-blank lines around it, up to a blank line, a heading, or :data:`MAX_BLOCK_LINES`
lines either way (a rule and its exceptions sit together).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

HEADING = re.compile(r"^ {0,3}#{1,6}(?:\s|$)")
MAX_BLOCK_LINES = 40


@dataclass(frozen=True)
class SourceFile:
    """A file as the row and rule gates read it."""

    path: str
    lines: tuple[str, ...]


def line_starts(lines: Sequence[str]) -> list[int]:
    """The offset of each line in the lines joined with ``\\n``."""
    starts, at = [], 0
    for line in lines:
        starts.append(at)
        at += len(line) + 1
    return starts


def line_of(starts: list[int], offset: int) -> int:
    """The line (0-based) holding *offset*."""
    return max(0, bisect_right(starts, offset) - 1)


def lines_label(first: int, last: int) -> str:
    """``line 5`` or ``lines 5-7`` (1-based) for 0-based *first* and *last*."""
    return f"line {first + 1}" if first == last else f"lines {first + 1}-{last + 1}"


def section(lines: Sequence[str], first: int, last: int) -> range:
    """The lines of the section around lines *first* to *last*: from the heading above
    them (included) to the next heading."""
    start = first
    while start > 0 and not HEADING.match(lines[start - 1]):
        start -= 1
    start = max(0, start - 1)
    end = last + 1
    while end < len(lines) and not HEADING.match(lines[end]):
        end += 1
    return range(start, end)


def rule_block(lines: Sequence[str], first: int, last: int) -> range:
    """The paragraph or list around lines *first* to *last* (module docstring)."""

    def inside(n: int) -> bool:
        return bool(lines[n].strip()) and not HEADING.match(lines[n])

    start = first
    while start > 0 and first - start < MAX_BLOCK_LINES and inside(start - 1):
        start -= 1
    end = last + 1
    while end < len(lines) and end - last <= MAX_BLOCK_LINES and inside(end):
        end += 1
    return range(start, end)
