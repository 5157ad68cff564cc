"""One message read: a cheap first pass finds the lines worth reading, each is widened to
its unit (paragraph or list item), and the unit's marked sentences become items whose
quotes are checked verbatim before they are kept."""

from __future__ import annotations

import bisect
import re
from array import array
from collections.abc import Generator, Iterator
from itertools import compress

from gitmem.capture.extract.heuristic.item import (
    FORGE_IMPORTANCE,
    MAX_QUOTE_CHARS,
    Item,
    make_item,
    own_points,
)
from gitmem.capture.extract.heuristic.languages import CJK_RE, narrates, word_count
from gitmem.capture.extract.heuristic.languages import NEEDLES as CJK_NEEDLES
from gitmem.capture.extract.heuristic.markers import (
    FENCE_NEEDLES,
    LINE_NEEDLES,
    NARRATION_RE,
    NUMBER_RE,
    REFERS_BACK_RE,
    REQUEST_RE,
    SUBJECTLESS_RE,
    TRIGGER_SET,
    Marker,
    find_marker,
    is_triggered,
    sentence_words,
    unpunctuate,
)
from gitmem.capture.extract.heuristic.select import Candidate
from gitmem.capture.extract.heuristic.sentences import (
    BULLET_RE,
    CHROME_RE,
    FILE_ITEM_RE,
    NUMBERED_RE,
    SPEAKER_RE,
    SPEAKERS,
    SUBHEADING_RE,
    Lines,
    ends_block,
    fenced_ranges,
    find_lines,
    indent,
    is_intro,
    line_starts,
    mark_lines,
    section_kind,
    speaker_lines,
    split_sentences,
    spoken_by_user,
    starts_block,
    tagged_ranges,
)
from gitmem.capture.extract.heuristic.status import bookkeeping
from gitmem.capture.extract.heuristic.turns import Reading
from gitmem.capture.questions import DECIDING, rests_on_question
from gitmem.core.claims import forge_numbers, references
from gitmem.core.items import Kind
from gitmem.core.quotes import check_quotes, strip_gitmem_context

FULL = Reading(loops=True, weak=True)
SECTION_LOOPS = 2
"""How many items of one open-loop section's list are taken (task boxes aside: each marks
its own): on the development split the first two of a section were credited 8 times in 11,
the third and later 0 times in 4, in two repositories (where a labeller took such a list,
they took it whole, as one item)."""
TASK_BOX_RE = re.compile(r"[ \t]*(?:>[ \t]?)*[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+\[[ xX]\][ \t]")
LEAD_LINES = 60
"""How far above a list item its lead-in is looked for."""
LOOPS = (Kind.OPEN_LOOP, Kind.UNCERTAINTY)
_LINK_RE = re.compile(r"https?://\S+")
PASTED_RE = re.compile(
    r"^[ \t]*(?:[❯›➜$%][ \t]|>>>[ \t]|PS [A-Z]:\\|[A-Za-z][\w.-]*@[\w.-]+[:$ ]|"
    r"commit [0-9a-f]{7,40}\b|=== (?:RUN|NAME|PAUSE|CONT)\b|--- (?:PASS|FAIL)\b|[✓✔✗✘][ \t]|"
    r"\{\"\w|\}[ \t]*(?:else\b|$))",
    re.MULTILINE,
)
"""A line of a terminal, a log or code pasted into the user's message: a prompt ("❯ git
log", "$ make"), git log's "commit <sha>", a test runner's "=== RUN", a tick or cross, a JSON
log line, a closing brace."""
# A paragraph under a "Next step:" section is an item when it says what to do, not when it
# reports ("The user's original request was: …").
_REPORTING = frozenset(
    (
        *("the", "this", "that", "these", "those", "it", "its", "i", "we", "you", "he", "she"),
        *("they", "my", "our", "your", "there", "here", "a", "an", "some", "all", "no", "if"),
        *("when", "as", "in", "on", "per", "note", "see", "user's", "user’s", "working"),
    )
)


class Scan:
    """One message cut into lines, and the units (paragraphs, list items) worth reading."""

    def __init__(self, index: int, raw: str, role: str, reading: Reading = FULL) -> None:
        self.index = index
        self.raw = raw
        self.reading = reading
        # The PRs and issues this message gives by their link: a reply that opened one
        # states it wherever it names it ("PR #12 created → merge after CI", "PR: <link>").
        self.linked = (
            frozenset(n for url in _LINK_RE.findall(raw) for n in forge_numbers(url))
            if "://" in raw
            else frozenset()
        )
        text = strip_gitmem_context(raw)
        # A stripped span leaves a newline behind: a quote spanning lines must be
        # looked up in the raw text too before it can be called a copy of it.
        self.literal = text == raw
        self.lines = Lines(text)
        low = text.lower()
        # Lowercasing can change a line's length, never the number of lines.
        starts = self.lines.starts if len(low) == len(text) else line_starts(low)
        self.fences = fenced_ranges(self.lines, sorted(find_lines(low, starts, FENCE_NEEDLES)))
        # A compaction's scratch notes: its <summary> says the same again.
        needles = ("<analysis>", "</analysis>")
        tags = sorted(find_lines(low, starts, needles)) if "<analysis>" in low else []
        analysis = tagged_ranges(self.lines, tags, "analysis") if tags else []
        if analysis:
            self.fences = _union([*self.fences, *analysis])
        self.tagged = bool(analysis)
        self.fence_starts = [first for first, _ in self.fences]
        # One flag per line (a set of line numbers would cost more than the lines).
        hits = bytearray(len(self.lines))
        mark_lines(low, starts, LINE_NEEDLES, hits)
        if not low.isascii() and CJK_RE.search(low):  # words without spaces between them
            mark_lines(low, starts, CJK_NEEDLES, hits)
        # (No match object outlives the loop: it would hold low, which is let go below.)
        for at in (match.start() for match in NUMBER_RE.finditer(low)):
            hits[bisect.bisect_right(starts, at) - 1] = 1
        speakers: list[int] = []
        fences = iter([*self.fences, (len(hits), len(hits))])
        fence = next(fences)
        plain = unpunctuate(low)  # as long as low: its lines start where low's do
        del low  # a long message is held once more for each copy kept
        # Line by line, without a list of them: fenced code is never read.
        for n in range(len(hits)):
            while n > fence[1]:
                fence = next(fences)
            if n >= fence[0]:
                continue
            words = plain[starts[n] : starts[n + 1] - 1].split()
            if not TRIGGER_SET.isdisjoint(words):
                hits[n] = 1
            if not role and words and words[0].strip("_") in SPEAKERS:
                speakers.append(n)
        self.hits = array("q", compress(range(len(hits)), hits))
        self.by_user = role in ("user", "human")
        self.points = own_points(text)
        self.speakers = [] if role else speaker_lines(self.lines, speakers)

    def items(self) -> Iterator[Candidate]:
        done = -1
        loops = False  # has an open-loop section been read in this message?
        for n in self.hits:
            if n <= done or self._fenced(n) or self.lines[n].lstrip().startswith("|"):
                continue  # fenced code and table rows are not read
            section = section_kind(self.lines[n])
            if section is not None:
                if section == Kind.OPEN_LOOP and loops:
                    # A second list of what is left ("Pending Tasks", then "Next Step")
                    # says the first again in other words.
                    done = _skipped(self._section(n, section))
                    continue
                loops = loops or section == Kind.OPEN_LOOP
                done = yield from self._section(n, section)
                continue
            first = n
            while first > done + 1 and self._joins(first):
                first -= 1
            done = self._unit_end(n)
            yield from self._unit(first, done, None)

    def _section(self, n: int, kind: Kind) -> Generator[Candidate, None, int]:
        """The items of the section labelled on line *n*: each list item under it; a
        bold-only line is a heading inside it; a paragraph indented under the label (or
        right after a line like "The action item is:") gives its first sentence. It ends
        at the first other line, at a line indented less than the label, at the next
        label, or at a sibling of a numbered label ("8. Current Work"). Returns its last
        line."""
        header, done, m = self.lines[n], n, n + 1
        numbered, intro = NUMBERED_RE.match(header) is not None, is_intro(header)
        top: int | None = None  # the indentation of the section's own list items
        given = 0  # items yielded from the section's list
        while m < len(self.lines) and m - n < 200:
            line = self.lines[m]
            if self._fenced(m) or not line.strip():
                m += 1
                continue
            deeper = indent(line) > indent(header)
            outdented = indent(line) < indent(header)
            if (numbered and not deeper) or outdented or section_kind(line) is not None:
                break  # a sibling, the enclosing list going on, or the next section
            if BULLET_RE.match(line):
                done = self._unit_end(m)
                top = indent(line) if top is None else top
                # A nested item is a step of the one above it; past the first few, a list
                # of what is left says the same thing in parts (a task box marks its own).
                box = TASK_BOX_RE.match(line) is not None
                if indent(line) <= top and (kind != Kind.OPEN_LOOP or box or given < SECTION_LOOPS):
                    found = list(self._unit(m, done, kind))
                    given += bool(found) and not box
                    yield from found
            elif SUBHEADING_RE.fullmatch(line.strip()):
                done = m
            elif (deeper or intro) and not starts_block(line):
                done = self._unit_end(m)
                found = list(self._unit(m, done, kind, paragraph=True))
                if not found:
                    break
                yield from found
            else:
                break
            intro = False
            m = done + 1
        return done

    def _offered(self, first: int) -> bool:
        """Is the unit on line *first* an item of a list that a question leads in to (the
        options it offers)? The lead is the nearest line above that is neither blank, a
        list item nor indented under one; a heading that asks is a title, not a lead."""
        if not BULLET_RE.match(self.lines[first]):
            return False
        for n in range(first - 1, max(-1, first - LEAD_LINES), -1):
            line = self.lines[n]
            if not line.strip() or BULLET_RE.match(line) or indent(line) > 0:
                continue
            lead = line.strip()
            if lead.startswith("#") or SUBHEADING_RE.fullmatch(lead):
                return False
            return lead.rstrip(" *_`\"')”’:").endswith("?")
        return False

    def _fenced(self, n: int) -> bool:
        at = bisect.bisect_right(self.fence_starts, n) - 1
        return at >= 0 and n <= self.fences[at][1]

    def _unit_end(self, n: int) -> int:
        while n + 1 < len(self.lines) and self._joins(n + 1):
            n += 1
        return n

    def _joins(self, n: int) -> bool:
        """Does line *n* continue the paragraph or list item of line n - 1? Never across
        the edge of a skipped block (fenced code ends with its fence; an analysis block
        does not)."""
        if starts_block(self.lines[n]) or ends_block(self.lines[n - 1]):
            return False
        return not (self.tagged and (self._fenced(n - 1) or self._fenced(n)))

    def _unit(
        self, first: int, last: int, section: Kind | None, paragraph: bool = False
    ) -> Iterator[Candidate]:
        block = self.lines.block(first, last)
        by_user = self.by_user or spoken_by_user(self.speakers, first)
        found = list(
            _unit_items(block, section, self.reading, by_user, paragraph, self.points, self.linked)
        )
        if found and self._offered(first):
            # An option a question offers ("Which is better? 1. Ask once …") is not chosen.
            found = [(start, item, rule) for start, item, rule in found if item[0] not in DECIDING]
        if not found:
            return
        # The guarantee, checked rather than argued: whole lines fold the same way alone
        # as inside their message, so a quote that passes here passes against the message.
        checks = check_quotes([item[2] for _, item, _ in found], block)
        for (start, (kind, text, quote, importance, extra), rule), check in zip(
            found, checks, strict=True
        ):
            if not check.verbatim or ("\n" in quote and not self.literal and quote not in self.raw):
                continue
            position = (self.index, first, start)
            yield Candidate(kind, text, quote, importance, extra, position, by_user, rule)


def _skipped(section: Generator[Candidate, None, int]) -> int:
    """Run *section* to its end, yielding none of its items; returns its last line."""
    while True:
        try:
            next(section)
        except StopIteration as end:
            return int(end.value)


def _union(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Line ranges merged where they overlap (a code fence inside an analysis block)."""
    merged: list[tuple[int, int]] = []
    for first, last in sorted(ranges):
        if merged and first <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return merged


def _unit_items(
    block: str,
    section: Kind | None,
    reading: Reading,
    by_user: bool,
    paragraph: bool,
    points: int = 0,
    linked: frozenset[int] = frozenset(),
) -> Iterator[tuple[int, Item, str]]:
    """(offset, item, rule family) for each marked sentence of *block*; a list item under
    a section, or a task box, is one item as a whole, a paragraph under one its first
    sentence. *reading* says which markers count here (see :mod:`.turns`); *linked*: the
    PRs and issues the message gives by their link."""
    chrome = CHROME_RE.match(block)
    start = chrome.end() if chrome else 0
    box = chrome.group("box") if chrome else None
    if box in ("x", "X"):
        return  # a finished task
    if chrome is not None and chrome["bullet"] is not None and FILE_ITEM_RE.match(block, start):
        return  # an entry of a file list ("- `src/x.py` (new, not committed)")
    heading = "#" in block[:start]  # the chrome holds a markdown heading's "###"
    speaker = SPEAKER_RE.match(block, start)
    if speaker is not None:
        start = speaker.end()
    rule = f"section-{section}" if section is not None else ""
    if box == " ":
        section, rule = Kind.OPEN_LOOP, "taskbox"
    if section is not None:
        end = len(block)
        if paragraph:
            s, end = split_sentences(block, start)[0]
            words = block[s:end].lstrip("*_ ").split(None, 2)
            if word_count(block[s:end]) < 3 or words[0].lower().strip(",:") in _REPORTING:
                return
        marker = find_marker(block[start:end], by_user)
        if marker is not None and marker.label:
            kind, content = marker.kind, marker.content
        else:
            kind, content = section, 0
        item = make_item(block, start, end, kind, content)
        if item is not None and (reading.loops or kind not in LOOPS):
            yield start, item, rule
        return
    # Output the user pasted (a terminal, a log, code) is not what they say: its phrases and
    # its files, branches and commits are the output's (their rules and labels still count).
    pasted = by_user and PASTED_RE.search(block) is not None
    bullet = chrome is not None and chrome["bullet"] is not None
    sentences = split_sentences(block, start, lower=by_user)
    # Only a sentence holding a trigger can hold a marker or a reference (each sentence's
    # words are cut once for both, and let go at once: a sentence can be a megabyte).
    triggered: list[bool] = []
    markers: list[Marker | None] = []
    for s, e in sentences:
        sentence = block[s:e]
        read = sentence_words(sentence)
        triggered.append(is_triggered(sentence, read))
        markers.append(find_marker(sentence, by_user, read) if triggered[-1] else None)
    for k, ((s, e), marker) in enumerate(zip(sentences, markers, strict=True)):
        if marker is None and not triggered[k]:
            continue
        if pasted and (marker is None or marker.weak):
            continue
        if (
            not by_user
            and not (marker and marker.label)
            and (NARRATION_RE.match(block, s) or narrates(block[s:e]))
        ):
            continue  # the assistant narrating its next step
        if marker is not None and (
            (marker.weak and not reading.weak) or (marker.kind in LOOPS and not reading.loops)
        ):
            continue
        if heading and marker is not None and marker.rule.startswith("phrase-"):
            continue  # "### Still open": a title over what is open, not what is open
        if marker is not None and marker.rule == "choice" and bullet:
            # "- Used `contentTypeText` instead of `"text"`": one change of a list of the
            # work done, as a file in a list item is; a paragraph reports the choice.
            continue
        if marker is not None and marker.label:
            # A label runs on, within its line, over the sentences after it that carry
            # nothing of their own.
            for after in range(k + 1, len(sentences)):
                next_end = sentences[after][1]
                if markers[after] is not None or "\n" in block[e:next_end]:
                    break
                claims, forge, _ = references(block[e:next_end])
                if claims or forge or next_end - s > MAX_QUOTE_CHARS:
                    break
                e = next_end
        asked = block[s:e].rstrip(" *_`\"')").endswith((":", "?"))
        label = marker is not None and marker.label and marker.kind == Kind.OPEN_LOOP
        if by_user and label and block[s:e].rstrip(" *_`\"')").endswith("?"):
            # A user's labelled question ("follow up: how do we guard against more?")
            # asks; the session answers it (an unanswered last one is the pending request).
            continue
        if marker is None and (asked or (by_user and REQUEST_RE.match(block, s))):
            # A lead-in, a question or a request ("can you read issue #3") names a
            # reference; it says nothing of it.
            continue
        subjectless = SUBJECTLESS_RE.match(block, s) or REFERS_BACK_RE.match(block, s)
        if k > 0 and subjectless and not (marker and marker.label):
            # The subject is in the sentence before: quote both, so the item names it.
            before, before_end = sentences[k - 1]
            question = block[before:before_end].rstrip(" *_`\"')").endswith("?")
            if e - before <= MAX_QUOTE_CHARS and "\n\n" not in block[before:s] and not question:
                s = before
        if marker is None:
            # A PR or issue reference counts in the user's messages, in the closing turn,
            # and given by its link anywhere.
            # A file, branch or commit counts in prose of the last replies only: a list
            # item that names one is a record of work done ("- Added `x.py`").
            facts = reading.weak and not bullet
            item = make_item(block, s, e, None, 0, facts=facts, points=points)
            forge = item is not None and item[3] >= FORGE_IMPORTANCE
            rule = "forge" if forge else "reference"
            if not forge and bookkeeping(block[s:e]):
                continue  # "Committed as `34984dd`.": the commit says what it holds
            said = item is not None and (
                "://" in item[2] or "claims" in item[4] or bool(forge_numbers(item[2]) & linked)
            )
            if forge and not reading.loops and not said:
                # Before the closing turn a reply names a PR or issue in passing ("the fix
                # landed in #172", "Code Review: PR #167"); one it opened it gives by its
                # link, and one whose state it says ("PR #37 is merged") is a claim to check.
                continue
        else:
            item = make_item(block, s, e, marker.kind, marker.content)
            rule = marker.rule
        if item is not None and item[0] in DECIDING and rests_on_question(item[1], item[2], block):
            continue  # "Going with SQLite?" decides nothing
        if item is not None:
            yield s, item, rule
