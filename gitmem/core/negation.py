"""Negation words: what an ellipsis may not skip, and what an item's text and its quote
must agree on.

"We will not deploy on Fridays" quoted as "We will… deploy on Fridays" says the
opposite of what was said, and so does an item "We deploy on Fridays" resting on the
quote "we will not deploy on Fridays". Both checks look for the same words, in folded
text (``gitmem.core.folding.fold``, which straightens apostrophes and folds case):
not, never, no, none, nobody, nothing, nowhere, neither, nor, without, cannot, any word
ending in "n't" ("don't", "won't", "isn't"), and the same contractions written without
the apostrophe ("dont", "cant", "wont"). A few of those have other meanings ("no-op",
"wont"); the check errs toward saying no, which only costs a verbatim badge. Pure;
never raises.
"""

from __future__ import annotations

import re

from gitmem.core.folding import fold

_WORDS = "not never no none nobody nothing nowhere neither nor without cannot"
_BARE_CONTRACTIONS = (
    "dont doesnt didnt isnt arent wasnt werent wont cant couldnt shouldnt wouldnt "
    "hasnt havent hadnt mustnt neednt shant aint"
)

NEGATION_RE = re.compile(
    r"\b(?:" + "|".join(f"{_WORDS} {_BARE_CONTRACTIONS}".split()) + r"|\w+n't)\b"
)
"""One negation word in folded text."""


def negations(text: str) -> list[str]:
    """The negation words of *text* (folded first), in order. Never raises."""
    return NEGATION_RE.findall(fold(text))


def polarity_conflict(text: str, quote: str) -> str | None:
    """Why an item's *text* and its *quote* disagree in polarity, or None when they agree.

    They disagree when one of them holds a negation word and the other holds none: the
    text may summarise its quote but may not reverse it ("We deploy on Fridays" from
    "we will not deploy on Fridays"). Both are folded first, so case, curly apostrophes
    and markdown do not matter. Counting is not attempted: "not… never" against "not" is
    agreement. Never raises.
    """
    in_text, in_quote = negations(text), negations(quote)
    if in_quote and not in_text:
        return f'the quote says "{in_quote[0]}" but the item\'s text has no negation'
    if in_text and not in_quote:
        return f'the item\'s text says "{in_text[0]}" but its quote has no negation'
    return None
