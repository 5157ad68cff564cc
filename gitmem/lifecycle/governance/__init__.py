"""Governance: epistemic status, evidence roots, promotion and the use gate.

Pure functions only: no disk, no git, no clock (the time is always a parameter), no
click. The lifecycle replay, the events and the ``gitmem promote`` / ``gitmem gate``
commands call them. One concern per module:

* :mod:`~gitmem.lifecycle.governance.status` — the seven classes and the explicit transitions;
* :mod:`~gitmem.lifecycle.governance.evidence` — evidence roots and the one counting function;
* :mod:`~gitmem.lifecycle.governance.rootkeys` — canonical keys for root ids;
* :mod:`~gitmem.lifecycle.governance.instructions` — memory that talks to its future reader;
* :mod:`~gitmem.lifecycle.governance.policy` — TTLs and the quorum, from ``.gitmem/policy.json``;
* :mod:`~gitmem.lifecycle.governance.decisions` — freshness, promotion and the gate.

See ``docs/governance.md``.
"""

from __future__ import annotations

from gitmem.lifecycle.governance.decisions import (
    PROCEED,
    QUARANTINE,
    REVERIFY,
    GateResult,
    GovernedItem,
    Promotion,
    can_promote_to_verified,
    gate,
    is_fresh,
)
from gitmem.lifecycle.governance.evidence import (
    NON_QUALIFYING_ROOT_TYPES,
    QUALIFYING_ROOT_TYPES,
    EvidenceRoot,
    canonical_root_key,
    count_independent_sources,
    is_self_referential,
    parse_expiry,
    parse_roots,
)
from gitmem.lifecycle.governance.instructions import instructs_future_agent
from gitmem.lifecycle.governance.policy import (
    DEFAULT_POLICY,
    DEFAULT_TTL_DAYS,
    POLICY_PATH,
    Policy,
    parse_policy,
)
from gitmem.lifecycle.governance.status import (
    EVIDENCE_GATED,
    PROMOTION_EDGE,
    STATUSES,
    TRANSITIONS,
    TransitionError,
    check_transition,
    initial_status,
    normalize_status,
)

__all__ = [
    "DEFAULT_POLICY",
    "DEFAULT_TTL_DAYS",
    "EVIDENCE_GATED",
    "NON_QUALIFYING_ROOT_TYPES",
    "POLICY_PATH",
    "PROCEED",
    "PROMOTION_EDGE",
    "QUALIFYING_ROOT_TYPES",
    "QUARANTINE",
    "REVERIFY",
    "STATUSES",
    "TRANSITIONS",
    "EvidenceRoot",
    "GateResult",
    "GovernedItem",
    "Policy",
    "Promotion",
    "TransitionError",
    "can_promote_to_verified",
    "canonical_root_key",
    "check_transition",
    "count_independent_sources",
    "gate",
    "initial_status",
    "instructs_future_agent",
    "is_fresh",
    "is_self_referential",
    "normalize_status",
    "parse_expiry",
    "parse_policy",
    "parse_roots",
]
