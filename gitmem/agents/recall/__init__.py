"""``gitmem recall``: full-text search over every item of the memory's whole history.

Open, resolved, superseded and aged-out items alike, each marked by its status;
forgotten items never. The index (:mod:`gitmem.agents.recall.index`) lives in
``.git/gitmem/`` and is rebuilt when the memory ref moves.

Every word of the query is a term; an item matches when it holds every term (in its
text or its verified quote). When no item holds them all, items holding any of them
are shown instead, and the result says so.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from gitmem.agents.recall.index import COLUMNS, IndexedItem, IndexInfo, open_index
from gitmem.core.errors import InputError
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots

__all__ = ["IndexInfo", "IndexedItem", "RecallResult", "fts_query", "recall", "search_terms"]

DEFAULT_LIMIT = 10
MAX_TERMS = 32
_WORD = re.compile(r"\w")


@dataclass(frozen=True)
class RecallResult:
    terms: tuple[str, ...]
    hits: tuple[IndexedItem, ...]
    total: int
    """How many items matched (``hits`` holds at most the limit)."""
    match: str
    """``all`` (every term), ``any`` (no item held every term) or ``none``."""
    index: IndexInfo


def search_terms(words: Sequence[str]) -> tuple[str, ...]:
    """The terms of a query: every whitespace-separated word that holds a letter or digit.

    Raises:
        InputError: no usable term, or too many.
    """
    terms = tuple(dict.fromkeys(w for text in words for w in text.split() if _WORD.search(w)))
    if not terms:
        raise InputError("recall needs at least one search term (a word with letters or digits)")
    if len(terms) > MAX_TERMS:
        raise InputError(f"recall takes at most {MAX_TERMS} terms")
    return terms


def fts_query(terms: Sequence[str], joiner: str) -> str:
    """An FTS5 query in which every term is a quoted string: no term can be read as
    query syntax (``NEAR``, ``*``, ``-``, column filters)."""
    quoted = ('"' + term.replace('"', '""') + '"' for term in terms)
    return f" {joiner} ".join(quoted)


def recall(
    store: Store, home: Path, words: Sequence[str], limit: int = DEFAULT_LIMIT
) -> RecallResult:
    """Search the whole history of the memory.

    Raises:
        InputError: no usable term, or a limit below 1.
        GitError: the memory ref cannot be read.
        NegativeResult: the index cannot be written.
    """
    terms = search_terms(words)
    if limit < 1:
        raise InputError("--limit must be at least 1")
    connection, info = open_index(store, load_trust_roots(home, store))
    try:
        for match, joiner in (("all", "AND"), ("any", "OR")):
            query = fts_query(terms, joiner)
            total = connection.execute(
                "SELECT count(*) FROM items WHERE items MATCH ?", (query,)
            ).fetchone()[0]
            if total:
                rows = connection.execute(
                    f"SELECT {COLUMNS} FROM items WHERE items MATCH ? "
                    "ORDER BY bm25(items), last_seen DESC, id LIMIT ?",
                    (query, limit),
                ).fetchall()
                hits = tuple(IndexedItem(*row) for row in rows)
                return RecallResult(terms, hits, int(total), match, info)
    finally:
        connection.close()
    return RecallResult(terms, (), 0, "none", info)
