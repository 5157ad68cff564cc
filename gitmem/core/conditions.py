"""Conditions: the words under which a statement holds, and what an item's text must keep.

"We deploy on Fridays if QA approves" holds only under its condition: a quote cut from it
(:mod:`gitmem.capture.standing`) or a text that leaves it out ("We deploy on Fridays")
states unconditionally what was said under a condition; and a text that adds one ("Deploy
on Fridays only if QA approves" on "we deploy on Fridays") conditions what was said
plainly. The words are spelt once here, for both: "if", "unless", "provided", "as long
as", …; "once", "when", "until", "as soon as", which bind a statement to a time or an
event ("we merge once the review passes"); and the same in the languages sessions are
most often held in. Pure; never raises.
"""

from __future__ import annotations

from gitmem.core.folding import fold
from gitmem.core.lookalikes import read_look_alikes
from gitmem.core.patterns import lazy_pattern

_FALLS = r"falls(?!\s+(?:back|over|through|short|apart|behind|off|out|into|on|to|under)\b)"
"""The German "falls" ("if"), not the English verb ("falls back")."""
_GREEK_AN = r"αν(?=[^\S\n]+\w*[\u0370-\u03ff\u1f00-\u1fff])"
"""The Greek "αν" ("if"), before a word that holds a Greek letter: folding reads it "av",
which is also the Swedish "of"."""
CONDITION_WORDS = (
    "if|unless|in case|assuming|provided|providing|as long as|so long as"
    r"|on (?:the )?condition|in the event|except|excepting|subject to|contingent (?:on|upon)"
    "|depending on"
    rf"|si|sauf si|à moins que|pourvu que|wenn|{_FALLS}|sofern|außer wenn|solange"
    "|a menos que|salvo que|siempre que|con tal de que|tenzij|jeśli|jeżeli|если|якщо"
    "|iff|dacă|daca|eğer|jika|kalau|nếu|إذا"
    rf"|εάν|εαν|{_GREEK_AN}|εφόσον|εφοσον|אם|בתנאי"
)
"""The conditions a sentence may open with and a quote may be followed by; an exception
("except during the freeze") limits it as one does."""
_ONCE = (
    r"(?<!\bthis )(?<!\bat )(?<!\bfor )(?<!\bthan )(?<!\bjust )"
    r"once(?!\s+(?:a|an|per|more|again|every|each|or|and|in|for|only|twice)\b)"
    r"(?![^\S\n]*[,.;:!?)])"
)
WHEN_WORDS = (
    rf"when(?![^\S\n]+to\b)|whenever|{_ONCE}|until|as soon as"
    "|quand|lorsque|dès que|une fois que|jusqu'à ce que|sobald|cuando|en cuanto|hasta que"
    "|quando|appena|finché|assim que|até que|zodra|wanneer|totdat|gdy|kiedy|dopóki"
    "|когда|как только|όταν|οταν|μόλις|μολις|כאשר"
)
"""The words that bind what they follow to a time or an event ("we merge once the review
passes", "we keep the old API until the migration lands"); "once" not as a count ("once a
day", "once more", "this once", "at once", "once."), nor "when" as a question's ("when to
deploy")."""
ENDING_CONDITIONS = (
    "たら(?![しいくき])|れば(?!なら|いけ|なり)|なら(?![なずべ])|場合"
    r"|(?:하|되|으|다|이라|않으|없으|있으)면(?![가-힣])(?!\s*(?:됩|돼|된|되))|경우"
)
"""The conditions that end their clause, as a verb's ending or a word after it (Japanese
"…たら", "…れば", "…なら", "…場合", Korean "…하면", "…으면", "…경우"; not the "must" of
"…なければならない", nor the "you only need to" of "…하면 됩니다"): such a condition
binds the words after it in its sentence, wherever it ends."""
UNSPACED_CONDITIONS = (
    f"如果|假如|要是|除非|只要|一旦|直到|もし|만약|만일|अगर|यदि|{ENDING_CONDITIONS}|ברגע ש|במקרה ש"
)
"""The same, of languages that do not space their words (and the Hebrew "as soon as" and
"in case" glued to the word after them: "ברגע ש…", "במקרה ש…"), matched wherever they
stand."""
ASKS = (
    r"even|as|what|whether|see|sure|tell|wonder\w*|check\w*|ask\w*|know\w*|decid\w*"
    r"|verif\w*|test\w*"
)
"""The words after which a condition word conditions nothing: "even if" concedes, "as if"
compares, "check if", "not sure if" ask."""


def condition_source(also: str = "") -> str:
    """The pattern of a condition word (:data:`CONDITION_WORDS`, :data:`WHEN_WORDS`, their
    look-alike spellings, :data:`UNSPACED_CONDITIONS`), and of the alternatives *also*
    names (a regex ending with "|"), each a whole word: it ends at a character that is no
    letter or digit ("_if_" is emphasis) and is not glued to an identifier
    ("skip-if-red"). Raises nothing."""
    words = read_look_alikes(f"{CONDITION_WORDS}|{WHEN_WORDS}")
    return (
        rf"(?<![^\W_][-_/.])(?<![^\W_])(?:{also}{words})(?![^\W_])(?![-_/][^\W_])"
        rf"|{UNSPACED_CONDITIONS}"
    )


_CONDITION_RE = lazy_pattern(condition_source)
_ASKED_RE = lazy_pattern(rf"\b(?:{ASKS})\W*\Z")
_BOUND_RE = lazy_pattern(r"\b(?:only|after|before|except|depending|subject to)\b")
"""Words by which a text keeps its quote's condition in its own words ("merge after the
review passes" for "once the review passes", "only with QA approval")."""


def conditions(folded: str) -> list[str]:
    """The condition words of *folded* (text folded by :func:`~gitmem.core.folding.fold`),
    in order, but for one that follows a word that asks or concedes ("check if", "even
    if"). Never raises."""
    found = []
    for word in _CONDITION_RE.finditer(folded):
        if _ASKED_RE.search(folded, max(0, word.start() - 24), word.start()) is None:
            found.append(word.group())
    return found


_UNLESS = frozenset(
    ("unless", "except", "excepting", "sauf si", "à moins que", "außer wenn", "a menos que")
) | {"salvo que", "tenzij"}
"""Conditions under which a statement does not hold ("unless QA objects")."""
_UNTIL = frozenset(("until", "jusqu'à ce que", "hasta que", "até que", "totdat", "finché"))
"""Conditions that hold a statement up to an event ("until the migration")."""
_AFTER = frozenset(("once", "as soon as", "when", "whenever", "after", "sobald", "dès que"))
_AFTER |= {"quand", "lorsque", "cuando", "en cuanto", "quando", "appena", "zodra", "wanneer"}
"""Conditions that make a statement hold from an event on ("once CI is green")."""
_OPPOSED = {("unless", "if"), ("unless", "after"), ("until", "after")}
"""Kinds of condition that say the other way round of each other."""
_AFTER_WORD_RE = lazy_pattern(r"\bafter\b")


_NEGATED_RE = lazy_pattern(r"\b(?:no|not|never|nothing|cannot|\w+n't)\b[^.;:!?\n]*\Z")
"""A negation earlier in a condition's clause: "no deploys until QA approves" holds them
after it ("only after"), "don't merge unless CI is green" is "merge only if"."""
_CLAUSE_END_RE = lazy_pattern(r"[.;:!?,\n]")
_WORD_RE = lazy_pattern(r"[^\W_]+")
_MINOR = frozenset(("a", "an", "the", "it", "its", "is", "are", "has", "have", "been", "be"))


CLAUSE_CHARS = 200
"""The most characters of its clause a condition is read with, on either side: the
words it conditions on, and a negation before it. A clause goes on to the next
punctuation, and a text of a thousand conditions and no punctuation had each read the
whole text (a teammate's record of 5,000 characters took 25 s): past the cap a
condition conditions on no further words, and a negation further back leaves its kind
as it is."""


def _kinds(folded: str) -> list[tuple[str, set[str]]]:
    """Each condition of *folded*, by kind ("unless", "until", "after", "if"; a negated
    "until" is "after", a negated "unless" "if"), with the first few words it conditions
    on ("until the migration lands": "migration", "lands"), each read within
    :data:`CLAUSE_CHARS` of it."""
    found = []
    for match in _CONDITION_RE.finditer(folded):
        if _ASKED_RE.search(folded, max(0, match.start() - 24), match.start()) is not None:
            continue
        word = " ".join(match.group().split())
        kind = "unless" if word in _UNLESS else "until" if word in _UNTIL else "if"
        kind = "after" if word in _AFTER else kind
        before = folded[max(0, match.start() - CLAUSE_CHARS) : match.start()]
        clause = _CLAUSE_END_RE.split(before)[-1]
        if kind in ("unless", "until") and _NEGATED_RE.search(clause):
            kind = "if" if kind == "unless" else "after"
        found.append((kind, _conditioned(folded, match.end())))
    for match in _AFTER_WORD_RE.finditer(folded):
        found.append(("after", _conditioned(folded, match.end())))
    return found


def _conditioned(folded: str, at: int) -> set[str]:
    """The words of *folded* from *at* to the end of their clause, within
    :data:`CLAUSE_CHARS`, but for the minor ones ("the", "is")."""
    rest = _CLAUSE_END_RE.split(folded[at : at + CLAUSE_CHARS], maxsplit=1)[0]
    return {w for w in _WORD_RE.findall(rest) if w not in _MINOR}


def turned_condition(text: str, quote: str) -> str | None:
    """Why an item's *text* turns its *quote*'s condition around: a condition of the text
    and one of the quote are of opposite kinds and condition on a word in common ("Deploy
    if QA objects" on "deploy unless QA objects"; "Keep the old API after the migration"
    on "… until the migration"): "unless" against "if" or "once", "until" against "after"
    or "once"; a negated "until" or "unless" is read as "after" or "if" ("run it only
    after the target is resolved" on "no blame until the target is resolved" is a
    summary). Never raises."""
    mine, theirs = _kinds(fold(text)), _kinds(fold(quote))
    said = {kind for kind, _ in theirs}
    for kind, words in mine:
        if kind in said:
            continue
        for other, on in theirs:
            if ((kind, other) in _OPPOSED or (other, kind) in _OPPOSED) and words & on:
                return f'the item\'s text says "{kind}" where its quote says "{other}"'
    return None


def conditional(text: str, quote: str) -> str | None:
    """Why an item's *text* and its *quote* disagree on a condition, or None: the text
    turns its kind around (:func:`turned_condition`); the quote says one and the text
    none, nor another word that binds it ("only", "after", …); or the text says one and
    the quote none of them. Never raises."""
    turned = turned_condition(text, quote) or other_bound(text, quote)
    if turned is not None:
        return turned
    mine, theirs = fold(text), fold(quote)
    said, shown = conditions(theirs), conditions(mine)
    if said and not shown and _BOUND_RE.search(mine) is None:
        return f'the quote says "{said[0]}" and the item\'s text states it unconditionally'
    if shown and not said and _BOUND_RE.search(theirs) is None:
        return f'the item\'s text says "{shown[0]}", a condition its quote does not hold'
    return None


_TIME = (
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|today"
    r"|noon|midnight|eod|eow|end|next|the\s+end|january|february|march|april|may|june|july"
    r"|august|september|october|november|december|q[1-4]|\d{1,2}(?::\d\d)?|\d{4}-\d\d-\d\d)"
)
_BOUND_TIME_RE = lazy_pattern(rf"\b(by|before|until|till|after|from|since|starting)\s+{_TIME}\b")
"""A time a statement is bound to: a deadline ("by Friday", "before noon", "until June")
or a start ("after Friday", "from Monday", "since 2.0")."""
_DEADLINE = frozenset(("by", "before", "until", "till"))


def other_bound(text: str, quote: str) -> str | None:
    """Why an item's *text* bounds its quote's time the other way: the quote says a
    deadline ("by Friday", "before noon") and the text only a start ("after Friday",
    "from Monday"), or the other way round. Never raises."""
    mine, theirs = fold(text), fold(quote)
    shown = {m.group(1) in _DEADLINE for m in _BOUND_TIME_RE.finditer(mine)}
    said = {m.group(1) in _DEADLINE for m in _BOUND_TIME_RE.finditer(theirs)}
    if shown and said and not shown & said:
        mine_is, theirs_is = ("a deadline" if True in side else "a start" for side in (shown, said))
        return f"the item's text gives {mine_is} where its quote gives {theirs_is}"
    return None
