"""The condition a question asks about, and the conditions a passage states. Pure.

A question's **condition** is what must hold of a table row for its outcome to answer
the question:

- its **words**: the retrieval terms of the question (:func:`question_terms`), less
  numbers, the words of a comparison ("over", "at least", …), negation words, and
  :data:`ASKING_WORDS`, which ask rather than state ("What *happens*…", "Which fee
  *applies*…") or stand for anything ("*something*");
- its **numbers**: whole number tokens (:mod:`gitmem.core.numbers`, sign, decimals and
  thousands separators included), each with the **relation** the text puts on it
  (:func:`numbers_in`): "over 10" is ``>``, "10 or more" and "at least 10" are ``>=``,
  "within 30" and "up to 30" are ``<=``, "under 5" is ``<``, "10-20" and "between 10
  and 20" are a range, a bare number is ``=``;
- whether it **asks for a condition** (:func:`asks_for_condition`: "Under what
  condition…", "When is…", "In which case…"): then the words that ask for it
  ("condition", "case", "circumstances", …) are not condition words, and the words it
  states are the outcome whose condition it asks;
- its **negated** words (:func:`negated_words`): the few content words after "not",
  "no", "without", "unless", "except" …, up to the end of the clause (a comma,
  semicolon, full stop, colon, pipe or bracket ends it), so "not damaged, opened"
  negates "damaged" and not "opened"; "non-" negates the one word it prefixes. A bound
  ("no more than 3") is a relation, not a negation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from gitmem.agents.ask.gates import BOUND, fold
from gitmem.agents.ask.retrieve import STOPWORDS, question_terms
from gitmem.core.negation import NEGATION_RE
from gitmem.core.numbers import NUMBER_RE


class Relation(StrEnum):
    """How a condition relates a quantity to its number."""

    EQ = "="
    GT = ">"
    GE = ">="
    LT = "<"
    LE = "<="
    RANGE = "range"


_ASKING_TEXT = """
    happen happens happened apply applies applied applicable get gets got pay pays paid
    cost costs charge charged charges need needs needed require requires required allowed
    allow allows mean means say says said tell give gives given use used uses take takes
    much many long big large kind type exactly currently now today case cases result
    results outcome outcomes treat treated handle handled handling go goes receive
    receives received rule rules policy value according listed list table row per
    something anything someone anyone somebody anybody thing things
"""
ASKING_WORDS = frozenset(_ASKING_TEXT.split())
"""Words of a question that ask rather than state a condition."""

_COMPARISON_TEXT = """
    over under above below least most more less fewer than within after before exceeding
    exceeds exceed maximum minimum max min up greater higher lower between longer shorter
    later earlier larger smaller equal equals beyond older younger heavier lighter bigger
"""
COMPARISON_WORDS = frozenset(_COMPARISON_TEXT.split())
_NEGATING_TEXT = "not no never none nothing without cannot non unless except excluding nor"
NEGATING_WORDS = frozenset(_NEGATING_TEXT.split())
SCOPE = 3
"""How many content words after a negation it governs (the verifier's scope)."""

_EXTRA_NEGATION = re.compile(r"\b(?:non|unless|except|excluding|other than)\b")
_CLAUSE_END = re.compile(r"[,;.:|()\[\]\n]| but | and then ")
_TOKEN = re.compile(r"[^\W_]+")
_CURRENCY = r"[\s$€£¥]*"
_W = r"(?:^|(?<=[^\w]))"
_BEFORE: tuple[tuple[re.Pattern[str], Relation], ...] = tuple(
    (re.compile(pattern + _CURRENCY + r"$"), relation)
    for pattern, relation in (
        (
            _W + r"(?:greater|more|higher|larger|bigger|longer|later|older|heavier|above) than"
            r" or equal(?: to)?",
            Relation.GE,
        ),
        (
            _W + r"(?:less|fewer|lower|smaller|shorter|earlier|younger|lighter|below) than"
            r" or equal(?: to)?",
            Relation.LE,
        ),
        (_W + r"(?:no|not) (?:more|greater|higher|larger|longer|later) than", Relation.LE),
        (_W + r"(?:no|not) (?:less|fewer|lower|smaller|shorter|earlier) than", Relation.GE),
        (_W + r"(?:not|never) (?:over|above|exceeding|beyond|after)", Relation.LE),
        (_W + r"(?:not|never) (?:under|below|before)", Relation.GE),
        (
            r"(?:>=|≥|⩾|=>|" + _W + r"at least|" + _W + r"minimum(?: of)?|" + _W + r"min\.?)",
            Relation.GE,
        ),
        (
            r"(?:<=|≤|⩽|=<|" + _W + r"(?:at most|up to|maximum(?: of)?|max\.?|within|cannot exceed|"
            r"must not exceed|not exceeding))",
            Relation.LE,
        ),
        (
            r"(?:>|" + _W + r"(?:over|more than|greater than|higher than|larger than|longer than|"
            r"later than|older than|heavier than|bigger than|above|exceeding|exceeds|beyond|"
            r"after))",
            Relation.GT,
        ),
        (
            r"(?:<|" + _W + r"(?:under|less than|fewer than|lower than|smaller than|shorter than|"
            r"earlier than|younger than|lighter than|below|before))",
            Relation.LT,
        ),
        (r"(?:==?|" + _W + r"(?:exactly|equal to|equals))", Relation.EQ),
    )
)
_UNIT = r"^\s*(?:[^\W\d]+\.?\s+)?"
_AFTER = (
    (
        re.compile(
            r"^\+|" + _UNIT + r"(?:or (?:more|above|over|greater|higher|longer|later)|"
            r"and (?:above|over|up|more))\b"
        ),
        Relation.GE,
    ),
    (
        re.compile(
            _UNIT + r"(?:or (?:less|fewer|below|under|lower|shorter|earlier)|and (?:below|under))\b"
        ),
        Relation.LE,
    ),
)
_RANGE_UNIT = r"(?:\s*[°%]?[^\W\d_]{0,6}\.?)?"
"""A unit between a range's bound and its "to" or dash: "-5 °C to 5 °C", "10 kg - 20 kg"."""
_RANGE_AFTER = re.compile(r"^" + _RANGE_UNIT + r"\s*(?:-|to)\s*[$€£¥]?[-+]?\.?\d")
_RANGE_BEFORE = re.compile(r"(?:\d" + _RANGE_UNIT + r"\s*(?:-|to)|between)" + _CURRENCY + r"$")
_BETWEEN_AFTER = re.compile(r"^\s*(?:[^\W\d]+\s+)?and\s*[$€£¥]?[-+]?\.?\d")


@dataclass(frozen=True)
class Number:
    """A number token in a text and the relation the text puts on it."""

    token: str
    relation: Relation
    phrase: str
    """A few words around it, as the text writes them (for reasons)."""


@dataclass(frozen=True)
class Condition:
    """What a question asks about (see the module docstring)."""

    words: tuple[str, ...]
    numbers: tuple[Number, ...]
    negated: frozenset[str]
    asks_condition: bool = False


_ASKS_CONDITION = re.compile(
    r"^\W*(?:(?:and|so|but|then) )?(?:when\b|under (?:what|which)\b"
    r"|in (?:what|which) (?:cases?|circumstances?|situations?|conditions?)\b"
    r"|(?:what|which) (?:conditions?|circumstances?|situations?|criteria|triggers?)\b"
    r"|what (?:triggers|causes|leads to)\b)"
)
CONDITION_ASKING_WORDS = frozenset(
    {"condition", "conditions", "circumstance", "circumstances", "situation", "situations"}
    | {"criteria", "criterion", "trigger", "triggers", "triggered", "cause", "causes", "when"}
)
"""Words with which a question asks for a condition rather than stating one."""


def asks_for_condition(question: str) -> bool:
    """Whether *question* asks under which condition its outcome holds ("Under what
    condition is the status locked?", "When is the express fee 9 EUR?"). Pure."""
    return _ASKS_CONDITION.match(fold(question)) is not None


def question_condition(question: str) -> Condition:
    """The condition of *question*. Pure."""
    asks = asks_for_condition(question)
    words = tuple(
        t
        for t in question_terms(question)
        if not t.isdigit()
        and t not in ASKING_WORDS
        and t not in COMPARISON_WORDS
        and t not in NEGATING_WORDS
        and not (asks and t in CONDITION_ASKING_WORDS)
    )
    numbers = tuple(numbers_in(question))
    return Condition(words, numbers, frozenset(negated_words(question)), asks)


def numbers_in(text: str) -> list[Number]:
    """Every number token of *text* with its relation, in order. Pure."""
    folded = fold(text)
    found = []
    for match in NUMBER_RE.finditer(folded):
        start, end = match.span()
        # A comparison the token opens with (">10") is the relation, read from before it.
        token = match.group().lstrip("<>=≤≥~")
        start = end - len(token)
        before, after = folded[max(0, start - 40) : start], folded[end : end + 30]
        found.append(Number(token, _relation(before, after), _phrase(before, token, after)))
    return found


def _phrase(before: str, token: str, after: str) -> str:
    """The number with up to three words before it and one after, within its clause."""
    lead = re.split(r"[|,;:()\[\]\n]", before)[-1].split()[-3:]
    tail = re.split(r"[|,;:()\[\]\n]", after)[0].split()[:1]
    return " ".join([*lead, token + (tail[0] if after[:1] == "+" else ""), *tail]).strip(" ?.!")


def _relation(before: str, after: str) -> Relation:
    if _RANGE_AFTER.match(after) or _RANGE_BEFORE.search(before):
        return Relation.RANGE
    if before.rstrip().endswith("between") or (
        re.search(r"between" + _CURRENCY + r"$", before) and _BETWEEN_AFTER.match(after)
    ):
        return Relation.RANGE
    if re.search(r"between\s+[$€£¥]?[-+]?[\d.,]+\s*(?:[^\W\d]+\s+)?and" + _CURRENCY + "$", before):
        return Relation.RANGE
    for pattern, relation in _BEFORE:
        if pattern.search(before):
            return relation
    for pattern, relation in _AFTER:
        if pattern.match(after):
            return relation
    return Relation.EQ


def negated_words(text: str) -> set[str]:
    """The content words a negation governs in *text* (see the module docstring)."""
    folded = BOUND.sub("bound", fold(text))
    governed: set[str] = set()
    starts = [(m.end(), SCOPE) for m in NEGATION_RE.finditer(folded)]
    starts += [
        (m.end(), 1 if m.group() == "non" else SCOPE) for m in _EXTRA_NEGATION.finditer(folded)
    ]
    for start, scope in starts:
        rest = folded[start:]
        stop = _CLAUSE_END.search(rest)
        clause = rest if stop is None else rest[: stop.start()]
        content = [w for w in _TOKEN.findall(clause) if w not in STOPWORDS and w not in _FILLER]
        governed.update(content[:scope])
    return governed


_FILLER = frozenset(("be", "been", "being", "ever", "yet", "again", "bound"))


def content_words(text: str) -> set[str]:
    """The words of *text* that can carry a condition: folded tokens without stop
    words, asking, comparison or negation words. Numbers are left to
    :func:`numbers_in`."""
    return {
        w
        for w in _TOKEN.findall(fold(text))
        if not w.isdigit()
        and w not in STOPWORDS
        and w not in ASKING_WORDS
        and w not in COMPARISON_WORDS
        and w not in NEGATING_WORDS
        and (len(w) > 1)
    }
