"""Does a verified quote support its item's text?

A quote can verify while the item's text says more than it, or the opposite: "We deploy on
Fridays" resting on "we will not deploy on Fridays", "Retry 5 times" on "retry three times",
"No JSON cache" on "the cache lives in SQLite". The text may summarise its quote and leave
things out; it may not reverse it (:func:`gitmem.core.negation.polarity_conflict`), and it
may not add a negation or a number the quote does not hold, nor drop or add a condition
(:mod:`gitmem.core.conditions`: "We deploy on Fridays" on "we deploy on Fridays if QA
approves"), nor put an opposite word, another unit, another name or the other order in
its place (:mod:`gitmem.core.opposites`).
Hedges ("not sure", "no idea")
are not negations here either. A verbatim item whose genuine quote does not support its
text keeps the quote as its text (:func:`gitmem.capture.checkpoint.build_items`). Pure;
never raises.
"""

from __future__ import annotations

from gitmem.core.conditions import conditional
from gitmem.core.negation import negation_re, polarity_conflict, unhedged
from gitmem.core.numbers import number_tokens
from gitmem.core.opposites import changed


def unsupported(text: str, quote: str) -> str | None:
    """Why *quote* does not support the item *text* (None: it does): the text reverses
    the quote, adds a negation or a number the quote does not hold, drops or adds a
    condition, or changes a word,
    a unit, a name or an order of it (:func:`gitmem.core.opposites.changed`). Never
    raises."""
    conflict = polarity_conflict(text, quote)
    if conflict is not None:
        return conflict
    mine, theirs = unhedged(text), unhedged(quote)
    negation = negation_re(mine).search(mine)
    if negation is not None and negation_re(theirs).search(theirs) is None:
        return f'the item\'s text says "{negation.group()}" but its quote has no negation'
    # The quote's own list numbers count as said: "1. build 2. test" quoted as one line.
    said = set(number_tokens(theirs)) | set(number_tokens(quote))
    added = [number for number in number_tokens(mine) if number not in said]
    if added:
        return f'the item\'s text says "{added[0]}", a number its quote does not hold'
    return conditional(text, quote) or changed(mine, theirs)
