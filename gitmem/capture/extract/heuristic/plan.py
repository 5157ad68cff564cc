"""What an approved plan decides: the statement under its fix or approach heading.

Claude Code writes the plan the user approved into the user's turn ("Implement the
following plan: …"; :func:`~gitmem.capture.extract.heuristic.turns.plan_text`). Its
markers are read like a reply's, but a plan states its decision without one, as the
opening paragraph of the section that gives the fix ("## Fix: Stream per-host to parquet
writer" over "Instead of accumulating all rows, write each host's data as a separate row
group.") or weighs a trade-off ("## Sorting Tradeoff"). That paragraph is a decision;
the steps, files and checks under the other headings are how it is carried out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from gitmem.capture.extract.heuristic.item import IMPORTANCE, MAX_QUOTE_CHARS, make_item
from gitmem.capture.extract.heuristic.select import Candidate
from gitmem.capture.extract.heuristic.sentences import split_sentences
from gitmem.core.items import Kind

DECIDING_HEADING_RE = re.compile(
    r"^#{2,4}[ \t]+(?:(?:the|proposed|chosen|recommended)[ \t]+)?"
    r"(?:fix|approach|solution|design|decisions?|(?:[\w-]+[ \t]+)?trade-?offs?)"
    r"(?=[ \t]*(?:$|[:(—–-]))[^\n]*$",
    re.IGNORECASE | re.MULTILINE,
)
"""A plan's heading over what it decides: "## Fix", "## Fix: Stream per-host …", "## Fix (in
cc-lib …)", "## Approach", "## Proposed solution", "## Sorting Tradeoff". Not "## Fixes
applied" nor "## Design notes" (what follows the keyword is a colon, a dash or a
parenthesis, or nothing)."""
_NOT_PROSE_RE = re.compile(r"[ \t]*(?:[-*+|>]|\d{1,2}[.)]|#|```|~~~)")
"""A line that opens a list item, a table, a quote, a heading or fenced code: no statement."""


def plan_decisions(index: int, text: str) -> Iterator[Candidate]:
    """A decision for each deciding heading of the plan *text* (message *index*) whose
    first paragraph is prose that states something (it does not end in a colon, leading in
    to a list or code): the paragraph, or its first sentence when it is longer than a
    quote."""
    for heading in DECIDING_HEADING_RE.finditer(text):
        start = heading.end()
        while start < len(text) and text[start] in " \t\n":
            start += 1
        end = text.find("\n\n", start)
        end = len(text) if end < 0 else end
        paragraph = text[start:end].rstrip()
        if not paragraph or _NOT_PROSE_RE.match(paragraph) or paragraph.endswith((":", "：")):
            continue
        end = start + len(paragraph)
        if len(paragraph) > MAX_QUOTE_CHARS:
            sentences = split_sentences(text[:end], start)
            if not sentences:
                continue
            end = sentences[0][1]
        item = make_item(text, start, end, Kind.DECISION, 0)
        if item is None:
            continue
        kind, said, quote, _, extra = item
        position = (index, text.count("\n", 0, start), 0)
        importance = IMPORTANCE[Kind.DECISION]
        yield Candidate(kind, said, quote, importance, dict(extra), position, False, "plan")
