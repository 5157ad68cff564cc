"""World-check: does the world still agree with what an item claims?

During a brief, the checkable claims of each item (a file at HEAD, a branch, a merge, a
commit, a PR's or an issue's state) are probed against the repository and, when its CLI
is installed and answers, the forge, all within one small time budget. The outcome is
shown by the brief and never written: world-check is read-only.

    checker = WorldChecker(store.repo)                  # one per brief, 0.5 s in all
    check = checker.check(claims_of(item.text, item.extra.get("claims")))
    check.status        # "confirmed" | "contradicted" | None
    check.summary       # "PR #214 is merged, not open, says gh."
    resolve_hint(item.id, check)

This module is the public surface; ``claims`` (what is claimed), ``probes`` (the git
probes), ``forge`` (the forge CLIs, loaded only when a claim needs one: import them from
there) and ``checker`` (budget, cache, status) are its parts.
See ``docs/worldcheck.md``.
"""

from __future__ import annotations

from gitmem.brief.worldcheck.checker import (
    BUDGET_SPENT,
    NOT_CHECKED,
    WorldCheck,
    WorldChecker,
    aggregate,
    resolve_hint,
)
from gitmem.brief.worldcheck.claims import CLAIM_TYPES, MAX_CLAIMS, Claim, claims_of
from gitmem.brief.worldcheck.probes import CONFIRMED, CONTRADICTED, Probe

__all__ = [
    "BUDGET_SPENT",
    "CLAIM_TYPES",
    "CONFIRMED",
    "CONTRADICTED",
    "MAX_CLAIMS",
    "NOT_CHECKED",
    "Claim",
    "Probe",
    "WorldCheck",
    "WorldChecker",
    "aggregate",
    "claims_of",
    "resolve_hint",
]
