"""A report's lists: which list each list item belongs to, and the lists whose items are no
outcome of the work: its parts under a lead-in that says it is done, the options a
question offers the reader, or an index of numbered parts (docs/heuristic.md, "The
outcome")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from gitmem.capture.extract.heuristic.sentences import BULLET_RE, section_kind
from gitmem.core.items import Kind


@dataclass(frozen=True)
class Unit:
    """A paragraph or list item of a report: its text's [start, end) and its section."""

    start: int
    end: int
    depth: int
    """0 for a paragraph or a top-level list item; more for a nested item."""
    heading: str | None
    """The title of the heading it stands under (None: none)."""


def list_numbers(text: str, units: list[Unit]) -> dict[int, int]:
    """Which list each list item of *units* (a report's top-level units, in order) belongs
    to, by its start: items that follow one another under one heading, with no paragraph
    between them (a paragraph ends a list even when it is not worth reading: "Two
    confirmations I'd like to run:" between two numbered lists)."""
    out: dict[int, int] = {}
    number, previous = 0, None
    for unit in units:
        if BULLET_RE.match(text, unit.start) is None:
            previous = None
            continue
        if previous is None or previous.heading != unit.heading:
            number += 1
        out[unit.start] = number
        previous = unit
    return out


_DONE_LEAD_RE = re.compile(
    r"(?:\b(?:completed?|done|finished|removed|added|deleted|simplified|changed|fixed|"
    r"implemented|updated|pushed|merged|committed|now(?:[ \t]+\w+)?)|"
    r"here['’]s[ \t]+what[ \t]+(?:i|we)[ \t]+(?:did|changed|fixed))[*_]*[ \t]*[:：][*_]*[ \t]*$",
    re.IGNORECASE,
)
"""A lead-in that ends on the work done ("All 3 subtasks completed:", "X now:")."""
_CHANGED = (
    r"(?:added|created|updated|removed|deleted|fixed|changed|modified|simplified|renamed|"
    r"moved|replaced|refactored|extracted|implemented|rewrote|wrote|new[ \t]+(?:files?|tests?)|"
    r"(?:updated|changed|modified|added|removed|deleted)[ \t]+(?:files?|tests?))"
)
_CHANGE_LEAD_RE = re.compile(
    rf"[ \t]*[*_]*(?:i[ \t]+|i['’]ve[ \t]+)?{_CHANGED}\b[^\n]*[:：][*_]*[ \t]*$",
    re.IGNORECASE,
)
"""A line that leads in to a list by naming the change it is part of: it opens with the verb
of the change ("Added two entries under **Fixes** in the release notes:", "Updated the
README in two places:") or is only that word ("**Removed:**", "New files:")."""
HEADING_WORDS = 6
"""A heading that names a change is a label of a few words ("Removed from `x`"), not a title
that says something of its own."""
_STILL_OPEN_RE = re.compile(
    r"\b(?:but|still|left|remain(?:s|ing)?|not|yet|todo|pending|open|unresolved)\b",
    re.IGNORECASE,
)


def done_lists(text: str, units: list[Unit], lists: dict[int, int]) -> set[int]:
    """The lists (:func:`list_numbers`) a paragraph of *units* leads in to by saying the work is
    done: each item is a part of it ("1. **Finds checkpoints** - walks the history"), not
    the outcome. A list under an open-loop heading is what is left, whatever leads in."""
    done: set[int] = set()
    for before, unit in pairwise(units):
        number = lists.get(unit.start)
        if number is None:
            continue
        if unit.heading is not None and section_kind(unit.heading) == Kind.OPEN_LOOP:
            continue
        if before.heading != unit.heading:
            # The list opens its section: a label that names the change ("**Removed:**").
            if unit.heading is not None and _changed(unit.heading, heading=True):
                done.add(number)
            continue
        if before.start in lists:
            continue
        lead = text[before.start : before.end].rstrip().rsplit("\n", 1)[-1]
        if _DONE_LEAD_RE.search(lead) or _changed(lead):
            done.add(number)
    return done


def _changed(lead: str, heading: bool = False) -> bool:
    """Does *lead* lead in to a list by naming the change it is part of (it opens with the
    change's verb, or is only that word: :data:`_CHANGE_LEAD_RE`), and not what is still
    open ("Added a guard, but two cases are still open:")? A *heading*'s title ("Removed",
    "Removed from `x`": a bold label's colon is not in it) is one of a few words."""
    if heading:
        short = len(lead.split()) <= HEADING_WORDS
        lead = f"{lead.rstrip()}:" if short and not lead.rstrip(" *_").endswith(":") else lead
    return _CHANGE_LEAD_RE.match(lead) is not None and _STILL_OPEN_RE.search(lead) is None


_CHOOSE_RE = re.compile(
    r"[ \t]*[*_]*(?:which\b[^\n]*|[^\n]*\b(?:prefer|choose|pick|your\s+call)\b[^\n]*)"
    r"\?[*_]*[ \t]*$",
    re.IGNORECASE,
)
"""A one-line paragraph after a list that asks the reader to choose ("Which is it?",
"Which approach do you prefer?"); not an offer to go on ("Want me to commit these?")."""


def offered_lists(text: str, units: list[Unit], lists: dict[int, int]) -> set[int]:
    """The lists (:func:`list_numbers`) a question asks the reader to choose from: the
    paragraph before ends on a question, or the paragraph after is one that asks for a
    choice (:data:`_CHOOSE_RE`). Their items are candidates, not what was done or decided."""
    offered: set[int] = set()
    for before, unit in pairwise(units):
        if before.heading != unit.heading:
            continue
        first, second = lists.get(before.start), lists.get(unit.start)
        lead = text[before.start : before.end].rstrip().rstrip(" *_")
        if second is not None and first is None and lead.endswith("?"):
            offered.add(second)
        if first is not None and second is None:
            after = text[unit.start : unit.end].strip()
            if "\n" not in after and _CHOOSE_RE.match(after):
                offered.add(first)
    return offered


_KEY_RE = re.compile(
    r"[ \t]*(?:>[ \t]?)*[ \t]*(?:[-*+•●⏺◦▪]|\d{1,9}[.)])[ \t]+[*_`]*"
    r"(?P<key>[^\s*_`:—–(]{1,40}(?:[ \t]+[^\s*_`:—–(]{1,40}){0,2}?)[*_`]*[ \t]*(?::|[-—–][ \t]|\()"
)
"""A list item that opens with a key and a separator ("1. **spotter-4te.1** - OTEL
dependencies", "- R5: a helper", "- Line 307: `n, m := …`"): the key is at most three
words before a colon, a dash or a parenthesis."""
_DIGITS_RE = re.compile(r"\d+")


def indexed_lists(text: str, units: list[Unit], lists: dict[int, int]) -> set[int]:
    """The lists (:func:`list_numbers`) that index numbered parts: two or more of their items
    open with keys of one stem and different numbers ("**spotter-4te.1** - …", "**spotter-4te.2**
    - …"; "R5: …", "R6: …"; "Line 307: …", "Line 308: …"). Each entry names a part by its
    number and says what it holds (a task of an epic, a requirement of a commit, a line of
    the code read); what came of them is said around the list. A list under an open-loop
    heading is what is left, whatever its keys."""
    keys: dict[int, dict[str, set[str]]] = {}
    for unit in units:
        number = lists.get(unit.start)
        if number is None:
            continue
        if unit.heading is not None and section_kind(unit.heading) == Kind.OPEN_LOOP:
            continue
        key = _KEY_RE.match(text, unit.start, unit.end)
        if key is None or _DIGITS_RE.search(key.group("key")) is None:
            continue
        name = key.group("key").casefold()
        keys.setdefault(number, {}).setdefault(_DIGITS_RE.sub("#", name), set()).add(name)
    return {n for n, stems in keys.items() if any(len(v) >= 2 for v in stems.values())}
