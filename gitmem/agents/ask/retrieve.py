"""Keyword retrieval: the excerpts a question is answered from. Pure and deterministic.

The question's terms are its words (case-folded, without common function words). A
term matches a word of a source when the word equals it or extends it by at most two
letters ("live" matches "lives" and "lived"); words are split at every character that
is not a letter or digit, so ``TIMEOUT_SECONDS`` holds "timeout" and "seconds".

Each line holding a term opens a window of a few lines around it. A window scores the
rarity-weighted sum of the distinct terms it holds, plus a little for terms in the
path. The best windows win, never two overlapping ones of the same source.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gitmem.agents.ask.result import Excerpt
from gitmem.agents.ask.sources import Document

MAX_EXCERPTS = 6
MAX_EXCERPT_CHARS = 1500
WINDOW_BEFORE = 3
WINDOW_AFTER = 5
MAX_SUFFIX = 2

_TOKEN = re.compile(r"[^\W_]+")
_STOPWORD_TEXT = """
    a an and are as at be been but by can could did do does doing done for from had has
    have how i if in into is it its me my no not of on or our should so than that the
    their them then there these they this those to us was we were what when where which
    while who whom whose why will with would you your about any all also
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())

_KIND_WORD_TEXT = {
    "decision": "decide decided decides decision decisions choose chose chosen choice agree "
    "agreed settle settled pick picked",
    "open_loop": "todo todos open pending left remain remains remaining unfinished "
    "outstanding loop loops",
    "fact": "fact facts know known learn learned learnt",
    "belief": "believe believed belief beliefs think thought assume assumed assumption",
    "uncertainty": "unsure uncertain uncertainty unknown unclear doubt doubts",
}
KIND_WORDS = {kind: frozenset(text.split()) for kind, text in _KIND_WORD_TEXT.items()}
"""The words a question asks for a kind of memory item by ("what did we decide about
the parser?"): a memory item of that kind holds them, whatever its own words are."""


def question_terms(question: str) -> tuple[str, ...]:
    """The search terms of a question, in order, without repeats."""
    words = (w for w in _TOKEN.findall(question.casefold()) if w not in STOPWORDS)
    return tuple(dict.fromkeys(w for w in words if len(w) > 1 or w.isdigit()))


def tokens(text: str) -> set[str]:
    return set(_TOKEN.findall(text.casefold()))


def term_matches(term: str, words: set[str]) -> bool:
    """*term* equals one of *words*, or one of them extends it by at most two letters."""
    if term in words:
        return True
    if term.isdigit():
        return False  # "37" never matches "375"
    return any(
        w.startswith(term) and len(w) - len(term) <= MAX_SUFFIX and w[len(term) :].isalpha()
        for w in words
    )


@dataclass(frozen=True)
class _Window:
    score: float
    document: Document
    start: int  # 0-based, inclusive
    end: int  # 0-based, exclusive


Match = Callable[[str, set[str]], bool]
"""A term rule: does a term match one of a set of words?"""


def retrieve(
    question: str,
    documents: Sequence[Document],
    limit: int = MAX_EXCERPTS,
    match: Match = term_matches,
    probes: Callable[[str], str] = lambda term: term,
) -> list[Excerpt]:
    """The best excerpts for *question*, numbered ``E1``… in rank order. *match* is the
    term rule (:func:`term_matches` unless widened); ``probes(term)`` is a substring
    every text a term can match holds (a cheap first filter)."""
    terms = question_terms(question)
    if not terms:
        return []
    probe = [probes(t) for t in terms]
    candidates = [d for d in documents if _mentions(d, probe)]
    words = [tokens("\n".join(d.lines)) for d in candidates]
    # Rarer terms weigh more: log((N + 1) / (documents holding the term + 0.5)).
    weight = {
        t: math.log((len(documents) + 1) / (sum(match(t, w) for w in words) + 0.5)) for t in terms
    }
    windows: list[_Window] = []
    for document, held in zip(candidates, words, strict=True):
        present = [t for t in terms if match(t, held)]
        if present:
            windows += _windows(document, present, weight, match)
    windows.sort(key=lambda w: (-w.score, w.document.path, w.start))
    chosen: list[_Window] = []
    for window in windows:
        if len(chosen) >= limit:
            break
        if any(
            c.document is window.document and c.start < window.end and window.start < c.end
            for c in chosen
        ):
            continue
        chosen.append(window)
    return [_excerpt(f"E{n}", w) for n, w in enumerate(chosen, start=1)]


def exact_lines(question: str, documents: Sequence[Document], limit: int) -> list[Excerpt]:
    """Verbatim memory items, then single lines of files, that hold *every* term of the
    question: what ``ask`` shows when no model is configured. A memory item holds the
    words that ask for its kind (:data:`KIND_WORDS`) as well as its own."""
    terms = question_terms(question)
    if not terms:
        return []
    found: list[_Window] = []
    ordered = sorted(documents, key=lambda d: (d.kind != "memory", d.path))
    for document in ordered:
        kind_words = KIND_WORDS.get(document.item_kind or "", frozenset())
        if not _mentions(document, terms) and not any(t in kind_words for t in terms):
            continue
        if document.kind == "memory":
            words = tokens(f"{document.note or ''}\n" + "\n".join(document.lines))
            if all(term_matches(t, words | kind_words) for t in terms):
                found.append(_Window(0.0, document, 0, len(document.lines)))
            continue
        for n, line in enumerate(document.lines):
            if all(term_matches(t, tokens(line)) for t in terms):
                found.append(_Window(0.0, document, n, n + 1))
        if len(found) >= limit:
            break
    return [_excerpt(f"E{n}", w) for n, w in enumerate(found[:limit], start=1)]


def _mentions(document: Document, terms: Sequence[str]) -> bool:
    """A cheap first filter: some term appears somewhere as a substring."""
    text = "\n".join(document.lines).casefold()
    note = (document.note or "").casefold()
    return any(t in text or t in note for t in terms)


def _windows(
    document: Document, terms: Sequence[str], weight: dict[str, float], match: Match
) -> list[_Window]:
    line_terms = [frozenset(t for t in terms if match(t, tokens(line))) for line in document.lines]
    path_words = tokens(document.path if document.kind == "file" else (document.note or ""))
    bonus = 0.25 * sum(weight[t] for t in terms if match(t, path_words))
    windows = []
    for n, held in enumerate(line_terms):
        if not held:
            continue
        start = max(0, n - WINDOW_BEFORE)
        end = min(len(document.lines), n + WINDOW_AFTER + 1)
        inside = frozenset().union(*line_terms[start:end])
        score = sum(weight[t] for t in inside) + 0.1 * sum(bool(x) for x in line_terms[start:end])
        windows.append(_Window(score + bonus, document, start, end))
    return windows


def excerpt_of(ident: str, document: Document, start: int, end: int) -> Excerpt:
    """Lines *start* to *end* (0-based, end exclusive) of *document* as an excerpt."""
    return _excerpt(ident, _Window(0.0, document, start, end))


def _excerpt(ident: str, window: _Window) -> Excerpt:
    document = window.document
    lines = list(document.lines[window.start : window.end])
    while len(lines) > 1 and len("\n".join(lines)) > MAX_EXCERPT_CHARS:
        lines.pop()
    text = "\n".join(lines)
    if len(text) > MAX_EXCERPT_CHARS:
        text = text[:MAX_EXCERPT_CHARS]
    return Excerpt(
        id=ident,
        kind=document.kind,
        path=document.path,
        blob=document.blob,
        start=window.start + 1,
        end=window.start + len(lines),
        text=text,
        note=document.note,
    )
