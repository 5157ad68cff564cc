"""Governance decisions about one item: is it fresh, may it be promoted, may it be used.

Everything here is a pure function of a :class:`GovernedItem` (the item as the
lifecycle replay sees it), a :class:`~gitmem.lifecycle.governance.policy.GovernancePolicy`
and the time *now*, which the caller passes in. Nothing here changes state: an allowed promotion is
an answer, and the caller writes the promotion event.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from gitmem.lifecycle.governance.evidence import (
    EvidenceRoot,
    count_independent_sources,
    is_qualifying,
    is_self_referential,
    parse_expiry,
    require_aware,
    root_expired,
)
from gitmem.lifecycle.governance.instructions import instructs_future_agent
from gitmem.lifecycle.governance.policy import GovernancePolicy
from gitmem.lifecycle.governance.status import (
    INFERRED,
    QUARANTINED,
    REJECTED,
    REPORTED,
    STALE,
    STATUSES,
    SUPERSEDED,
    VERIFIED,
)


class Decision(StrEnum):
    """What the gate answers before an item is used."""

    PROCEED = "proceed"
    REVERIFY = "reverify"
    QUARANTINE = "quarantine"


PROCEED, REVERIFY, QUARANTINE = Decision
_SEVERITY = {PROCEED: 0, REVERIFY: 1, QUARANTINE: 2}


@dataclass(frozen=True)
class GovernedItem:
    """What governance needs to know about one item.

    ``status`` is the status as replayed (an unknown one quarantines); ``conflict`` is
    any contradiction on any axis (world-check contradicted, superseded, resolved as
    wrong, a changed-state note); ``last_verified`` is the last allowed promotion or
    evidence-backed reverify; ``expires_at`` is the record's own freshness expiry.
    ``created`` and ``last_verified`` must be timezone-aware.
    """

    status: str
    roots: tuple[EvidenceRoot, ...]
    previous_memory_ids: tuple[str, ...]
    conflict: bool
    created: datetime
    last_verified: datetime | None
    expires_at: str | None
    text: str


@dataclass(frozen=True)
class Promotion:
    """The answer of :func:`can_promote_to_verified`."""

    allowed: bool
    reasons: tuple[str, ...]
    independent_sources: int

    def to_json(self) -> dict[str, Any]:
        """``{"allowed", "reasons", "independent_sources"}`` for ``gitmem promote --json``."""
        return {
            "allowed": self.allowed,
            "reasons": list(self.reasons),
            "independent_sources": self.independent_sources,
        }


@dataclass(frozen=True)
class GateResult:
    """The answer of :func:`gate`: ``proceed``, ``reverify`` or ``quarantine``."""

    decision: Decision
    reasons: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"decision", "reasons"}`` for ``gitmem gate --json``."""
        return {"decision": self.decision, "reasons": list(self.reasons)}


def is_fresh(item: GovernedItem, policy: GovernancePolicy, now: datetime) -> bool:
    """True while *item* is within its class TTL and its record has not expired.

    The TTL of the item's status (an unknown status reads as QUARANTINED) runs from
    ``last_verified``, or ``created`` if it was never verified; TTL None never lapses,
    TTL 0 is never fresh, and the item is stale from the instant the TTL ends. STALE is
    never fresh, whatever the policy says. A record ``expires_at`` at or before *now*,
    or one that cannot be read, makes it stale.

    Raises:
        ValueError: *now*, ``created`` or ``last_verified`` is a naive datetime.
    """
    return _staleness(item, policy, now) is None


def can_promote_to_verified(
    item: GovernedItem, policy: GovernancePolicy, now: datetime
) -> Promotion:
    """May *item* move from INFERRED to VERIFIED at *now*?

    Every rule is checked and every failing one adds one reason, in this order:

    1. its status is INFERRED (there is no REPORTED → VERIFIED edge);
    2. no conflict on any axis;
    3. at least ``policy.quorum`` independent sources fresh at *now* (never below 2;
       a ``required_sources`` below 2 is noted in the reasons and 2 is used);
    4. not memory citing memory;
    5. no qualifying root expired at *now* or with an unreadable expiry;
    6. the record itself has not expired (or has a readable expiry);
    7. its text does not instruct a future agent.

    The item's own class TTL does not block: a promotion on fresh roots is what renews
    it. This only answers; it never promotes.

    Raises:
        ValueError: *now* is a naive datetime.
    """
    require_aware(now, "now")
    notes: list[str] = []
    if policy.required_sources < policy.quorum:
        notes.append(
            f"policy asks for {policy.required_sources} independent source(s); "
            f"the quorum is never below {policy.quorum}, so {policy.quorum} are required"
        )
    failures: list[str] = []
    status = item.status
    if status not in STATUSES:
        failures.append(f"status {status!r} is not a known class; the item is quarantined")
    elif status == REPORTED:
        failures.append(
            "a REPORTED item cannot be promoted directly (no REPORTED → VERIFIED edge); "
            "reverify it with evidence first (REPORTED → INFERRED)"
        )
    elif status == VERIFIED:
        failures.append("the item is already VERIFIED")
    elif status != INFERRED:
        failures.append(f"only an INFERRED item can be promoted; this one is {status}")
    if item.conflict:
        failures.append("the item is contradicted on some axis; settle the conflict first")
    sources = count_independent_sources(item.roots, now)
    if sources < policy.quorum:
        failures.append(_quorum_reason(item.roots, sources, policy.quorum, now))
    if is_self_referential(item.roots, item.previous_memory_ids):
        failures.append("memory citing memory: it has no qualifying evidence root of its own")
    expired = _expired_roots(item.roots, now)
    if expired:
        failures.append(f"an evidence root is not fresh at {_when(now)}: {'; '.join(expired)}")
    record = _record_expiry(item, now)
    if record is not None:
        failures.append(record)
    if instructs_future_agent(item.text):
        failures.append(
            "the text instructs a future agent; it is kept as a claim and cannot be promoted"
        )
    return Promotion(not failures, tuple(notes + failures), sources)


def gate(
    item: GovernedItem, policy: GovernancePolicy, now: datetime, consequential: bool
) -> GateResult:
    """Decide whether *item* may be used now: ``proceed``, ``reverify`` or ``quarantine``.

    The steps run in the seed's order and each adds its reasons; the decision is the
    most severe one any step reached (quarantine > reverify > proceed):

    1. class — unknown, QUARANTINED, REJECTED or SUPERSEDED: quarantine;
    2. freshness — STALE, class TTL lapsed, record expired: reverify;
    3. evidence roots — a qualifying root expired, memory citing memory, or VERIFIED
       without a quorum of fresh roots: reverify;
    4. conflict — any contradiction: quarantine;
    5. consequential use — instruction-shaped text: quarantine; not VERIFIED: reverify.

    Steps 2 and 3 are skipped when step 1 quarantines: an item that is not used at all
    has no age worth reporting. An instruction-shaped item used non-consequentially
    proceeds, with a reason saying it is a claim and not an instruction.

    Raises:
        ValueError: *now*, ``created`` or ``last_verified`` is a naive datetime.
    """
    _require_times(item, now)
    found: list[tuple[Decision, str]] = []
    status = item.status
    # 1. class
    if status not in STATUSES:
        found.append((QUARANTINE, f"status {status!r} is not a known class"))
    elif status in (QUARANTINED, REJECTED, SUPERSEDED):
        found.append((QUARANTINE, f"the item is {status}"))
    # Steps 2 and 3 can only ask for a reverify; a quarantined item is not used at all.
    if not found:
        # 2. freshness
        stale = _staleness(item, policy, now)
        if stale is not None:
            found.append((REVERIFY, stale))
        # 3. evidence roots
        expired = _expired_roots(item.roots, now)
        if expired:
            found.append((REVERIFY, f"an evidence root is not fresh: {'; '.join(expired)}"))
        if is_self_referential(item.roots, item.previous_memory_ids):
            found.append((REVERIFY, "memory citing memory: no qualifying evidence root"))
        sources = count_independent_sources(item.roots, now)
        if status == VERIFIED and sources < policy.quorum:
            found.append((REVERIFY, _quorum_reason(item.roots, sources, policy.quorum, now)))
    # 4. conflict
    if item.conflict:
        found.append((QUARANTINE, "the item is contradicted on some axis"))
    # 5. consequential use
    instruction = instructs_future_agent(item.text)
    if consequential and instruction:
        found.append(
            (QUARANTINE, "the text instructs a future agent; a claim cannot authorise action")
        )
    elif instruction:
        found.append((PROCEED, "the text instructs a future agent; read it as a claim only"))
    if consequential and status in (REPORTED, INFERRED):
        found.append((REVERIFY, f"consequential use needs a VERIFIED item; this one is {status}"))
    decision = max((d for d, _ in found), key=_SEVERITY.__getitem__, default=PROCEED)
    return GateResult(decision, tuple(reason for _, reason in found))


def _staleness(item: GovernedItem, policy: GovernancePolicy, now: datetime) -> str | None:
    """Why *item* is not fresh at *now*, or None when it is."""
    _require_times(item, now)
    if item.status == STALE:
        return "the item is STALE"
    record = _record_expiry(item, now)
    if record is not None:
        return record
    status = item.status if item.status in STATUSES else QUARANTINED
    ttl = policy.ttl(status)
    if ttl is None:
        return None
    since, what = (
        (item.last_verified, "last verified")
        if item.last_verified is not None
        else (item.created, "created")
    )
    try:
        expires = since + timedelta(days=ttl)
    except OverflowError:  # a TTL that ends past the last date there is: fresh till then
        return None
    if now >= expires:
        return f"{status} stays fresh {ttl} day(s); {what} {_when(since)}"
    return None


def _require_times(item: GovernedItem, now: datetime) -> None:
    require_aware(now, "now")
    require_aware(item.created, "created")
    if item.last_verified is not None:
        require_aware(item.last_verified, "last_verified")


def _record_expiry(item: GovernedItem, now: datetime) -> str | None:
    if item.expires_at is None:
        return None
    expiry = parse_expiry(item.expires_at)
    if expiry is None:
        return f"the record's expires_at {item.expires_at!r} cannot be read (fails closed)"
    if expiry <= now:
        return f"the record expired at {_when(expiry)}"
    return None


def _expired_roots(roots: tuple[EvidenceRoot, ...], now: datetime) -> list[str]:
    """One phrase per qualifying root that is not fresh at *now*."""
    out = []
    for root in roots:
        if root.expires_at is not None and is_qualifying(root) and root_expired(root, now):
            expiry = parse_expiry(root.expires_at)
            out.append(
                f"{root.root_id} expired at {_when(expiry)}"
                if expiry is not None
                else f"{root.root_id} has an unreadable expires_at {root.expires_at!r}"
            )
    return out


def _quorum_reason(
    roots: tuple[EvidenceRoot, ...], sources: int, quorum: int, now: datetime
) -> str:
    ignored = sum(1 for r in roots if not is_qualifying(r))
    expired = sum(1 for r in roots if is_qualifying(r) and root_expired(r, now))
    duplicates = len(roots) - ignored - expired - sources
    notes = [
        f"{n} {what}"
        for n, what in (
            (ignored, "cannot count (non-qualifying type or unpinned id)"),
            (expired, "expired"),
            (duplicates, "repeat an earlier root"),
        )
        if n
    ]
    tail = f" (of {len(roots)} root(s): {', '.join(notes)})" if notes else ""
    return f"{sources} independent source(s) fresh now; {quorum} required{tail}"


def _when(when: datetime) -> str:
    return when.isoformat().replace("+00:00", "Z")
