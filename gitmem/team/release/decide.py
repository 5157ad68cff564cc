"""The verdict on one release: approved? pinned? Pure: checked records in, verdict out.

Rules, in order (each failed rule adds one sentence to ``reasons``):

1. Only approvals signed by a key the committed release trust root vouches for, at
   the approval's time, in namespace ``gitmem-release``, count. A candidate never does.
2. An approval names a commit, its tree and a sequence number. Approvals of this
   release are grouped by sequence; a sequence that a trusted approval of another
   release also claims is contested, and none of its approvals count.
3. A group is approved when it holds ``threshold`` approvals by distinct keys of
   distinct principals (one maintainer with two keys is one approval).
4. Rollback: the release's sequence (the highest approved group) may not be below the
   highest sequence this clone has verified as approved before.
5. Pinned: approved, and a trusted recovery-tested pin names the same commit, tree and
   sequence.

Beside them, ``candidate``: an intact candidate record names the release (it says the
commit was recorded for review; it never approves anything).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gitmem.team.release.records import APPROVAL, CANDIDATE, PIN, Release, ReleaseRecord


@dataclass(frozen=True)
class Seen:
    """The highest approved release this clone has verified (the rollback watermark)."""

    sequence: int
    commit: str


@dataclass(frozen=True)
class ReleaseDecision:
    approved: bool
    pinned: bool
    approvals: tuple[dict[str, Any], ...]
    reasons: tuple[str, ...]
    sequence: int | None
    """The release's sequence when approved."""
    candidate: bool = False
    """An intact candidate record names this commit and tree (approved or not)."""

    def to_json(self) -> dict[str, Any]:
        """``{"approved", "candidate", "pinned", "approvals", "reasons"}``, exactly."""
        return {
            "approved": self.approved,
            "candidate": self.candidate,
            "pinned": self.pinned,
            "approvals": list(self.approvals),
            "reasons": list(self.reasons),
        }


def _distinct(records: Sequence[ReleaseRecord]) -> list[ReleaseRecord]:
    keys: set[str] = set()
    principals: set[str] = set()
    counted = []
    for r in sorted(records, key=lambda r: (r.created, r.address)):
        if r.key not in keys and r.principal not in principals:
            keys.add(r.key)
            principals.add(r.principal)
            counted.append(r)
    return counted


def decide(
    records: Sequence[ReleaseRecord],
    release: Release,
    threshold: int,
    *,
    has_root: bool,
    policy_problem: str | None,
    seen: Seen | None,
    root: str = "the trust branch",
) -> ReleaseDecision:
    """Decide whether *release* is approved and pinned; *root* names where the release
    trust root was looked for. Raises nothing."""
    reasons: list[str] = []
    if not has_root:
        reasons.append(
            f"no .gitmem/release_signers is committed on {root}, so no key may approve a release"
        )
    if policy_problem is not None:
        reasons.append(f"{policy_problem}; nothing is approved until the committed policy is fixed")
    mine = [r for r in records if r.release == release]
    signed = [r for r in mine if r.event in (APPROVAL, PIN)]
    for r in signed:
        if not r.trusted:
            reasons.append(f"{r.kind} {r.address[:12]} by {r.principal} does not count: {r.reason}")
    # Rule 2: who else claims each sequence.
    claims: dict[int, set[Release]] = {}
    for r in records:
        if r.event == APPROVAL and r.trusted and r.sequence is not None:
            claims.setdefault(r.sequence, set()).add(r.release)
    groups: dict[int, list[ReleaseRecord]] = {}
    for r in mine:
        if r.event != APPROVAL or not r.trusted or r.sequence is None:
            continue
        others = claims[r.sequence] - {release}
        if others:
            other = sorted(o.commit for o in others)[0]
            reason = (
                f"sequence {r.sequence} is also claimed by an approval of commit {other[:12]}; "
                "approvals with a contested sequence do not count"
            )
            if reason not in reasons:
                reasons.append(reason)
            continue
        groups.setdefault(r.sequence, []).append(r)
    # Rule 3: the threshold, per sequence.
    counted = {s: _distinct(g) for s, g in groups.items()}
    qualifying = [s for s, c in counted.items() if len(c) >= threshold]
    sequence = max(qualifying) if qualifying else None
    if not signed:
        if any(r.event == CANDIDATE for r in mine):
            reasons.append("only a candidate: a candidate is never approved")
        else:
            reasons.append("no release record names this commit and tree")
    if sequence is None:
        best = max((len(c) for c in counted.values()), default=0)
        reasons.append(f"{best} of {threshold} required approval(s) by trusted keys")
    # Rule 4: never go back to an older release than this clone has verified.
    rollback = (
        sequence is not None
        and seen is not None
        and (
            sequence < seen.sequence
            or (sequence == seen.sequence and seen.commit != release.commit)
        )
    )
    if rollback:
        assert seen is not None
        reasons.append(
            f"rollback: this release has sequence {sequence}, but this clone already "
            f"verified release sequence {seen.sequence} (commit {seen.commit[:12]})"
        )
    approved = sequence is not None and has_root and policy_problem is None and not rollback
    # Rule 5: the recovery-tested pin.
    pins = [r for r in mine if r.event == PIN and r.trusted and approved and r.sequence == sequence]
    pinned = bool(pins)
    if approved and not pinned:
        reasons.append(
            f"not pinned: no recovery-tested pin by a trusted key for sequence {sequence}"
        )
    chosen = {r.address for c in counted.values() for r in c} | {r.address for r in pins[:1]}
    entries = tuple(
        {
            "kind": r.kind,
            "record": r.address,
            "principal": r.principal,
            "key": r.key,
            "sequence": r.sequence,
            "created": r.created,
            "trusted": r.trusted,
            "counted": r.address in chosen,
            "reason": r.reason,
        }
        for r in sorted(signed, key=lambda r: (r.created, r.address))
    )
    candidate = any(r.event == CANDIDATE and r.intact for r in mine)
    return ReleaseDecision(
        approved, pinned, entries, tuple(reasons), sequence if approved else None, candidate
    )
