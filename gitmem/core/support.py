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

import re

from gitmem.core.comparable import incomparable
from gitmem.core.conditions import conditional
from gitmem.core.folding import fold, group_digits
from gitmem.core.frames import names, reshaped
from gitmem.core.negation import negation_re, polarity_conflict, unhedged
from gitmem.core.numbers import number_tokens
from gitmem.core.opposites import changed
from gitmem.core.qualifiers import unqualified
from gitmem.core.stance import asked, negated_modal, reported, requested, struck, to_come

READ_CHARS = 1_000
"""The most characters of an item's text, and of its quote, that :func:`unsupported`
reads. Its rules are written for sentences (an extractor's text holds at most 500
characters, a labelled quote 200) and some read a clause or a word again for each of
its words or letters; a teammate's record may hold a text and a quote of megabytes, read
by every teammate's brief at every session start. A longer text or quote is not read:
the text is not shown beside the badge, and its quote, the transcript's own words, is."""


def unsupported(text: str, quote: str) -> str | None:
    """Why *quote* does not support the item *text* (None: it does): the two cannot be
    compared at all — two writing systems, two languages of one, or not one word in common
    (:func:`gitmem.core.comparable.incomparable`); the text reverses the quote, adds a
    negation or a number the quote does not hold, drops or adds a condition, or changes
    a word, a unit, a name or an order of it (:func:`gitmem.core.opposites.changed`), or
    puts another person in its place ("We dropped Redis" on "they dropped Redis"). Never
    raises. A text or a quote longer than :data:`READ_CHARS` is not read: it is refused
    for its length."""
    if len(text) > READ_CHARS or len(quote) > READ_CHARS:
        which = "text" if len(text) > READ_CHARS else "quote"
        return (
            f"the item's {which} is longer than {READ_CHARS:,} characters, more than the rules read"
        )
    conflict = (
        incomparable(text, quote)
        or negated_modal(fold(text), fold(quote))
        or polarity_conflict(text, quote)
    )
    if conflict is not None:
        return conflict
    mine, theirs = unhedged(text), unhedged(quote)
    negation = negation_re(mine).search(mine)
    if negation is not None and negation_re(theirs).search(theirs) is None:
        return f'the item\'s text says "{negation.group()}" but its quote has no negation'
    # The quote's own list numbers count as said: "1. build 2. test" quoted as one line;
    # a number grouped by a no-break space is one ("10\u202f000" holds no "10"), and so is
    # one grouped by plain spaces in threes ("10 000").
    said = set(number_tokens(_grouped(theirs)))
    said |= set(number_tokens(_grouped(group_digits(quote))))
    added = [number for number in number_tokens(_grouped(mine)) if number not in said]
    if added:
        return f'the item\'s text says "{added[0]}", a number its quote does not hold'
    return (
        conditional(text, quote)
        or changed(mine, theirs)
        or _other_person(mine, theirs)
        or unqualified(mine, theirs)
        or reshaped(mine, theirs, names(text) | names(quote))
        or asked(fold(text), fold(quote))  # hedges ("don't know if") ask too
        or reported(mine, theirs)
        or to_come(mine, theirs)
        or struck(text, quote)
        or requested(mine, theirs)
    )


def shown_text(text: str, quote: str | None) -> tuple[str, str | None]:
    """What a verbatim item shows beside its badge: its *text* when its *quote* supports
    it, else the quote itself, the transcript's own words, and why the text was not
    shown (:func:`unsupported`). Capture stores it so; a reader checks it again, since a
    record another version of gitmem or a teammate wrote may hold a text this one
    refuses. Never raises."""
    if quote is None or text == quote:
        return text, None
    conflict = unsupported(text, quote)
    return (text, None) if conflict is None else (quote, conflict)


_GROUPED_RE = re.compile(r"(?<![\w.,])\d{1,3}(?: \d{3})+(?!\d)")
"""A number grouped in threes by plain spaces ("10 000", "1 000 000"), as SI writes it."""


def _grouped(text: str) -> str:
    """*text* with each number grouped in threes by plain spaces joined by ``_``, as
    folding joins one grouped by a no-break space: one number, not two."""
    return _GROUPED_RE.sub(lambda number: number.group().replace(" ", "_"), text)


_PERSONS = {
    **dict.fromkeys(("i", "me", "my", "mine", "we", "us", "our", "ours", "you", "your"), ""),
    **dict.fromkeys(("he", "him", "his"), "he"),
    **dict.fromkeys(("she", "her", "hers"), "she"),
    **dict.fromkeys(("they", "them", "their", "theirs"), "they"),
    **dict.fromkeys(("upstream", "vendor", "maintainers", "others"), "they"),
}
"""Who a pronoun names: the speaker's side ("I", "we", "you": one team, whichever says it)
or a third person; and the words that name another party as a pronoun would ("upstream",
"the vendor", "the maintainers")."""


def _other_person(text: str, quote: str) -> str | None:
    """Why *text* (folded) puts another person in the place of the one *quote* (folded)
    opens with: both open with a pronoun, of two persons, one of them a third ("We
    dropped Redis" on "they dropped Redis"; "I" for "we" is one side; "upstream" and "the
    vendor" name another party too). Only the opening word is read (past a "the"): a
    pronoun further on may name a thing ("keep the retries as they are")."""
    mine, theirs = (_PERSONS.get(_opening(t)) for t in (text, quote))
    if mine is None or theirs is None or mine == theirs:
        return None
    return f'the item\'s text names "{mine or "we"}" where its quote names "{theirs or "we"}"'


def _opening(folded: str) -> str:
    """The first word of *folded* text, past a "the" ("the vendor": "vendor")."""
    words = re.findall(r"[a-z]+", folded)[:2]
    return words[1] if words[:1] == ["the"] and len(words) > 1 else next(iter(words), "")
