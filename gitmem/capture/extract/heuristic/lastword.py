"""The session's last word wins among its own items.

What a session says early is often undone later: a loop is closed two replies on, a plan
is changed, the user overrides an answer. Read in transcript order:

1. **Duplicates collapse.** Two items that say the same thing (one quote holds the other,
   or they share most of their content words, :data:`SAME_CLAIM`, with the same numbers
   and both or neither negated) are one item: the later, ranked as the user's when either
   was (a plain restatement of a decision or loop keeps the earlier, marked one).
2. **A closed loop is gone.** A later item that says the thing is done ("fixed",
   "resolved", "committed", "is complete" …) and shares its subject removes an earlier
   open loop or question; so does a report that ends the session saying all of it is done
   ("All done. The epic is complete.") and leaves no loop of its own, for every loop said
   before it.
3. **A replaced decision is gone.** A later decision that says it replaces or reverses
   ("instead", "no longer", "not … anymore", "now", "switched", "reverted" …), or a user's
   correction ("no, …", "actually …", "don't …"), removes an earlier decision on the same
   subject.

Two items share a subject when they name the same thing in code (a backticked span, a
path, an identifier such as ``spotter-4te.3`` or ``CalculateAttribution``) or share a
good part of their content words (:data:`SAME_SUBJECT`). Pure; never raises.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Iterable
from dataclasses import replace
from itertools import islice
from typing import NamedTuple

from gitmem.capture.extract.heuristic import languages
from gitmem.capture.extract.heuristic.select import Candidate
from gitmem.core.items import Kind
from gitmem.core.negation import NEGATION_RE
from gitmem.core.numbers import number_tokens
from gitmem.core.quotes import fold

SAME_CLAIM = 0.6
"""Content-word Jaccard from which two items say the same thing."""
SAME_SUBJECT = 0.3
"""Content-word Jaccard from which two items are about the same thing."""

_WORD_RE = re.compile(r"[^\W\d_][\w'’-]*", re.UNICODE)
_CODE_RE = re.compile(r"`([^`\n]{2,80})`")
_NAME_RE = re.compile(r"(?<![\w/.-])(?=[\w./-]*[A-Za-z])[\w./-]*(?:[\d_./]|[a-z][A-Z])[\w./-]*")
_STOP = frozenset(
    (
        *("the", "and", "for", "with", "that", "this", "these", "those", "from", "into", "are"),
        *("was", "were", "has", "have", "had", "not", "but", "all", "any", "its", "it's", "our"),
        *("you", "your", "will", "can", "should", "must", "now", "also", "then", "than", "there"),
        *("here", "what", "when", "which", "who", "only", "just", "more", "some", "such", "been"),
        *("being", "does", "did", "done", "via", "per", "out", "use", "used", "using", "add"),
        *("added", "new", "one", "two", "too", "very", "still", "yet", "let", "get", "got"),
    )
)
_DONE_RE = re.compile(
    r"\b(?:done|fixed|resolved|complete[d]?|finished|closed|committed|merged|implemented|"
    r"shipped|landed|addressed|handled|in\s+place|works?\s+now|now\s+works?|passing|pass(?:es)?)\b"
    rf"|{languages.DONE}",
    re.IGNORECASE,
)
_NOT_DONE_RE = re.compile(
    r"\b(?:not|n['’]t|never|no\s+longer|yet\s+to|still\s+(?:need|to|fails?|failing|broken)|"
    r"remaining|left|pending|todo|blocked|needs?)\b"
    rf"|{languages.NOT_DONE}",
    re.IGNORECASE,
)
_ALL_DONE_RE = re.compile(
    r"\b(?:all\s+(?:done|set|finished|complete[d]?)|(?:everything|all\s+(?:\w+\s+){0,3})(?:is|are|"
    r"was|were|has\s+been|have\s+been)\s+(?:now\s+)?(?:done|complete[d]?|finished|closed|merged|"
    r"committed(?:\s+and\s+pushed)?|pushed)|(?:is|are)\s+(?:now\s+)?(?:fully\s+)?complete\b)"
    rf"|{languages.ALL_DONE}",
    re.IGNORECASE,
)
_REPLACES_RE = re.compile(
    r"\b(?:instead|no\s+longer|anymore|now|switched|switch|replaced?|reverted?|changed|rather|"
    r"drop(?:ped)?|removed?|renamed?|moved)\b",
    re.IGNORECASE,
)
_CORRECTION_RE = re.compile(
    r"[*_\s]*(?:no\b|nope\b|actually\b|instead\b|don['’]t\b|do\s+not\b|not\s+\w+\s*,|wait\b|"
    r"scratch\s+that|forget\b|revert\b|undo\b|rather\b)",
    re.IGNORECASE,
)
_LOOPS = (Kind.OPEN_LOOP, Kind.UNCERTAINTY)


COMPARED = 64
"""How many earlier items, at most, a later one is compared with: the newest that share a
word or a name with it (only those can be said again, closed or replaced by it). Real
sessions mark far fewer; the bound keeps a transcript that marks thousands linear."""


class _Facts(NamedTuple):
    """What the comparisons read of one item, worked out once."""

    quote: str
    """The quote, folded."""
    numbers: frozenset[str]
    negated: bool
    words: frozenset[str]
    """The text's content words."""
    names: frozenset[str]
    """What the quote names in code."""
    keys: frozenset[str]
    """What it is found by: its words, names and quote words."""
    loose: bool
    """No quote word inside its quote (only at its edges): a longer quote may hold it
    without sharing a word, so it is compared with every item, and every item with it."""


def _facts(item: Candidate) -> _Facts:
    quote, text = fold(item.quote), fold(item.text)
    words = _content(_WORD_RE.findall(text)) | languages.cjk_bigrams(text)
    names = _names(item.quote)
    quoted = _WORD_RE.findall(quote)
    keys = {f"w{w}" for w in words} | {f"n{n}" for n in names}
    keys |= {f"q{w}" for w in _content(quoted)}
    negated = bool(NEGATION_RE.search(text))
    numbers = frozenset(number_tokens(text))
    loose = not _content(quoted[1:-1])
    return _Facts(quote, numbers, negated, words, names, frozenset(keys), loose)


def last_word(items: Iterable[Candidate], report: int | None = None) -> list[Candidate]:
    """*items* (in any order) with what the session's later word closed, replaced or said
    again removed, in transcript order. *report* is the index of the message that reports
    the session's outcome (see :func:`~gitmem.capture.extract.heuristic.turns.report_index`),
    when there is one. Each item is compared with at most :data:`COMPARED` earlier ones."""
    kept: dict[int, tuple[Candidate, _Facts]] = {}
    """The items kept so far, by the number of their turn (the order they were kept in)."""
    found: dict[str, list[int]] = {}
    loose: list[int] = []
    for number, item in enumerate(sorted(items, key=lambda c: c.position)):
        facts = _facts(item)
        earlier = _earlier(kept, found, loose, facts)
        closes = _closes(item)
        if closes:
            for at in earlier:
                if _undone_by(kept[at], (item, facts), closes):
                    del kept[at]
        same = next((at for at in earlier if at in kept and _same_claim(kept[at][1], facts)), None)
        if same is not None:
            old, old_facts = kept.pop(same)
            if item.kind == Kind.FACT and old.kind != Kind.FACT:
                item, facts = old, old_facts  # said again without a mark: still what it was
            item = replace(
                item,
                by_user=item.by_user or old.by_user,
                importance=max(item.importance, old.importance),
            )
        kept[number] = (item, facts)
        for key in facts.keys:
            found.setdefault(key, []).append(number)
        if facts.loose:
            loose.append(number)
    items_kept = [item for item, _ in kept.values()]
    if report is not None and _ends_all_done(items_kept, report):
        items_kept = [c for c in items_kept if c.kind not in _LOOPS or c.position[0] >= report]
    return items_kept


def _earlier(
    kept: dict[int, tuple[Candidate, _Facts]],
    found: dict[str, list[int]],
    loose: list[int],
    facts: _Facts,
) -> list[int]:
    """The kept items a new one with *facts* is compared with, oldest first: the newest
    :data:`COMPARED` of those that share a key with it or are loose (every kept item when
    it is loose itself)."""
    if facts.loose:
        return sorted(islice(reversed(kept), COMPARED))
    # The newest COMPARED of the kept items in the windows (the newest 4 * COMPARED
    # entries of each key's list, and of the loose list), held in a heap of the newest
    # found so far: a list is read, newest first, only down to the oldest of those (of a
    # session whose items all say one thing again, the lists hold mostly items let go).
    newest: list[int] = []
    held: set[int] = set()
    for numbers in (*(found.get(key, ()) for key in facts.keys), loose):
        for back in range(len(numbers) - 1, max(-1, len(numbers) - 4 * COMPARED - 1), -1):
            at = numbers[back]
            if len(newest) == COMPARED and at <= newest[0]:
                break  # this list holds none newer from here on
            if at in held or at not in kept:
                continue
            if len(newest) == COMPARED:
                held.discard(heapq.heapreplace(newest, at))
            else:
                heapq.heappush(newest, at)
            held.add(at)
            if len(held) == len(kept):
                return sorted(newest)  # every kept item: the lists hold no other
    return sorted(newest)


def same_claim(a: Candidate, b: Candidate) -> bool:
    """Do *a* and *b* say the same thing? Not when they hold different numbers, or one
    negates and the other does not: those make different claims."""
    return _same_claim(_facts(a), _facts(b))


def same_subject(a: Candidate, b: Candidate) -> bool:
    """Are *a* and *b* about the same thing?"""
    return _same_subject(_facts(a), _facts(b))


def _same_claim(a: _Facts, b: _Facts) -> bool:
    if a.quote and b.quote and (a.quote in b.quote or b.quote in a.quote):
        return True
    if a.numbers != b.numbers or a.negated != b.negated:
        return False
    return _jaccard(a.words, b.words) >= SAME_CLAIM


def _same_subject(a: _Facts, b: _Facts) -> bool:
    if a.names & b.names:
        return True
    return _jaccard(a.words, b.words) >= SAME_SUBJECT


_CLOSES_LOOPS = 1
_REPLACES = 2
_CORRECTS = 4


def _closes(now: Candidate) -> int:
    """What a later *now* can undo of what came before, worked out once for it (not once
    per earlier item): :data:`_CLOSES_LOOPS` (it reports work done), :data:`_REPLACES` (a
    decision that replaces another), :data:`_CORRECTS` (the user's correction); 0 for
    nothing, which most items are."""
    closes = _CLOSES_LOOPS if now.kind not in _LOOPS and _says_done(now.text) else 0
    if now.kind == Kind.DECISION:
        if now.by_user and _CORRECTION_RE.match(now.quote):
            closes |= _CORRECTS
        if _REPLACES_RE.search(now.text) is not None:
            closes |= _REPLACES
    return closes


def _undone_by(old: tuple[Candidate, _Facts], new: tuple[Candidate, _Facts], closes: int) -> bool:
    """Does the later *new* close or replace the earlier *old*? (*closes*: what *new*
    can undo, :func:`_closes`.)"""
    (was, was_facts), (now, now_facts) = old, new
    if was.position[0] >= now.position[0]:
        # One message says its things at once: only a later message has the last word.
        return False
    if was.kind in _LOOPS:
        return bool(closes & _CLOSES_LOOPS) and _same_subject(was_facts, now_facts)
    if was.kind != Kind.DECISION or not closes & (_CORRECTS | _REPLACES):
        return False
    if not _same_subject(was_facts, now_facts):
        return False
    return bool(closes & _CORRECTS) or not _same_claim(was_facts, now_facts)


def _says_done(text: str) -> bool:
    return _DONE_RE.search(text) is not None and _NOT_DONE_RE.search(text) is None


def _ends_all_done(items: list[Candidate], report: int) -> bool:
    """Does the report say everything is done, and leave no loop of its own?"""
    own = [c for c in items if c.position[0] == report]
    if any(c.kind in _LOOPS for c in own):
        return False
    return any(_ALL_DONE_RE.search(c.text) and not _NOT_DONE_RE.search(c.text) for c in own)


def _content(words: Iterable[str]) -> frozenset[str]:
    return frozenset(w for w in words if len(w) > 2 and w not in _STOP)


def _names(quote: str) -> frozenset[str]:
    """What *quote* names in code: backticked spans and identifier-like tokens."""
    found = {m.group(1).strip().casefold() for m in _CODE_RE.finditer(quote)}
    found |= {m.group().strip("./-").casefold() for m in _NAME_RE.finditer(quote)}
    return frozenset(n for n in found if len(n) >= 4)


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0
