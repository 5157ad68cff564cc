"""What an item's text may not drop from its quote: the word that says how far it holds.

A text may leave words out of its quote, but not the one that keeps the rest from being a
plain, whole, lasting fact: how likely it is ("We will probably switch the cache to
SQLite", "It seems the cache is stale"), how often ("We rarely deploy on Fridays"), when
("We should drop Redis eventually", "Initially we use Redis"), how
much of it ("We almost lost the data", "The migration is partly done", "retries up to 5
times", "Only admins can delete projects"), or that it is only meant or tried ("We plan
to drop Redis", "We want to migrate to Postgres", "We tried Redis", "We considered
Redis", "We proposed Redis"). How long it holds may be left out ("Keep the
index in SQLite" on "we keep the index in SQLite for now" is a summary), unless a
condition says it ("until Friday"). A possibility ("could", "might") is
:func:`gitmem.core.opposites.settled`'s, a condition :mod:`gitmem.core.conditions`', a
quote cut after its limit ("Some of | the tests pass") the capture's
(:mod:`gitmem.capture.negated`). A false alarm costs only the item's wording: its quote
becomes its text (:func:`gitmem.core.support.unsupported`). Pure, on folded text; never
raises.
"""

from __future__ import annotations

from gitmem.core.folding import bare
from gitmem.core.negation import NEGATION_RE
from gitmem.core.patterns import lazy_pattern

_QUALIFIERS = (
    (
        "how likely",
        "probably likely unlikely presumably apparently supposedly allegedly reportedly"
        " seemingly possibly perhaps maybe seems seem seemed appears-to appear-to"
        " appeared-to suspect suspects guess in-theory in-principle theoretically on-paper"
        " hypothetically",
    ),
    ("how often", "rarely seldom occasionally sometimes infrequently intermittently"),
    (
        "when",
        "eventually someday at-some-point in-the-future down-the-road previously formerly"
        " originally initially at-first",
    ),
    (
        "how much",
        "almost nearly partly partially mostly most largely half some few up-to more-than"
        " less-than fewer-than at-least at-most only one-of",
    ),
    (
        "that it is only meant or tried",
        "plan-to plans-to planned-to planning-to want-to wants-to wanted-to intend-to"
        " intends-to intended-to hope-to hopes-to hoped-to aim-to aims-to try-to tries-to"
        " tried-to trying-to attempt-to attempted-to try tries tried trying consider"
        " considers considered considering evaluate evaluates evaluated evaluating explore"
        " explores explored exploring propose proposes proposed proposing suggest suggests"
        " suggested suggesting prototype prototyped prototyping experiment-with"
        " experimented-with experimenting-with",
    ),
)
"""Each kind of qualifier and its words ("-" joins the words of a phrase). A text keeps
the qualifier with any word of the same kind ("likely" for "probably")."""
_KIND_OF = {word.replace("-", " "): kind for kind, words in _QUALIFIERS for word in words.split()}
_KIND_OF_WORD = {phrase.split()[0]: kind for phrase, kind in _KIND_OF.items()}
_QUALIFIER_RE = lazy_pattern(
    r"\b(?:" + "|".join(sorted(_KIND_OF, key=len, reverse=True)).replace(" ", r"\s+") + r")\b"
)
_WORD_RE = lazy_pattern(r"[^\W_]+")
_CLAUSE_END_RE = lazy_pattern(r"[.;:!?,()\n—–]|\s-\s")
"""Where a qualifier's clause ends: it governs no word past a mark."""
_SCOPE = 3
_NEAR = 240
"""How far around a qualifier its clause is read (characters): past its few words."""
"""How many of the words after a qualifier (fillers left out) it is taken to govern."""
_MINOR = frozenset(
    (
        *("a", "an", "the", "to", "be", "is", "are", "was", "were", "it", "this", "that"),
        *("we", "i", "you", "will", "would", "should", "can", "could", "must", "just"),
        *("of", "at", "in", "on", "for", "with", "our", "its", "their", "also", "still"),
    )
)


def unqualified(text: str, quote: str) -> str | None:
    """Why *text* (folded) states plainly what *quote* (folded) qualifies: the quote
    holds a word of :data:`_QUALIFIERS` governing a word the text holds (one of the next
    few words that are no filler, in its clause), and the text holds no word of the same
    kind. A qualifier that ends its clause ("We deploy on Fridays, probably.") governs
    the words before it. Raises nothing."""
    kept = {_KIND_OF[_spaced(m.group())] for m in _QUALIFIER_RE.finditer(text)}
    words = {form for word in _WORD_RE.findall(text) for form in (word, bare(word))}
    for match in _QUALIFIER_RE.finditer(quote):
        word = _spaced(match.group())
        kind = _KIND_OF[word]
        ahead = quote[max(0, match.start() - _NEAR) : match.start()]
        if word == "one of" and "one" in words:
            continue  # "Redis is one store we use" keeps "one of the stores"
        if kind in kept or _negated(ahead) or ahead.split()[-1:] == ["the"]:
            continue  # "the only test that fails" names one, it limits nothing
        clause = _CLAUSE_END_RE.split(quote[match.end() : match.end() + _NEAR], maxsplit=1)[0]
        governed = [w for w in _WORD_RE.findall(clause) if w not in _MINOR][:_SCOPE]
        if not governed:
            clause = _CLAUSE_END_RE.split(ahead.rstrip(" ,"))[-1]
            governed = [w for w in _WORD_RE.findall(clause) if w not in _MINOR][-_SCOPE:]
        if words & {form for word in governed for form in (word, bare(word))}:
            return f'the quote says "{word}" ({kind}) and the item\'s text leaves it out'
    return None


def _negated(before: str) -> bool:
    """Is a qualifier after *before* negated ("doesn't try to", "not likely"): then its
    polarity is :func:`gitmem.core.negation.polarity_conflict`'s."""
    return NEGATION_RE.search(" ".join(before.split()[-2:])) is not None


def _spaced(phrase: str) -> str:
    return " ".join(phrase.split())


def same_kind(word: str, other: str) -> bool:
    """Are *word* and *other* (folded words) qualifiers of one kind ("probably",
    "likely"; "plan", "intend")? Raises nothing."""
    kind = _KIND_OF_WORD.get(word)
    return kind is not None and kind == _KIND_OF_WORD.get(other)
