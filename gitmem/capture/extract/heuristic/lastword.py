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

import re
from collections.abc import Sequence
from dataclasses import replace

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
    r"shipped|landed|addressed|handled|in\s+place|works?\s+now|now\s+works?|passing|pass(?:es)?)\b",
    re.IGNORECASE,
)
_NOT_DONE_RE = re.compile(
    r"\b(?:not|n['’]t|never|no\s+longer|yet\s+to|still\s+(?:need|to|fails?|failing|broken)|"
    r"remaining|left|pending|todo|blocked|needs?)\b",
    re.IGNORECASE,
)
_ALL_DONE_RE = re.compile(
    r"\b(?:all\s+(?:done|set|finished|complete[d]?)|(?:everything|all\s+(?:\w+\s+){0,3})(?:is|are|"
    r"was|were|has\s+been|have\s+been)\s+(?:now\s+)?(?:done|complete[d]?|finished|closed|merged|"
    r"committed(?:\s+and\s+pushed)?|pushed)|(?:is|are)\s+(?:now\s+)?(?:fully\s+)?complete\b)",
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


def last_word(items: Sequence[Candidate], report: int | None = None) -> list[Candidate]:
    """*items* (in any order) with what the session's later word closed, replaced or said
    again removed, in transcript order. *report* is the index of the message that reports
    the session's outcome (see :func:`~gitmem.capture.extract.heuristic.turns.report_index`),
    when there is one."""
    ordered = sorted(items, key=lambda c: c.position)
    kept: list[Candidate] = []
    for item in ordered:
        kept = [old for old in kept if not _undone_by(old, item)]
        same = next((old for old in kept if same_claim(old, item)), None)
        if same is not None:
            kept.remove(same)
            if item.kind == Kind.FACT and same.kind != Kind.FACT:
                item = same  # said again without a mark: it is still what it was
            item = replace(
                item,
                by_user=item.by_user or same.by_user,
                importance=max(item.importance, same.importance),
            )
        kept.append(item)
    if report is not None and _ends_all_done(kept, report):
        kept = [c for c in kept if c.kind not in _LOOPS or c.position[0] >= report]
    return kept


def same_claim(a: Candidate, b: Candidate) -> bool:
    """Do *a* and *b* say the same thing? Not when they hold different numbers, or one
    negates and the other does not: those make different claims."""
    qa, qb = fold(a.quote), fold(b.quote)
    if qa and qb and (qa in qb or qb in qa):
        return True
    ta, tb = fold(a.text), fold(b.text)
    if set(number_tokens(ta)) != set(number_tokens(tb)):
        return False
    if bool(NEGATION_RE.search(ta)) != bool(NEGATION_RE.search(tb)):
        return False
    return _jaccard(_words(a.text), _words(b.text)) >= SAME_CLAIM


def same_subject(a: Candidate, b: Candidate) -> bool:
    """Are *a* and *b* about the same thing?"""
    if _names(a.quote) & _names(b.quote):
        return True
    return _jaccard(_words(a.text), _words(b.text)) >= SAME_SUBJECT


def _undone_by(old: Candidate, new: Candidate) -> bool:
    """Does the later *new* close or replace the earlier *old*?"""
    if old.position[0] >= new.position[0] or not same_subject(old, new):
        # One message says its things at once: only a later message has the last word.
        return False
    if old.kind in _LOOPS:
        return new.kind not in _LOOPS and _says_done(new.text)
    if old.kind == Kind.DECISION and new.kind == Kind.DECISION:
        if new.by_user and _CORRECTION_RE.match(new.quote):
            return True
        return _REPLACES_RE.search(new.text) is not None and not same_claim(old, new)
    return False


def _says_done(text: str) -> bool:
    return _DONE_RE.search(text) is not None and _NOT_DONE_RE.search(text) is None


def _ends_all_done(items: list[Candidate], report: int) -> bool:
    """Does the report say everything is done, and leave no loop of its own?"""
    own = [c for c in items if c.position[0] == report]
    if any(c.kind in _LOOPS for c in own):
        return False
    return any(_ALL_DONE_RE.search(c.text) and not _NOT_DONE_RE.search(c.text) for c in own)


def _words(text: str) -> frozenset[str]:
    return frozenset(w for w in _WORD_RE.findall(fold(text)) if len(w) > 2 and w not in _STOP)


def _names(quote: str) -> frozenset[str]:
    """What *quote* names in code: backticked spans and identifier-like tokens."""
    found = {m.group(1).strip().casefold() for m in _CODE_RE.finditer(quote)}
    found |= {m.group().strip("./-").casefold() for m in _NAME_RE.finditer(quote)}
    return frozenset(n for n in found if len(n) >= 4)


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0
