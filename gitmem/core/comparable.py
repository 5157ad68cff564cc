"""Can an item's text be checked against its quote at all?

Every rule by which a verbatim item's text may stand beside its quote
(:func:`gitmem.core.support.unsupported`) compares the words of the two: a negation and
the word it governs, a number, a condition, an opposite, a name. When the two share no
word to compare, no rule can say that the text reverses its quote, and "The migration is
done" beside "La migración todavía no está hecha" would pass every one. So a text is not
shown beside the badge (the quote itself is) when

1. the two are written in two writing systems (:func:`gitmem.core.writing.other_writing`:
   English on Korean or Russian);
2. they are written in two languages of one system (:func:`other_language`: English on
   German, Turkish or Spanish), told by the short words every sentence of a language
   holds (articles, pronouns, prepositions, auxiliaries, negations): the quote's are
   clearly one language's, and the text's, as many, are none of that language's;
3. they share no word (:func:`no_shared_word`): not one word of the text, those short
   words and code marks aside, is in its quote in any form ("deploy" and "deployed" are
   one word here, and so are "cache" and "caches"). A summary shares the words of what it
   summarises; a text that shares none says something its quote cannot be checked for.

The model is asked to write each text in its quote's language, in the quote's words. Pure;
never raises.
"""

from __future__ import annotations

import re
from collections import Counter

from gitmem.core.folding import bare, fold
from gitmem.core.writing import other_writing, prose

_LANGUAGES: dict[str, str] = {
    "English": """the a an and or but of to in on at for with from by is are was were be been
        being has have had do does did not no don't doesn't isn't aren't wasn't won't can't
        it it's this that these those we you they our your their which who what when then
        than there here will would should could can must also only still yet now after
        before so if as into about per via var non""",
    "German": """der die das den dem des ein eine einen einem einer und oder aber ist sind
        war waren wird werden wurde hat haben nicht kein keine keinen mit von zu auf für
        bei aus nach wir ich es sie auch noch nur schon jetzt mehr wenn dass als im am
        vom zum zur sich""",
    "French": """le la les un une des du de et ou mais est sont était été être a ont pas ne on
        n'est c'est l' d' qu' plus pour avec dans sur par nous vous ils elle ce cette ces
        qui que aussi encore déjà si au aux""",
    "Spanish": """el la los las un una unos unas y o pero es son está están era fue ser
        no ni más para con en por del al de que lo nos ya todavía también aún sin sobre
        como cuando este esta estos hay se""",
    "Portuguese": """o a os as um uma e ou mas é são está estão era foi ser não nem mais
        para com em por do da dos das no na nos que já ainda também sem sobre como quando
        este esta isso há se""",
    "Italian": """il lo la i gli le un una e o ma è sono era stato essere non più per con
        in su da del della dei delle nel nella che anche ancora già questo questa se""",
    "Dutch": """de het een en of maar is zijn was waren wordt worden heeft hebben niet
        geen met van voor op aan bij uit naar dat die wij we ik ook nog al meer als er""",
    "Turkish": """ve veya ama bir bu şu o da de ki için ile değil var yok olarak gibi daha
        çok en ne mi mı artık hiç her kendi sonra önce şimdi hem""",
}
"""The short words each language's sentences are built with. A word of two languages
counts for both; so English holds the words its technical prose borrows ("per", "via",
"non-", "env var"), which alone would read as Italian or Turkish."""


def _languages_of_words() -> dict[str, frozenset[str]]:
    found: dict[str, frozenset[str]] = {}
    for language, words in _LANGUAGES.items():
        for word in words.split():
            found[word] = found.get(word, frozenset()) | {language}
    return found


_WORDS_OF = _languages_of_words()
_SHORT = frozenset(_WORDS_OF)
_WORD_RE = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*['’]?")
"""A word of letters, with its apostrophes ("don't", "l'", "jurisdiction'ın")."""
_ELIDED_RE = re.compile(r"^([a-z])['’](?=\w)")
"""An elided article or pronoun written on its word ("l'ancienne"): read as "l'"."""
CLEAR = 1
"""The short words a quote needs, :data:`MOST` of them one language's and more of them
than of any other, for its language to be read ("için" is Turkish; "la", French, Spanish
or Italian, tells nothing alone)."""
MOST = 0.7
"""The share of a quote's short words one language must hold to be its language."""
PREFIX = 4
"""Two words are one when they begin alike, over this many letters at least and over all
but the last three of the shorter ("deploy", "deployed", "deployment"; "cache",
"caching"), or are equal without a plural's s; not "migration" and "migración"."""
_ENDING = 3
MOST_COMPARED = 500
"""The most distinct words of a text, and of its quote, compared in another form (an item's
text holds at most 500 characters; a quote a few sentences)."""


def incomparable(text: str, quote: str) -> str | None:
    """Why *text* cannot be checked against *quote* (see the module), or None."""
    return other_writing(text, quote) or other_language(text, quote) or no_shared_word(text, quote)


def other_language(text: str, quote: str) -> str | None:
    """Why *text* and *quote*, written in one system, are in two languages: the quote's
    short words are clearly one language's (at least :data:`CLEAR`, :data:`MOST` of
    them), and the text holds short words, none of that language. None when the quote is
    too short to tell, the text holds no short word, or they share a language."""
    theirs = _short_words(quote)
    language = _clear_language(theirs)
    if language is None:
        return None
    mine = _short_words(text)
    if not mine or any(language in _WORDS_OF[w] for w in mine):
        return None
    own = _clear_language(mine)
    said = f"in {own}" if own is not None else f"not in {language}"
    return (
        f"the item's text is written {said} and its quote in {language}: "
        "no word of one can be checked against the other"
    )


def no_shared_word(text: str, quote: str) -> str | None:
    """Why *text* cannot be checked against *quote*: not one of its words (short words
    and code marks aside) is in the quote in any form (:data:`PREFIX`). None when one is,
    or the text has no such word."""
    mine = _long_words(text)
    if not mine:
        return None
    theirs = _long_words(quote)
    if not mine.isdisjoint(theirs):
        return None
    # a word in another form begins alike: each of the text's words is compared with the
    # quote's of the same first letters only, at most MOST_COMPARED a side (a teammate's
    # record may hold a megabyte of words that all begin alike; past the bound, a text is
    # refused rather than trusted)
    alike: dict[str, list[str]] = {}
    for other in sorted(theirs):
        alike.setdefault(other[:PREFIX], []).append(other)
    for word in sorted(mine)[:MOST_COMPARED]:
        if any(_one_word(word, o) for o in alike.get(word[:PREFIX], [])[:MOST_COMPARED]):
            return None
    return "the item's text shares no word with its quote: nothing in it can be checked against it"


def _short_words(text: str) -> Counter[str]:
    found: Counter[str] = Counter()
    for word in _words(prose(text)):  # code and names are in no language
        if word in _SHORT:
            found[word] += 1
        elif (elided := _ELIDED_RE.match(word)) is not None and f"{elided.group(1)}'" in _SHORT:
            found[f"{elided.group(1)}'"] += 1
    return found


def _clear_language(words: Counter[str]) -> str | None:
    total = sum(words.values())
    if total < CLEAR:
        return None
    votes: Counter[str] = Counter()
    for word, count in words.items():
        for language in _WORDS_OF[word]:
            votes[language] += count
    ranked = votes.most_common(2)
    first, most = ranked[0]
    second = ranked[1][1] if len(ranked) > 1 else 0
    return first if most >= MOST * total and most > second else None


def _long_words(text: str) -> set[str]:
    """The text's words but its short ones, code and names among them (most of what a
    summary shares with its quote is names)."""
    return {bare(word) for word in _words(text) if word not in _SHORT and len(word) > 1}


def _words(text: str) -> list[str]:
    return [w.replace("’", "'") for w in _WORD_RE.findall(fold(text))]


def _one_word(word: str, other: str) -> bool:
    if word == other:
        return True
    shortest = min(len(word), len(other))
    alike = next((n for n in range(shortest) if word[n] != other[n]), shortest)
    return alike >= max(PREFIX, shortest - _ENDING)
