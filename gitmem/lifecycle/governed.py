"""Governance for one stored item: its replayed state read as a governed record, the
policy read from HEAD, and the promotion event written when promotion is allowed.

The rules themselves are pure (:mod:`gitmem.lifecycle.governance`); this module supplies what they
need from the store, the clock and git.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from gitmem.core.records import EVENT_STATUS
from gitmem.lifecycle.commands import Workspace
from gitmem.lifecycle.governance import (
    POLICY_PATH,
    GateResult,
    Policy,
    Promotion,
    can_promote_to_verified,
    check_transition,
    gate,
    parse_policy,
)
from gitmem.lifecycle.governance.status import VERIFIED
from gitmem.lifecycle.replay import current_status, governed
from gitmem.store.repo import Store
from gitmem.store.seal import write_event


def load_policy(store: Store) -> tuple[Policy, tuple[str, ...]]:
    """The policy committed in HEAD at ``.gitmem/policy.json`` (defaults when absent)."""
    raw = store.head_blob(POLICY_PATH)
    if raw is None:
        return parse_policy(None)
    try:
        data: Any = json.loads(raw)
    except ValueError as e:
        return parse_policy(None)[0], (f"{POLICY_PATH} is not valid JSON ({e}); defaults used",)
    return parse_policy(data)


def promote(ws: Workspace, prefix: str, check_only: bool) -> Promotion:
    """Evaluate promotion to VERIFIED; unless *check_only*, record it when allowed."""
    state = ws.item(prefix)
    policy, _ = load_policy(ws.store)
    result = can_promote_to_verified(governed(state), policy, datetime.now(UTC))
    if result.allowed and not check_only:
        now = current_status(state)
        check_transition(now, VERIFIED)
        write_event(
            ws.store,
            ws.identity(),
            EVENT_STATUS,
            state.id,
            "human",
            datetime.now(UTC),
            {
                "from": now,
                "to": VERIFIED,
                "reason": "promoted: independent sources agree",
                "independent_sources": result.independent_sources,
            },
        )
    return result


def gate_item(ws: Workspace, prefix: str, consequential: bool, conflict: bool) -> GateResult:
    """proceed / reverify / quarantine for one item before it is used."""
    state = ws.item(prefix)
    policy, _ = load_policy(ws.store)
    return gate(governed(state, conflict), policy, datetime.now(UTC), consequential)
