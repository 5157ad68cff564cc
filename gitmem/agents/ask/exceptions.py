"""Exceptions and qualifying sentences: which of them qualify an answer from a table row
or from a rule in prose. Pure.

An **exception** holds "except", "exception", "unless", "notwithstanding", "exempt",
"does not apply" or "not applicable"; a **qualifying** sentence limits a rule with "only
if", "only when", "only during" (…), "provided that", "as long as", "subject to" or "on
condition that". Either, found anywhere in the table's section or the rule's block,
withholds the unqualified answer, whether or not the quote includes it; the answer is
released only when the exception is about something else. One **applies** when:

1. it is the quoted row's or rule's own (in the row, or in the quoted sentence), unless
   the answer carries it along ("20% off, except sale items");
2. it names a condition word or number of the question or of the quoted condition
   ("Lost items reported within 7 days are exempt" for a lost item);
3. it names no condition of any row or rule at all: it qualifies the whole table or block
   ("Except during maintenance.").

It does not apply when the question negates every word it governs ("when **not** paid
by card" escapes "unless paid by card"), when the quoted condition has numbers and the
sentence states only others (it is about another condition: "100 items or more" does not
qualify "10 items or more"), or when it names only what other rows or rules state (a
sentence about lost items does not qualify late returns).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from gitmem.agents.ask.conditions import Condition, content_words, negated_words, numbers_in
from gitmem.agents.ask.gates import fold
from gitmem.agents.ask.widen import widened_matches

EXCEPTION_RE = re.compile(
    r"\b(?:except|exception|exceptions|excepting|unless|notwithstanding|exempt|exempted)\b"
    r"|\b(?:does|do|shall|will) not apply\b|\bdoesn't apply\b|\bnot applicable\b"
    r"|\bonly (?:if|when|while|during|for|on|in|after|before|with|within|between)\b"
    r"|\bprovid(?:ed|ing)(?: that)?,?\s+(?=\w)|\bas long as\b|\bsubject to\b"
    r"|\bon (?:the )?condition that\b"
)
"""An exception or a qualifier, matched in folded text."""
SENTENCE_BREAK = re.compile(r"(?<=[.!?;])\s+|\n(?=\s*(?:[-*+]|\d+[.)])\s)|\n\s*\n")
"""Where one sentence (or list item) of prose ends and the next begins."""


@dataclass(frozen=True)
class Qualifier:
    """An exception or qualifying sentence near the quoted row or rule."""

    text: str
    where: str
    """Where it is, for the reason ("in the quoted row 5 of docs/x.md")."""
    own: bool
    """The quoted row's or rule's own, not a sentence beside it."""


@dataclass(frozen=True)
class Quoted:
    """What an exception is judged against."""

    answer: str
    question: Condition
    words: set[str]
    """The condition words of the quoted row or rule (and the question's it binds)."""
    numbers: set[str]
    """The number tokens of the quoted condition (not the answer's)."""
    others: Sequence[set[str]]
    """The words and number tokens of every other row or rule beside it."""


def sentences(text: str) -> list[str]:
    """The sentences and list items of *text*."""
    return [s for s in SENTENCE_BREAK.split(text) if s.strip()]


def is_qualifier(text: str) -> bool:
    return EXCEPTION_RE.search(fold(text)) is not None


def exception_problem(qualifiers: Iterable[Qualifier], quoted: Quoted) -> str | None:
    """Why an exception withholds the answer (the first that applies), or None."""
    asked = {n.token for n in quoted.question.numbers}
    for qualifier in qualifiers:
        why = _applies(qualifier, quoted, asked)
        if why is not None:
            shown = " ".join(qualifier.text.split())[:160]
            return f'an exception applies: "{shown}" ({qualifier.where}) {why}'
    return None


def _applies(qualifier: Qualifier, quoted: Quoted, asked: set[str]) -> str | None:
    text = qualifier.text
    if _excluded(text, quoted.question):
        return None
    if qualifier.own:
        return None if is_qualifier(quoted.answer) else "qualifies the quoted outcome"
    stated = {n.token for n in numbers_in(text)}
    condition = asked | quoted.numbers
    if stated and condition and not stated & condition:
        return None  # about another condition
    words = content_words(text)
    shared = sorted(w for w in words if widened_matches(w, quoted.words))
    shared += sorted(stated & asked)
    if shared:
        return f"mentions '{shared[0]}'"
    named = words | stated
    if not any(widened_matches(w, other) for other in quoted.others for w in named):
        return "qualifies all of it"
    return None


def _excluded(text: str, question: Condition) -> bool:
    """The question negates every word the exception governs."""
    governed = negated_words(text) & content_words(text)
    return bool(governed) and all(widened_matches(w, set(question.negated)) for w in governed)
