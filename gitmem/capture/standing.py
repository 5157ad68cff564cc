"""Does a quote stand as it was said? Struck-through words, and a condition left out.

Folding ignores markdown, so "~~Use MongoDB for the event store~~" holds the words "Use
MongoDB for the event store"; but its author struck them out. And "If the benchmark
regresses, we revert the parser change" holds "we revert the parser change", which was
said only under its condition. So:

- a quote whose ellipsis joins part of one sentence to part of another ("We keep…
  Redis for the cache" from "We keep Postgres. We drop Redis for the cache.") is not
  verbatim, whatever its kind; one that skips whole sentences is;
- a quote whose matched span touches struck-through text (``~~…~~``, ``<del>``, ``<s>``,
  characters struck one by one with a combining overlay, U+0334 to U+0338)
  is not verbatim, whatever its kind: struck text was withdrawn; nor one that touches an
  HTML comment (``<!-- … -->``, which a rendered message never shows), nor a line that a
  diff in the message removes (a ``-`` line of a fenced ``diff`` or ``patch`` block);
- a decision quoted from only the comment of a line of code in a fenced block
  (:mod:`gitmem.capture.comments`: "# we drop Redis" in a ``python`` block) is not
  verbatim: the code's author wrote it into the code;
- a decision quoted from an item of a list headed by options, alternatives or
  rejected choices ("## Rejected alternatives", "**Options considered:**"), or from a
  sentence that opens with an option's label ("Option A: use Redis"), is not
  verbatim: a list of options decides nothing; nor one from a collapsed ``<details>``
  block (past its ``<summary>``), where its author set text aside, nor from a row of a
  markdown table that rejects it ("rejected", "❌", a negation) or of a table of options
  that does not say it was chosen;
- a decision or fact whose quote leaves out the condition its own sentence opens with
  ("if", "unless", "in case", "assuming", "suppose", "provided", before the span starts;
  "once", "when", "until", "as soon as"; or opening a clause before it: "But if …, we
  revert", "(If …) we revert") is not verbatim; nor one a condition follows in its
  clause, right after or further on ("we deploy on Fridays if QA approves" quoted as "we
  deploy on Fridays", "…, unless the build is red", "(only when CI is green)", "…, for
  the team's sake, if QA approves", "we merge once the review passes"). A quote that
  holds its condition is, and so is one whose sentence ends before the next one's "If …",
  or whose condition word opens a clause of its own ("…, and we add SQLite if it fails").
- a decision, fact or belief cut from the negation its clause puts on it ("Don't use
  Redis" quoted as "use Redis", "Using Redis is not an option" as "Using Redis":
  :mod:`gitmem.capture.negated`; or the cross mark of its line, "- ❌ Tests pass" quoted
  as "Tests pass": :func:`_crossed`), or from the possibility or the limit before it ("We
  could use Redis", "Some of the tests pass"), or reported as another's words ("He said
  we should drop Redis", "Bob wants us to drop Redis"), is not verbatim.

Pure; never raises.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_left
from collections.abc import Callable

from gitmem.capture.comments import CODE_COMMENT, in_comment
from gitmem.capture.considered import (
    CHECK_MARKS,
    collapsed,
    list_heading,
    rejected_row,
    under_options,
)
from gitmem.capture.negated import Governs, governing_word, labelled, negating
from gitmem.capture.questions import DECIDING, SENTENCE_END
from gitmem.core.conditions import (
    ASKS,
    CONDITION_WORDS,
    ENDING_CONDITIONS,
    UNSPACED_CONDITIONS,
    WHEN_WORDS,
    condition_source,
)
from gitmem.core.folding import IN_WORDS_RE
from gitmem.core.items import Kind
from gitmem.core.lookalikes import read_capitals, read_look_alikes
from gitmem.core.negation import CROSS_MARKS
from gitmem.core.quotes import SPAN_JOIN

STRUCK = "the quote is struck through in its message, and struck text was withdrawn"
STITCHED = (
    "the quote joins part of one sentence to part of another across its ellipsis, which"
    " makes a sentence nobody said"
)
HIDDEN = "the quote lies in an HTML comment, which a reader of the message never sees"
REMOVED = "the quote is a line that a diff in its message removes"
CONSIDERED = "the quote is an item of a list of options or rejected choices, which decides nothing"
CONDITION = "the quote leaves out the condition its sentence puts on it"
NEGATED = "the quote leaves out the negation its clause puts on it"
POSSIBLE = "the quote leaves out the possibility its clause puts on it"
LIMITED = "the quote leaves out the limit its clause puts on it"
REPORTED = "the quote leaves out that its clause reports another's words"
_GOVERNED: dict[Governs, str] = {
    "negation": NEGATED,
    "possibility": POSSIBLE,
    "limit": LIMITED,
    "reported": REPORTED,
}
COLLAPSED = (
    "the quote lies in a collapsed <details> block, which holds what its author set aside,"
    " not what was decided"
)
REJECTED_ROW = (
    "the quote is a row of a table that rejects it, or of a table of options that does not"
    " choose it, which decides nothing"
)

# Struck-through text: "~~…~~", "<del>", "<s>", "<strike>", and characters struck one by
# one with a combining overlay (U+0334 to U+0338: "w\u0336e\u0336" shows "we" struck).
_STRUCK_RE = re.compile(
    r"(?<!~)~~(?!~)(?=\S).*?(?<=\S)(?<!~)~~(?!~)|<(del|s|strike)>.*?</\1>"
    r"|(?:[^\u0334-\u0338][\u0334-\u0338]+){2,}",
    re.IGNORECASE,
)
# A sentence starts after ". ", "! ", "? " or a line break, and after the full stops of
# scripts that do not space their sentences ("。", "！", "？").
_SENTENCE_START = re.compile(r"[.!?](?=\s)|[。！？]|\n")
# The words of gitmem.core.conditions, read on the message case-folded with its look-alike
# letters read as Latin ones and its invisible characters taken out (:func:`_letters`), so
# a Cyrillic "І" in "Іf" or a zero-width space in "i\u200bf" does not hide the condition.
_CONDITIONS = read_look_alikes(f"{CONDITION_WORDS}|{WHEN_WORDS}|suppose|supposing|als|indien|коли")
# A word ends at a character that is no letter or digit: "_If_" is emphasis.
# "Otherwise" and "(or) else" are "if not", "in that case" refers to a condition said
# before; and a condition put by inverting its verb and subject ("Should the benchmark
# regress, …", "Were it to fail, …", "Had we known, …"), up to its comma.
_INVERTED = (
    r"otherwise|(?:or )?else|in (?:that|this|which|such a) case"
    r"|(?:should|were|had)\s+(?:the|this|that|these|those|it|we|they|you|i|he|she"
    r"|our|your|their|any)\b[^.?!,;\n]*,"
)
_OPENS_WITH_CONDITION = re.compile(
    rf"[\s>*_`#-]*(?:\d+[.)]\s+)?(?:(?:{_CONDITIONS}|{_INVERTED})(?![^\W_])"
    rf"|若|{UNSPACED_CONDITIONS})"
)
# A condition that opens a clause of the sentence before the quote, after a mark or an
# opening word ("But if …, we revert", "(If …) we revert", "Ok, in case …"): the
# sentence does not open with it, but it still governs what follows. An "if" inside a
# clause ("not sure if …") opens none.
_CLAUSE_CONDITION = re.compile(
    r"(?:[,;:(\"'“‘—–]|\b(?:but|and|so|or|only|even|also|then|yet|now|well|ok|okay|just))"
    rf"[\s>*_`#-]*(?:(?:{_CONDITIONS}|{_INVERTED})(?![^\W_])|若|{UNSPACED_CONDITIONS})"
)
_ENDING_CONDITION = re.compile(ENDING_CONDITIONS)
# A condition after the quote, in its sentence ("we deploy on Fridays if QA approves",
# "…, unless the build is red", "(only when CI is green)", "…, for the team's sake, if QA
# approves", "we merge once the review passes"): the quote's words hold only under it.
# Narrower than the openers: a word that also means "as" (Dutch and German "als") would
# read a plain sentence's tail as a condition; nor is a trailing "若" ("若干" is "some").
# Not a word glued to an identifier ("skip-if-red").
_TRAILING_CONDITION = re.compile(condition_source(r"only\s+(?:if|when|once|after|until)|"))
# What ends the quote's clause before a condition further on can bind it: the sentence's
# end (not an abbreviation's period: "at 5 p.m. if QA approves"), a ";", a blank line, the
# next line's list marker (a line that starts with a capital starts anew too:
# :func:`_clause_end`).
_CLAUSE_STOP = re.compile(
    r"(?<!\.\w)(?<!\betc)(?<!\bvs)[.!?](?=\s|$)|[。！？;；]"
    r"|\n[^\S\n]*(?:\n|[-*+>#|]\s|\d+[.)]\s)"
)
# A condition word right after one of these opens or concedes no condition on the quote:
# ", and if it fails …" opens a clause of its own, "even if" concedes, "check if" asks.
_NO_CONDITION_AFTER = re.compile(rf"\b(?:and|or|but|so|then|yet|{ASKS})\W*\Z")
# A clause of its own between the quote and a condition further on: a relative or
# subordinate clause ("…, which we restore if it breaks", "so that if the disk fails"), or
# a new subject after a conjunction ("and we add SQLite if it fails"); unless a mark closes
# it before the condition ("on Fridays, the day that suits us, if QA approves").
_OWN_CLAUSE = re.compile(
    r"\b(?:which|who|whom|whose|that|because|since|although|though|while|whereas|where)\b"
    r"|\b(?:and|or|but|so|then|yet)\s+(?:we|i|you|they|it|he|she|this|there)\b"
)
_CLOSED = re.compile(r"\W*\w[^,;—–)]*[,—–)]")
_NEGATABLE = (*DECIDING, Kind.BELIEF)
"""The kinds a negation left out of the quote reverses (an open loop or an uncertainty
often lives in one: "we haven't fixed the parser")."""
_COMMENT_RE = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
_DIFF_RE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*(?:diff|patch)\b.*?(?:^[ \t]*\1|\Z)", re.M | re.S)
_REMOVED_LINE_RE = re.compile(r"^-(?!--).*$", re.M)
_NESTED_ITEM_RE = re.compile(r"[ \t]*(?:[-*+]|\d+[.)])[ \t]+[*_`]*")


def standing(span: str, message: str, kind: str) -> str | None:
    """Why the matched *span* (the transcript's own bytes of a verified quote, fragments
    joined by " … ") does not stand as said in *message*, for an item of *kind*: it
    touches struck-through text, an HTML comment or a line a diff removes; for a decision,
    it is an item of a list of options; for a decision or a fact, it leaves out the
    condition of its sentence. None when it stands. Raises nothing."""
    parts = span.split(SPAN_JOIN)
    starts: list[int] = []
    for part in parts:  # each fragment where it was said, in order
        at = message.find(part, starts[-1] + len(parts[len(starts) - 1]) if starts else 0)
        if at < 0:
            break
        starts.append(at)
    if not starts:
        return None
    start = starts[0]
    end = starts[-1] + len(parts[len(starts) - 1])
    if any(
        _stitched(message, at + len(part), after)
        for at, part, after in zip(starts, parts, starts[1:], strict=False)
    ):
        return STITCHED
    for struck in _STRUCK_RE.finditer(message):
        if struck.start() < end and start < struck.end():
            return STRUCK
    for comment in _COMMENT_RE.finditer(message):
        if comment.start() < end and start < comment.end():
            return HIDDEN
    for diff in _DIFF_RE.finditer(message):
        if diff.start() < end and start < diff.end():
            for line in _REMOVED_LINE_RE.finditer(message, diff.start(), diff.end()):
                if line.start() < end and start < line.end():
                    return REMOVED
    if kind not in _NEGATABLE:
        return None
    sentence = sentence_start(message, start)
    if kind == Kind.DECISION:
        if in_comment(message, start, end):
            return CODE_COMMENT
        if any(under_options(message, at) for at in starts):
            return CONSIDERED
        if _OPTION_LABEL_RE.match(message, sentence, start):
            return CONSIDERED  # "Option A: use Redis for the cache. Option B: …"
        if any(first < end and start < last for first, last in collapsed(message)):
            return COLLAPSED
        if any(rejected_row(message, at, start, end) for at in starts):
            return REJECTED_ROW
    if any(negating(h) for h in (list_heading(message, at) for at in starts) if h):
        return NEGATED  # "Don't:\n- use Redis for the cache"
    if _crossed(message, start, end):
        return NEGATED  # "❌ Tests pass on CI", "| Tests pass | ❌ |"
    after = message[end : max(end, clause_stop(message, start, end))]
    found = governing_word(message[sentence:start], message[start:end], after)
    governing = labelled(message[sentence:start], kind) or (found and found[0])
    if governing:
        return _GOVERNED[governing]
    if kind in DECIDING and _conditioned(message, sentence, start, end):
        return CONDITION
    return None


# A sentence that opens with an option's label, up to the quote ("Option A: use Redis",
# "**Alternative 2** — keep SQLite"): one of several put forward, none chosen by it.
_OPTION_LABEL_RE = re.compile(
    r"[\s>*_`#-]*(?:\d+[.)]\s+)?(?:option|alternative)\s*(?:[a-z]|\d{1,2}|one|two|three)?"
    r"[*_`]*\s*[:)—–-][^.!?\n]*$",
    re.IGNORECASE,
)
# A cross mark before the quote in its line, with no sentence end, ";" or check mark after it
# ("- ❌ Tests pass", "❌ **Retries:** on"), or right after the quote in its line, past
# spaces, markdown and punctuation ("keep the v1 API ✗", "| Tests pass | ❌ |").
_CROSS_BEFORE_RE = re.compile(rf"[{CROSS_MARKS}][^{CROSS_MARKS}{CHECK_MARKS}.!?;。！？；]*$")
_CROSS_AFTER_RE = re.compile(rf"[\s*_`|:.,;—–-]*[{CROSS_MARKS}]")


def _crossed(message: str, start: int, end: int) -> bool:
    """Does a cross mark (:data:`~gitmem.core.negation.CROSS_MARKS`) cross out the line
    of the span ``start:end`` outside it: before it in its line, with no sentence end,
    ";" or check mark between, or right after it? Folding drops the marks, so the negation
    rules of words never see them."""
    line_start = message.rfind("\n", 0, start) + 1
    line_end = message.find("\n", end)
    before = message[line_start:start]
    after = message[end : len(message) if line_end < 0 else line_end]
    return bool(_CROSS_BEFORE_RE.search(before) or _CROSS_AFTER_RE.match(after))


def _stitched(message: str, end: int, start: int) -> bool:
    """Does the ellipsis between a fragment that ends at *end* and the next one, which
    starts at *start*, skip a sentence's end while a fragment goes on past it: the first
    is cut before its sentence ends, or the next starts inside its sentence? "We keep…
    Redis for the cache" from "We keep Postgres. We drop Redis for the cache." says
    what neither sentence says; "We keep Postgres.… We drop Redis." skips whole
    sentences. A mark the first fragment ends on counts as said."""
    ends = list(SENTENCE_END.finditer(message, max(0, end - 1), start))
    if not ends:
        return False
    return _said(message[end : ends[0].start()]) or _said(message[ends[-1].end() : start])


def _said(text: str) -> bool:
    """Does *text* hold a word (a letter or a digit)?"""
    return any(char.isalnum() for char in text)


def sentence_start(message: str, start: int) -> int:
    """Where the sentence that holds *start* of *message* starts: after ". ", "! ", "? ",
    a line break, or a full stop of a script that does not space its sentences."""
    opening = [m.end() for m in _SENTENCE_START.finditer(message, 0, start)]
    return opening[-1] if opening else 0


def clause_stop(shown: str, start: int, end: int) -> int:
    """Where the clause of the quote ``shown[start:end]`` ends, read from its last word (a
    period it ends with may end its sentence), a condition further on in it included: its
    sentence's end, a ";", a blank line, the next list item."""
    said = end
    while said > start and not shown[said - 1].isalnum():
        said -= 1
    return _clause_end(shown, said)


def _conditioned(message: str, sentence: int, start: int, end: int) -> bool:
    """Does a condition govern the quote ``message[start:end]`` that it leaves out: one
    its sentence (from *sentence*) opens with, one that opens a clause before it, or one
    further on in its clause?"""
    shown, letters, at = _letters(message)
    sentence, start, end = at(sentence), at(start), at(end)
    condition = _OPENS_WITH_CONDITION.match(letters, sentence)
    if condition is not None and condition.end() <= start:
        return True
    if _CLAUSE_CONDITION.search(letters, sentence, start) is not None:
        return True
    if _ENDING_CONDITION.search(letters, sentence, start) is not None:
        return True  # "テストが通ったら、| キャッシュにRedisを使います"
    stop = clause_stop(shown, start, end)
    for word in _TRAILING_CONDITION.finditer(letters, end):  # its lookaheads see past stop
        if word.start() >= stop:
            break
        between = letters[end : word.start()]
        clauses = list(_OWN_CLAUSE.finditer(between))
        if clauses and not _CLOSED.match(between, clauses[-1].end()):
            continue
        if word.group().startswith("only") or _NO_CONDITION_AFTER.search(between) is None:
            return True
    return _nested_condition(shown, letters, end)


def _nested_condition(shown: str, letters: str, end: int) -> bool:
    """Does a list item nested under the line the quote ends on open with a condition
    ("- We deploy on Fridays\n  - only if QA approves")? The nested items run to the first
    line indented no deeper than that line."""
    first = shown.rfind("\n", 0, end) + 1
    indent = len(shown[first:end]) - len(shown[first:end].lstrip(" \t"))
    at = shown.find("\n", end)
    while at >= 0:
        last = shown.find("\n", at + 1)
        line = shown[at + 1 : None if last < 0 else last]
        if line.strip():
            if len(line) - len(line.lstrip(" \t")) <= indent:
                return False
            item = _NESTED_ITEM_RE.match(line)
            if item and _TRAILING_CONDITION.match(letters, at + 1 + item.end()):
                return True
        at = last
    return False


def _clause_end(shown: str, end: int) -> int:
    """Where the clause that goes on at *end* of *shown* ends (:data:`_CLAUSE_STOP`), or
    the line before one that starts with a capital: "We deploy on Fridays\nIf QA objects,
    we wait" is two sentences, while a wrapped line in small letters goes on."""
    stop = _CLAUSE_STOP.search(shown, end)
    limit = len(shown) if stop is None else stop.start()
    line = shown.find("\n", end, limit)
    while line >= 0:
        if shown[line + 1 : limit].lstrip()[:1].isupper():
            return line
        line = shown.find("\n", line + 1, limit)
    return limit


def _letters(message: str) -> tuple[str, str, Callable[[int], int]]:
    """*message* without its invisible characters and style marks (``n\u200bot`` is
    "not", ``i\u0332f\u0332`` is "if"); the same
    case-folded, its look-alike letters read as the Latin ones they show, at the same
    offsets (lowered when case folding would move them); and the offset in both of an
    offset of *message*."""
    kept: list[int] | None = None
    if IN_WORDS_RE.search(message):
        kept = [n for n, char in enumerate(message) if not IN_WORDS_RE.fullmatch(char)]
        message = "".join(message[n] for n in kept)
    if message.isascii():
        letters = message.casefold()
    else:
        letters = read_capitals(message).casefold()
        letters = message.lower() if len(letters) != len(message) else read_look_alikes(letters)
    if kept is None:
        return message, letters, lambda offset: offset
    return message, letters, functools.partial(bisect_left, kept)
