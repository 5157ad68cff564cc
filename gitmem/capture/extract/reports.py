"""What says an open loop is done, or called off: the reports of a session, and the
loops they close (rule 5 of :mod:`gitmem.capture.extract.lastword`, and the loops of an
earlier session a later one closes, :func:`reported_done` and :func:`called_off`).

A **report** is a sentence of what the session said (not a question) with a completion
word — done, finished, fixed, implemented, merged…, not "to be done", "not fixed", "once
merged" — or a done word of the other languages the heuristic reads ("erledigt", "已修复",
"更新しました"), with no word that says it is not done yet ("还没有", "まだ"); or a
sentence of the user's that calls something off ("skip the k6 load test", "no need to…",
"don't bother with…"; not "don't skip…"). It **closes** a loop when it names most of the
loop's words (:data:`_CLOSING_SHARE`), or every id the loop names in a clause that reports
something done ("gqc.6 done and pushed." for "proj-gqc.6: close the review session"). A
Chinese, Japanese or Korean loop and its report are compared by their pairs of
neighbouring characters. A session whose final assistant message says all of it is done
("All done", "the entire epic is complete") closes every loop before it
(:func:`final_all_done`, :func:`all_done_sentence`).

Pure; raises nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import NamedTuple

from gitmem.capture.extract.heuristic import languages
from gitmem.core.claims import forge_numbers
from gitmem.core.folding import UNSPACED
from gitmem.core.quotes import fold
from gitmem.core.transcript import Message, said_text
from gitmem.lifecycle.sameclaim import content_words

_COMPLETION = re.compile(
    r"\b(?:done|finished|completed?|implemented|fixed|resolved|merged|shipped|landed|"
    r"pushed|committed|added|wrote|written|closed)\b|\[x\]|✅"
)
_ALL_DONE = re.compile(
    r"\b(?:all (?:of it |of this |tasks |work |items |steps )?(?:is |are )?(?:now )?"
    r"(?:done|complete|completed|finished)|everything (?:is |has been )?(?:now )?"
    r"(?:done|complete|completed|finished)|nothing (?:left|remaining|else) to do|"
    r"the (?:entire|whole) [\w -]{1,40}? (?:is |are |has been )?(?:now )?"
    r"(?:done|complete|completed|finished))\b"
    rf"|{languages.ALL_DONE}"
)
_DONE_ELSEWHERE = re.compile(languages.DONE)
"""A done word of another language ("erledigt", "已修复", "修正しました")."""
_NOT_DONE_ELSEWHERE = re.compile(languages.NOT_DONE)
"""A word of another language that says something is not done yet (anywhere in the
sentence: "还没有完成", "まだ修正していません")."""
_UNSPACED_RUN = re.compile(f"[{UNSPACED}]+")
_CANCELS = re.compile(
    r"\b(?:skip|no need to|(?:don't|do not) bother|forget(?: about)?|never ?mind|"
    r"cancel(?:led)?|not needed|leave (?:it )?out)\b"
)
"""What a user's sentence says to call something off."""
SENTENCES = re.compile(rf"(?<=[.!?])\s+|(?<=[。！？])|(?<=[!?])(?=[{UNSPACED}])|\n")
"""Where a statement that turns away from something is cut into its sentences."""
_CLAUSES = re.compile(r"[,;]\s+|\s+(?:but|while|whereas|although)\s+")
"""Where a sentence is cut into the clauses an id must be reported done in."""
_NOT_YET = re.compile(
    r"(?:\b(?:be|not|never|yet|when|once|until|if|get)|n't|"
    r"\b(?:could|would|should|might)(?:\s+not)?\s+have(?:\s+been)?)\s+$"
)
"""What before a completion word makes it no report: "to be done", "not fixed", "once
merged", and what only might have been: "could have done", "should have fixed", "would
have been merged"."""
_IF_CLAUSE = re.compile(
    r"(?:^|[,;:]\s*)(?:once|when|whenever|if|unless|until|as soon as)\b[^,;:]*$"
)
"""A clause that opens with a condition, up to a completion word in it: "once PR #14 is
merged, tag the release" says what to do then, not that it is merged."""
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
_ID = re.compile(r"(?=[\w#.-]*\d)(?=[\w#.-]*[^\W\d_#])[\w#.-]+|#\d+")
"""A word that names a task, an issue or a pull request: a digit and a letter, or "#"
and digits."""
_CLOSING_SHARE = 0.6
"""How much of an open loop's words a completion sentence must name to close it."""
_ACTIONS = frozenset({"todo", "need", "needs", "fix", "add", "write"})
"""Words of a loop that say what to do, not what it is about: never needed to close it."""


class Report(NamedTuple):
    """A sentence that reports something done."""

    words: frozenset[str]
    done: frozenset[str]
    """The words of its clauses that report something done ("gqc.5 done, and gqc.6 is
    still to be done": gqc.5's, not gqc.6's)."""


def _report(folded: str) -> Report | None:
    """The sentence *folded* as a report, or None when it reports nothing done."""
    if not _reports_done(folded):
        return None
    clauses = (_words(c) for c in _CLAUSES.split(folded) if _reports_done(c))
    return Report(_words(folded), frozenset().union(*clauses))


def reports_in(said: str, by_user: bool) -> list[Report]:
    """Each sentence of *said* text that reports something done and, when the user said
    it (*by_user*), each that calls something off (:func:`_cancel`); each sentence cut and
    folded once."""
    found = []
    for _, folded in _sentences(said):
        found += [r for r in (_report(folded), _cancel(folded) if by_user else None) if r]
    return found


def _cancel(folded: str) -> Report | None:
    """The sentence *folded*, when it calls something off ("skip the load test", "no need
    to update the docs", "don't bother with…"; not "don't skip…", not asked), as a report
    of it done: a loop it names is as closed. None otherwise."""
    if folded.rstrip().endswith("?"):
        return None
    if all(_NOT_YET.search(folded, 0, m.start()) is not None for m in _CANCELS.finditer(folded)):
        return None
    words = _words(folded)
    return Report(words, words)


def _sentences(said: str) -> list[tuple[str, str]]:
    """Each sentence of *said* text (a line is one at most: a list's items are not one
    sentence), as said and folded; the host's text in a turn (covered by NULs) is a
    boundary, never part of a sentence."""
    found = []
    for sentence in SENTENCES.split(said.replace("\0", "\n")):
        if sentence.strip():
            found.append((sentence.strip(), fold(sentence)))
    return found


def _reports_done(folded: str) -> bool:
    """Does the sentence *folded* report something done (not ask whether it is, nor say
    what is still "to be done", "not done", "done once…")?"""
    if folded.rstrip().endswith("?"):
        return False
    if _DONE_ELSEWHERE.search(folded) and not _NOT_DONE_ELSEWHERE.search(folded):
        return True
    return any(
        _NOT_YET.search(folded, 0, match.start()) is None
        and _IF_CLAUSE.search(folded, 0, match.start()) is None
        for match in _COMPLETION.finditer(folded)
    )


def reported_done(
    loops: Sequence[tuple[str, str]],
    messages: Sequence[Message],
    after: Mapping[str, int] | None = None,
) -> dict[str, str]:
    """Of *loops* (id, text: open loops an earlier session left), each one a sentence
    said in *messages* reports done, by rule 5's test (:func:`closes`), with the first
    such sentence as said; with *after*, only a sentence of a message after the one
    (its index) *after* names for the loop. Only what the session said is read. Pure;
    raises nothing."""
    return _closing(loops, enumerate(messages), _report, after)


def called_off(
    loops: Sequence[tuple[str, str]],
    messages: Sequence[Message],
    after: Mapping[str, int] | None = None,
) -> dict[str, str]:
    """Of *loops*, each one a sentence of the user's in *messages* calls off ("skip the
    load test"), by the same test, with the first such sentence as said (*after* as for
    :func:`reported_done`). Pure; raises nothing."""
    users = ((i, m) for i, m in enumerate(messages) if said_by(m, "user"))
    return _closing(loops, users, _cancel, after)


def _closing(
    loops: Sequence[tuple[str, str]],
    messages: Iterable[tuple[int, Message]],
    report_of: Callable[[str], Report | None],
    after: Mapping[str, int] | None = None,
) -> dict[str, str]:
    """Of *loops*, each one a sentence of *messages* (each with its index in the session)
    closes (*report_of* reads a folded sentence as a report, or None), with the first such
    sentence as said; with *after*, a loop it names only by a sentence of a message after
    the index it names for it."""
    wanted = {id_: loop for id_, text in loops if len((loop := loop_of(text)).words) >= 2}
    # Each sentence is compared only with the loops it shares a word with: a long session
    # full of "done" costs its sentences, not its sentences times the loops.
    by_word: dict[str, set[str]] = {}
    for id_, loop in wanted.items():
        for word in loop.words.union(*loop.ids):
            by_word.setdefault(word, set()).add(id_)
    found: dict[str, str] = {}
    checked: set[Report] = set()  # a report said again closes nothing new (without *after*)
    for index, message in messages:
        for sentence, folded in _sentences(said_text(message)):
            if len(found) == len(wanted):
                return found
            report = report_of(folded)
            if report is None or report in checked:
                continue
            if after is None:
                checked.add(report)
            for id_ in {i for w in report.words for i in by_word.get(w, ())} - found.keys():
                if (after is None or index > after.get(id_, -1)) and closes(report, wanted[id_]):
                    found[id_] = sentence
    return found


class Loop(NamedTuple):
    words: frozenset[str]
    """Its words, less those that say what to do (:data:`_ACTIONS`)."""
    ids: tuple[frozenset[str], ...]
    """Each id it names (a task, an issue, a pull request: a word with a digit and a
    letter or "#", such as "#60", "PROJ-42", "spotter-gqc.6"), with the forms a report may
    name it by: as written, or by its part after the last hyphen when that part is an id
    too ("gqc.6")."""


def loop_of(text: str) -> Loop:
    """*text*, an open loop, by what a report must name to close it: the words of what is
    to be done, not of its condition ("once PR #14 is merged, tag the release" is closed by
    the release tagged, not by PR #14 merged)."""
    words = _words(subject(text)) - _ACTIONS
    return Loop(words, tuple(_forms(word) for word in words if _ID.fullmatch(word)))


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


def _words(text: str) -> frozenset[str]:
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
    return frozenset({word, short} if short != word and _ID.fullmatch(short) else {word})


def closes(report: Report, loop: Loop) -> bool:
    """Does *report* close *loop*: name most of its words (:data:`_CLOSING_SHARE`), or
    every id it names in a clause that reports something done?"""
    if len(loop.words & report.words) >= _CLOSING_SHARE * len(loop.words):
        return True
    return bool(loop.ids) and all(not forms.isdisjoint(report.done) for forms in loop.ids)


def said_by(message: Message, role: str) -> bool:
    return (message.role or "").casefold() == role


def final_all_done(messages: Sequence[Message]) -> int | None:
    """The session's final reply (:func:`final_reply`), when it says that all of it is done
    (:func:`all_done`)."""
    found = all_done(messages)
    return None if found is None else found[0]


def final_reply(messages: Sequence[Message]) -> int | None:
    """The session's final assistant message, before any exchange the host started after
    it: a user's turn that is all the host's text (a background task's notification, a
    hook's output) and the replies to it are not the session's last word ("All done…",
    then the notification that a test run ended, then "Background task completed — all
    tests pass")."""
    last = None
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if said_by(message, "assistant"):
            last = index if last is None else last
        elif said_by(message, "user"):
            if said_text(message).strip("\0 \t\n"):
                return last  # the user's own turn: the last reply to it is the final word
            last = None  # the host's turn: what answers it is not the session's
    return last


def all_done_sentence(messages: Sequence[Message]) -> str | None:
    """The sentence of the session's final reply that says all of it is done (:func:`all_done`)."""
    found = all_done(messages)
    return None if found is None else found[1]


def all_done(messages: Sequence[Message]) -> tuple[int, str] | None:
    """The session's final reply (:func:`final_reply`) and its sentence that says all of
    it is done, as said; None when the session does not end so, asks whether it is ("Is
    it all done?"), says it is not yet ("not all done"), or says so only in text the host
    wrote into the message (a tool's output it shows)."""
    final = final_reply(messages)
    if final is None or (sentence := _all_done_in(messages[final])) is None:
        return None
    return final, sentence


def _all_done_in(message: Message) -> str | None:
    said = said_text(message)
    if not _ALL_DONE.search(fold(said)):
        return None  # (most messages: no sentence is cut)
    for sentence, folded in _sentences(said):
        if folded.rstrip().endswith("?"):
            continue
        for match in _ALL_DONE.finditer(folded):
            if _NOT_YET.search(folded, 0, match.start()) is None:
                return sentence
    return None
