"""The session's last word: what an extractor found, each claim once, as the session left it.

Whatever the extractor (the heuristic, a model, a host CLI over many windows), what it
proposes is read in transcript order, each item placed at the message its quote comes
from (an item without a verified quote has no place and is kept as it is). A later
statement then supersedes an earlier one, which is dropped:

1. **The same claim said again** (:func:`gitmem.lifecycle.sameclaim.same_claim`): one
   item, the later. Two items placed in one message are one statement read twice: the
   one whose quote supports its text stays, else the one that quotes more.
2. **A changed value** — a decision, fact or belief about the same subject with other
   numbers or the other polarity (:func:`~gitmem.lifecycle.sameclaim.same_subject`:
   "retry limit 30" after "3"). Two open loops about one subject are two loops.
3. **A reversal or replacement** (:mod:`gitmem.capture.extract.turning`): a later
   decision, or a sentence of a later message of the user, that turns away from a thing
   an earlier decision chose ("use requests *instead of* httpx", "*drop* httpx", "*forget*
   Redis", "OAuth *can come later*", "Tailwind *is overkill*"), says the opposite of what
   it did to a thing ("*keep* the CSV export" after "remove the legacy CSV export",
   "*disable*" after "enable", "*bring back*" after "drop") or negates its own verb
   ("*don't drop* 3.8 yet" after "drop Python 3.8 support"), and speaks of that decision
   (:data:`~gitmem.capture.extract.turning.SAME_DECISION` of its other words; "show the
   output, not only the summary" turns away from "only" in a decision about neither) —
   an answer to a question tool that the user overrode two messages later (in words or
   by a later answer to the tool: what the user answered, not the question), a plan that
   was changed. Not asked, not on a condition, not someone else's word, not negated
   ("don't remove Redis"). A statement that replaces without naming what it replaces
   ("scratch that, use the LRU cache *instead*", "*after all*", "I *changed my mind*",
   "*new plan:*", "*switch* the retries *to*…"), said by the user or made a decision,
   replaces the latest earlier decision about its subject that chose something else (it
   shares a good part of that decision's words, and the decision names what the
   statement does not), and every earlier decision that made that same choice about it
   ("use Redis for the session cache", then "I'll set up Redis for the session cache").
4. **A rejected proposal** (:mod:`gitmem.capture.extract.rejections`): the decisions of
   an assistant's reply that the user's next message rejects as it begins ("No.", "No,
   keep requests", "Actually, nope —", "Don't do that"; not "no problem", "no need to
   ask", "No, that's fine, go ahead"): those that share a word with what the user says
   next, or all of them when the rejection names none of them and the reply made at most
   :data:`_REJECTED_AT_MOST`. A reply that asks something is answered, not rejected
   ("Should I update the docs too?" "No."). A message that says no to a thing ("Actually
   no Redis, ops won't run it", "The Prometheus exporter, no") rejects the decisions that
   name it.
5. **A closed loop** (:mod:`gitmem.capture.extract.reports`): an open loop that a later
   message reports done (a completion word — done, fixed, merged, gone, live, in place…,
   or the loop's own verb in the past: "README updated" — not "to be done", "not fixed",
   "I'll have it fixed", nor only part of it: "2 of 3 ported", "French is still open") in
   a sentence that names most of the loop's words, or every id it names: "gqc.6 done and
   pushed." for "proj-gqc.6: close the review session") or that the user calls off in
   such a sentence ("skip the k6 load test", "no need to update the docs"; not "don't
   skip…"), and every open loop before the session's final assistant message when that
   message says all of it is done ("All done", "everything is complete", "the entire epic
   is complete", "All four items are done"; not "the tests are all done").

Only what the session said is read (:func:`gitmem.core.transcript.said_text`): a file the
agent read, a tool's output or a reminder the host wrote into the user's turn places no
item, reverses nothing and closes no loop; an item quoted only from there has no place.

Pure: drafts and the (cleaned, masked) messages in, drafts out. Raises nothing.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from typing import TypeVar

from gitmem.capture.extract.loops import closable, loop_of
from gitmem.capture.extract.rejections import rejection
from gitmem.capture.extract.reports import (
    SENTENCES,
    Report,
    closes,
    final_all_done,
    reports_in,
    said_by,
    still_to_do,
)
from gitmem.capture.extract.turning import (
    CHOOSING,
    SAME_DECISION,
    Turn,
    replaces,
    replacing,
    reverses,
    stems,
    turns,
)
from gitmem.core.items import Draft, Kind
from gitmem.core.quotes import check_quotes, fold
from gitmem.core.support import unsupported
from gitmem.core.transcript import ANSWER, Message, said_text
from gitmem.lifecycle.sameclaim import content_words, same_claim, same_subject

_REPLACEMENTS_READ = 1000
"""The most replacements a session's decisions are compared with (the first said): real
sessions say a handful; the bound keeps a transcript that says thousands linear."""
_REJECTED_AT_MOST = 2
"""The decisions a reply may hold for a rejection that names none of them to drop them all."""
_T = TypeVar("_T")
_CHANGED = (Kind.DECISION, Kind.FACT, Kind.BELIEF)


def last_word(drafts: Sequence[Draft], messages: Sequence[Message]) -> list[Draft]:
    """*drafts* with every one a later statement supersedes left out (see the module), in
    their order. Raises nothing."""
    # Only what the session said can have the last word: a file the agent read or a
    # reminder the host wrote into the user's turn supersedes nothing.
    if not drafts:
        return []
    spoken = [said_text(m) for m in messages]
    places = _places(drafts, spoken)
    dropped: set[int] = set()
    order = sorted((i for i, p in enumerate(places) if p is not None), key=lambda i: (places[i], i))
    for later_rank, later in enumerate(order):
        for earlier in order[:later_rank]:
            if earlier in dropped or not _supersedes(drafts[later], drafts[earlier]):
                continue
            if places[earlier] == places[later] and _better(drafts[earlier], drafts[later]):
                dropped.add(later)  # one statement proposed twice: its better reading stays
                break
            dropped.add(earlier)
    # (the final message is folded only when there is a loop it may close)
    loop_kind = any(drafts[n].kind == Kind.OPEN_LOOP for n in order)
    final = final_all_done(messages) if loop_kind else None
    subjects = {n: _subject(drafts[n]) for n in order if drafts[n].kind == Kind.DECISION}
    # An open loop before a final "all done" is closed; one of fewer than two words is
    # closed by no report.
    still = still_to_do(messages[final]) if final is not None else frozenset()
    closed = {
        n
        for n in order
        if drafts[n].kind == Kind.OPEN_LOOP
        and final is not None
        and (places[n] or 0) < final
        and loop_of(drafts[n].text).words.isdisjoint(still)
    }
    loops = {
        n: loop
        for n in order
        if drafts[n].kind == Kind.OPEN_LOOP
        and n not in closed
        and closable(loop := loop_of(drafts[n].text))
    }
    # What each message says is read only where an item can be superseded by it: after
    # the first decision, the sentences in which a user turns away from something; after
    # the first open loop still to close, each sentence that reports something done.
    # Each user's message is folded once, and let go at once (a transcript can be tens of
    # megabytes); a session with no decision folds none.
    after_decision = min(((places[n] or 0) for n in subjects), default=len(messages))
    after_loop = min(((places[n] or 0) for n in loops), default=len(messages))
    # (by message, in their order; a message that says none is left out)
    turned: list[tuple[int, list[Turn]]] = []
    done: list[tuple[int, list[Report]]] = []
    replaced: list[tuple[int, frozenset[str], int | None]] = []
    answers = _answers(messages, spoken)
    replies: dict[int, list[int]] = {}  # the user's answer -> the reply's decisions
    for n in subjects:
        if (answer := answers[places[n] or 0]) is not None:
            replies.setdefault(answer, []).append(n)
    rejections: list[tuple[int, frozenset[str], bool]] = []
    for place, (message, said) in enumerate(zip(messages, spoken, strict=True)):
        by_user = said_by(message, "user") or said_by(message, ANSWER)
        if subjects and by_user:
            # only a user turns away from a decision: no one else's message is folded whole;
            # of a question tool's answer, what the user answered, not the questions
            folded = fold(_answered(said) if said_by(message, ANSWER) else said)
            if place > after_decision and (sentences := turns(folded)):
                turned.append((place, sentences))
            # (every replacement counts towards the bound, wherever it stands)
            replaced += [(place, words, None) for words in replacing(folded)]
            if place in replies and (rejected := rejection(folded)) is not None:
                rejections.append((place, *rejected))
        if place > after_loop and (reports := reports_in(said, by_user)):
            done.append((place, reports))
    replaced += [
        (places[n] or 0, subject, n)
        for n, subject in subjects.items()
        if replaces(fold(_said(drafts[n])))
    ]
    dropped |= _by_replacements(subjects, places, replaced)
    dropped |= _by_rejections(subjects, replies, rejections, spoken)
    for n in order:
        draft, place = drafts[n], places[n] or 0
        if draft.kind == Kind.DECISION:
            sides = (fold(draft.text), fold(draft.quote or ""))
            reversed_ = any(
                reverses(turn, sides)
                for _, sentences in _after(turned, place)
                for turn in sentences
            )
        elif draft.kind == Kind.OPEN_LOOP:
            reversed_ = n in closed or (
                n in loops
                and any(
                    closes(report, loops[n])
                    for _, reports in _after(done, place)
                    for report in reports
                )
            )
        else:
            reversed_ = False
        if reversed_:
            dropped.add(n)
    return [d for n, d in enumerate(drafts) if n not in dropped]


def _by_replacements(
    subjects: dict[int, frozenset[str]],
    places: Sequence[int | None],
    replacing: list[tuple[int, frozenset[str], int | None]],
) -> set[int]:
    """The decisions (their *subjects*, by draft) that the *replacing* statements (place,
    what about, their own draft if they are one) replace (:func:`_replaced`)."""
    # A replacement is compared only with the decisions it shares a word with: a session
    # full of "instead" costs its sentences, not its sentences times the decisions.
    by_word: dict[str, list[int]] = {}
    for n, subject in subjects.items():
        for word in subject:
            by_word.setdefault(word, []).append(n)
    dropped: set[int] = set()
    for place, words, own in sorted(replacing, key=lambda r: r[0])[:_REPLACEMENTS_READ]:
        sharing = {n for word in words for n in by_word.get(word, ())}
        before = sorted(n for n in sharing if (places[n] or 0) < place and n != own)
        dropped |= _replaced(subjects, places, before, words)
    return dropped


def _after(said: list[tuple[int, _T]], place: int) -> list[tuple[int, _T]]:
    """What the messages after *place* said, of *said* (by message, in their order)."""
    return said[bisect.bisect_right(said, place, key=lambda entry: entry[0]) :]


def _by_rejections(
    subjects: dict[int, frozenset[str]],
    replies: dict[int, list[int]],
    rejections: list[tuple[int, frozenset[str], bool]],
    spoken: Sequence[str],
) -> set[int]:
    """The decisions (their *subjects*, by draft) of the replies (the decisions of each,
    by the user's message that answers it) that the user's *rejections* (the message, the
    words it names, whether it rejects only what it names) reject (rule 4)."""
    dropped: set[int] = set()
    for user, words, named_only in rejections:
        reply = replies.get(user, [])
        named = [n for n in reply if subjects[n] & words]
        if named_only:
            dropped.update(named)  # "no Redis, …" rejects what names Redis, asked or not
        elif not _asks(spoken, user):  # "No." answers the question the reply ended with
            dropped.update(named or (reply if len(reply) <= _REJECTED_AT_MOST else []))
    return dropped


def _places(drafts: Sequence[Draft], texts: Sequence[str]) -> list[int | None]:
    """:func:`quote_places` of the drafts' quotes."""
    return quote_places([d.quote for d in drafts], texts)


def quote_places(quotes: Sequence[str | None], texts: Sequence[str]) -> list[int | None]:
    """The message each quote verifies in, among the messages' said *texts* (None: no
    quote, or not found). Most quotes are the message's own words, found as they are;
    only the others are folded and checked as the verifier checks them. Raises nothing."""
    places: list[int | None] = [
        next((i for i, text in enumerate(texts) if quote in text), None) if quote else None
        for quote in quotes
    ]
    rest = [n for n, quote in enumerate(quotes) if quote and places[n] is None]
    for n, check in zip(rest, check_quotes([quotes[n] or "" for n in rest], texts), strict=True):
        places[n] = check.message_index if check.verbatim else None
    return places


def _better(draft: Draft, other: Draft) -> bool:
    """Is *draft* a better reading than *other* of what one message says once (the same
    claim, rule 1)? One whose quote supports its text, else the one that quotes more:
    "initials come from the names, never from the email" over "never from the email"."""
    if not same_claim(draft.kind, draft.text, draft.quote, other.kind, other.text, other.quote):
        return False
    return _reading(draft) > _reading(other)


def _reading(draft: Draft) -> tuple[bool, int]:
    quote = draft.quote or ""
    return bool(quote) and unsupported(draft.text, quote) is None, len(quote)


def _supersedes(later: Draft, earlier: Draft) -> bool:
    if later.kind != earlier.kind:
        return False
    if same_claim(later.kind, later.text, later.quote, earlier.kind, earlier.text, earlier.quote):
        return True
    if later.kind in _CHANGED and same_subject(
        later.kind, later.text, earlier.kind, earlier.text, later.quote, earlier.quote
    ):
        return True
    return later.kind == Kind.DECISION and _turns_away(f"{later.text} {later.quote}", earlier)


def _turns_away(said: str, earlier: Draft) -> bool:
    """Does *said* (a later decision) turn away from a thing the decision *earlier* chose?"""
    sides = (fold(earlier.text), fold(earlier.quote or ""))
    return any(reverses(turn, sides) for turn in turns(fold(said)))


def _asks(spoken: Sequence[str], user: int) -> bool:
    """Whether what was said last before the user's message at *user* asks something: a
    bare "No." answers it ("Shall I bump the version? I'll update the changelog.")."""
    before = next((spoken[i] for i in range(user - 1, -1, -1) if spoken[i].strip()), "")
    return any(
        sentence.rstrip().rstrip("*_`").endswith(("?", "？"))
        for sentence in SENTENCES.split(before)
    )


def _answers(messages: Sequence[Message], spoken: Sequence[str]) -> list[int | None]:
    """For each message, the user's message that answers it when it is the assistant's:
    the next one in which the user says something (None: not the assistant's, or nobody
    answered)."""
    found: list[int | None] = [None] * len(messages)
    answer: int | None = None
    for index in range(len(messages) - 1, -1, -1):
        if said_by(messages[index], "user") and spoken[index].strip():
            answer = index
        elif said_by(messages[index], "assistant"):
            found[index] = answer
    return found


_ANSWERED = re.compile(r"[\"“][^\"”\n]*\?[\"”]=[\"“]([^\"”\n]*)[\"”]")
"""One pair of a question tool's answer: the question asked, then what the user chose."""


def _answered(said: str) -> str:
    """What the user answered in a question tool's *said* text, one sentence each."""
    return "\n".join(m.group(1) for m in _ANSWERED.finditer(said))


def _said(draft: Draft) -> str:
    return f"{draft.text} {draft.quote or ''}"


def _subject(draft: Draft) -> frozenset[str]:
    """What a decision is about and chose: its words (text and quote), less those that
    only say that it chooses."""
    return stems(content_words(_said(draft)) - CHOOSING)


def _replaced(
    subjects: dict[int, frozenset[str]],
    places: Sequence[int | None],
    earlier: Sequence[int],
    words: frozenset[str],
) -> set[int]:
    """Of the *earlier* decisions (their *subjects*: :func:`_subject`), those a
    replacement about *words* replaces: the latest that chose something else about a
    good part of the same subject, and every one that made that same choice."""
    chose_else = [
        n
        for n in earlier
        if (shared := subjects[n] & words)
        and len(shared) >= SAME_DECISION * len(subjects[n])
        and subjects[n] - words
    ]
    if not chose_else:
        return set()
    latest = max(chose_else, key=lambda n: (places[n] or 0, n))
    choice = subjects[latest] - words
    return {n for n in earlier if choice <= subjects[n] and subjects[n] & words}


def user_turns(messages: Sequence[Message]) -> list[tuple[str, list[Turn]]]:
    """Each sentence of a user's message in *messages*, as said, that turns away from
    something, with its turns (:func:`~gitmem.capture.extract.turning.turns`): what
    :func:`turned_away` reads, found once for every decision. Raises nothing."""
    found = []
    for message in messages:
        if said_by(message, "user"):
            for sentence in SENTENCES.split(said_text(message)):
                if sentence_turns := turns(fold(sentence)):
                    found.append((sentence.strip(), sentence_turns))
    return found


def turned_away(decision: Draft, said: Sequence[tuple[str, list[Turn]]]) -> str | None:
    """The first sentence of *said* (:func:`user_turns`) that turns away from what
    *decision* chose (rule 3, :func:`~gitmem.capture.extract.turning.reverses`), else
    None. For a decision of another session, which no place in the messages orders.
    Raises nothing."""
    sides = (fold(decision.text), fold(decision.quote or ""))
    return next((s for s, found in said if any(reverses(t, sides) for t in found)), None)


def decision_turns(drafts: Sequence[Draft]) -> list[tuple[str, list[Turn]]]:
    """Each decision of *drafts* that turns away from something, as said (its quote,
    else its text), with its turns: what :func:`turned_away` reads of a capture's own
    decisions (rule 3), found once for every earlier decision. Raises nothing."""
    found = []
    for draft in drafts:
        if draft.kind == Kind.DECISION and (draft_turns := turns(fold(_said(draft)))):
            found.append((draft.quote or draft.text, draft_turns))
    return found
