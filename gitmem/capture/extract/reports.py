"""What says an open loop is done, or called off: the reports of a session, and the
loops they close (rule 5 of :mod:`gitmem.capture.extract.lastword`, and the loops of an
earlier session a later one closes, :func:`reported_done` and :func:`called_off`).

A **report** is a sentence of what the session said (not a question) with a completion
word — done, finished, fixed, implemented, merged…, not "to be done", "not fixed", "once
merged" — or a done word of the other languages the heuristic reads ("erledigt", "已修复",
"更新しました", "ist geschrieben", "est déployé"), with no word that says it is not done
yet ("还没有", "まだ"), nor "nothing", "none" before it or "yet" after it ("nothing is merged
yet"), nor a word that says it is to come ("I'll have it fixed by tomorrow"). A sentence
that reports only part of something ("2 of 3 exporters ported", "most of the errors are
fixed", "done except the examples") is no report. Without a completion word, a sentence
may still close a loop whose own verb it says in the past ("README updated" for "update
the README"; "found the leak" for "investigate the leak"). Or it is a sentence of the
user's that calls something off ("skip the k6 load test", "no need to…",
"don't bother with…"; not "don't skip…"). It **closes** a loop when it names most of the
loop's words (:data:`_CLOSING_SHARE`; not those of a clause that says what is still to do,
"test_signup still fails", and none of the loop's among them: "French is still open"), or
every id the loop names in a clause that reports something done ("gqc.6 done and pushed."
for "proj-gqc.6: close the review session"), and names no other id instead ("PR 15
merged" does not close "merge PR #20"). A loop of one word is closed only when that word
names one thing ("fix test_login"; not "fix tests"). A
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
from gitmem.capture.extract.loops import ID, Loop, closable, loop_of, words_of
from gitmem.core.folding import UNSPACED
from gitmem.core.quotes import fold
from gitmem.core.transcript import Message, said_text

_COMPLETION = re.compile(
    r"\b(?:done|finished|completed?|implemented|fixed|resolved|merged|shipped|landed|"
    r"pushed|committed|added|wrote|written|closed|gone|sorted(?: out)?|taken care of|"
    r"in place|live|up and running|no longer (?:fails?|failing|breaks?|happens?|occurs?)|"
    r"pass(?:es|ing)|works (?:now|again)|green|(?:is|are) in(?=\s*[.!]*\s*$))\b"
    r"|\[x\]|✅"
)
"""A word that reports something done, or a problem gone ("is live", "in place", "no
longer fails")."""
_PAST = re.compile(
    r"\b(?!(?:open|often|even|then|when|seven|token|screen|between|seen|been|need|speed|"
    r"seed|indeed|embed|exceed|proceed|succeed|kitchen|garden|listen|happen|hidden)\b)"
    r"(?:[a-z][a-z-]{1,}(?:ed|en)|wrote|ran|made|built|found|sent|got|took|did|split|"
    r"kept|began|begun|rewrote|redid|undid|redone|undone)\b"
)
"""A verb in the past, which reports a loop done when it is the past of the loop's own
verb ("README updated" for "update the README", "rotated the key" for "rotate the key")."""
_FUTURE = re.compile(
    r"(?:\b(?:will|shall|going to|gonna|about to|plan(?:s|ning)? to|want(?:s)? to|"
    r"need(?:s)? to|ha(?:s|ve) to|try(?:ing)? to|hope to|expect to)|'ll)\b[^,;:.!?]*$"
)
"""What earlier in its clause says a completion word is to come: "I'll have the test
fixed by tomorrow", "we need to get it merged"."""
_PARTIAL = re.compile(
    r"\b(?:\d+\s*(?:of|out of|/)\s*(?:the\s+|all\s+)?\d+|"
    r"(?:one|two|three|four|five|six|seven|eight|nine|ten|\d+) (?:of|out of) (?:the|our|all)\b|"
    r"most of|some of|half of|part of|"
    r"parts of|several of|a few of|all but|except(?: for)?|apart from|other than|partially|"
    r"partly|mostly|half(?:way)?|almost|nearly|not (?:quite|fully|entirely)|started|begun|"
    r"began|in progress|under ?way|wip|working on)\b"
)
"""What makes a sentence report only part of something done ("2 of 3 exporters ported",
"most of the lint errors are fixed", "done except the examples", "almost migrated",
"started the guide, the outline is written")."""
_PENDING = re.compile(
    r"\b(?:still|remains?|remaining|left to|yet to|not yet|next|pending|blocked|fails|"
    r"failing|todo|to do|to be)\b"
)
"""A clause that says something is still to do ("test_signup still fails", "xml is
next"): its words are not among what its sentence reports done."""
_ALL_DONE = re.compile(
    r"\b(?:all (?:(?:\d+|two|three|four|five|six|seven|eight|nine|ten) )?"
    r"(?:of it |of this |tasks |work |items |steps )?(?:is |are )?(?:now )?"
    r"(?:done|complete|completed|finished|set)|everything(?: [\w-]+){0,4}? (?:is |has been )?"
    r"(?:now )?(?:done|complete|completed|finished|implemented)|"
    r"nothing (?:left|remaining|else) to do|"
    r"the (?:entire|whole) [\w -]{1,40}? (?:is |are |has been )?(?:now )?"
    r"(?:done|complete|completed|finished)|(?:that|this) wraps (?:it|everything) up|"
    r"wraps up everything)\b"
    rf"|{languages.ALL_DONE}"
)
_DONE_ELSEWHERE = re.compile(
    languages.DONE
    + r"|\b(?:ist|sind|wurde|wurden)\b[^.,;:]*\bge\w{3,}(?:t|en)\b"  # de: "ist geschrieben"
    + r"|\b(?:est|sont|a été|ont été)\s+\w{3,}[ée]e?s?\b"  # fr: "est déployé"
    + r"|\b(?:está|están|fue|fueron|ha sido|han sido|foi|foram)\s+\w{3,}(?:ad|id)[oa]s?\b"
    + r"|\b(?:è|sono)\s+stat[oaie]\s+\w{3,}(?:at|it|ut)[oaie]\b"  # it: "è stato fatto"
)
"""A done word of another language ("erledigt", "已修复", "修正しました"), or a verb of
Romance or German said done in the passive ("ist geschrieben", "est déployé", "está
desplegado", "è stato rilasciato")."""
_NOT_DONE_ELSEWHERE = re.compile(languages.NOT_DONE)
"""A word of another language that says something is not done yet (anywhere in the
sentence: "还没有完成", "まだ修正していません")."""
_CANCELS = re.compile(
    r"\b(?:skip|no need to|(?:don't|do not) bother|forget(?: about)?|never ?mind|"
    r"cancel(?:led)?|not needed|leave (?:it )?out)\b"
)
"""What a user's sentence says to call something off."""
SENTENCES = re.compile(rf"(?<=[.!?])\s+|(?<=[。！？])|(?<=[!?])(?=[{UNSPACED}])|\n")
"""Where a statement that turns away from something is cut into its sentences."""
_CLAUSES = re.compile(r"[,;:]\s+|\s+(?:but|while|whereas|although)\s+")
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
_CLOSING_SHARE = 0.6
"""How much of an open loop's words a completion sentence must name to close it."""


class Report(NamedTuple):
    """A sentence that reports something done."""

    words: frozenset[str]
    """Its words, less those of a clause that says something is still to do and reports
    nothing done ("Fixed test_login; test_signup still fails": not test_signup)."""
    done: frozenset[str]
    """The words of its clauses that report something done ("gqc.5 done, and gqc.6 is
    still to be done": gqc.5's, not gqc.6's)."""
    past: frozenset[str] = frozenset()
    """Its verbs in the past (:data:`_PAST`), not negated, asked, conditional or to come."""
    completed: bool = True
    """Whether it says a completion word; when not, it closes only a loop whose own verb
    is among its *past*."""
    pending: frozenset[str] = frozenset()
    """The words of its clauses that say something is still to do ("French is still
    open"): a loop it names there only is not closed by it."""


def _report(folded: str) -> Report | None:
    """The sentence *folded* as a report, or None when it reports nothing done, or only
    part of something (:data:`_PARTIAL`)."""
    completed = _reports_done(folded)
    past = _past(folded) if not completed else frozenset()
    if not (completed or past) or _PARTIAL.search(folded):
        return None
    words: set[str] = set()
    done: set[str] = set()
    pending: set[str] = set()
    for clause in _CLAUSES.split(folded):
        clause_done = _reports_done(clause) or bool(_past(clause) and not _PENDING.search(clause))
        if clause_done or not _PENDING.search(clause):
            words |= words_of(clause)
        else:
            pending |= words_of(clause)
        if clause_done:
            done |= words_of(clause)
    if completed:
        past = _past(folded)
    return Report(frozenset(words), frozenset(done), past, completed, frozenset(pending - words))


def _past(folded: str) -> frozenset[str]:
    """The verbs in the past of the sentence *folded* that say something was done: not
    negated, asked, in a condition or to come."""
    if "?" in folded[-2:]:
        return frozenset()
    return frozenset(
        match.group() for match in _PAST.finditer(folded) if _stands(folded, match.start())
    )


def _stands(folded: str, at: int) -> bool:
    """Does the verb at *at* of *folded* say what was done: not after "not", "to be",
    "once", "if", "will"…, nor with "nothing" or "none" before it or "yet" after it in its
    clause ("nothing is merged yet")?"""
    start = max(0, at - _LOOK_AROUND)  # a sentence of a megabyte costs its length, not its square
    return (
        _NOT_YET.search(folded, start, at) is None
        and _IF_CLAUSE.search(folded, start, at) is None
        and _FUTURE.search(folded, start, at) is None
        and _NONE_BEFORE.search(folded, start, at) is None
        and _YET_AFTER.match(folded[: at + _LOOK_AROUND], at) is None
    )


_LOOK_AROUND = 200
"""How far before and after a completion word its clause is read."""


_NONE_BEFORE = re.compile(r"\b(?:nothing|none|nobody|no one|neither)\b[^,;:.!?]*$")
_YET_AFTER = re.compile(r"\w+[^,;:.!?]*\byet\b")


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
    words = words_of(folded)
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
    return any(_stands(folded, match.start()) for match in _COMPLETION.finditer(folded))


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
    wanted = {id_: loop for id_, text in loops if closable(loop := loop_of(text))}
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


def closes(report: Report, loop: Loop) -> bool:
    """Does *report* close *loop*: name most of its words (:data:`_CLOSING_SHARE`), or
    every id it names in a clause that reports something done? A report without a
    completion word closes only a loop whose own verb it says in the past; one that names
    another id, and none of the loop's, closes none."""
    if not report.completed and report.past.isdisjoint(loop.past):
        return False
    if not loop.words.isdisjoint(report.pending):
        return False  # "German strings translated; French is still open"
    if (
        loop.ids
        and all(forms.isdisjoint(report.words) for forms in loop.ids)
        and any(ID.fullmatch(word) and word not in loop.words for word in report.words)
    ):
        return False  # it names another task, issue or pull request: "PR 15 merged"
    named = len(loop.words & report.words)
    if loop.verb in loop.words - report.words and not report.past.isdisjoint(loop.past):
        named += 1  # "README updated" names "update the README"'s verb
    if named >= _CLOSING_SHARE * len(loop.words):
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


def still_to_do(message: Message) -> frozenset[str]:
    """The words of the clauses of *message* that say something is still to do and report
    nothing done ("All done with the refactor; the docs still need updating": docs, need,
    updating): a loop they name is not closed by its "all done"."""
    found: set[str] = set()
    for _, folded in _sentences(said_text(message)):
        if _PENDING.match(folded.lstrip(" *_>-")) and not _reports_done(folded):
            found |= words_of(folded)  # "Next, you may want to add caching."
        elif _PENDING.search(folded):
            for clause in _CLAUSES.split(folded):
                if _PENDING.search(clause) and not _reports_done(clause):
                    found |= words_of(clause)
    return frozenset(found)


def _all_done_in(message: Message) -> str | None:
    said = said_text(message)
    if not _ALL_DONE.search(fold(said)):
        return None  # (most messages: no sentence is cut)
    for sentence, folded in _sentences(said):
        if folded.rstrip().endswith("?"):
            continue
        if _PARTIAL.search(folded):
            continue  # "all done except the docs"
        for match in _ALL_DONE.finditer(folded):
            if _NOT_YET.search(folded, 0, match.start()) is None and (
                not match.group().startswith("all ") or _LEAD_IN.fullmatch(folded, 0, match.start())
            ):
                return sentence
    return None


_LEAD_IN = re.compile(
    r"[\W_]*(?:(?:ok(?:ay)?|great|good|perfect|alright|right|so|and|now|yes|yep|nice|"
    r"it's|it is|that's|that is|we're|we are|i'm|i am|this is|everything's|we're now)\b[\W_]*)*"
)
"""What may come before a bare "all done" that says the whole session's work is done ("OK,
all done"; not "the tests are all done", which says it of the tests)."""
