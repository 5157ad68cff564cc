"""``gitmem recall``: full-text search over every item of the memory's whole history.

Open, resolved, superseded and aged-out items alike, each marked by its status;
forgotten items never. The search is the index's full-text table
(:mod:`gitmem.agents.recall.search`).

Every word of the query is a term; an item matches when it holds every term (in its
text or its verified quote), stemmed (``retry`` finds "retries"); a term ending in ``*``
is a prefix (``retr*``). When no item holds them all, items holding any of them are
shown instead, and the result says so.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from gitmem.agents.recall.search import IndexInfo, RecallHit, checked_hits, index_info
from gitmem.core.errors import InputError
from gitmem.lifecycle.asof import open_index
from gitmem.lifecycle.fetched import with_fetched
from gitmem.lifecycle.index_file import searchable
from gitmem.store.asof import AsOf, view_as_of
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots

__all__ = ["IndexInfo", "RecallHit", "RecallResult", "fts_query", "recall", "search_terms"]

DEFAULT_LIMIT = 10
MAX_LIMIT = 2**31 - 1
"""A larger ``--limit`` shows what this one shows: every hit."""
MAX_TERMS = 32
_WORD = re.compile(r"\w")


@dataclass(frozen=True)
class RecallResult:
    terms: tuple[str, ...]
    hits: tuple[RecallHit, ...]
    total: int
    """How many items matched (``hits`` holds at most the limit)."""
    match: str
    """``all`` (every term), ``any`` (no item held every term) or ``none``."""
    index: IndexInfo
    as_of: AsOf | None = None
    """The moment searched as of (None: the memory as it is now)."""


def search_terms(words: Sequence[str]) -> tuple[str, ...]:
    """The terms of a query: every word that holds a letter or digit, words separated by
    whitespace or a NUL (which ends a string inside SQLite's full-text query: a term
    holding one was refused as "unterminated string", blamed on the index, rebuilt).

    Raises:
        InputError: no usable term, or too many.
    """
    terms = tuple(
        dict.fromkeys(
            w for text in words for w in text.replace("\0", " ").split() if _WORD.search(w)
        )
    )
    if not terms:
        raise InputError("recall needs at least one search term (a word with letters or digits)")
    if len(terms) > MAX_TERMS:
        raise InputError(f"recall takes at most {MAX_TERMS} terms")
    return terms


def fts_query(terms: Sequence[str], joiner: str) -> str:
    """An FTS5 query in which every term is a quoted string: no term can be read as
    query syntax (``NEAR``, ``-``, column filters). A trailing ``*`` after a word makes
    the term a prefix, the only syntax kept."""
    return f" {joiner} ".join(_fts_term(term) for term in terms)


def _fts_term(term: str) -> str:
    stem = term.rstrip("*")
    prefix = stem != term and _WORD.search(stem[-1:]) is not None
    written = searchable(stem if prefix else term)
    return '"' + written.replace('"', '""') + '"' + ("*" if prefix else "")


def recall(
    store: Store,
    home: Path,
    words: Sequence[str],
    limit: int = DEFAULT_LIMIT,
    as_of: str | None = None,
) -> RecallResult:
    """Search the whole history of the memory (with *as_of*, the history up to then:
    :mod:`gitmem.store.asof`).

    Raises:
        InputError: no usable term, a limit below 1, or an *as_of* that names no moment.
        GitError: the memory ref cannot be read.
        NegativeResult: the index cannot be written.
    """
    terms = search_terms(words)
    if limit < 1:
        raise InputError("--limit must be at least 1")
    limit = min(limit, MAX_LIMIT)  # more than the index could hold is "all"; SQLite's
    # integers stop at 2**63 - 1, and a larger LIMIT was reported as an unreadable index
    view, moment = view_as_of(store, as_of)
    roots = load_trust_roots(home, store)
    if as_of is None:
        view = with_fetched(view, roots)  # fetched memory too, verified (lifecycle/fetched.py)
    with open_index(view, roots) as index:
        info = index_info(index)
        for match, joiner in (("all", "AND"), ("any", "OR")):
            total, states = index.search(fts_query(terms, joiner), limit)
            if total:
                hits = checked_hits(view, roots, states)
                return RecallResult(terms, hits, total, match, info, moment)
    return RecallResult(terms, (), 0, "none", info, moment)
