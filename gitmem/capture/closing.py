"""The open loops of earlier sessions a new capture says are closed: each one a candidate,
recorded as a changed-state event with the sentence that says so (the brief lists it to
verify), never a silent close.

Three ways a capture closes an earlier loop of another session it carries:

- its session **reports it done** in a sentence that names most of its words or every id
  it names (:func:`~gitmem.capture.extract.reports.reported_done`);
- its user **calls it off** (:func:`~gitmem.capture.extract.reports.called_off`);
- it is a **side run of this session** (a subagent's or a compaction's transcript, filed as
  ``<session>/agent-<id>``: :attr:`~gitmem.core.transcript.Transcript.own_session`) and
  the session's final assistant message says all of it is done
  (:func:`~gitmem.capture.extract.reports.all_done`). Within one transcript that
  final word closes every loop before it (:mod:`gitmem.capture.extract.lastword`); a side
  run in a file of its own is the same session's earlier word, so it is closed the same
  way (a compaction's recap of ten open loops, then "All done… the entire epic is
  complete").

A session captured more than once as it goes on (at each turn, at a compaction, at its
end) has its own earlier loops carried too: each is closed by what the session said
*after* it (placed by its quote), as the session's last word closes a loop within one
capture — a later report naming it, the user calling it off, or a final reply saying all
is done ("reported done later in its session: …").

An older session backfilled after newer ones closes nothing, nor does anything close a
loop someone reopened (``gitmem reverify``) or one with a note already.

A **decision** of another session that this capture carries is flagged the same way when
the capture turns away from what it chose (:func:`state_changes`): its user says so
("Decision: drop Redis, the session cache moves to Postgres" after "The session cache now
uses Redis"), or one of its own new decisions does ("we moved the session cache from
Redis to Postgres"). The rule is the session's last word's (rule 3 of
:mod:`~gitmem.capture.extract.lastword`): the statement names a thing the decision chose
and a good part of its other words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from gitmem.capture.extract.lastword import (
    decision_turns,
    quote_places,
    turned_away,
    user_turns,
)
from gitmem.capture.extract.reports import all_done, called_off, reported_done
from gitmem.capture.masking import masked
from gitmem.capture.prepare import Prepared
from gitmem.core.items import Draft, Item, Kind
from gitmem.core.records import EVENT_STATE_CHANGED, Event, format_time
from gitmem.core.transcript import Message, said_text
from gitmem.lifecycle.carry import Plan, reopened
from gitmem.lifecycle.replay import ItemState, MemoryState
from gitmem.store.keys import Identity
from gitmem.store.seal import new_event

NOTE_CHARS = 200
"""The most characters of the sentence a note keeps (a note, not a quote)."""

REPORTED = "reported done in a later session"
CALLED_OFF = "called off in a later session"
ENDED = "reported done at the end of its session"
LATER = "reported done later in its session"
CALLED_OFF_LATER = "called off later in its session"
TURNED = "turned away from in a later session"


def state_changes(
    state: MemoryState | None,
    carry: Plan,
    prepared: Prepared,
    session: str,
    identity: Identity,
    times: tuple[datetime, datetime],
    commit: str | None,
) -> list[Event]:
    """A changed-state event for each open item of an earlier session that this capture
    carries and says has changed (see the module): a loop it closes, a decision of
    another session it turns away from. *times*: the session's own time and the
    capture's. Raises nothing."""
    said, now = times
    flagged = _closed_loops(_carried(state, carry, Kind.OPEN_LOOP, said), prepared, session)
    decisions = _carried(state, carry, Kind.DECISION, said)
    others = [s for s in decisions if s.item.origin_session != session]
    flagged += _turned_decisions(others, carry, prepared) if others else []
    return [
        new_event(
            identity,
            EVENT_STATE_CHANGED,
            item,
            session,
            now,
            commit,
            {"note": note(how, sentence, prepared.secrets)},
        )
        for item, how, sentence in flagged
    ]


def _closed_loops(
    open_loops: Sequence[ItemState], prepared: Prepared, session: str
) -> list[tuple[str, str, str]]:
    """(loop, how, sentence) of each of *open_loops* the capture closes."""
    messages = prepared.transcript.messages
    others = [s for s in open_loops if s.item.origin_session != session]
    closed = _by_others(others, messages, session)
    own = [s for s in open_loops if s.item.origin_session == session]
    closed += _by_itself(own, messages) if own else []
    return closed


def _turned_decisions(
    decisions: Sequence[ItemState], carry: Plan, prepared: Prepared
) -> list[tuple[str, str, str]]:
    """(decision, how, sentence) of each of *decisions* the capture turns away from."""
    # what turns away, read once for every decision: the capture's own decisions first
    turning = decision_turns([_draft(i) for i in carry.items])
    turning += user_turns(prepared.transcript.messages)
    turned: list[tuple[str, str, str]] = []
    for decision in decisions:
        sentence = turned_away(_draft(decision.item), turning)
        if sentence is not None:
            turned.append((decision.id, TURNED, sentence))
    return turned


def _carried(state: MemoryState | None, carry: Plan, kind: Kind, said: datetime) -> list[ItemState]:
    """The open items of *kind* that a capture carries (*carry*) and may flag: none has a
    note yet or was reopened (``gitmem reverify``: it stays). None at all when its
    session (said at *said*) is older than the newest in memory: a backfill flags nothing."""
    if state is None or (state.newest and format_time(said) < state.newest):
        return []
    carried = set(carry.carried)
    return [
        s
        for s in state.items.values()
        if s.item.address in carried and s.item.kind == kind and not s.notes and not reopened(s)
    ]


def _draft(item: Item) -> Draft:
    return Draft(item.kind, item.text, item.trust, item.quote, {})


def _by_others(
    loops: Sequence[ItemState], messages: Sequence[Message], session: str
) -> list[tuple[str, str, str]]:
    """(loop, how, sentence) of each loop of another session that *messages* close: a
    report or the user's calling off anywhere in them, or for a side run of *session*, a
    final reply that says all is done."""
    pairs = [(s.id, s.item.text) for s in loops]
    closed, rest = _done_or_off(pairs, messages, None, (REPORTED, CALLED_OFF))
    sides = {s.id for s in loops if side_run_of(s.item.origin_session, session)}
    side = [loop for loop in rest if loop in sides]
    if side and (final := all_done(messages)) is not None:
        closed += [(loop, ENDED, final[1]) for loop in side]
    return closed


def _by_itself(
    loops: Sequence[ItemState], messages: Sequence[Message]
) -> list[tuple[str, str, str]]:
    """(loop, how, sentence) of each loop an earlier capture of this same session stored
    that what the session said after it closes, as its own last word would have within
    one capture: a later report, the user's calling off, or a final reply saying all is
    done. A loop whose quote is not found in the session (none, or said elsewhere) stays."""
    texts = [said_text(m) for m in messages]
    places = quote_places([s.item.quote for s in loops], texts)
    after: dict[str, int] = {
        s.id: at for s, at in zip(loops, places, strict=True) if at is not None
    }
    pairs = [(s.id, s.item.text) for s in loops if s.id in after]
    closed, rest = _done_or_off(pairs, messages, after, (LATER, CALLED_OFF_LATER))
    if rest and (final := all_done(messages)) is not None:
        at, sentence = final
        closed += [(loop, ENDED, sentence) for loop in rest if after[loop] < at]
    return closed


def _done_or_off(
    pairs: Sequence[tuple[str, str]],
    messages: Sequence[Message],
    after: Mapping[str, int] | None,
    how: tuple[str, str],
) -> tuple[list[tuple[str, str, str]], list[str]]:
    """(loop, how, sentence) of each of the loops *pairs* (id, text) that a report, else
    the user's calling off, in *messages* closes (*after* as for
    :func:`~gitmem.capture.extract.reports.reported_done`; *how*: what each is called);
    and the ids of the others."""
    done = reported_done(pairs, messages, after) if pairs else {}
    off = called_off([p for p in pairs if p[0] not in done], messages, after) if pairs else {}
    closed = [(loop, how[0], s) for loop, s in done.items()]
    closed += [(loop, how[1], s) for loop, s in off.items()]
    return closed, [loop for loop, _ in pairs if loop not in done and loop not in off]


def side_run_of(origin: str, session: str) -> bool:
    """Whether the session *origin* is a side run of *session* (``<session>/agent-<id>``)."""
    return origin.startswith(f"{session}/agent-")


def note(how: str, sentence: str, secrets: Sequence[tuple[str, str]] = ()) -> str:
    """What a changed-state note says of a loop closed *how*: that, then the sentence that
    says so, masked and cut to :data:`NOTE_CHARS`."""
    text = " ".join(masked(sentence, secrets).split())
    if len(text) > NOTE_CHARS:
        text = text[: NOTE_CHARS - 1].rstrip() + "…"
    return f"{how}: {text}"
