"""Is a later statement the same claim as an earlier item? Pure, and strict on purpose.

A restatement can earn corroboration, so a false match would show a corroboration that
no later session made (the reference tool merges "keep the parser module in
src/parser.py" with "keep the tokenizer module in src/tokenizer.py"). Two statements
are the same claim when either

1. a verified quote of the new one contains the earlier item's verified quote (after
   folding), or
2. they are of the same kind and have the same content words after folding, once
   filler words are dropped ("we", "now", "agreed", "let's", …): the same words in
   another order or with filler around them, never different words. Identifiers,
   paths, numbers and names are content words, so any difference in them means two
   claims.

A paraphrase in other words is therefore a different item: it earns nothing. That is
the price of never inventing a sighting.
"""

from __future__ import annotations

import re

from gitmem.core.quotes import fold

_TOKEN = re.compile(r"[\w#@$][\w./#:@$+-]*[\w]|[\w#@$]")
FILLER = frozenset(
    """a an the and or but so then also too just really still now yet already again we i
    you they it this that these those our my your their us me is are was were be been
    being am do does did done has have had will would shall should can could may might
    must let let's lets us to of in on at for from with by as into onto about over under
    agreed agree decided decide decision decisions confirm confirmed confirms okay ok
    yes please note noted todo next step steps""".split()  # noqa: SIM905 - a word list reads best as text
)


def content_words(text: str) -> frozenset[str]:
    """The words that carry a statement's meaning (folded, filler dropped)."""
    return frozenset(t for t in _TOKEN.findall(fold(text)) if t not in FILLER)


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
        mine, theirs = fold(quote), fold(other_quote)
        if len(theirs) >= 8 and (theirs in mine or mine in theirs):
            return True
    if kind != other_kind:
        return False
    words, other = content_words(text), content_words(other_text)
    return bool(words) and words == other
