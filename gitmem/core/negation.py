"""Negation words: what an ellipsis may not skip, and what an item's text and its quote
must agree on.

"We will not deploy on Fridays" quoted as "We will… deploy on Fridays" says the
opposite of what was said, and so does an item "We deploy on Fridays" resting on the
quote "we will not deploy on Fridays". Both checks look for the same words, in folded
text (``gitmem.core.folding.fold``, which straightens apostrophes and folds case):
not, never, no, none, nobody, nothing, nowhere, neither, nor, without, cannot, any word
ending in "n't" ("don't", "won't", "isn't"), and the same contractions written without
the apostrophe ("dont", "cant", "wont"), the negative adverbs hardly, barely and
scarcely, and the negation words of the languages sessions are most often held in
besides English (:data:`_OTHER_LANGUAGES`: "nicht", "pas", "jamais", "nunca", "não",
"non", "niet", "не", "inte", "değil", "δεν", "tidak", "không", "nu", "emme", "لا", "לא", …;
the Finnish "en" and "et" only in a text that reads as Finnish: :func:`negation_re`; each also
as it reads in capitals and without accents; in Chinese, Japanese, Korean, Thai and
Hindi, which do not space their words or mark word ends with vowel signs, 不, 没, 無, ない,
ません, 않, 못, 없, ไม่, नहीं wherever they stand). A few of those have other
meanings ("no-op", "wont", "sans-serif"); the check errs toward saying no, which only
costs a verbatim badge. Pure; never raises.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from itertools import islice

from gitmem.core.conditions import (
    CLAUSE_CHARS,
    CONDITION_WORDS,
    UNSPACED_CONDITIONS,
    WHEN_WORDS,
)
from gitmem.core.folding import bare, fold
from gitmem.core.lookalikes import read_capitals, read_look_alikes
from gitmem.core.patterns import LazyPattern, lazy_pattern

CROSS_MARKS = "❌✗✘✕✖❎🚫⛔"
"""Marks that cross out what they stand beside ("❌ Tests pass on CI", "keep the v1 API ✗",
a table's "| Redis | ❌ |"): a negation where words would be one. Folding drops them, so
each rule that must see one reads the raw text."""

_WORDS = "not never no none nobody nothing nowhere neither nor without cannot"
_BARE_CONTRACTIONS = (
    "dont doesnt didnt isnt arent wasnt werent wont cant couldnt shouldnt wouldnt "
    "hasnt havent hadnt mustnt neednt shant aint hardly barely scarcely"
)


def _both_cases(words: str) -> str:
    """*words* (space-separated) as folding reads each written in small letters and in
    capitals, which differ where a capital shows another Latin letter than its small
    letter does (the Greek "δεν" folds to "δev", "ΔΕΝ" to "δen"); and each without its
    accents, as capitals (Greek "ΟΧΙ" for "όχι") and hurried typing ("nao", "khong") drop
    them."""
    read: list[str] = []
    for word in words.split():
        for form in (word, read_capitals(word.upper()).casefold()):
            for spelt in (form, _unaccented(form)):
                if read_look_alikes(spelt) not in read:
                    read.append(read_look_alikes(spelt))
    return " " + " ".join(read)


def _unaccented(word: str) -> str:
    import unicodedata

    decomposed = unicodedata.normalize("NFD", word)
    bare = "".join(c for c in decomposed if unicodedata.category(c) != "Mn")
    return unicodedata.normalize("NFC", bare)


_OTHER_LANGUAGES = (
    " ne pas jamais rien aucun aucune sans(?!-)"  # French
    " nicht kein keine keinen keinem keiner keines nie niemals nichts niemand ohne"  # German
    " nunca nada nadie ningún ninguno ninguna jamás sin tampoco"  # Spanish
    " não nenhum nenhuma sem nem"  # Portuguese
    " non(?!-) mai niente nulla nessuno nessuna senza"  # Italian
    " niet geen nooit niets zonder"  # Dutch
    " nigdy nikdy bez"  # Polish, Czech
    " не нет ни никогда ничего никто без ні ніколи"  # Russian, Ukrainian
    " inte ej ingen inget inga aldrig utan ikke intet aldri uden uten"  # Scandinavian
    " ei eivät emme ette ilman"  # Finnish ("en", "et": :data:`_FINNISH_ONLY`)
    " değil yok hiç hiçbir asla olmadan"  # Turkish
    " nem sem nincs soha nélkül"  # Hungarian
    " nu niciodată fără nici"  # Romanian (also the Dutch "nu", "now": a false stop)
    " δεν μη μην όχι ούτε ποτέ χωρίς"  # Greek
    " tidak bukan jangan belum tanpa"  # Indonesian, Malay
    " không chưa chẳng đừng"  # Vietnamese
    " لا لم لن ليس ليست بدون أبدا"  # Arabic
    " לא אין בלי מעולם"  # Hebrew
)
"""Negation words of other languages (read as folding spells them by :func:`_negations`).
"non" and "sans" before a hyphen are English prefixes ("non-fragile", "sans-serif"),
which :mod:`gitmem.core.opposites` reads as such."""
_UNSPACED = "不|没|沒|無|无|勿|ない|ません|않|못|없|ไม่|नहीं|बिना"
"""Negations of languages that do not space their words, matched wherever they stand."""


@functools.cache
def _negations() -> str:
    """Every negation word, as folding spells it (a Cyrillic "е" is read as "e"): made
    when a pattern of them is first compiled, since reading ~130 words in every case and
    accent costs ~4 ms, and a brief that renders no new quote needs none of them."""
    return f"{_WORDS} {_BARE_CONTRACTIONS} {_both_cases(_OTHER_LANGUAGES)}"


def _shown(words: str) -> str:
    """*words* (space-separated) as one alternation, each "h" also matching a Cyrillic
    "н" and each "b" a "в" or "ь": a word written wholly in Cyrillic keeps those letters
    when folded (``gitmem.core.folding._CYRILLIC_CAPITALS``), while its capitals show the
    Latin letters ("НАгԁӏу" shows "HArdly")."""
    return "|".join(words.split()).replace("h", "[hн]").replace("b", "[bвь]")


_FINNISH_ONLY = "en et"
"""The Finnish "I do not", "you do not": negations only in a text that reads as Finnish
(:data:`_FINNISH_TEXT_RE`), since they are the French "in" and "and", the Spanish "in",
the Dutch "and", the Swedish "a", a locale's "en-US" and "et al."."""
_FINNISH_TEXT_RE = lazy_pattern(
    r"\b(?:ei|eivät|emme|ette|ole|olla|olen|olet|ovat|oli|että|mutta|myös|kanssa|tämä"
    r"|tässä|koska|vielä|siis|sitten|kuin|pitää|jos)\b"
)
"""Words of Finnish that no other language sessions are held in spells, in folded text."""


def _negation_words(finnish: bool) -> str:
    words = f"{_negations()} {_FINNISH_ONLY}" if finnish else _negations()
    return rf"\b(?:{_shown(words)}|\w+n't)\b|{_UNSPACED}"


NEGATION_RE = lazy_pattern(lambda: _negation_words(False))
"""One negation word in folded text."""
_FINNISH_NEGATION_RE = lazy_pattern(lambda: _negation_words(True))


def negation_re(folded: str) -> LazyPattern:
    """The negation words of *folded* text's languages: :data:`NEGATION_RE`, with the
    Finnish "en" and "et" when it reads as Finnish. Raises nothing."""
    return _FINNISH_NEGATION_RE if _FINNISH_TEXT_RE.search(folded) else NEGATION_RE


_LIMITS = (
    "only unless except excepting if until instead rather"
    " seulement uniquement sauf si lieu"  # French ("au lieu de")
    " nur außer ausser wenn bis statt anstatt"  # German
    " solo sólo solamente únicamente salvo excepto"  # Spanish
    " somente apenas só exceto"  # Portuguese
    " soltanto tranne eccetto invece anziché"  # Italian
    " alleen behalve tenzij indien"  # Dutch
    " tylko oprócz jeśli jeżeli zamiast"  # Polish
    " только кроме если лишь вместо"  # Russian
)
"""Words that limit or condition what follows, or put it in another's place ("we store
the events in Postgres instead of in MongoDB" is not "we store the events… in MongoDB"),
in English and the languages of :data:`_OTHER_LANGUAGES` (read with look-alike letters
when their pattern is made)."""
POSSIBILITY = "could might maybe perhaps possibly"
"""Words that make a statement a possibility ("we could drop the index"): an ellipsis
may not skip one, nor an item's text leave it out (:func:`gitmem.core.opposites.settled`).
Not "would", "may" or "should", which as often soften a plain statement."""
_POSSIBILITIES = (
    f" {POSSIBILITY} almost nearly"
    " vielleicht eventuell peut-être quizás quizá acaso talvez forse magari misschien"
    " wellicht może возможно"
)
"""A possibility, and what stops short of a fact ("we almost lost the data"), in English
and the languages of :data:`_OTHER_LANGUAGES`."""
_UNSPACED_POSSIBILITIES = "也许|也許|或许|或許|かもしれ|아마"
_UNSPACED_LIMITS = "只|仅|僅|除非|如果|要是|而不是|代わりに|だけ|しか|もし|만약|만일|대신"
_SPEAKER = (
    r"\b(?:user|human|you|me|assistant|ai|claude|codex|gemini|copilot|chatgpt|gpt(?:-[\w.]+)?)"
    r"(?: ?\([^()\n]{0,40}\))? ?:"
)
"""A speaker's label in a plain transcript ("User:", "**Claude:**", a chat export's "You:",
"ChatGPT:" and "GPT-4o:", a time in brackets before the colon: "User (10:02):"; folded):
what follows it is another person's turn. The same names as :data:`SPEAKER_LINE_RE`'s,
with "AI"."""
SPEAKER_LINE_RE = lazy_pattern(
    r"^(?:[^\w\n]|_)*+(?:user|human|you|me|assistant|ai|claude|codex|gemini|copilot|chatgpt"
    r"|gpt(?:-[\w.]+)?)"
    r"(?: said| wrote)?(?:[^\w\n(]|_)*+(?:\([^()\n]*+\)(?:[^\w\n]|_)*+)?$",
    re.IGNORECASE | re.MULTILINE,
)
"""A speaker's label written as a line of its own, in the raw text of a message: a
heading ("## User", "### Assistant"), emphasis ("**User**", SpecStory's "_**Assistant
(2026-01-02 10:00Z)**_"), or the name alone. Folding drops the markup that set it apart,
so :class:`gitmem.core.align.MessageView` finds these lines before folding."""


def _elision_stops(finnish: bool) -> str:
    words = f"{_negations()} {read_look_alikes(_LIMITS + _POSSIBILITIES)}"
    conditions = read_look_alikes(f"{CONDITION_WORDS}|{WHEN_WORDS}")
    return (
        r"\b(?:"
        + _shown(f"{words} {_FINNISH_ONLY}" if finnish else words)
        + rf"|{conditions}|\w+n't)\b|{_UNSPACED}|{_UNSPACED_LIMITS}|{UNSPACED_CONDITIONS}"
        + rf"|{_UNSPACED_POSSIBILITIES}"
        + rf"|{_SPEAKER}|\ufffd"
    )


ELISION_STOPS_RE = lazy_pattern(lambda: _elision_stops(False))
"""What an ellipsis may not skip, in folded text: a negation word; a word that limits or
conditions what follows ("we deploy… on Fridays" is not "we deploy only if QA passes on
Fridays"; the conditions of :mod:`gitmem.core.conditions`: "once", "as long as", …); a
speaker's label of a plain transcript (:data:`_SPEAKER`); and the stand-in of a
bidirectional control (:data:`gitmem.core.folding.BIDI_STAND_IN`), which can show a
skipped word as another (and stands for gitmem's own output in a message)."""
_FINNISH_ELISION_STOPS_RE = lazy_pattern(lambda: _elision_stops(True))


def elision_stops(folded: str) -> LazyPattern:
    """What an ellipsis may not skip in *folded* text (a message): :data:`ELISION_STOPS_RE`,
    with the Finnish "en" and "et" when it reads as Finnish. Raises nothing."""
    return _FINNISH_ELISION_STOPS_RE if _FINNISH_TEXT_RE.search(folded) else ELISION_STOPS_RE


POSSIBILITY_RE = lazy_pattern(
    lambda: rf"\b(?:{_shown(read_look_alikes(_POSSIBILITIES))})\b|{_UNSPACED_POSSIBILITIES}"
)
"""A word of a possibility (:data:`POSSIBILITY`, "almost", and the same of other
languages), in folded text."""


def elision_rule(word: str) -> str:
    """The rule an ellipsis that skips *word* (a match of :data:`ELISION_STOPS_RE`)
    breaks, as the end of a reason. Raises nothing."""
    if _FINNISH_NEGATION_RE.fullmatch(word):
        return "an elision may not drop a negation"
    if word == "\ufffd":
        return "an elision may not skip a bidirectional control"
    if word.endswith(":") or SPEAKER_LINE_RE.fullmatch(word):
        return "an elision may not join two speakers' words"
    if POSSIBILITY_RE.fullmatch(word):
        return "an elision may not turn a possibility into a fact"
    return "an elision may not drop a limit or a condition"


_HEDGES_RE = lazy_pattern(
    r"\b(?:(?:i'?m|i am|we'?re|we are|am|are|is|it'?s)\s+)?"
    r"(?:not|never)\s+(?:(?:yet|quite|entirely|really|so|too)\s+)?(?:sure|certain|clear)\b"
    r"|\b(?:do\s+not|don'?t|did\s+not|didn'?t)\s+(?:yet\s+)?know\b|\bno\s+idea\b"
)
"""A hedge ("I'm not sure", "don't know", "no idea") says how certain a claim is, not
that it is reversed: an uncertainty's text may hedge otherwise ("may break", "untested")."""


def negations(text: str) -> list[str]:
    """The negation words of *text* (folded first), in order. Never raises."""
    folded = fold(text)
    return negation_re(folded).findall(folded)


def polarity_conflict(text: str, quote: str) -> str | None:
    """Why an item's *text* and its *quote* disagree in polarity, or None when they agree.

    They disagree when one of them negates something the other states plainly: a
    negation word in one, none in the other, and a word the negation governs (one of
    the :data:`SCOPE` content words after it) present in the other. The text may summarise
    its quote, and leave out a negated clause ("Keep the cache in .git/gitmem" from "the
    cache lives in .git/gitmem and is never pushed"), but may not reverse it ("We deploy
    on Fridays" from "we will not deploy on Fridays"). Hedges ("not sure", "don't know",
    "no idea") are left out of both sides: they qualify a claim rather than reverse it.
    Counting is not attempted: "not… never" against "not" is agreement. Never raises.
    """
    mine, theirs = unhedged(text), unhedged(quote)
    in_text, in_quote = negation_re(mine).findall(mine), negation_re(theirs).findall(theirs)
    if in_quote and not in_text and _governs(theirs, mine):
        return f'the quote says "{in_quote[0]}" but the item\'s text has no negation'
    if in_text and not in_quote and _governs(mine, theirs):
        return f'the item\'s text says "{in_text[0]}" but its quote has no negation'
    return None


SCOPE = 3
"""How many content words after a negation it is taken to govern."""
_FILLER = frozenset(
    (
        *("a", "an", "the", "to", "be", "been", "being", "is", "are", "was", "were", "it"),
        *("this", "that", "of", "at", "in", "on", "for", "ever", "yet", "any", "again"),
        *("so", "do", "does", "did", "will", "would", "shall", "should", "can", "could"),
        *("may", "might", "must"),
    )
)
_WORD_RE = lazy_pattern(r"(?<![\w#./-])[\w#./-]*\w")


def unhedged(text: str) -> str:
    """*text* folded, with its hedges ("not sure", "no idea") taken out. Never raises."""
    return _HEDGES_RE.sub(" ", fold(text))


def _words(folded: str) -> set[str]:
    return set(_WORD_RE.findall(folded))


_UNIT_RE = lazy_pattern(r"(\d+(?:[.,]\d+)*)[^\W\d_]{1,3}")


def _forms(word: str) -> set[str]:
    """*word* and the forms another side may write it in: a number without the unit
    written onto it ("30s", "60ms": "30", "60"), and a plural without its "s"
    ("fridays": "friday"). "60s not 30s" negates the 30 of "a window of 30 seconds"."""
    forms = {word}
    if (unit := _UNIT_RE.fullmatch(word)) is not None:
        forms.add(unit.group(1))
    else:
        forms.add(bare(word))
    return forms


def _governs(folded: str, other: str) -> bool:
    """Does a negation in *folded* govern a word the *other* side (folded) holds? In a
    language that does not space its words, the word is any two characters of the few
    that stand (within the clause) after a negation that precedes its verb (不, 没, 못)
    or before one that follows it (ない, ません, 않, 없)."""
    words = {form for word in _words(other) for form in _forms(word)}
    for match in negation_re(folded).finditer(folded):
        word = match.group()
        if word in _AFTER_VERB:
            near = _CLAUSE_RE.findall(folded[max(0, match.start() - _NEAR) : match.start()])
            if _shares_pair(near[-1] if near else "", other) or _shares_stem(folded, match, other):
                return True
            continue
        if word in _BEFORE_VERB:
            clause = _CLAUSE_RE.match(folded, match.end())
            if clause is not None and _shares_pair(clause.group()[:_NEAR], other):
                return True
            continue
        # the first words after it, read up to the SCOPE-th (not every word to the end
        # of the text, again for each negation)
        after = (w.group() for w in _WORD_RE.finditer(folded[match.end() :]))
        if any(_forms(w) & words for w in islice(_unfilled(after), SCOPE)):
            return True
        if _ends_clause(folded, match.end()):
            # "wir nutzen Redis nicht mehr", "tests pass? not yet": it governs what its
            # clause said before it (within CLAUSE_CHARS of it)
            said = _CLAUSE_END_RE.split(
                folded[max(0, match.start() - CLAUSE_CHARS) : match.start()]
            )[-1]
            before = [w for w in _WORD_RE.findall(said) if w not in _FILLER]
            if any(_forms(w) & words for w in before[-SCOPE:]):
                return True
    return False


def _unfilled(words: Iterator[str]) -> Iterator[str]:
    return (w for w in words if w not in _FILLER)


_CLAUSE_END_RE = lazy_pattern(r"[;:!?,()\n—–]|\.(?:\s|$)|\s-\s")
_STILL_CLAUSE_FINAL = frozenset(("mehr", "more", "anymore", "plus", "longer", "langer", "meer"))
"""After a negation that ends its clause, words that leave it there ("nicht mehr", "not
anymore", "ne … plus")."""


def _ends_clause(folded: str, end: int) -> bool:
    """Does the negation that ends at *end* of *folded* end its clause (no word after it
    but filler and "mehr", "anymore" …)? Read within :data:`CLAUSE_CHARS` of it."""
    rest = _CLAUSE_END_RE.split(folded[end : end + CLAUSE_CHARS], maxsplit=1)[0]
    words = (w.group() for w in _WORD_RE.finditer(rest))  # up to the first that is not
    return all(w in _FILLER or w in _STILL_CLAUSE_FINAL for w in words)


_BEFORE_VERB = frozenset("不没沒無无勿못")
_AFTER_VERB = frozenset(("ない", "ません", "않", "없"))
_NEAR = 4
"""How many characters beside an unspaced negation it is taken to govern."""
_CLAUSE_RE = lazy_pattern(r"\w+")


_STEM_RE = lazy_pattern(
    r"([\u3400-\u4dbf\u4e00-\u9fff]|[\uac00-\ud7a3]{2})[\u3040-\u309f\uac00-\ud7a3]{0,3}\s?\Z"
)
"""Before a negation that follows its verb, the verb's stem: its last Chinese character
(Japanese "使わない": "使") or its first two Hangul syllables (Korean "사용하지 않는다":
"사용"), and the kana or syllables its ending adds."""


def _shares_stem(folded: str, match: re.Match[str], other: str) -> bool:
    """Does the verb a negation that follows it negates stand in *other* in another form
    ("使わない", "使う"; "사용하지 않는다", "사용한다")?"""
    stem = _STEM_RE.search(folded, max(0, match.start() - 6), match.start())
    return stem is not None and stem.group(1) in other


def _shares_pair(near: str, other: str) -> bool:
    return any(near[n : n + 2] in other for n in range(len(near) - 1))
