"""What a quote chose against: an item's text may not state it as the choice.

"We use Postgres instead of MySQL", "we moved the cache from Redis to Postgres", "we chose
Postgres over MySQL" each name two things: one kept (the word nearest the choice: before
"instead of", "rather than" and "in place of", after "chose", "prefer" … or "to") and one
turned away from (the words after "instead of", "rather than", "in place of", "over" and
"from", up to :data:`_AWAY`). An item's text that names the one turned away from, without
the one kept and without saying it was turned away from ("We use MySQL" on any of them),
reverses its quote as surely as dropping a "not" would. A text that names the kept thing,
or says the change ("Moved off MySQL", "MySQL is gone", "not MySQL"), is read as a summary.
Pure, on folded text; never raises.
"""

from __future__ import annotations

from gitmem.core.negation import NEGATION_RE
from gitmem.core.patterns import lazy_pattern

_AWAY = 2
"""How many content words after a choice name what it turns away from ("failing fast")."""
_INSTEAD_RE = lazy_pattern(
    r"\b(?:instead\s+of|rather\s+than|in\s+place\s+of|en\s+vez\s+de|en\s+lugar\s+de"
    r"|au\s+lieu\s+de?|anstatt|statt|invece\s+di|anziché|in\s+plaats\s+van|zamiast|вместо"
    r"|em\s+vez\s+de|ao\s+invés\s+de|i\s+stället\s+för|istället\s+för|i\s+stedet\s+for)\b"
)
"""A kept; B turned away from: "A instead of B", "A rather than B", "A in place of B", and
the same in the languages sessions are most often held in ("en vez de", "au lieu de",
"statt", "invece di", "in plaats van", "zamiast", "вместо", …)."""
_CHOOSER = (
    r"\b(?:chose|chosen|choose|choosing|picked|pick|picking|prefer|prefers|preferred"
    r"|favou?r|favou?red|went\s+with|go\s+with|going\s+with)\b"
)
_OVER_RE = lazy_pattern(rf"{_CHOOSER}([^.;:!?\n]{{1,60}}?)\bover\b")
"""A kept; B turned away from: "chose A over B", "prefer A over B"."""
_PREFER_TO_RE = lazy_pattern(r"\bprefer(?:s|red|ring)?\b(?!\s+to\b)([^.;:!?\n]{1,60}?)\bto\b")
"""A kept; B turned away from: "prefer A to B" (not "prefer to use A")."""
_SWAP_RE = lazy_pattern(
    r"\b(?:swap|swapped|swapping|swaps|trade|traded|trading|trades|exchange|exchanged"
    r"|exchanging)\b(?:\s+out)?([^.;:!?\n]{1,60}?)\bfor\b"
)
"""B turned away from, A kept: "swapped B for A", "traded B for A"."""
_FROM_RE = lazy_pattern(
    r"\b(?:mov|switch|migrat|chang|convert|port|upgrad|downgrad|went|go|going|rewr)"
    r"\w*\b[^.;:!?\n]{0,60}?\bfrom\b"
)
"""B turned away from, A kept: "moved / switched / migrated … from B to A"."""
_TO_RE = lazy_pattern(r"\bto\b")
_TURNED_AWAY_RE = lazy_pattern(
    r"\b(?:instead|rather|in\s+place\s+of|over|from|off|away|replac\w*|drop\w*|remov\w*|gone"
    r"|deprecat\w*|abandon\w*|retir\w*|stop\w*|against|no\s+longer|migrat\w*|switch\w*"
    r"|mov(?:e|ed|ing)|former|previous\w*|old|legacy|was|were|used\s+to|swap\w*|trad\w*"
    r"|exchang\w*)\b"
)
"""Words with which a text says that something was turned away from (it may then name it)."""
_STOP_RE = lazy_pattern(r"[.;:!?](?:\s|$)|\n")
"""The end of a clause (not the dot of "3.10" or "app.py")."""
_WORD_RE = lazy_pattern(r"(?<![\w#./%+-])[\w#./%+-]*\w")
_PIECES_RE = lazy_pattern(r"[/]")
"""What parts a text's word names too ("constructor/helper" names the constructor)."""
_FILLER = frozenset(
    (
        *("a", "an", "the", "to", "of", "in", "on", "for", "with", "and", "or", "we", "i"),
        *("you", "it", "is", "are", "was", "be", "will", "would", "should", "let's", "lets"),
        *("use", "using", "keep", "go", "going", "our", "its", "their", "this", "that"),
        *("now", "just", "still", "all", "both", "as", "by", "at", "so", "which"),
        *("used", "done", "made", "applied", "called", "chosen", "picked", "taken", "kept"),
    )
)
"""Words that name neither side of a choice: "a constructor that's consistently used
instead of casts" keeps the constructor."""


def chose_against(text: str, quote: str) -> str | None:
    """Why *text* (folded) states as chosen what *quote* (folded) turned away from: it
    names the thing turned away from, and neither the thing kept nor a turning away
    (:data:`_TURNED_AWAY_RE`) nor a negation. Raises nothing."""
    if _TURNED_AWAY_RE.search(text) or NEGATION_RE.search(text):
        return None
    words = set(_content(text))
    words |= {piece for word in words for piece in _PIECES_RE.split(word) if piece}
    for kept, away in _choices(quote):
        if kept and away & words and not kept & words:
            return (
                f'the item\'s text chooses "{min(away & words)}", which its quote turned away from'
            )
    return None


def _choices(quote: str) -> list[tuple[set[str], set[str]]]:
    """(what is kept, what is turned away from) of each choice *quote* (folded) makes."""
    found: list[tuple[list[str], list[str]]] = []
    for match in _INSTEAD_RE.finditer(quote):
        kept = _kept(_STOP_RE.split(quote[: match.start()])[-1])[-1:]
        found.append((kept, _content(_clause(quote, match.end()))[:_AWAY]))
    for match in _OVER_RE.finditer(quote):
        found.append((_kept(match.group(1))[:1], _content(_clause(quote, match.end()))[:_AWAY]))
    for match in _PREFER_TO_RE.finditer(quote):
        found.append((_kept(match.group(1))[:1], _content(_clause(quote, match.end()))[:_AWAY]))
    for match in _SWAP_RE.finditer(quote):
        kept = _kept(_clause(quote, match.end()))[:1]
        found.append((kept, _content(match.group(1))[:_AWAY]))
    for match in _FROM_RE.finditer(quote):
        clause = _clause(quote, match.end())
        if (to := _TO_RE.search(clause)) is not None:
            found.append((_kept(clause[to.end() :])[:1], _content(clause[: to.start()])[:_AWAY]))
    return [(set(kept) - set(away), set(away) - set(kept)) for kept, away in found]


def _clause(folded: str, start: int) -> str:
    """The rest of *folded*'s clause from *start* on."""
    return _STOP_RE.split(folded[start:], maxsplit=1)[0]


def _content(folded: str) -> list[str]:
    """The words of *folded* that can name a side (not filler, not a letter alone: the
    "s" of "that's")."""
    words = _WORD_RE.findall(folded)
    return [w for w in words if w not in _FILLER and (len(w) > 1 or w.isdigit())]


def _kept(folded: str) -> list[str]:
    """The words of *folded* that can name what a choice keeps: not an adverb in "-ly"
    either ("consistently used instead of casts")."""
    return [w for w in _content(folded) if not w.endswith("ly")]
