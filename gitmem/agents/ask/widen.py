"""The widened retrieval behind a confirmed absence, and the widened term rule. Pure.

"Not found" is a finding only when an independent check agrees, and that check must
look further than the retrieval that found nothing. Its candidates are:

1. the best windows of a **second retrieval with the question's terms widened**
   (:func:`widened_matches`: a term also matches a word with the same light
   :func:`stem`, "shipped" for "shipping", "capacities" for "capacity", or one sharing a
   prefix of at least :data:`MIN_SHARED_PREFIX` letters that covers all but two letters
   of the shorter word, "reserve" for "reservoir"; numbers still match only
   themselves), up to :data:`MAX_CANDIDATES` of them;
2. when even the widened terms match nothing, **every source in full**, cut into
   windows of :data:`CHUNK_LINES` lines, as long as that makes at most
   :data:`MAX_CANDIDATES` windows: a small repository is read whole;
3. otherwise none: there is nothing an independent reader could be shown, so absence
   cannot be confirmed (the ask's outcome is then ``needs_review``).
"""

from __future__ import annotations

from collections.abc import Sequence

from gitmem.agents.ask.result import Excerpt
from gitmem.agents.ask.retrieve import (
    MAX_EXCERPT_CHARS,
    MAX_SUFFIX,
    excerpt_of,
    retrieve,
    term_matches,
)
from gitmem.agents.ask.sources import Document

MAX_CANDIDATES = 8
CHUNK_LINES = 15
MIN_SHARED_PREFIX = 5
_SUFFIXES = ("ies", "ied", "ing", "ers", "es", "ed", "er", "ly", "s")


def stem(word: str) -> str:
    """A light stem: one common English suffix off, a doubled final consonant undone
    ("shipped", "shipping", "ships" → "ship"; "capacities" → "capacity"). Pure."""
    if word.isdigit() or len(word) <= 3:
        return word
    for suffix in _SUFFIXES:
        if suffix == "s" and word.endswith("ss"):
            continue  # "glass", "pass": not a plural
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)]
            if suffix in ("ies", "ied"):
                return base + "y"
            if len(base) >= 4 and base[-1] == base[-2] and base[-1] not in "aeiouls":
                return base[:-1]
            return base
    return word


def widened_matches(term: str, words: set[str]) -> bool:
    """The widened term rule: :func:`term_matches`, or the same :func:`stem`, or a
    shared prefix of at least :data:`MIN_SHARED_PREFIX` letters covering all but two
    letters of the shorter word ("reserve" and "reservoir"). Numbers match only
    themselves."""
    if term_matches(term, words):
        return True
    if term.isdigit():
        return False
    root = stem(term)
    for word in words:
        if word.isdigit():
            continue
        if stem(word) == root:
            return True
        shared = _shared_prefix(term, word)
        if shared >= MIN_SHARED_PREFIX and shared >= min(len(term), len(word)) - MAX_SUFFIX:
            return True
    return False


def _shared_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _probe(term: str) -> str:
    """A substring every word the widened rule matches for *term* holds: the first
    three letters of its stem ("cit" for "city", which "cities" holds)."""
    return term if term.isdigit() else stem(term)[:3]


def candidates(question: str, documents: Sequence[Document]) -> list[Excerpt]:
    """The passages an absence check reads (see the module docstring), ``E1``… ."""
    found = retrieve(question, documents, MAX_CANDIDATES, widened_matches, _probe)
    if found:
        return found
    chunks: list[tuple[Document, int, int]] = []
    for document in documents:
        start = 0
        while start < len(document.lines):
            end = min(len(document.lines), start + CHUNK_LINES)
            while end > start + 1 and len("\n".join(document.lines[start:end])) > MAX_EXCERPT_CHARS:
                end -= 1
            chunks.append((document, start, end))
            if len(chunks) > MAX_CANDIDATES:
                return []
            start = end
    return [excerpt_of(f"E{n}", d, a, b) for n, (d, a, b) in enumerate(chunks, start=1)]
