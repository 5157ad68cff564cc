"""One item from one marked span: the quote cut and trimmed, the text normalised, the
kind and importance settled by what the span marks and references."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from gitmem.capture.extract.heuristic.languages import NOT_DONE, SETTLED
from gitmem.capture.extract.heuristic.markers import SUBJECTLESS_RE, WORD_RE
from gitmem.capture.extract.heuristic.sentences import SENTENCE_END_RE, split_sentences
from gitmem.core.claims import references
from gitmem.core.items import Kind
from gitmem.core.negation import NEGATION_RE
from gitmem.core.quotes import MIN_PIN_CHARS, fold

MAX_QUOTE_CHARS = 280
"""A longer marked line is cut at a sentence boundary (else a word boundary)."""
MAX_TEXT_CHARS = 200
"""An item's text is cut at a word boundary, with "…", beyond this."""
IMPORTANCE = {"decision": 2, "open_loop": 1, "uncertainty": 0, "fact": 0}
FORGE_IMPORTANCE = 2
"""Any item naming a PR, merge request or issue."""

_SPACES_RE = re.compile(r"\s+")
_LIST_NUMBER_RE = re.compile(r"^\d{1,9}[.)]\s+(?=\S)")
_FORGE_FORM_RE = re.compile(r"[#!]\d|://")
_SETTLED_RE = re.compile(SETTLED, re.IGNORECASE)
_NOT_DONE_RE = re.compile(NOT_DONE, re.IGNORECASE)
_PR_FORM_RE = re.compile(
    r"://|\b(?:prs?|pull\s+requests?|mrs?|merge\s+requests?)\s*[#!]\d", re.IGNORECASE
)
"""A reference that names a pull or merge request, or a URL: never a point of a list."""
_BARE_NUMBER_RE = re.compile(
    r"#(?<![\w/#!&]#)(?<!pr #)(?<!mr #)(?<!request #)(\d{1,3})(?![\d\w])", re.IGNORECASE
)
"""A "#N" that names no pull or merge request ("#1", "(#6)", "Issue #2"). It opens with
the "#" (what may not stand before it is looked behind from there): a pattern that opens
with a look-behind is tried at every offset of a message, one that opens with a character
only where the character is."""
_POINT_NUMBER_RE = re.compile(
    r"^[ \t]*(?:#{1,6}[ \t]+)?(?:\*\*|__)?(\d{1,3})[.)](?=[\s*_]|$)", re.MULTILINE
)
"""A numbered list item or heading of the message's own ("6. Add the test", "### 6) …")."""


def own_points(text: str) -> int:
    """How far *text* numbers its own points, so that a bare "#N" up to there is one of them,
    not an issue (0: it numbers none).

    A message that writes a bare "#1" ("Issue #1 (Important): …", "the gap (#1 above)") numbers
    its points that way: every bare "#N" of it is one. Otherwise its own numbered list items and
    headings ("6. Retry the upload", "### 6) …") reach their highest number: "the retry (#6)
    needs a test" beside them names the sixth point."""
    numbers = [int(m.group(1)) for m in _BARE_NUMBER_RE.finditer(text)]
    if not numbers:
        return 0
    if 1 in numbers:
        return ALL_POINTS
    return max((int(m.group(1)) for m in _POINT_NUMBER_RE.finditer(text)), default=0)


ALL_POINTS = 1000
""":func:`own_points` of a message that numbers its points "#1", "#2" …: all of them."""
_UNTRIMMED = "*_~` \t\n\r,;"
_EMPHASIS_RUNS = ("**", "__", "~~", "*", "_", "`")


Item = tuple[Kind, str, str, int, dict[str, Any]]
"""(kind, text, quote, importance, extra) of one item of a unit."""


def make_item(
    block: str,
    start: int,
    end: int,
    kind: Kind | None,
    content: int,
    facts: bool = True,
    points: int = 0,
) -> Item | None:
    """(kind, text, quote, importance, extra) for the span, or None when it does not make
    a good item (no marker and no reference, too short, masked, or not verbatim). With
    *facts* False, a span whose only mark is a file, branch or commit makes no item. With
    *points* (how far its message numbers its own points, :func:`own_points`), a bare "#N"
    up to there is one of them: only a pull or merge request, a URL or another "#N" is a forge
    reference."""
    end = _cut(block, start, end)
    start, end = _trim(block, start, end)
    quote = block[start:end]
    claims, forge, state = references(quote)
    # "PR 1" of a plan is a step, not a pull request: a forge reference has "#", "!" or a URL.
    forge = forge and _FORGE_FORM_RE.search(quote) is not None
    if forge and points and _PR_FORM_RE.search(quote) is None and _all_points(quote, points):
        # "Issue #2 (Important): …" of a review that numbers its findings.
        forge = False
        claims = [c for c in claims if c.get("type") not in ("pr-state", "issue-state")]
    if kind is None:
        if forge:
            kind = Kind.FACT if state in ("merged", "closed") or _settled(quote) else Kind.OPEN_LOOP
        elif claims and facts:
            kind = Kind.FACT
        else:
            return None
    if content and NEGATION_RE.search(fold(block[start : start + content])):
        content = 0  # "Not yet done: the migration" keeps its label: without it, it is reversed
    body_start, _ = _trim(block, min(start + content, end), end)
    text = statement(block[body_start:end] if content else quote)
    # A quote under MIN_PIN_CHARS folded characters fails the check in Scan._unit.
    if "[redacted:" in quote or len(fold(text)) < MIN_PIN_CHARS:
        return None
    extra: dict[str, Any] = {}
    if forge or claims:
        extra["external_state"] = True
    if claims:
        extra["claims"] = claims
    importance = max(IMPORTANCE[kind], FORGE_IMPORTANCE if forge else 0)
    return kind, text, quote, importance, extra


def with_subject(
    text: str,
    item: Item,
    unit: int,
    before: tuple[int, int],
    taken: Sequence[tuple[int, int]],
    points: int = 0,
) -> Item:
    """*item*, quoted from the paragraph at *unit* of *text*, with its quote taking in the
    last sentence of the paragraph *before* it ([start, end), blank lines only between)
    when the quote opens the paragraph without its subject ("This is more accurate than
    …", "It now retries twice."): that sentence names it, and the quote stays one span.
    Unchanged when the quote opens with its subject, the paragraph before is one sentence
    (read as an item of its own, it would hold the joined one: a duplicate), its last
    sentence is a question or a lead-in (":"), both do not fit in one quote, or the joined
    span overlaps *taken*."""
    start = text.find(item[2], unit)
    end = start + len(item[2])
    if SUBJECTLESS_RE.match(text, start) is None or text[unit:start].strip(" \t>"):
        return item  # it names its subject, or follows a sentence of its own paragraph
    if text[before[1] : start].strip(" \t\n>"):
        return item  # code, a table or a rule stands between
    told = [s for s, e in split_sentences(text, before[0]) if e <= before[1]]
    if len(told) < 2:
        return item  # a paragraph of one sentence is an item of its own, which would hold this
    last = told[-1]
    said = text[last : before[1]].rstrip(" *_`\"')")
    if said.endswith(("?", ":", "：")) or end - last > MAX_QUOTE_CHARS:
        return item
    if any(last < stop and begin < end for begin, stop in taken):
        return item  # the sentence before is quoted already
    joined = make_item(text, last, end, item[0], 0, points=points)
    return item if joined is None else (*joined[:4], item[4] | joined[4])


def _settled(quote: str) -> bool:
    """Does *quote* say, in another language, that its PR or issue is merged or closed
    (:data:`~gitmem.capture.extract.heuristic.languages.SETTLED`), and not that it is not yet?"""
    return _SETTLED_RE.search(quote) is not None and _NOT_DONE_RE.search(quote) is None


def _all_points(quote: str, points: int) -> bool:
    """Is every bare "#N" of *quote* (and it has one) a point its message numbered?"""
    numbers = [int(m.group(1)) for m in _BARE_NUMBER_RE.finditer(quote)]
    return bool(numbers) and max(numbers) <= points


def _cut(block: str, start: int, end: int) -> int:
    """*end*, or the last sentence end (else word end) within MAX_QUOTE_CHARS."""
    if end - start <= MAX_QUOTE_CHARS:
        return end
    limit = start + MAX_QUOTE_CHARS
    ends = [m.end() for m in SENTENCE_END_RE.finditer(block, start, limit)]
    if ends:
        return ends[-1]
    space = block.rfind(" ", start, limit + 1)
    return space if space > start else end


def _trim(block: str, start: int, end: int) -> tuple[int, int]:
    """Narrow [start, end) past whitespace and emphasis at the ends: a pair of runs that
    encloses the span, or a run with no partner inside it."""
    changed = True
    while changed:
        if start < end and block[start] not in _UNTRIMMED and block[end - 1] not in _UNTRIMMED:
            break
        changed = False
        while start < end and block[start].isspace():
            start += 1
        while end > start and (block[end - 1].isspace() or block[end - 1] in ",;"):
            end -= 1
        for run in _EMPHASIS_RUNS:
            width = len(run)
            if end - start <= 2 * width:
                continue
            opens = block.startswith(run, start)
            closes = block.endswith(run, start, end)
            inner = block.find(run, start + width, end - width) >= 0
            if opens and (closes or not inner) and not (closes and inner):
                start += width
                changed = True
            if closes and (opens or not inner) and not (opens and inner):
                end -= width
                changed = True
            if changed:
                break
    return start, end


def statement(content: str) -> str:
    """Normalised text: emphasis stars gone, whitespace collapsed, capitalised, capped."""
    text = _SPACES_RE.sub(" ", content.replace("**", "").replace("~~", "")).strip(" *")
    # A list number inside emphasis ("**1. Inline Execution** — …") is the list's, not the
    # statement's: the verifier reads it as a list marker, so a stored quote may not hold it.
    text = _LIST_NUMBER_RE.sub("", text, count=1)
    if len(text) > MAX_TEXT_CHARS:
        cut = text.rfind(" ", 0, MAX_TEXT_CHARS)
        text = text[: cut if cut > 0 else MAX_TEXT_CHARS].rstrip(" ,;:-") + "…"
    first = WORD_RE.match(text)
    if first is not None and first.group().islower() and text[first.end() :][:1] in " ,":
        text = text[0].upper() + text[1:]
    return text
