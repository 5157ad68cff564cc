"""Is a later statement the same claim as an earlier item? Pure, and strict on purpose.

The same claim said again can earn corroboration, so a false match would show a corroboration that
no later session made (the reference tool merges "keep the parser module in
src/parser.py" with "keep the tokenizer module in src/tokenizer.py"). Claims are
compared, not substrings: a different number ("retry limit 30" against "3", "2.5 s"
against "5 s"), a negation added or removed, or a different named thing (a file, a
module, a PR, a version) makes a different claim. Two statements are the same claim
when they carry the same values — the same numbers, the same polarity — and either

1. a verified quote of one contains the other's verified quote, whole words and whole
   numbers only (after folding), or
2. they are of the same kind and have the same content words after folding, once
   filler words are dropped ("we", "now", "agreed", "let's", …): the same words in
   another order or with filler around them, never different words. Identifiers,
   paths, numbers and names are content words, so any difference in them means two
   claims.

A paraphrase in other words is therefore a different item: it earns nothing. That is
the price of never inventing a sighting.

A different claim about the **same subject** — the same kind, the same content words
once its values are set aside (numbers, negations, paths, versions, identifiers), and
different values — is a candidate supersession: "set the retry limit to 30" after "…to
3", "we will not ship the parser on friday" after "ship the parser on friday". The later
statement is kept as its own item; the earlier one is marked likely superseded.
"""

from __future__ import annotations

import functools
import re

from gitmem.core.negation import NEGATION_RE, unhedged
from gitmem.core.numbers import NUMBER_RE, cuts_number
from gitmem.core.quotes import fold

# A number token first (its sign, decimals and separators kept: "-37", "37,500"), then a
# word, which may hold an apostrophe ("don't"), a path or an identifier ("src/a.py").
_TOKEN = re.compile(NUMBER_RE.pattern + r"|[\w#@$][\w./#:@$+'-]*[\w]|[\w#@$]")
_NEGATED_PHRASE = re.compile(r"\b(no|not|never) (?:longer|more|again)\b")
FILLER = frozenset(
    """a an the and or but so then also too just really still now yet already again we i
    you they it this that these those our my your their us me is are was were be been
    being am do does did done has have had will would shall should can could may might
    must let let's lets us to of in on at for from with by as into onto about over under
    agreed agree decided decide decision decisions confirm confirmed confirms okay ok
    yes please note noted todo next step steps""".split()  # noqa: SIM905 - a word list reads best as text
)
_CACHED = 4096
"""Texts whose words are kept once worked out: a capture compares each new item with
every open one, and an import does it for thousands of captures in a row."""
_MIN_QUOTE = 8
_MIN_SUBJECT = 2
"""A subject needs this many content words before two claims about it can be compared."""


_folded = functools.lru_cache(maxsize=_CACHED)(fold)


@functools.lru_cache(maxsize=_CACHED)
def content_words(text: str) -> frozenset[str]:
    """The words that carry a statement's meaning (folded, filler dropped)."""
    return frozenset(t for t in _TOKEN.findall(fold(text)) if t not in FILLER)


@functools.lru_cache(maxsize=_CACHED)
def values(text: str) -> tuple[tuple[str, ...], bool]:
    """What a claim asserts beyond its subject: its numbers (sorted, as written) and
    whether it is negated (hedges such as "not sure" aside). Raises nothing."""
    folded = unhedged(text)
    return tuple(sorted(NUMBER_RE.findall(folded))), NEGATION_RE.search(folded) is not None


def same_claim(
    kind: str,
    text: str,
    quote: str | None,
    other_kind: str,
    other_text: str,
    other_quote: str | None,
) -> bool:
    """Rule 1 or rule 2 of the module docstring. *quote* arguments are verified quotes
    (None when there is none)."""
    if quote and other_quote:
        mine, theirs = _folded(quote), _folded(other_quote)
        if values(mine) == values(theirs) and (_contains(mine, theirs) or _contains(theirs, mine)):
            return True
    if kind != other_kind:
        return False
    words, other = content_words(text), content_words(other_text)
    return bool(words) and words == other


def same_subject(
    kind: str,
    text: str,
    other_kind: str,
    other_text: str,
    quote: str | None = None,
    other_quote: str | None = None,
) -> bool:
    """True when two statements of one kind speak of the same subject with different
    values, by their texts or by their verified quotes: a candidate supersession (see
    the module docstring). Raises nothing."""
    if kind != other_kind:
        return False
    pairs = [(text, other_text)] + ([(quote, other_quote)] if quote and other_quote else [])
    return any(_about_the_same(a, b) for a, b in pairs)


def _about_the_same(text: str, other: str) -> bool:
    if content_words(text) == content_words(other):
        return False
    subject = _subject(text)
    return len(subject) >= _MIN_SUBJECT and subject == _subject(other)


@functools.lru_cache(maxsize=_CACHED)
def _subject(text: str) -> frozenset[str]:
    """The content words without the values: numbers, negations, and named things
    (words holding a digit, a dot or a slash: paths, versions, identifiers)."""
    return frozenset(
        word
        for word in content_words(_NEGATED_PHRASE.sub(r"\1", fold(text)))
        if not NEGATION_RE.fullmatch(word) and not re.search(r"[\d./]", word)
    )


def _contains(longer: str, shorter: str) -> bool:
    """Does *shorter* occur in *longer* on word boundaries, never inside a number?"""
    if len(shorter) < _MIN_QUOTE:
        return False
    start = longer.find(shorter)
    while start >= 0:
        end = start + len(shorter)
        edges_ok = (start == 0 or not longer[start - 1].isalnum()) and (
            end == len(longer) or not longer[end].isalnum()
        )
        if edges_ok and not cuts_number(longer, start) and not cuts_number(longer, end):
            return True
        start = longer.find(shorter, start + 1)
    return False
