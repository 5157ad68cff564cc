"""Lifecycle commands: each writes one signed event about one item, never an edit.

``resolve`` (a human verdict, or an agent's with a quote that verifies), ``reverify``
(the evidence-gated reopen), ``supersede``, ``note`` (the world changed), ``forget``
(a tombstone). Every status change goes through the governance state machine.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from gitmem.capture.checkpoint import OVERLAPS_SECRET
from gitmem.capture.masking import contains_mask, mask
from gitmem.capture.prepare import prepare
from gitmem.capture.transcripts import load_transcript
from gitmem.core.canonical import sha256_hex
from gitmem.core.errors import InputError, NegativeResult
from gitmem.core.quotes import check_quote
from gitmem.core.records import (
    EVENT_FORGET,
    EVENT_LIKELY_SUPERSEDED,
    EVENT_REOPEN,
    EVENT_RESOLVE,
    EVENT_STATE_CHANGED,
    EVENT_SUPERSEDE,
)
from gitmem.lifecycle.governance import check_transition
from gitmem.lifecycle.governance.status import INFERRED
from gitmem.lifecycle.memory import load
from gitmem.lifecycle.replay import ItemState, MemoryState, current_status
from gitmem.store.keys import Identity, load_identity
from gitmem.store.ledger import Ledger
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots
from gitmem.store.seal import write_event

HUMAN_SESSION = "human"
_OPEN_STATUSES = ("INFERRED", "VERIFIED")
"""Statuses a reverify leaves as they are; every other one moves to INFERRED (REPORTED
too: that is the way a verbatim item goes towards VERIFIED, never directly)."""
MIN_PREFIX = 4


@dataclass(frozen=True)
class Evidence:
    """A quote that verified in a transcript, and the transcript's stored snapshot."""

    quote: str
    snapshot: bytes
    session: str | None

    def to_json(self) -> dict[str, str]:
        return {"quote": self.quote, "snapshot": sha256_hex(self.snapshot)}


class Workspace:
    """One repository's memory, loaded once for a command (writers use the cache)."""

    def __init__(self, store: Store, home: Path) -> None:
        self.store = store
        self.home = home
        self.state: MemoryState = load(store, load_trust_roots(home, store), use_cache=True).state

    def identity(self) -> Identity:
        return load_identity(self.home)

    def item(self, prefix: str) -> ItemState:
        """The one item whose id starts with *prefix*.

        Raises:
            InputError: too short, unknown, or ambiguous.
        """
        if len(prefix) < MIN_PREFIX or not all(c in "0123456789abcdef" for c in prefix):
            raise InputError(f"item id {prefix!r}: give at least {MIN_PREFIX} hex characters")
        found = self.state.find(prefix)
        if not found:
            raise InputError(f"no item {prefix} in this repository's memory")
        if len(found) > 1:
            ids = ", ".join(s.id[:12] for s in found[:5])
            raise InputError(f"item id {prefix} is ambiguous ({ids}…): give more characters")
        return found[0]

    def evidence(self, quote: str, transcript: Path, format: str | None = None) -> Evidence:
        """Check *quote* in *transcript* exactly as a capture would (ledger, masking).

        Raises:
            InputError: the transcript cannot be read.
            NegativeResult: the quote does not verify; nothing is written.
        """
        parsed = load_transcript(transcript, format)
        emitted = Ledger(self.store.local_dir).load()
        prepared = prepare(parsed, emitted, transcript.stat().st_mtime)
        masked = mask(quote).text
        result = check_quote(masked, prepared.transcript.texts())
        if result.verbatim and contains_mask(masked):
            raise NegativeResult(f"evidence does not count: {OVERLAPS_SECRET}")
        if not result.verbatim:
            raise NegativeResult(
                f"evidence does not count, the quote is not verbatim: "
                f"{result.reason}; nothing written"
            )
        return Evidence(masked, prepared.snapshot, parsed.session)

    def write(
        self,
        name: str,
        state: ItemState,
        extra: dict[str, Any],
        session: str = HUMAN_SESSION,
        snapshot: bytes | None = None,
    ) -> str:
        return write_event(
            self.store, self.identity(), name, state.id, session, datetime.now(UTC), extra, snapshot
        )


def resolve(ws: Workspace, prefix: str, note: str | None, evidence: Evidence | None) -> str:
    """Mark an item done. Raises InputError when it is not open."""
    state = ws.item(prefix)
    _require_open(state, "resolve")
    extra: dict[str, Any] = {"note": note} if note else {}
    if evidence is not None:
        extra["evidence"] = evidence.to_json()
    if evidence is None:
        return ws.write(EVENT_RESOLVE, state, extra)
    return ws.write(EVENT_RESOLVE, state, extra, evidence.session or "agent", evidence.snapshot)


def reverify(ws: Workspace, prefix: str, evidence: Evidence) -> str:
    """Reopen (or re-confirm) an item on verified evidence; the trust class may rise to
    verbatim with the evidence as its quote. A closed or doubted status (STALE,
    SUPERSEDED, QUARANTINED, REJECTED) goes back to INFERRED through the governance
    state machine, whose reopening edges need exactly this new evidence."""
    state = ws.item(prefix)
    if state.forgotten:
        raise InputError(f"item {state.id[:8]} was forgotten; it cannot be reopened")
    now = current_status(state)
    target = now if now in _OPEN_STATUSES else INFERRED
    if target != now:
        check_transition(now, target, new_evidence=True)
    extra: dict[str, Any] = {"evidence": evidence.to_json(), "status": target}
    if state.trust != "verbatim":
        extra.update(trust="verbatim", quote=evidence.quote)
    return ws.write(EVENT_REOPEN, state, extra, evidence.session or "agent", evidence.snapshot)


def own_quote_evidence(
    ws: Workspace, prefix: str, transcript: Path, format: str | None = None
) -> Evidence:
    """``reverify ID --transcript PATH``: the item's own stored quote, found again.

    Raises:
        InputError: the item has no verified quote to look for.
        NegativeResult: the quote is not in the transcript.
    """
    state = ws.item(prefix)
    if not state.quote:
        raise InputError(f"item {state.id[:8]} has no verified quote: give --evidence QUOTE")
    return ws.evidence(state.quote, transcript, format)


def supersede(ws: Workspace, old: str, new: str, likely: bool) -> str:
    """Say that item *new* replaces item *old* (or probably does)."""
    old_state, new_state = ws.item(old), ws.item(new)
    if old_state.id == new_state.id:
        raise InputError("an item cannot supersede itself")
    _require_open(old_state, "supersede")
    name = EVENT_LIKELY_SUPERSEDED if likely else EVENT_SUPERSEDE
    return ws.write(name, old_state, {"by": new_state.id})


def note(ws: Workspace, prefix: str, text: str) -> str:
    """Record that the world changed since the item was captured (a contradiction)."""
    if not text.strip():
        raise InputError("a note needs text")
    state = ws.item(prefix)
    _require_open(state, "note")
    return ws.write(EVENT_STATE_CHANGED, state, {"note": mask(text.strip()).text})


def forget(ws: Workspace, prefix: str) -> str:
    """A tombstone: the item's text is never rendered again, anywhere."""
    state = ws.item(prefix)
    if state.forgotten:
        raise InputError(f"item {state.id[:8]} is already forgotten")
    return ws.write(EVENT_FORGET, state, {})


def _require_open(state: ItemState, action: str) -> None:
    if state.forgotten:
        raise InputError(f"item {state.id[:8]} was forgotten; nothing to {action}")
    if state.resolved:
        raise InputError(
            f"item {state.id[:8]} is already resolved (`gitmem reverify` reopens it with evidence)"
        )
    if state.superseded_by is not None:
        raise InputError(f"item {state.id[:8]} is superseded by {state.superseded_by[:8]}")
