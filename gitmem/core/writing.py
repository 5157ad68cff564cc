"""Which writing system a text is written in, and when an item's text and its quote are
written in two.

Every rule by which a verbatim item's text may stand beside its quote
(:func:`gitmem.core.support.unsupported`) compares words: a negation and the word it
governs, a number, a condition, an opposite, a name. A text written in one writing system
and a quote in another ("The range operator compiles for net48" on a Korean or Russian
quote) share no word for them to compare, so none of them can say that the text reverses
its quote: such a text is not shown beside the badge, and the quote itself is. Scripts are
read by words, not letters (a Korean word is two or three syllables, an English word six
letters), leaving out code and names, which every language writes in Latin letters; and
Chinese characters and the Japanese kana count as one system. Pure; never raises.
"""

from __future__ import annotations

import unicodedata
from collections import Counter

_CODE_CHARS = frozenset("/._\\:=<>@#$%&*()[]{}|")
"""Characters that make a word code or a name (digits too): see :func:`prose`."""
_FAMILY = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "HALFWIDTH": "CJK", "FULLWIDTH": "LATIN"}
"""Scripts read as one system: Japanese writes with Chinese characters and kana."""
_NAMES = {"CJK": "Chinese or Japanese", "HANGUL": "Korean"}
MOST = 0.6
"""The share of a text's words one writing system must hold to be the text's."""
FEWEST = 1
"""The fewest words a text must have for its writing system to be read."""


def writing(text: str) -> str | None:
    """The writing system most of *text*'s words are written in (Unicode's script name:
    "LATIN", "HANGUL", "CYRILLIC", "CJK", …), or None when no one holds
    :data:`MOST` of them or the text has fewer than :data:`FEWEST` words."""
    words: Counter[str] = Counter()
    last = None
    for char in prose(text):
        script = _script(char) if char.isalpha() else None
        if script is not None and script != last:
            words[script] += 1
        last = script
    total = sum(words.values())
    if total < FEWEST:
        return None
    script, count = words.most_common(1)[0]
    return script if count >= MOST * total else None


def other_writing(text: str, quote: str) -> str | None:
    """Why *text* cannot be checked against *quote*: they are written in two writing
    systems (:func:`writing`). None when they share one, or when either has none."""
    mine, theirs = writing(text), writing(quote)
    if mine is None or theirs is None or mine == theirs:
        return None
    return (
        f"the item's text is written in {_name(mine)} and its quote in {_name(theirs)}: "
        "no word of one can be checked against the other"
    )


def prose(text: str) -> str:
    r"""*text* with code and names, written in Latin letters in any language ("`_FakeMCP`",
    "src/parser.py", "v0.16.0", "PR #235"), each made one space, leaving the words a
    language writes: a span in backticks, and a
    word (a run of non-space characters) that holds a digit or one of :data:`_CODE_CHARS`,
    from where it starts to the end of that character's run of non-space characters other
    than a backtick. Read in one pass: the pattern this was, ``\S*[…][^\s`]*``, read a
    word without them again from each of its letters (a word of 50,000 letters took 100 s).
    """
    n = len(text)
    space = [char.isspace() for char in text]
    code = [char in _CODE_CHARS or char.isdecimal() for char in text]
    stop, last_code = [n] * (n + 1), [-1] * (n + 1)  # the next space or backtick; the last code
    for at in range(n - 1, -1, -1):
        stop[at] = at if space[at] or text[at] == "`" else stop[at + 1]
    for at in range(n):
        last_code[at + 1] = at if code[at] else last_code[at]
    kept, at, word_end = [], 0, 0
    while at < n:
        if text[at] == "`" and (close := text.find("`", at + 1)) >= 0:
            kept.append(" ")
            at = close + 1
            continue
        if word_end <= at:  # the end of the run of non-space characters *at* is in
            word_end = at
            while word_end < n and not space[word_end]:
                word_end += 1
        last = last_code[word_end]
        if not space[at] and last >= at:
            kept.append(" ")
            at = stop[last + 1]
            continue
        kept.append(text[at])
        at += 1
    return "".join(kept)


def _script(char: str) -> str | None:
    try:
        first = unicodedata.name(char).split(" ", 1)[0]
    except ValueError:
        return None
    return _FAMILY.get(first, first)


def _name(script: str) -> str:
    return _NAMES.get(script, script.title())
