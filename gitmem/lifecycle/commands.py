"""Lifecycle commands: each writes at most one signed event about one item, never an edit.

``resolve`` (a human verdict, or an agent's with a quote that verifies), ``reverify``
(the evidence-gated reopen), ``supersede``, ``note`` (the world changed), ``forget``
(a tombstone), ``promote`` (to VERIFIED, when independent sources agree) and ``gate``
(proceed / reverify / quarantine before an item is used). Every status change goes
through the governance state machine; its rules are pure
(:mod:`gitmem.lifecycle.governance`), and this module supplies what they need from the
store, the clock and git.

Evidence is checked by the caller, exactly as a capture would check it
(:mod:`gitmem.capture.evidence`), and handed in as an :class:`Evidence`; so is the
masking of a note's text. This layer never reads a transcript or masks a secret itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from gitmem.core import boundedjson
from gitmem.core.canonical import sha256_hex
from gitmem.core.errors import InputError, NegativeResult
from gitmem.core.items import Trust
from gitmem.core.records import (
    EVENT_FORGET,
    EVENT_LIKELY_SUPERSEDED,
    EVENT_REOPEN,
    EVENT_RESOLVE,
    EVENT_STATE_CHANGED,
    EVENT_STATUS,
    EVENT_SUPERSEDE,
)
from gitmem.lifecycle.governance.decisions import (
    GateResult,
    Promotion,
    can_promote_to_verified,
    gate,
)
from gitmem.lifecycle.governance.policy import POLICY_PATH, GovernancePolicy, parse_policy
from gitmem.lifecycle.governance.status import INFERRED, VERIFIED, Status, check_transition
from gitmem.lifecycle.replay import ItemState, current_status, governed
from gitmem.lifecycle.workspace import Workspace
from gitmem.store.repo import Store

_OPEN_STATUSES = (Status.INFERRED, Status.VERIFIED)
"""Statuses a reverify leaves as they are; every other one moves to INFERRED (REPORTED
too: that is the way a verbatim item goes towards VERIFIED, never directly)."""


@dataclass(frozen=True)
class Evidence:
    """A quote that verified in a transcript, and the transcript's stored snapshot."""

    quote: str
    snapshot: bytes
    session: str | None
    format: str = "text"
    """The transcript's format, so a reader can parse the snapshot again."""

    def to_json(self) -> dict[str, str]:
        return {"quote": self.quote, "snapshot": sha256_hex(self.snapshot), "format": self.format}


def resolve(ws: Workspace, prefix: str, note: str | None, evidence: Evidence | None) -> str:
    """Mark an item done.

    Raises:
        InputError: the item is unknown.
        NegativeResult: it is not open (already resolved, superseded or forgotten).
        SigningKeyError, GitError, NegativeResult: the event could not be signed or stored.
    """
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
    state machine, whose reopening edges need exactly this new evidence.

    Raises:
        InputError: the item is unknown or forgotten.
        TransitionError: the state machine has no evidence-gated way back from its status.
        SigningKeyError, GitError, NegativeResult: the event could not be signed or stored.
    """
    state = ws.item(prefix)
    if state.forgotten:
        raise InputError(f"item {state.id[:8]} was forgotten; it cannot be reopened")
    now = current_status(state)
    target = now if now in _OPEN_STATUSES else INFERRED
    if target != now:
        check_transition(now, target, new_evidence=True)
    extra: dict[str, Any] = {"evidence": evidence.to_json(), "status": target}
    if state.trust != Trust.VERBATIM:
        extra.update(trust=Trust.VERBATIM, quote=evidence.quote)
    return ws.write(EVENT_REOPEN, state, extra, evidence.session or "agent", evidence.snapshot)


def own_quote(ws: Workspace, prefix: str) -> str:
    """``reverify ID --transcript PATH``: the item's own stored quote, to find again.

    Raises:
        InputError: the item is unknown, or has no verified quote to look for.
    """
    state = ws.item(prefix)
    if not state.quote:
        raise InputError(f"item {state.id[:8]} has no verified quote: give --evidence QUOTE")
    return state.quote


def supersede(ws: Workspace, old: str, new: str, likely: bool) -> str:
    """Say that item *new* replaces item *old* (or probably does).

    Raises:
        InputError: an unknown item, or the same item twice.
        NegativeResult: *old* is not open, or *new* is itself superseded.
        SigningKeyError, GitError, NegativeResult: the event could not be signed or stored.
    """
    old_state, new_state = ws.item(old), ws.item(new)
    if old_state.id == new_state.id:
        raise InputError("an item cannot supersede itself")
    _require_open(old_state, "supersede")
    if new_state.superseded_by is not None:
        # Replaced by what was replaced, the item would point at nothing current, and
        # by what it replaced (a cycle), neither would show anywhere again.
        raise NegativeResult(
            f"item {new_state.id[:8]} is itself superseded by {new_state.superseded_by[:8]}; "
            f"nothing written (supersede {old_state.id[:8]} with what replaced it)"
        )
    name = EVENT_LIKELY_SUPERSEDED if likely else EVENT_SUPERSEDE
    return ws.write(name, old_state, {"by": new_state.id})


def note(ws: Workspace, prefix: str, text: str, mask: Callable[[str], str]) -> str:
    """Record that the world changed since the item was captured (a contradiction);
    *mask* hides the secrets in *text* before it is stored.

    Raises:
        InputError: no text, or the item is unknown.
        NegativeResult: it is not open.
        SigningKeyError, GitError, NegativeResult: the event could not be signed or stored.
    """
    if not text.strip():
        raise InputError("a note needs text")
    state = ws.item(prefix)
    _require_open(state, "note")
    return ws.write(EVENT_STATE_CHANGED, state, {"note": mask(text.strip())})


def forget(ws: Workspace, prefix: str) -> str:
    """A tombstone: the item's text is never rendered again, anywhere.

    Raises:
        InputError: the item is unknown.
        NegativeResult: it is already forgotten.
        SigningKeyError, GitError, NegativeResult: the event could not be signed or stored.
    """
    state = ws.item(prefix)
    if state.forgotten:
        raise NegativeResult(f"item {state.id[:8]} is already forgotten; nothing written")
    return ws.write(EVENT_FORGET, state, {})


def load_policy(store: Store) -> tuple[GovernancePolicy, tuple[str, ...]]:
    """The policy committed in HEAD at ``.gitmem/policy.json`` (defaults when absent),
    and the problems found reading it. Raises nothing."""
    raw = store.head_blob(POLICY_PATH)
    if raw is None:
        return parse_policy(None)
    try:
        data: Any = boundedjson.loads(raw)
    except ValueError as e:
        return parse_policy(None)[0], (f"{POLICY_PATH} is not valid JSON ({e}); defaults used",)
    return parse_policy(data)


def promote(ws: Workspace, prefix: str, check_only: bool) -> tuple[Promotion, str | None]:
    """Evaluate promotion to VERIFIED; unless *check_only*, record it when allowed. The
    verdict, and the address of the event written (None when nothing was).

    Raises:
        InputError: the item is unknown.
        TransitionError: its status has no edge to VERIFIED.
        SigningKeyError, GitError, NegativeResult: the event could not be signed or stored.
    """
    state = ws.item(prefix)
    policy, _ = load_policy(ws.store)
    result = can_promote_to_verified(governed(state), policy, datetime.now(UTC))
    event = None
    if result.allowed and not check_only:
        now = current_status(state)
        check_transition(now, VERIFIED)
        event = ws.write(
            EVENT_STATUS,
            state,
            {
                "from": now,
                "to": VERIFIED,
                "reason": "promoted: independent sources agree",
                "independent_sources": result.independent_sources,
            },
        )
    return result, event


def gate_item(ws: Workspace, prefix: str, consequential: bool, conflict: bool) -> GateResult:
    """proceed / reverify / quarantine for one item before it is used.

    Raises:
        InputError: the item is unknown.
    """
    state = ws.item(prefix)
    policy, _ = load_policy(ws.store)
    return gate(governed(state, conflict), policy, datetime.now(UTC), consequential)


def _require_open(state: ItemState, action: str) -> None:
    # An item already past this step is an expected "no" (exit 1), not bad input.
    if state.forgotten:
        raise NegativeResult(f"item {state.id[:8]} was forgotten; nothing to {action}")
    if state.resolved:
        raise NegativeResult(
            f"item {state.id[:8]} is already resolved; nothing written "
            "(`gitmem reverify` reopens it with evidence)"
        )
    if state.superseded_by is not None:
        raise NegativeResult(
            f"item {state.id[:8]} is superseded by {state.superseded_by[:8]}; nothing written"
        )
