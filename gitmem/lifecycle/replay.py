"""Item state, derived at read time by replaying verified records. Pure.

Nothing is ever edited: a checkpoint freezes items, events say what happened to them
later (resolved, reopened, superseded, forgotten, corroborated, changed status). This
module replays both, oldest first, into one :class:`ItemState` per item id. Only
records that verified are replayed; the caller decides that.

Corroboration (DESIGN.md, seed 000) is counted here and nowhere else: the origin plus
every later corroboration from a different session with a different transcript snapshot,
whose own verified verbatim quote stated the item's claim again (a ``corroboration``
event). Carry is not a sighting. Any contradiction sets the count to zero from that
moment; reopening does not restore it. Records that arrive late: :mod:`.late`.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from gitmem.core.items import Item, Trust, statement_id
from gitmem.core.purge import Purge, purge_of, resolve_snapshot
from gitmem.core.records import (
    EVENT_CORROBORATION,
    EVENT_FORGET,
    EVENT_LIKELY_SUPERSEDED,
    EVENT_PURGE,
    EVENT_REOPEN,
    EVENT_RESOLVE,
    EVENT_STATE_CHANGED,
    EVENT_STATUS,
    EVENT_SUPERSEDE,
    Checkpoint,
    Event,
    Record,
    parse_time,
    record_time,
    sortable_time,
)
from gitmem.core.types import Sha256Hex
from gitmem.lifecycle.governance.status import Status, TransitionError, check_transition

if TYPE_CHECKING:
    from gitmem.lifecycle.governance.decisions import GovernedItem

CONTRADICTIONS = frozenset(
    {EVENT_RESOLVE, EVENT_SUPERSEDE, EVENT_LIKELY_SUPERSEDED, EVENT_STATE_CHANGED, EVENT_FORGET}
)
"""Events that contradict an item: each sets its corroboration to zero from that moment."""


@dataclass(frozen=True)
class Replayable:
    """One verified record with its address, in the order the replay applies it; a
    checkpoint a writer just built may bring the items it adds."""

    address: str
    record: Record
    items: Mapping[Sha256Hex, Item] = field(default_factory=dict)


class Sighting(NamedTuple):
    """A checkpoint that stored the item from its own session (not a carried copy)."""

    checkpoint: str
    session: str
    snapshot: str | None
    created: str
    branch: str | None = None
    """The branch checked out when it was captured (None: detached, or not recorded)."""
    commit: str | None = None
    """HEAD's commit when it was captured."""


class Corroboration(NamedTuple):
    """A later session's verified verbatim statement of the item's claim (a corroboration
    event)."""

    event: str
    session: str
    snapshot: str
    created: str
    quote: str


class QuoteSource(NamedTuple):
    """The stored snapshot a quote was verified against, and how to read it again."""

    snapshot: str
    format: str | None
    """The transcript format its record names (None for evidence recorded without one)."""
    name: str


@dataclass
class ItemState:
    """Everything known about one item after replay."""

    item: Item
    """The item as first stored (its quote is the one that always wins)."""
    origin_checkpoint: str
    origin_snapshot: str | None
    first_seen: str
    latest_checkpoint: str
    last_seen: str
    sightings: list[Sighting] = field(default_factory=list)
    corroborations: list[Corroboration] = field(default_factory=list)
    events: list[tuple[str, Event]] = field(default_factory=list)
    carried: bool = False
    carry_count: int = 0
    latest_time: str = ""
    """The session time of :attr:`latest_checkpoint` (where it stands in replay order)."""
    unseen_in: list[str] = field(default_factory=list)
    """The distinct sessions, sorted (other than the one that last sighted it), whose
    checkpoints carried the item since it was last sighted or corroborated: ageing
    counts sessions, never captures, so a session captured at every turn is one."""
    seen_session: str = ""
    """The session that last sighted it."""
    resolved: bool = False
    forgotten: bool = False
    superseded_by: str | None = None
    likely_superseded_by: str | None = None
    notes: list[str] = field(default_factory=list)
    status: Status | None = None
    """The last status an event set (None: the initial one for its trust class)."""
    trust_override: tuple[Trust, str | None] | None = None
    """(trust, quote) set by an evidence-gated reverify; None when unchanged."""
    last_contradiction: str | None = None
    origin_source: QuoteSource | None = None
    """Where the item's own quote was verified: its origin checkpoint's snapshot."""
    evidence_source: QuoteSource | None = None
    """Where the quote of a reverify that raised the trust class was verified."""

    @property
    def quote_source(self) -> QuoteSource | None:
        """The snapshot the current :attr:`quote` was verified against (None: no quote, or
        no snapshot named for it)."""
        return self.evidence_source if self.trust_override is not None else self.origin_source

    @property
    def id(self) -> Sha256Hex:
        return self.item.id

    @property
    def unseen_sessions(self) -> int:
        """How many other sessions went by since it was last sighted or corroborated."""
        return len(self.unseen_in)

    def sighted(self, when: str, session: str | None = None) -> None:
        """Seen again at *when* (sortable time), by *session* when a checkpoint saw it."""
        self.last_seen = max(self.last_seen, when)
        self.unseen_in.clear()
        if session is not None:
            self.seen_session = session

    @property
    def trust(self) -> Trust:
        return self.item.trust if self.trust_override is None else self.trust_override[0]

    @property
    def quote(self) -> str | None:
        if self.trust_override is not None:
            return self.trust_override[1]
        return self.item.quote if self.item.quote_verified else None

    @property
    def active(self) -> bool:
        """Still open: not resolved, superseded or forgotten."""
        return not (self.resolved or self.forgotten or self.superseded_by is not None)

    @property
    def current(self) -> bool:
        """Open and not aged out: what the brief shows and the next capture carries."""
        return self.active and self.status != Status.STALE

    @property
    def contradicted(self) -> bool:
        """A contradiction is in force: resolved, superseded, likely superseded, or a
        changed-state note since the last reopen."""
        return not self.active or self.likely_superseded_by is not None or bool(self.notes)

    @property
    def corroboration(self) -> int:
        """Independent sightings, the origin included. Zero while a contradiction is in
        force; after one, only corroborations later than it count (reopening restores nothing)."""
        if self.contradicted:
            return 0
        if self.last_contradiction is None:
            return 1 + len(self._independent(self.corroborations))
        after = [w for w in self.corroborations if w.created > self.last_contradiction]
        return len(self._independent(after))

    def _independent(self, corroborations: Sequence[Corroboration]) -> list[Corroboration]:
        seen_sessions = {self.item.origin_session}
        seen_snapshots = {self.origin_snapshot}
        counted: list[Corroboration] = []
        for said in sorted(corroborations, key=lambda c: (c.created, c.event)):
            if said.session in seen_sessions or said.snapshot in seen_snapshots:
                continue  # the same session, or the same transcript again: one sighting
            seen_sessions.add(said.session)
            seen_snapshots.add(said.snapshot)
            counted.append(said)
        return counted


@dataclass
class MemoryState:
    """The replayed memory: every item's state (kept current in place as records are
    replayed onto it)."""

    items: dict[str, ItemState]
    latest_checkpoint: str | None
    """The checkpoint of the newest session time (a backfilled session is never it)."""
    newest: str = ""
    """Its session time: what a new capture's transcript time is compared with."""
    purged: dict[str, Purge] = field(default_factory=dict)
    """Item addresses a replayed purge event removed, with that purge (its event, who
    purged, when)."""
    replaced: dict[str, str] = field(default_factory=dict)
    """Snapshot addresses a replayed purge replaced by a redacted copy: old → new."""

    def statement(self, session: str, kind: str, text: str) -> ItemState | None:
        """The item that says *text* as a *kind* first said in *session*, if any."""
        wanted = statement_id(session, kind, text)
        return next((s for s in self.items.values() if s.item.statement == wanted), None)

    def find(self, prefix: str) -> list[ItemState]:
        """Items whose id starts with *prefix* (the CLI resolves unique prefixes)."""
        return [s for s in self.items.values() if s.id.startswith(prefix)]

    def find_purged(self, prefix: str) -> list[tuple[str, Purge]]:
        """Purged item addresses that start with *prefix*, with the purge of each."""
        return [(a, m) for a, m in self.purged.items() if a.startswith(prefix)]


def ordered(records: Iterable[Replayable]) -> list[Replayable]:
    """Replay order: the records' own times (a checkpoint's is its session's, see
    :func:`~gitmem.core.records.record_time`), then addresses (stable across clones,
    whatever order a sync brought them in)."""
    return sorted(records, key=lambda r: (record_time(r.record), r.address))


def replay(
    records: Iterable[Replayable],
    items: Mapping[Sha256Hex, Item] | None = None,
    onto: MemoryState | None = None,
) -> MemoryState:
    """Fold verified checkpoints and events, oldest first, into item states; *items* are
    the genuine item blobs by address (a checkpoint naming an address not among them, or
    among its own :attr:`Replayable.items`, contributes nothing for it).

    With *onto*, the records are newer than everything already in that state and are
    applied on top of it (in place): how a writer keeps its state current across many
    captures without replaying the whole store each time."""
    state = MemoryState({}, None) if onto is None else onto
    states = state.items
    latest, newest = state.latest_checkpoint, state.newest
    known: dict[Sha256Hex, Item] = {} if items is None else dict(items)
    for entry in ordered(records):
        record = entry.record
        if isinstance(record, Checkpoint):
            if record.transcript_time >= newest:
                latest, newest = entry.address, record.transcript_time
            # an item matters only where first named: collect them, never copy per record
            known.update(entry.items)
            apply_checkpoint(states, entry.address, record, known, state.purged)
        elif isinstance(record, Event) and record.event == EVENT_PURGE:
            _apply_purge(state, entry.address, record)
        elif isinstance(record, Event):
            apply_event(states, entry.address, record)
    if state.replaced:
        follow_replaced(states.values(), state.replaced)
    state.latest_checkpoint, state.newest = latest, newest
    return state


def _apply_purge(state: MemoryState, address: str, event: Event) -> None:
    """The items it lists are gone: their state goes with them (the text is never
    rendered again), and each replaced snapshot stands for the one it redacts."""
    purge = purge_of(event, Sha256Hex(address))
    if purge is None:
        return
    for item in purge.items:
        state.purged[item] = purge
        state.items.pop(item, None)
    state.replaced.update((old, new) for old, new in purge.snapshots.items())


def follow_replaced(states: Iterable[ItemState], replaced: Mapping[str, str]) -> None:
    """Point every quote source at the snapshot that now stands for it, so quotes are
    checked against the redacted copy a purge left. Raises nothing."""
    for state in states:
        state.origin_source = _followed(state.origin_source, replaced)
        state.evidence_source = _followed(state.evidence_source, replaced)


def _followed(source: QuoteSource | None, replaced: Mapping[str, str]) -> QuoteSource | None:
    if source is None or source.snapshot not in replaced:
        return source
    return source._replace(snapshot=resolve_snapshot(replaced, source.snapshot))


def apply_checkpoint(
    states: dict[str, ItemState],
    address: str,
    checkpoint: Checkpoint,
    items: Mapping[Sha256Hex, Item],
    purged: Mapping[str, Purge],
    only: Container[str] | None = None,
) -> None:
    """*checkpoint* applied to the items it names (in *only*, when given). Raises nothing."""
    snapshot = None if checkpoint.source is None else checkpoint.source.snapshot
    created, session = checkpoint.transcript_time, checkpoint.session
    at = (checkpoint.branch, checkpoint.commit)
    added = set(checkpoint.items)
    for named in checkpoint.named:
        if named in purged or (only is not None and named not in only):
            continue  # a purge holds, even against a copy of the blob stored again
        is_carry = named not in added
        state = states.get(named)
        if state is None:
            item = items.get(named)
            if item is None:
                continue  # purged, missing or not genuine: nothing to say about it here
            state = states[named] = ItemState(
                item, address, item.snapshot, created, address, created
            )
        if not is_carry and not state.sightings:
            # its origin is the checkpoint that added it, even after carries of it in replay
            # order (sessions that share a time: ties go by address)
            state.origin_checkpoint, state.first_seen = address, created
            if (source := checkpoint.source) is not None:
                origin = state.origin_snapshot = state.item.snapshot or source.snapshot
                state.origin_source = QuoteSource(origin, source.format, source.name)
        state.latest_checkpoint, state.latest_time = address, created
        state.carried = is_carry  # what its latest mention was
        if is_carry:
            state.carry_count += 1
            if session != state.seen_session and session not in state.unseen_in:
                insort(state.unseen_in, session)
        else:
            state.sighted(created, session)
            state.sightings.append(Sighting(address, session, snapshot, created, *at))


def apply_event(items: dict[str, ItemState], address: str, event: Event) -> None:
    """*event* applied to each item it is about that replay holds. Raises nothing."""
    # One event may be about several items (ageing, supersessions): each item keeps
    # only its own part, no copy of the others' in every state. An event about an item
    # this store never held has nothing to apply to.
    for item_id, view in event.parts():
        if item_id in items:
            _apply_one(items[item_id], address, view, view.extra)


def _apply_one(state: ItemState, address: str, event: Event, extra: Mapping[str, Any]) -> None:
    state.events.append((address, event))
    created = sortable_time(event.created)
    kind = event.event
    if kind in CONTRADICTIONS:
        state.last_contradiction = created
    if kind == EVENT_RESOLVE:
        state.resolved = True
    elif kind == EVENT_REOPEN:
        state.resolved = False
        _reopen_status(state, _text(extra, "status"))
        state.sighted(created)
        state.superseded_by = None
        state.likely_superseded_by = None
        state.notes.clear()
        override = _trust_change(extra)
        if override is not None:
            state.trust_override = override
            state.evidence_source = _evidence_source(extra)
    elif kind == EVENT_SUPERSEDE:
        by_commit = _text(extra, "by_commit")  # a rewritten commit's message, retired
        state.superseded_by = _text(extra, "by") or (by_commit and f"commit {by_commit[:12]}")
        state.status = Status.SUPERSEDED
    elif kind == EVENT_LIKELY_SUPERSEDED:
        state.likely_superseded_by = _text(extra, "by")
    elif kind == EVENT_STATE_CHANGED:
        state.notes.append(_text(extra, "note") or "")
    elif kind == EVENT_FORGET:
        state.forgotten = True
    elif kind == EVENT_CORROBORATION:
        said = _corroboration(address, event, extra, created)
        if said is not None:
            state.corroborations.append(said)
            state.sighted(created)
    elif kind == EVENT_STATUS:
        _apply_status(state, event, extra)


def _trust_change(extra: Any) -> tuple[Trust, str | None] | None:
    trust, quote = _text(extra, "trust"), _text(extra, "quote")
    if trust == Trust.VERBATIM and quote:
        return (Trust.VERBATIM, quote)
    return None


def _evidence_source(extra: Mapping[str, Any]) -> QuoteSource | None:
    evidence = extra.get("evidence")
    snapshot = _text(evidence, "snapshot") if isinstance(evidence, dict) else None
    if snapshot is None:
        return None
    return QuoteSource(snapshot, _text(evidence, "format"), "evidence")


def _corroboration(
    address: str, event: Event, extra: Mapping[str, Any], created: str
) -> Corroboration | None:
    snapshot, quote = _text(extra, "snapshot"), _text(extra, "quote")
    if snapshot is None or quote is None:
        return None
    return Corroboration(address, event.session, snapshot, created, quote)


def _text(extra: Any, key: str) -> str | None:
    value = extra.get(key) if hasattr(extra, "get") else None
    return value if isinstance(value, str) else None


def current_status(state: ItemState) -> Status:
    """The epistemic status an item stands at: the last one an event set, else the
    initial one for its trust class (verbatim: REPORTED; otherwise INFERRED)."""
    if state.status is not None:
        return state.status
    return Status.REPORTED if state.trust == Trust.VERBATIM else Status.INFERRED


def governed(state: ItemState, conflict: bool = False) -> GovernedItem:
    """The item as governance sees it: replayed status, its evidence roots (its own and
    those later status events recorded), any conflict on any axis. Freshness runs from
    the last promotion or evidence-backed reopen, else from the first capture: carrying
    an item forward never renews it."""
    from gitmem.lifecycle.governance.decisions import GovernedItem  # not on the brief's path
    from gitmem.lifecycle.governance.evidence import parse_roots

    item = state.item
    roots, _ = parse_roots(item.extra.get("evidence"))
    last_verified = None
    for _, event in state.events:
        if event.event == EVENT_REOPEN or (
            event.event == EVENT_STATUS and event.extra.get("to") == Status.VERIFIED
        ):
            last_verified = parse_time(event.created)
        if "roots" in event.extra:
            roots += parse_roots(event.extra.get("roots"))[0]
    previous = item.extra.get("previous_memory_ids")
    expires = item.extra.get("expires_at")
    return GovernedItem(
        status=current_status(state),
        roots=roots,
        previous_memory_ids=tuple(p for p in previous if isinstance(p, str))
        if isinstance(previous, list)
        else (),
        conflict=conflict or state.contradicted,
        created=parse_time(state.first_seen),
        last_verified=last_verified,
        expires_at=expires if isinstance(expires, str) else None,
        text=item.text,
    )


def _apply_status(state: ItemState, event: Event, extra: Mapping[str, Any]) -> None:
    """A status event counts only if it is an edge of the state machine, and a
    promotion only if governance allowed it at the event's own time: a signed but
    unearned promotion changes nothing."""
    target = _text(extra, "to")
    if target is None:
        return
    try:
        check_transition(current_status(state), target, new_evidence=False)
    except TransitionError:
        return
    if target == Status.VERIFIED:
        from gitmem.lifecycle.governance.decisions import can_promote_to_verified
        from gitmem.lifecycle.governance.policy import DEFAULT_POLICY

        verdict = can_promote_to_verified(
            governed(state), DEFAULT_POLICY, parse_time(event.created)
        )
        if not verdict.allowed:
            return
    state.status = Status(target)  # an edge of the machine: a known status


def _reopen_status(state: ItemState, target: str | None) -> None:
    """A reopen may move the status along an evidence-gated edge, and only along one."""
    if target is None or target == current_status(state):
        return
    try:
        check_transition(current_status(state), target, new_evidence=True)
    except TransitionError:
        return
    state.status = Status(target)
