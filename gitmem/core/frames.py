"""What an item's text may not do to its quote while keeping the words around.

A text that keeps most of its quote's words can still change what it says: put another
word in one word's place ("We use Memcached for the cache" on "we use Redis for the
cache", "Bob dropped the cache" on "Alice dropped the cache", "We chose Redis" on "we
considered Redis", "Redis is used" on "Redis was used"), state in the present what the
quote puts in the past ("We use Redis for the cache" on "we originally used Redis for the
cache"), or put two of its words the other way round ("We migrated from Postgres to
MySQL" on "we migrated from MySQL to Postgres"). Each function here says why, or None.
A false alarm costs only the item's wording: its quote, the transcript's own words,
becomes its text (:func:`gitmem.core.support.unsupported`). Pure, on folded text; never
raises.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

from gitmem.core.folding import fold
from gitmem.core.measures import number_words, same_unit
from gitmem.core.patterns import lazy_pattern
from gitmem.core.qualifiers import same_kind

_PIECE_RE = lazy_pattern(r"[^\W_]+")
_CONTRACTED_RE = lazy_pattern(r"\b(\w+?)(n)?'(t|ll|re|ve|m|d)\b")
_CONTRACTIONS = {"t": "not", "ll": "will", "re": "are", "ve": "have", "m": "am", "d": "would"}
_NOT_STEMS = {"wo": "will", "ca": "can", "sha": "shall", "ai": "is"}
"""A contraction is read as the words it stands for ("we'll" is "we will", "don't" "do
not"), so that a text that writes it out changes no word."""

_FILLER = frozenset(
    (
        *("a", "an", "the", "this", "that", "these", "those", "it", "its", "s", "please"),
        *("we", "i", "you", "our", "my", "your", "us", "me", "let", "lets", "and", "or"),
        *("but", "so", "then", "also", "just", "now", "still", "really", "actually"),
        *("simply", "all", "both", "every", "each", "only", "even", "here", "there"),
        *("which", "who"),
        *("in", "on", "at", "to", "for", "of", "with", "from", "by", "into", "onto", "via"),
        *("as", "per", "about", "through", "across", "within"),
        *("is", "are", "am", "was", "were", "be", "been", "being", "do", "does", "did"),
        *("have", "has", "had", "will", "would", "shall", "should", "can", "could", "may"),
        *("might", "must", "if", "whether", "when", "once", "unless", "until", "provided"),
    )
)
"""Words whose change alone changes no claim here ("use a cache", "use the cache"; "in
staging", "on staging"), or whose absence is a summary's ("we also use"): never a word
put in another's place, and no neighbour that alone frames one. A tense is
:func:`other_tense`'s, a possibility :func:`gitmem.core.opposites.settled`'s, a condition
:mod:`gitmem.core.conditions`'."""

_DETERMINERS = frozenset(
    ("a", "an", "the", "this", "that", "these", "those", "its", "our", "my", "your", "their")
)
_START, _END = "\x02", "\x03"


def _pieces(folded: str) -> list[str]:
    """The words of *folded*, contractions written out."""

    def spelt(match: re.Match[str]) -> str:
        stem, n, tail = match.groups()
        if tail == "t" and n:
            return f"{_NOT_STEMS.get(stem, stem)} not"
        return f"{stem}{n or ''} {_CONTRACTIONS[tail]}" if tail != "t" else match.group()

    return _PIECE_RE.findall(_CONTRACTED_RE.sub(spelt, folded.replace("\u2019", "'")))


def spelt_words(folded: str) -> list[str]:
    """The words of *folded* text, in order, contractions written out ("we'll" is "we
    will", "don't" "do not"). Raises nothing."""
    return _pieces(folded)


def substituted(text: str, quote: str, named: frozenset[str] = frozenset()) -> str | None:
    """Why *text* (folded) puts a word of its own in the place of a word of *quote*
    (folded): a word of the text that the quote lacks stands between the same two words
    as a word of the quote that the text lacks ("we use memcached for the cache" where
    the quote says "we use redis for the cache"), read past articles and other
    determiners ("in production" where it says "in the tests"); a start or an end on
    both sides is one neighbour; in a text that keeps most of its quote's words, a name
    put for a name needs only one neighbour that is no filler ("for the cache we use
    memcached" where the quote says "we use redis for the cache"). Another form of the
    same word ("cache",
    "caches", "caching") and the same number in words or digits are not another word;
    numbers are left to :mod:`gitmem.core.measures`. In a text that does not keep most of
    its quote's words (:func:`_close`), only a name put for a name is read (*named*: the
    words :func:`names` finds in either, folded): a text may tell more in its own words,
    but not swap "Redis" for "Memcached" however much it adds. Raises nothing."""
    mine, theirs = _pieces(text), _pieces(quote)
    have, said = set(mine), set(theirs)
    only = None if _close(mine, said) else named
    if only is not None and not only:
        return None
    mine = [w for w in mine if w not in _DETERMINERS]
    theirs = [w for w in theirs if w not in _DETERMINERS]
    by_frame: dict[tuple[str, str], list[str]] = {}
    by_before: dict[str, list[str]] = {}
    by_after: dict[str, list[str]] = {}
    for n, word in enumerate(theirs):
        if _changeable(word) and word not in have and (only is None or word in only):
            before, after = _at(theirs, n - 1, _START), _at(theirs, n + 1, _END)
            by_frame.setdefault((before, after), []).append(word)
            if only is None and word in named:
                by_before.setdefault(before, []).append(word)
                by_after.setdefault(after, []).append(word)
    for n, word in enumerate(mine):
        if not _changeable(word) or word in said or (only is not None and word not in only):
            continue
        before, after = _at(mine, n - 1, _START), _at(mine, n + 1, _END)
        others = by_frame.get((before, after), [])
        if only is None and word in named:
            # a name for a name: one shared neighbour that is no filler frames it
            others = others + [
                other
                for side, index in ((before, by_before), (after, by_after))
                if _content(side)
                for other in index.get(side, [])
            ]
        for other in others:
            if not _alike(word, other):
                return f'the item\'s text says "{word}" where its quote says "{other}"'
    return None


def _close(mine: list[str], said: set[str]) -> bool:
    """Does the text (its words *mine*) keep most of its quote's words (*said*): at least
    half of its own words that are no filler, each counted once? A text that tells more
    than its quote (context, names, the reason) uses its own words for it, and two of
    them that happen to stand where two of the quote's do are no change of one word for
    another."""
    words = {word for word in mine if _changeable(word)}
    return bool(words) and 2 * len(words & said) >= len(words)


def _at(pieces: list[str], n: int, edge: str) -> str:
    return pieces[n] if 0 <= n < len(pieces) else edge


def _changeable(word: str) -> bool:
    return word not in _FILLER and not word.isdigit() and not number_words(word)


def _content(word: str) -> bool:
    return word.isalpha() and word not in _FILLER


_INFLECTIONS = ("s", "es", "ing")


def _alike(word: str, other: str) -> bool:
    """Are *word* and *other* forms of one word that change no claim: a plural, a third
    person, a gerund ("cache", "caches", "caching"; not a past "cached"), a word and its
    short form ("prod", "production"; "config", "configuration"), two names of one unit
    ("ms", "milliseconds"), two qualifiers of one kind ("probably", "likely")?"""
    if same_unit(word, other) or same_kind(word, other):
        return True
    short, long = sorted((word, other), key=len)
    if len(short) >= 3 and long.startswith(short) and len(long) - len(short) >= 4:
        return True  # a short form
    pairs = enumerate(zip(short, long, strict=False))
    shared = next((n for n, (a, b) in pairs if a != b), len(short))
    if shared >= 4 and shared >= len(short) - 2:
        return True  # one stem: "approves", "approval"; "highlights", "highlighted"
    stems = {short, short[:-1]} if short.endswith("e") else {short}
    return any(long == stem + ending for stem in stems for ending in _INFLECTIONS)


IRREGULAR_PAST = {
    **{"have": "had", "do": "did", "go": "went", "make": "made", "take": "took"},
    **{"get": "got", "give": "gave", "keep": "kept", "choose": "chose", "write": "wrote"},
    **{"run": "ran", "build": "built", "send": "sent", "find": "found", "hold": "held"},
    **{"leave": "left", "bring": "brought", "buy": "bought", "think": "thought"},
    **{"tell": "told", "say": "said", "break": "broke", "begin": "began", "drive": "drove"},
    **{"fall": "fell", "feel": "felt", "know": "knew", "lose": "lost", "mean": "meant"},
    **{"meet": "met", "pay": "paid", "sell": "sold", "spend": "spent", "stand": "stood"},
    **{"win": "won", "grow": "grew", "throw": "threw", "draw": "drew", "freeze": "froze"},
    **{"hide": "hid", "speak": "spoke", "bind": "bound", "catch": "caught", "lead": "led"},
    **{"sit": "sat", "sleep": "slept", "stick": "stuck", "come": "came", "become": "became"},
    **{"forget": "forgot", "rebuild": "rebuilt", "rewrite": "rewrote", "undo": "undid"},
    **{"overwrite": "overwrote", "teach": "taught", "understand": "understood"},
}
"""Irregular past forms ("chose", "kept", "built"). Not "put", "set", "cut", "read", "let":
their past is their present."""
_PRESENT_OF_PAST = {"is": "was", "are": "were", "am": "was"}
_BEING = frozenset(("is", "are", "am", "be", "been", "being", "get", "gets", "getting"))
"""Before a past participle, what keeps it present ("Redis is used", "it gets cached")."""


def other_tense(text: str, quote: str) -> str | None:
    """Why *text* (folded) states in the present what *quote* (folded) puts only in the
    past: the text holds a verb ("use", "uses", "is") whose past ("used", "was": ``-ed``,
    ``-d``, ``-ied``, a doubled last letter, or an irregular past) the quote holds and the
    text does not, while the quote holds no present form of it ("We use Redis for the
    cache" on "we originally used Redis for the cache"; "used to use" is a past too),
    beside a word that stands beside it there too. A participle after "is", "be", "get"
    … is present ("Redis is used for the cache"). Raises nothing."""
    mine, theirs = _pieces(text), _pieces(quote)
    have = set(mine)
    if not _close(mine, set(theirs)):
        return None
    habit = {n for n in range(2, len(theirs)) if theirs[n - 2 : n] == ["used", "to"]}
    said = {word for n, word in enumerate(theirs) if n not in habit}
    past: dict[str, set[str]] = {}
    for n, word in enumerate(theirs):
        if not _BEING & set(theirs[max(0, n - 2) : n]):
            form = f"used to {word}" if n in habit else word
            past.setdefault(form, set()).update(theirs[max(0, n - 1) : n + 2 : 2])
            if n in habit and n >= 3:  # "deploys used to go": "deploys" stands beside "go"
                past[form].add(theirs[n - 3])
    for n, word in enumerate(mine):
        if (word in _FILLER and word not in _PRESENT_OF_PAST) or word in said:
            continue
        stem = _stem(word)
        if stem in said or stem + "s" in said or stem + "es" in said:
            continue
        beside = {w for w in mine[max(0, n - 1) : n + 2 : 2] if _content(w)}
        habitual = set() if "used" in have else {f"used to {stem}"}
        for form in sorted((_pasts(stem) | habitual) - have):
            if beside & past.get(form, set()):
                return f'the item\'s text says "{word}" where its quote says "{form}", in the past'
    return None


def _stem(word: str) -> str:
    """The base form of a present *word* ("uses" is "use", "goes" "go")."""
    if word in _PRESENT_OF_PAST:
        return word
    for ending in ("es", "s"):
        if word.endswith(ending) and len(word) - len(ending) >= 3 and not word.endswith("ss"):
            return word[: -len(ending)]
    return word


def _pasts(stem: str) -> set[str]:
    """The past forms *stem* may take."""
    if stem in _PRESENT_OF_PAST:
        return {_PRESENT_OF_PAST[stem]}
    if stem in IRREGULAR_PAST:
        return {IRREGULAR_PAST[stem]}
    if len(stem) < 3 or not stem.isalpha():
        return set()
    forms = {stem + "d"} if stem.endswith("e") else {stem + "ed", stem + stem[-1] + "ed"}
    if stem.endswith("y") and stem[-2] not in "aeiou":
        forms.add(stem[:-1] + "ied")
    return forms


_SYMMETRIC = frozenset(("and", "or", "nor", "vs", "versus", "plus", "both", "between", "as"))
"""Words between two things that name them in no order ("Redis and SQLite")."""


def reordered(text: str, quote: str) -> str | None:
    """Why *text* (folded) puts two words of *quote* (folded) the other way round, with
    the same words between them: "from postgres to mysql" where the quote says "from mysql
    to postgres", "replaced sqlite with redis" for "replaced redis with sqlite", "b is
    faster than a" for "a is faster than b". Words that name the two in no order ("and",
    "or", "vs") between them are no order. Each word counts only where it stands once on
    both sides. Raises nothing."""
    mine, theirs = _pieces(text), _pieces(quote)
    counts, said = Counter(mine), Counter(theirs)
    at = {word: n for n, word in enumerate(theirs)}
    once = {w for w in counts if counts[w] == 1 and said[w] == 1 and w not in _FILLER}
    for i, first in enumerate(mine):
        if first not in once:
            continue
        for j in range(i + 2, min(i + 5, len(mine))):  # one to three words between
            second = mine[j]
            if second not in once or at[second] >= at[first]:
                continue  # first before second in the text, second before first in the quote
            between = mine[i + 1 : j]
            if between == theirs[at[second] + 1 : at[first]] and not _SYMMETRIC & set(between):
                return f'the item\'s text puts "{first}" and "{second}" the other way round'
    return None


def redirected(text: str, quote: str) -> str | None:
    """Why *text* (folded) turns a move of *quote* (folded) around: the quote names
    where it goes "from" and "to", and the text puts the one after the other ("to mysql"
    where the quote says "from mysql to postgres"). Only a text that keeps most of its
    quote's words (:func:`_close`) is read. Raises nothing."""
    mine, theirs = _pieces(text), _pieces(quote)
    if not _close(mine, set(theirs)):
        return None
    source, target = _after(theirs, "from"), _after(theirs, "to")
    source, target = source - target, target - source
    if not source or not target:
        return None
    turned = (_after(mine, "to") & source - _after(mine, "from")) | (
        _after(mine, "from") & target - _after(mine, "to")
    )
    for word in sorted(turned):
        return f'the item\'s text moves "{word}" the other way round'
    return None


def _after(pieces: list[str], word: str) -> set[str]:
    """The first word that is no filler after each *word* of *pieces*."""
    found = set()
    for n, piece in enumerate(pieces):
        if piece == word:
            found.update([p for p in pieces[n + 1 :] if p not in _FILLER][:1])
    return found


def reshaped(text: str, quote: str, named: frozenset[str] = frozenset()) -> str | None:
    """The first of :func:`reordered`, :func:`redirected`, :func:`other_tense` and
    :func:`substituted` that holds for *text* and *quote* (both folded; *named*: their
    names, :func:`names`), else None. Raises nothing."""
    return (
        reordered(text, quote)
        or redirected(text, quote)
        or other_tense(text, quote)
        or substituted(text, quote, named)
    )


_SENTENCE_OPENING_RE = lazy_pattern(r"(?:^|[.!?:\n])[\s\"'*_`(\[>#-]*\Z")


def names(raw: str) -> frozenset[str]:
    """The names of *raw* (unfolded) text, folded: its words that open with a capital
    letter where no sentence opens ("we use Redis"), or hold one after a small letter
    ("SQLite", "iOS"); not a word in capitals ("HTTP", "POST"). Each is read as folding
    reads it (look-alike letters as the letters they show), with the characters that
    show nothing taken out first ("Mem\u200bcached" is "memcached"). Raises nothing."""
    raw = "".join(c for c in raw if unicodedata.category(c) != "Cf")
    found = set()
    for match in re.finditer(r"[^\W_]+", raw):
        word = match.group()
        if word.isupper() or not any(c.isupper() for c in word):
            continue
        inner = any(c.isupper() for c in word[1:]) and any(c.islower() for c in word)
        opening = _SENTENCE_OPENING_RE.search(raw[max(0, match.start() - 12) : match.start()])
        if inner or (match.start() > 0 and opening is None):
            found.update(_pieces(fold(word)))
    return frozenset(found)
