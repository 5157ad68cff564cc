"""Is a quote cut from the negation, the possibility or the limit its clause puts on it?

"Don't use Redis for the cache" holds the words "use Redis for the cache", and "I don't
think we need the cache" the words "we need the cache"; "Using Redis for the cache is not
an option" holds "Using Redis for the cache", and the German "Wir benutzen Redis für den
Cache nicht" (whose negation comes last) "Wir benutzen Redis für den Cache". Each says the
opposite of what was said. An ellipsis may not skip a negation (``gitmem.core.align``);
nor may a quote start after one, or end before one, in its clause:

- before the quote: a negation word (:data:`gitmem.core.negation.NEGATION_RE`, and the
  hedges "not sure", "no idea", which leave the quote unsaid too) or a word that puts
  what follows aside ("instead of", "rather than", "against", "stop", "avoid", "failed
  to", "unable to", a habit given up: "we used to", not "Redis is used to"), from
  the last mark or new clause before the quote ("No, we use Redis" and "I don't like it,
  but we use Redis" stand); not "not only", "no doubt" or "don't forget";
- after it: a negation word before any mark, new clause or "and"/"but" ("Using Redis is
  not an option"; not "We use Postgres, not MySQL", "…and never on Mondays", "…which is
  not persistent"); not "without" nor "with no", which restrict rather than reverse.

A possibility (:data:`gitmem.core.negation.POSSIBILITY_RE`, and before the quote a word of
hearsay or likelihood: "apparently", "supposedly", "probably", …; of a hope, a wish or an
open choice: "hopefully", "I wish", "whether"; of an attempt or an intention that may not
have come to pass: "tried to", "were going to") before the quote in its
clause ("We could use Redis for the cache" quoted as "use Redis for the cache", "Maybe we
should …", "We almost lost the data"), or as the one word after it in its sentence ("We deploy on
Fridays, maybe."), leaves it unsaid as a fact too, and so does
a word right before it that limits it to a part or to few times ("Some of the tests pass"
quoted as "the tests pass", "We rarely deploy on Fridays" as "deploy on Fridays"). A
sentence that opens with a word of hearsay or possibility and a comma ("Apparently, the
cache is never invalidated") puts it on the whole sentence. Words right before the quote
that report another's words ("He said we should drop Redis", "Bob wants us to drop
Redis") leave it another's, not the speaker's ("I said" and "we said" are the speaker's
own, and so is direct speech after a colon: "Alice said: we keep the cache local").

A list under a heading that opens with such a negation ("Don't:", "Never:", "## Avoid")
says each of its items under it (:func:`negating`).

Read on folded text, so emphasis, look-alike letters and invisible characters hide
nothing. Errs toward no badge: a negation that does not reach the quote ("Because Redis
isn't there we use SQLite") costs one. Pure; never raises.
"""

from __future__ import annotations

import re
from typing import Literal

from gitmem.core.folding import fold
from gitmem.core.items import Kind
from gitmem.core.negation import POSSIBILITY_RE, negation_re
from gitmem.core.patterns import lazy_pattern

_SUBJECT = r"(?:we|i|you|they|it|he|she|this|that|there|our|my|your|their)"
# Where the quote's clause starts, read backwards: after a mark, or at a word that opens a
# clause of its own (a contrast, a cause, or a conjunction with a new subject).
_CLAUSE_BREAK = lazy_pattern(
    r"[,;:()\[\]|—–]|\s-\s|\b(?:but|yet|however|though|although|because|since|whereas"
    rf"|while|so that|which|who|where)\b|\b(?:and|or|so|then|now)\s+{_SUBJECT}\b"
)
_OPENING = 8
"""How much of the quote's start is read for a new subject after a conjunction before it."""
# What puts the words after it aside without a negation word.
_ASIDE = (
    r"instead of|rather than|against|(?:stop|stopped|stopping|quit|quitting|avoid|avoided"
    r"|avoiding|refuse|refused|refusing|reject|rejected|rejecting|abandon|abandoned|doubt"
    r"|doubted)\b|(?:fail|fails|failed|failing|unable) to\b"
    # a habit given up ("We used to deploy on Fridays"), not a use ("Redis is used to cache")
    r"|(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bwere )(?<!\bbe )(?<!\bbeen )(?<!\bbeing )"
    r"(?<!\bget )(?<!\bgot )used to\b"
)
_ASIDE_RE = lazy_pattern(rf"\b(?:{_ASIDE})")
# A negation that reverses nothing after it: "not only", "no doubt", "don't forget".
_NOT_REVERSING = lazy_pattern(
    r"\b(?:not (?:only|just|merely|least)|no doubt|without (?:a )?doubt|no matter"
    r"|(?:don't|dont|do not|never) forget)\b"
)
# What says that the words after it are believed, not known ("Apparently the cache is never
# invalidated", "We'll probably deploy on Fridays").
_HEARSAY_RE = lazy_pattern(
    r"\b(?:apparently|supposedly|allegedly|reportedly|seemingly|presumably|probably"
    # a hope, a wish or an open choice ("Hopefully the tests pass", "I wish we had kept it",
    # "decide whether to use Redis"), an attempt or an intention that may not have come to
    # pass ("I tried to make the tests pass", "We were going to use Redis")
    r"|hopefully|hope|hoping|hoped|wish|wished|ideally|in theory|theoretically|whether"
    r"|(?:try|tries|tried|trying|meant) to|(?:was|were) going to)\b"
)
# A sentence that opens with a word of hearsay or possibility and a comma ("Apparently, the
# cache is never invalidated", "Maybe, we should …") says all of it as believed or possible:
# the comma does not end its clause.
_OPENER_RE = lazy_pattern(
    r"\W*(?:apparently|supposedly|allegedly|reportedly|seemingly|presumably|probably|maybe"
    r"|perhaps|possibly)\s*,"
)
# Words right before the quote that report what someone else said, asked or wants ("He
# said | we should drop Redis", "Bob wants us to | drop Redis"): a report of another's
# words, not the speaker's own ("I said", "we said" are theirs). Direct speech after a
# colon ("Alice said: we keep the cache local") is how a plain transcript names who
# speaks: the words are that speaker's own.
_REPORTED_RE = lazy_pattern(
    r"(?<!\bi )(?<!\bwe )\b(?:said|says|told|tells|asked|asks|suggested|suggests|proposed"
    r"|proposes|recommended|recommends|claimed|claims|wants|wanted)"
    r"(?:\s+(?:us|me|them|him|her|you|that|to))*\s*[\"'“‘«]?\s*\Z|\baccording to\b[^.!?;]*\Z"
)
# A word right before the quote that limits it to a part or to few times: "Some of | the
# tests pass", "Half | the tests", "We rarely | deploy on Fridays".
_LIMIT_RE = lazy_pattern(
    r"\b((?:rarely|seldom|(?:(?:a )?few|half|some|most|many|several|part|one|two|three|four"
    r"|five|\d+) of|(?:a )?few|half)(?: the)?)\s*\Z"
)
# After the quote, a clause ends at a mark, at a clause of its own, or at "and"/"but",
# after which a negation contrasts ("…and never on Mondays").
_TRAIL_BREAK = lazy_pattern(
    r"[,;:()\[\]|—–]|\s-\s|\b(?:and|but|yet|so|then|because|since|although|though|while"
    r"|whereas|which|who|that|where|when|if|unless)\b"
)
_WORD_RE = lazy_pattern(r"\w+")
# A negation after the quote that restricts it rather than reversing it.
_RESTRICTS = lazy_pattern(
    r"\b(?:without|ohne|sans|sin|sem|senza|zonder|utan|uten|uden|bez|без)\b|\bwith no\b"
)


Governs = Literal["negation", "possibility", "limit", "reported"]
"""What a word outside a quote does to it: reverses it, makes it a possibility, limits it
to a part ("some of", "rarely"), or reports it as another's words ("he said")."""


def governing_word(before: str, quote: str, after: str) -> tuple[Governs, str] | None:
    """What governs *quote* from outside it, and the word that does, or None: a negation
    before or after it, a possibility before it or as the one word after it in its
    sentence ("…, maybe."), a limit before it. *before* is its sentence's
    text up to the quote, *after* its clause's text after it (all as said). Raises
    nothing."""
    clause = fold(before)
    reported = _REPORTED_RE.search(clause)
    opener = _OPENER_RE.match(clause)
    if opener is not None and _CLAUSE_BREAK.search(clause, opener.end()) is not None:
        opener = None  # "Maybe, but we use Redis"
    opening = fold(f"{before} {quote}")[len(clause) :][:_OPENING]  # "and | we use …"
    breaks = [b for b in _CLAUSE_BREAK.finditer(clause + opening) if b.start() < len(clause)]
    if breaks:
        clause = clause[breaks[-1].end() :]
    clause = _NOT_REVERSING.sub(" ", clause)
    found = negation_re(clause).search(clause) or _ASIDE_RE.search(clause)
    if found is not None:
        return "negation", found.group().strip()
    if reported is not None:
        return "reported", reported.group().strip()
    if opener is not None:
        return "possibility", opener.group().strip(" ,")
    found = POSSIBILITY_RE.search(clause) or _HEARSAY_RE.search(clause)
    if found is not None:
        return "possibility", found.group()
    found = _LIMIT_RE.search(clause)
    if found is not None:
        return "limit", found.group(1)
    trail = fold(after)
    last = _WORD_RE.findall(trail)
    if len(last) == 1 and POSSIBILITY_RE.fullmatch(last[0]):  # "…on Fridays, maybe."
        return "possibility", last[0]
    cut = _TRAIL_BREAK.search(trail)
    trail = _RESTRICTS.sub(" ", _NOT_REVERSING.sub(" ", trail[: cut.start() if cut else None]))
    found = negation_re(trail).search(trail)
    return None if found is None else ("negation", found.group())


def negating(heading: str) -> str | None:
    """The negation or aside word a list's *heading* opens with ("Don't:", "Never:", "##
    Avoid", "Not in scope:"), under which every item of the list is said; None when it
    opens with none ("Two things I did not change:" says nothing against its items).
    Raises nothing."""
    folded = _NOT_REVERSING.sub(" ", fold(heading)).lstrip(" #>-")
    found = negation_re(folded).match(folded) or _ASIDE_RE.match(folded)
    return None if found is None else found.group().strip()


# A label that opens the quote's sentence and says what its words are worth ("False: the
# tests pass", "Hypothesis: the cache is stale", "Goal: all tests pass", "Before: retries
# are capped at 3"): cut from it, the words read as a settled fact or decision. Each group
# with the kinds it governs (a decision may be a goal; "Before:" over a decision is a step).
_LABELS: tuple[tuple[str, Governs, frozenset[Kind]], ...] = (
    (
        r"false|wrong|incorrect|not true|untrue|myth|not|rejected|reverted|dropped|abandoned"
        r"|won'?t do|wontfix|ruled out",
        "negation",
        frozenset({Kind.DECISION, Kind.FACT, Kind.BELIEF}),
    ),
    (r"before|old|was|previously|formerly|outdated|obsolete", "negation", frozenset({Kind.FACT})),
    (
        r"hypothesis|assumption|assumed|guess|theory|idea|proposal|proposed|question"
        r"|open question|tbd|maybe|unverified|unconfirmed|speculation",
        "possibility",
        frozenset({Kind.DECISION, Kind.FACT}),
    ),
    (
        r"goal|target|expected|expectation|objective|aim|desired|wanted",
        "possibility",
        frozenset({Kind.FACT}),
    ),
)
_LABEL_RES = tuple(
    (
        lazy_pattern(rf"[\s>*_`#|-]*(?:\d+[.)]\s+)?(?:{words})[*_`]*\s*[:—–]", re.IGNORECASE),
        governs,
        kinds,
    )
    for words, governs, kinds in _LABELS
)


def labelled(before: str, kind: str) -> Governs | None:
    """What a label opening the quote's sentence (*before*: the sentence up to the quote,
    as said) does to a quote of *kind*, or None. Raises nothing."""
    for pattern, governs, kinds in _LABEL_RES:
        if kind in kinds and pattern.match(before):
            return governs
    return None
