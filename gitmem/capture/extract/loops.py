"""An open loop as a report must name it to close it: what is to be done, not its
condition, the ids it names and the verb it opens with (rule 5 of
:mod:`gitmem.capture.extract.lastword`, read by :mod:`gitmem.capture.extract.reports`).

A loop's condition is not what it is about: "Once PR #14 is merged, tag the release" is
read as "tag the release" (:func:`subject`). Its words are compared with a report's, a
Chinese, Japanese or Korean run by its pairs of neighbouring characters (:func:`words_of`);
the ids it names (a task, an issue, a pull request) by the forms a report may name them
by; the verb it opens with by its forms in the past ("update": "updated"), which a report
without a completion word may say instead.

Pure; raises nothing.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from gitmem.capture.extract.heuristic import languages
from gitmem.core.claims import forge_numbers
from gitmem.core.folding import UNSPACED
from gitmem.core.quotes import fold
from gitmem.lifecycle.sameclaim import content_words

_CONDITION = re.compile(
    r"(?:^|(?<=[,;:.!?(])|(?<=\s[-\u2013\u2014]))\s*"
    r"(?:once|when|whenever|if|unless|until|as soon as)\b"
    r"|\s(?:once|until|as soon as)\b",
    re.IGNORECASE,
)
"""Where a loop's condition opens: once, when, whenever, if, unless, until or "as soon
as" at the start of a clause, and once, until or "as soon as" within one ("tag it once PR
#14 is merged"); "check if it builds" keeps its "if": there it asks whether."""
_CONDITION_END = re.compile(r"[,;:)]|[.!?](?=\s|$)|\s[-\u2013\u2014]\s")
"""Where a condition ends: the end of its clause or of its sentence."""
ID = re.compile(r"(?=[\w#.-]*\d)(?=[\w#.-]*[^\W\d_#])[\w#.-]+|#\d+")
"""A word that names a task, an issue or a pull request: a digit and a letter, or "#"
and digits."""
_ACTIONS = frozenset({"todo", "need", "needs", "fix", "add", "write"})
"""Words of a loop that say what to do, not what it is about: never needed to close it."""
_UNSPACED_RUN = re.compile(f"[{UNSPACED}]+")


class Loop(NamedTuple):
    words: frozenset[str]
    """Its words, less those that say what to do (:data:`_ACTIONS`)."""
    ids: tuple[frozenset[str], ...]
    """Each id it names (a task, an issue, a pull request: a word with a digit and a
    letter or "#", such as "#60", "PROJ-42", "spotter-gqc.6"), with the forms a report may
    name it by: as written, or by its part after the last hyphen when that part is an id
    too ("gqc.6")."""
    past: frozenset[str] = frozenset()
    """The forms in the past of the verb it opens with, by which a report without a
    completion word may close it ("update the README": "README updated"); a loop to find
    something out is also closed by what was found ("investigate the leak": "found the
    leak")."""
    verb: str = ""
    """The verb it opens with, which a report names by its past ("updated")."""


def loop_of(text: str) -> Loop:
    """*text*, an open loop, by what a report must name to close it: the words of what is
    to be done, not of its condition ("once PR #14 is merged, tag the release" is closed by
    the release tagged, not by PR #14 merged)."""
    said = subject(text)
    words = words_of(said) - _ACTIONS
    verb = _VERB.match(fold(said))
    past = _past_of(verb.group(1)) if verb is not None else frozenset()
    ids = tuple(_forms(word) for word in words if ID.fullmatch(word))
    return Loop(words, ids, past, verb.group(1) if verb is not None else "")


def closable(loop: Loop) -> bool:
    """Can a report close *loop*: it names two words or more, or one that only one thing
    is called ("fix test_login", "#60"), not one any report may name ("fix tests")."""
    return len(loop.words) >= 2 or any(_NAME.search(word) for word in loop.words)


_NAME = re.compile(r"\w[_./#]\w|\d")
"""What makes a word a name of one thing: an inner "_", ".", "/" or "#", or a digit."""
_VERB = re.compile(r"[\W_]*(?:(?:todo|next|then|please|still|remaining)\b[\W_]*)*([a-z]{2,})\b")
"""The verb a loop opens with (after a label: "TODO: rotate the key")."""
_IRREGULAR = {
    "write": ("wrote", "written"),
    "rewrite": ("rewrote", "rewritten"),
    "run": ("ran",),
    "make": ("made",),
    "build": ("built",),
    "rebuild": ("rebuilt",),
    "find": ("found",),
    "send": ("sent",),
    "get": ("got",),
    "take": ("took", "taken"),
    "do": ("did",),
    "redo": ("redid", "redone"),
    "undo": ("undid", "undone"),
    "keep": ("kept",),
    "begin": ("began", "begun"),
}
_INQUIRY = frozenset(
    [
        "investigate",
        "debug",
        "diagnose",
        "look",
        "check",
        "find",
        "figure",
        "track",
        "explore",
        "research",
    ]
)
"""Verbs of finding something out: what was found closes them."""


def _past_of(verb: str) -> frozenset[str]:
    """The forms in the past of *verb* (an English verb as a loop opens with it)."""
    if verb in _IRREGULAR:
        forms = set(_IRREGULAR[verb])
    elif verb.endswith("e"):
        forms = {verb + "d"}
    elif verb.endswith("y") and verb[-2] not in "aeiou":
        forms = {verb[:-1] + "ied"}
    else:
        forms = {verb + "ed", verb + verb[-1] + "ed"}  # "shipped", "dropped"
    if verb in _INQUIRY:
        forms |= {"found", "identified", "traced"}
    return frozenset(forms)


def subject(text: str) -> str:
    """*text* without its conditions (:data:`_CONDITION`), each up to the end of its clause
    or sentence; *text* itself when it is all condition."""
    kept, start = [], 0
    for match in _CONDITION.finditer(text):
        if match.start() < start:
            continue
        kept.append(text[start : match.start()])
        end = _CONDITION_END.search(text, match.end())
        start = len(text) if end is None else end.start()
    if not kept:
        return text
    kept.append(text[start:])
    return " ".join(kept) if any(part.strip(" ,;:.!?-") for part in kept) else text


def words_of(text: str) -> frozenset[str]:
    """The content words of *text*, a run of Chinese, Japanese or Korean characters read as
    its pairs of neighbouring characters (``languages.cjk_bigrams``): their words are not
    cut by spaces, so "给订单表添加索引" and "订单表的索引已添加" share "订单", "单表" and
    "索引". Each pull request, merge request or issue it names is also "#N" however it is
    written (a link, "PR 14", ``owner/name#14``: :func:`~gitmem.core.claims.forge_numbers`),
    so a loop that links a draft PR is an id that "merged PR #14" reports done."""
    words = content_words(text)
    if numbers := forge_numbers(text):
        words = words.union(f"#{number}" for number in numbers)
    if text.isascii():
        return words
    spaced = (part for w in words for part in _UNSPACED_RUN.split(w) if part)
    return frozenset(spaced).union(languages.cjk_bigrams(fold(text)))


def _forms(word: str) -> frozenset[str]:
    short = word.rsplit("-", 1)[-1]
    return frozenset({word, short} if short != word and ID.fullmatch(short) else {word})
