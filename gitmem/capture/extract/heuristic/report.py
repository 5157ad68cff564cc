"""The session's outcome: the report the assistant closes a session with.

What a session leaves behind is mostly said once, at its end: the reply that closes the
last turn ("All done. The epic is complete …", "Committed as `900b1aa` …", a "What's
left" section), a subagent's report to its parent (which message that is:
:func:`~gitmem.capture.extract.heuristic.turns.report_index`). That message is read
whole, unit by unit (a paragraph or a list item), rather than only where a marker
stands:

- a short report (at most :data:`SHORT_REPORT` units worth reading) gives one item per
  unit; a longer one gives its lead (the first unit worth reading, when it is a
  paragraph) and the units of its
  status sections ("Summary", "Changes", "Next steps", "What's left", "Not done",
  "Decisions", "Remaining" …, see
  :data:`~gitmem.capture.extract.heuristic.sentences.OUTCOME_HEADINGS` and
  :data:`~gitmem.capture.extract.heuristic.markers.SECTION_RE`), at most
  :data:`SECTION_UNITS` of each;
- not worth reading: fenced code, tables, a compaction's ``<analysis>`` notes, headings,
  interjections ("Perfect!"), narration of what comes next ("Let me …", "Now I have all
  the information …", "Here's a summary:"), a list item that starts with a file path or
  link (a file list), and tool output echoed in the reply;
- each unit is quoted from its start (from the last sentence of the paragraph before
  when it opens without its subject: "This is more accurate …"), at most
  :data:`~gitmem.capture.extract.heuristic.item.MAX_QUOTE_CHARS` (cut at a sentence end);
  its kind is the section's when it sits in a status section, an open loop when it offers
  or asks for the next step ("Want me to …?"), else a decision when it says what was
  changed or chosen, else a fact.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from gitmem.capture.extract.heuristic.item import (
    MAX_QUOTE_CHARS,
    Item,
    make_item,
    own_points,
    with_subject,
)
from gitmem.capture.extract.heuristic.languages import word_count
from gitmem.capture.extract.heuristic.lists import (
    Unit,
    done_lists,
    indexed_lists,
    list_numbers,
    offered_lists,
)
from gitmem.capture.extract.heuristic.markers import asks_to_choose, find_marker
from gitmem.capture.extract.heuristic.select import Candidate
from gitmem.capture.extract.heuristic.sentences import (
    BULLET_RE,
    FILE_ITEM_RE,
    OUTCOME_HEADINGS,
    chrome_end,
    heading_words,
    indent,
    section_kind,
    split_sentences,
    status_heading,
)
from gitmem.capture.extract.heuristic.status import (
    CHECKS_RE,
    INTERJECTION_RE,
    narration,
    nothing_left,
    routine,
    says_little,
    status,
)
from gitmem.capture.questions import DECIDING, rests_on_question
from gitmem.core.items import Kind
from gitmem.core.quotes import check_quotes, strip_gitmem_context

SHORT_REPORT = 10
"""A report with at most this many units worth reading is read whole."""
SECTION_UNITS = 2
"""The most units taken from one status section of a longer report."""
PENDING_WORDS = 4
"""A user's unanswered last message shorter than this is not a request to carry."""
LIST_ITEMS = 1
"""The most items taken from one list of a report (a list says one thing in parts)."""
REPORT_IMPORTANCE = 2
STATEMENT_ITEM_WORDS = 8
"""A list item of this many words that ends with a colon is a statement, not a lead-in."""

_FENCE_RE = re.compile(r"[ \t]*(?:>[ \t]?)*(`{3,}|~{3,})")
_RULE_RE = re.compile(r"[ \t]*(?:-{3,}|\*{3,}|_{3,})[ \t]*$")
_ATX_RE = re.compile(r"[ \t]*#{1,6}[ \t]+(?P<title>.*?)[ \t#]*$")
_BOLD_LINE_RE = re.compile(
    r"[ \t]*(?:\*\*|__)(?P<title>[^*_\n]{1,80}?)[ \t]*:?[ \t]*(?:\*\*|__)[ \t]*:?[ \t]*$"
)
_TABLE_RE = re.compile(r"[ \t]*\|")
_NUMBERED_LABEL_RE = re.compile(r"[ \t]*\d{1,2}[.)][ \t]+[^.!?:\n]{1,50}:[ \t]*$")
"""A recap's numbered section label ("8. Current Work:")."""
_TAG_RE = re.compile(r"</?[A-Za-z][\w:-]*(?:[ \t][^<>\n]*)?>")
_BEFORE_RE = re.compile(
    r"[ \t]*[*_]*(?:before|previously|old|was)[*_]*(?:[ \t]+\([^)\n]{1,60}\))?[*_]*[ \t]*[:：]",
    re.IGNORECASE,
)
"""A sentence that says how things were before the change ("**Before:** counted every line",
"Old: …"): it no longer holds; the unit is read from what follows ("**After:** …")."""
_ADDENDUM_RE = re.compile(
    r"(?:also|additionally|in\s+addition|as\s+a\s+side\s+note|side\s+note|btw)\b", re.IGNORECASE
)
_DATA_RE = re.compile(r"[ \t]*(?:\{[ \t\n]*\"|\[[ \t\n]*\{)")
"""A JSON object or array of objects: an answer written for a program (structured output)."""
_ECHO_RE = re.compile(r"[ \t]*(?:\$[ \t]|>>>[ \t]|[A-Z][\w-]*@[\w-]+[:$]|PS [A-Z]:\\)")
_OFFER_RE = re.compile(
    r"(?:want\s+me\s+to|would\s+you\s+like\s+(?:me\s+)?to|shall\s+i|should\s+i|do\s+you\s+want\s+"
    r"(?:me\s+)?to|let\s+me\s+know\s+(?:if|whether|when))\b",
    re.IGNORECASE,
)
_CHANGED_RE = re.compile(
    r"\b(?:now|changed|added|removed|renamed|replaced|moved|switched|implemented|introduced|"
    r"refactored|converted|extracted|dropped|uses|using|chose|decided|configured|set\s+to|"
    r"defaults?\s+to|instead)\b",
    re.IGNORECASE,
)


def report_items(
    index: int, raw: str, taken: list[tuple[int, int]], wrapped: bool = False
) -> Iterator[Candidate]:
    """The items of the report *raw* (message *index*): one per unit worth reading, as the
    module says; units overlapping a span of *taken* (quotes found already by the marker
    scan, offsets in *raw*) are left to those. *wrapped*: the reply before a last request
    to commit (:func:`~gitmem.capture.extract.heuristic.turns.wrapped_report`), whose
    units are of the family "report-wrapped"."""
    text = strip_gitmem_context(raw)
    every = [u for u in _units(text) if u.depth == 0]
    lists = list_numbers(text, every)
    units = [u for u in every if _worth_reading(text, u)]
    long = len(units) > SHORT_REPORT
    lead = None
    if long:
        first = units[0]
        units = _outcome(text, units)
        lead = first if units and units[0] is first else None
    done = done_lists(text, every, lists) | offered_lists(text, every, lists)
    done |= indexed_lists(text, every, lists)
    units = [u for u in units if lists.get(u.start) not in done]
    units = _heads_of_lists(text, units, lists)
    found: list[tuple[Unit, tuple[Kind, str, str, int, dict[str, object]]]] = []
    points = own_points(text)
    for unit in units:
        if any(unit.start < end and start < unit.end for start, end in taken):
            continue
        if _instructs(text, unit):
            continue
        item = _item(text, unit, points, wrapped)
        if item is not None:
            found.append((unit, _with_subject(text, unit, every, item, taken, points)))
    checks = check_quotes([item[2] for _, item in found], raw)
    for (unit, (kind, item_text, quote, _, extra)), check in zip(found, checks, strict=True):
        if check.verbatim and quote in raw:
            position = (index, text.count("\n", 0, unit.start), 0)
            rule = "report-lead" if unit is lead else "report-section" if long else "report-short"
            rule = "report-wrapped" if wrapped else rule
            yield Candidate(
                kind, item_text, quote, REPORT_IMPORTANCE, dict(extra), position, False, rule
            )


_INSTRUCTION_RE = re.compile(
    r"[ \t]*[*_]*(?:(?:then|now|next|afterwards|after\s+that)[ \t]*,?[ \t]+)?"
    r"(?:(?:run|use|execute|type|press|click|paste|copy|open|restart|reload|relaunch|enter|invoke|"
    r"install|launch|source|prefix|set)\b|you\s+(?:can|could|may)\b)"
    r"|[^\n]*(?:ください|下さい|하세요|세요|십시오)[。.!！]?[ \t]*$",
    re.IGNORECASE,
)
"""A sentence that tells the reader how to operate a tool ("Run `bd ready` to see available
work.", "You can run it with …", "`!` 프리픽스로 실행하세요.", "その後、必要に応じて bookmark を
設定してください。"): an imperative or "you can" in English, a polite imperative that ends a
Japanese or Korean sentence."""
_BLOCK_END_RE = re.compile(r"[ \t]*(?:>[ \t]?)*(?:`{3,}|~{3,}|\|)")
"""The last line of a fenced code block or of a table."""
_WORD_RE = re.compile(r"[^\W\d_]")


def _instructs(text: str, unit: Unit) -> bool:
    """Is *unit* a paragraph right after a fenced code block or a table that opens by
    telling the reader how to run what it shows (:data:`_INSTRUCTION_RE`)? The block is
    what the reader uses; the instruction says nothing that stands once it is followed. A
    lead-in above the block ("To pull the commit into jj:") is read as before."""
    end = unit.start
    while end > 0 and text[end - 1].isspace():
        end -= 1
    if not _BLOCK_END_RE.match(text, text.rfind("\n", 0, end) + 1, end):
        return False
    if BULLET_RE.match(text, unit.start):
        return False
    block = text[unit.start : unit.end]
    sentences = split_sentences(block, chrome_end(block))
    while len(sentences) > 1 and not _WORD_RE.search(block, *sentences[0]):
        # "`!` 프리픽스로 실행하세요.": the "!" in code is no sentence of its own.
        sentences[:2] = [(sentences[0][0], sentences[1][1])]
    return bool(sentences) and _INSTRUCTION_RE.match(block, *sentences[0]) is not None


def _with_subject(
    text: str, unit: Unit, every: list[Unit], item: Item, taken: list[tuple[int, int]], points: int
) -> Item:
    """*item* of *unit*, its subject taken from the paragraph before (:func:`with_subject`)."""
    before = next((b for b in reversed(every) if b.end <= unit.start), None)
    if before is None or before.heading != unit.heading:
        return item
    if BULLET_RE.match(text, unit.start) or BULLET_RE.match(text, before.start):
        return item  # a list's items are points of their own
    return with_subject(text, item, unit.start, (before.start, before.end), taken, points)


def pending_request(index: int, raw: str) -> Iterator[Candidate]:
    """The user's last message when nothing answered it: what they asked is left to do
    (an open loop; a question when it asks one). A short word ("commit", "thanks") is not
    a request worth carrying."""
    text = strip_gitmem_context(raw)
    unit = next((u for u in _units(text) if _start(text[u.start : u.end], True) is not None), None)
    if unit is None:
        return
    block = text[unit.start : unit.end]
    start = _start(block, True) or 0
    if word_count(block[start:]) < PENDING_WORDS:
        return
    ends = block.rstrip(" *_`\"')”’")
    kind = Kind.UNCERTAINTY if ends.endswith("?") else Kind.OPEN_LOOP
    item = make_item(block, start, len(block), kind, 0)
    if item is None or item[2] not in raw or not check_quotes([item[2]], raw)[0].verbatim:
        return
    position = (index, text.count("\n", 0, unit.start), 0)
    extra = dict(item[4])
    yield Candidate(item[0], item[1], item[2], REPORT_IMPORTANCE, extra, position, True, "pending")


def _outcome(text: str, units: list[Unit]) -> list[Unit]:
    """The lead and the status sections' units of a long report. The lead is a paragraph:
    a long report that opens with a list (a subagent's survey: "- Loads messages via …")
    has none."""
    kept = [u for u in units[:1] if BULLET_RE.match(text, u.start) is None]
    per: dict[str | None, int] = {}
    for unit in units[1:]:
        if unit.heading is None or unit.depth > 0 or not status_heading(unit.heading):
            continue
        per[unit.heading] = per.get(unit.heading, 0) + 1
        if per[unit.heading] <= SECTION_UNITS:
            kept.append(unit)
    last = units[-1]
    if last not in kept and _offers(text[last.start : last.end]):
        kept.append(last)  # what the report leaves waiting on the user
    return kept


def _offers(block: str) -> bool:
    """Does *block* close on an offer to the user ("Want me to …?")?"""
    sentences = split_sentences(block, 0)
    if not sentences:
        return False
    offer = block[sentences[-1][0] : sentences[-1][1]]
    return _OFFER_RE.search(offer) is not None and offer.rstrip(" *_)").endswith("?")


def _heads_of_lists(text: str, units: list[Unit], lists: dict[int, int]) -> list[Unit]:
    """At most :data:`LIST_ITEMS` items of one list (:func:`lists.list_numbers`); an
    open-loop section keeps every item."""
    kept: list[Unit] = []
    taken: dict[int, int] = {}
    for unit in units:
        number = lists.get(unit.start)
        loops = unit.heading is not None and section_kind(unit.heading) in (Kind.OPEN_LOOP,)
        if number is None or loops:
            kept.append(unit)
            continue
        taken[number] = taken.get(number, 0) + 1
        if taken[number] <= LIST_ITEMS:
            kept.append(unit)
    return kept


def _units(text: str) -> Iterator[Unit]:
    """Paragraphs and list items of *text*, outside fenced code, tables and analysis."""
    heading: str | None = None
    fence: str | None = None
    analysis = False
    start: int | None = None
    depth = 0
    base: int | None = None  # the indentation of the current list's top level
    pos = 0
    for line in text.split("\n"):
        here, pos = pos, pos + len(line) + 1
        stripped = line.strip()
        fenced = _FENCE_RE.match(line)
        boundary = (
            fence is not None
            or analysis
            or fenced is not None
            or stripped.startswith("<analysis>")
            or not stripped
            or _RULE_RE.match(line) is not None
            or _TABLE_RE.match(line) is not None
        )
        title = None if boundary else _heading(line)
        bullet = not boundary and title is None and BULLET_RE.match(line) is not None
        if start is not None and (boundary or title is not None or bullet):
            yield Unit(start, here - 1, depth, heading)
            start = None
        if fence is not None:
            if fenced and fenced.group(1)[0] == fence[0] and len(fenced.group(1)) >= len(fence):
                fence = None
        elif fenced is not None:
            fence = fenced.group(1)
        elif analysis or stripped.startswith("<analysis>"):
            analysis = not stripped.endswith("</analysis>")
        elif title is not None:
            heading, base = title, None
        elif bullet:
            base = indent(line) if base is None else min(base, indent(line))
            start, depth = here, 0 if indent(line) <= base else 1
        elif not boundary and start is None:
            deeper = base is not None and indent(line) > base
            start, depth = here, 1 if deeper else 0
            base = base if deeper else None
    if start is not None:
        yield Unit(start, len(text), depth, heading)


def _heading(line: str) -> str | None:
    """The title when *line* is a heading: ``## Title``, a bold-only line, or a short label
    line of a status section ("Next steps:", "7. Pending Tasks:")."""
    atx = _ATX_RE.match(line)
    if atx is not None:
        return atx.group("title")
    bold = _BOLD_LINE_RE.match(line)
    if bold is not None:
        return bold.group("title")
    if section_kind(line) is not None or _NUMBERED_LABEL_RE.match(line):
        return line.strip()
    stripped = line.strip()
    if (
        len(stripped) <= 40
        and stripped.rstrip("*_").endswith(":")
        and (
            OUTCOME_HEADINGS.fullmatch(heading_words(stripped))
            or CHECKS_RE.fullmatch(heading_words(stripped))
        )
    ):
        return stripped
    return None


def _worth_reading(text: str, unit: Unit) -> bool:
    block = text[unit.start : unit.end]
    if CHECKS_RE.match(block) or (unit.heading is not None and CHECKS_RE.match(unit.heading)):
        return False
    start = _start(block)
    if start is None or _ECHO_RE.match(block) or _TAG_RE.match(block.strip()):
        return False
    if _DATA_RE.match(block):
        return False  # {"verdict": "neutral", …}: a program asked for it, not a reader
    # A file list, whether its entries are list items or paragraphs of their own
    # ("**`strategy/rewind_test.go`** — `TestResolveAgent` with 4 subtests").
    listed = BULLET_RE.match(block) is not None or block.lstrip().startswith(("**`", "`", "__`"))
    return not (listed and FILE_ITEM_RE.match(block, chrome_end(block)))


def _start(block: str, user: bool = False, wrapped: bool = False) -> int | None:
    """Where a unit's statement starts: past its chrome, and past leading sentences that
    say nothing to carry (an interjection, "all tests pass"); None when nothing is left,
    or what is left narrates ("Let me …") or only leads in to what follows ("Files:")."""
    start = chrome_end(block)
    sentences = split_sentences(block, start)
    while sentences:
        first, end = sentences[0]
        sentence = block[first:end]
        lead = INTERJECTION_RE.match(sentence)
        if lead is not None and lead.end() < len(sentence):
            sentences[0] = (first + lead.end(), end)
            continue
        if lead is None and not status(sentence, wrapped) and not _BEFORE_RE.match(sentence):
            break
        sentences.pop(0)
    if not sentences:
        return None
    first, end = sentences[0]
    sentence = block[first:end].strip()
    if narration(sentence):
        return None
    if not user and _ADDENDUM_RE.match(sentence.lstrip("*_ ")) is not None:
        return None  # a side note after the outcome ("Also fixed …", "Also relevant: …")
    # A list item that says something before its colon ("1. **Confirm the path** — drop
    # the probe there and see if it shows up:" over a code block) is a statement.
    statement = BULLET_RE.match(block) and word_count(sentence) >= STATEMENT_ITEM_WORDS
    if len(sentences) == 1 and sentence.rstrip("*_ ").endswith((":", "：")) and not statement:
        return None
    if sentence[:1].islower() and not user:
        return None  # a fragment or a command line, not a statement (users write in lower case)
    return first


def _item(
    text: str, unit: Unit, points: int = 0, wrapped: bool = False
) -> tuple[Kind, str, str, int, dict[str, object]] | None:
    block = text[unit.start : unit.end]
    start = _start(block, wrapped=wrapped)
    if start is None:
        return None
    sentences = split_sentences(block, start)
    end = _told_end(block, sentences, wrapped)
    if end is None:
        return None
    first = block[sentences[0][0] : sentences[0][1]] if sentences else ""
    if nothing_left(first):
        return None  # "No action needed — …": nothing to carry
    if wrapped and asks_to_choose(first):
        return None  # a question to the user, whom the last request (to commit) answered
    kind = _kind(unit, block[start:end], first)
    offer = _closing_offer(block, sentences, end)
    if offer is not None:
        # What the unit leaves open is the offer that closes it ("… but we could filter
        # them out. Want me to add that filter, or leave them visible?"), quoted with the
        # sentence it refers back to.
        start, first = offer, block[offer:end]
        section = section_kind(unit.heading) if unit.heading is not None else None
        kind = section or Kind.OPEN_LOOP
    marker = find_marker(first)
    content = marker.content if marker is not None and marker.label else 0
    item = make_item(block, start, end, kind, content, points=points)
    if item is None or says_little(item[1]):
        return None
    if item[0] in DECIDING and rests_on_question(item[1], item[2], block):
        # A question the report leaves is open; it backs no decision or fact.
        return Kind.UNCERTAINTY, item[1], item[2], item[3], dict(item[4])
    return item[0], item[1], item[2], item[3], dict(item[4])


def _closing_offer(block: str, sentences: list[tuple[int, int]], end: int) -> int | None:
    """Where the quote of a unit that closes on an offer to the user starts ("Want me to
    …?", "Would you like me to …?" after what it proposes): the sentence before the offer,
    when both fit in one quote, else the offer. None for a unit of one sentence, or one
    that does not close on an offer."""
    told = [(s, e) for s, e in sentences if e <= end]
    if len(told) < 2:
        return None
    s, e = told[-1]
    if not _offers(block[s:e]):
        return None
    before = told[-2][0]
    fits = e - before <= MAX_QUOTE_CHARS and "\n\n" not in block[before:s]
    return before if fits else s


def _told_end(block: str, sentences: list[tuple[int, int]], wrapped: bool = False) -> int | None:
    """Where a unit's statement ends: before the sentences that close it by narrating what
    comes next ("… is complete. Here's a summary of the changes:", "All green. Now let me
    commit and push."). None when nothing but routine status is left before them."""
    kept = list(sentences)
    while len(kept) > 1 and narration(block[kept[-1][0] : kept[-1][1]]):
        kept.pop()
    if len(kept) == len(sentences):
        return len(block)
    told = block[kept[0][0] : kept[-1][1]]
    if all(routine(block[s:e], wrapped) for s, e in kept):
        return None
    return kept[0][0] + len(told.rstrip())


def _kind(unit: Unit, body: str, first: str) -> Kind:
    section = section_kind(unit.heading) if unit.heading is not None else None
    if section is not None:
        return section
    marker = find_marker(first)
    if marker is not None and marker.kind in (Kind.OPEN_LOOP, Kind.DECISION):
        return marker.kind
    if _OFFER_RE.search(first) and first.rstrip(" *_)").endswith("?"):
        return Kind.OPEN_LOOP
    if _CHANGED_RE.search(first):
        return Kind.DECISION
    return Kind.FACT
