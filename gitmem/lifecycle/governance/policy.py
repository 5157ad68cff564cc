"""The governance policy: how long each status stays fresh, and the promotion quorum.

A team states it in ``.gitmem/policy.json`` **as committed in HEAD** (read by the
caller; an uncommitted edit changes nothing). This module only turns that JSON into a
:class:`GovernancePolicy`; a bad field is reported and its default kept, so a broken file can
never make governance laxer than the defaults through a typo.

    {"schema": "gitmem/policy/1",
     "required_sources": 2,
     "ttl_days": {"REPORTED": 30, "INFERRED": 14, "VERIFIED": 90}}

A TTL is a whole number of days (0: never fresh) or null (no age limit). A status the
policy does not list has TTL 0; STALE is never fresh, whatever the policy says.
``required_sources`` is never below 2.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

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

POLICY_PATH = ".gitmem/policy.json"
POLICY_SCHEMA = "gitmem/policy/1"
MIN_REQUIRED_SOURCES = 2

DEFAULT_TTL_DAYS: Mapping[str, int | None] = MappingProxyType(
    {
        REPORTED: 30,
        INFERRED: 14,
        VERIFIED: 90,
        STALE: 0,
        QUARANTINED: 0,
        SUPERSEDED: 0,
        REJECTED: 0,
    }
)


@dataclass(frozen=True)
class GovernancePolicy:
    """TTL in days per status (None: no age limit) and the promotion quorum.

    ``required_sources`` keeps the value given; :attr:`quorum` is what is enforced.
    """

    ttl_days: Mapping[str, int | None] = field(default_factory=lambda: DEFAULT_TTL_DAYS)
    required_sources: int = MIN_REQUIRED_SOURCES

    def __post_init__(self) -> None:
        # A read-only copy, so that a frozen policy cannot change under its users.
        object.__setattr__(self, "ttl_days", MappingProxyType(dict(self.ttl_days)))

    @property
    def quorum(self) -> int:
        """The number of independent sources promotion needs: never below 2."""
        return max(MIN_REQUIRED_SOURCES, self.required_sources)

    def ttl(self, status: str) -> int | None:
        """TTL in days for *status*; 0 (never fresh) when the policy does not list it."""
        return self.ttl_days.get(status, 0)


DEFAULT_POLICY = GovernancePolicy()


def parse_policy(data: object) -> tuple[GovernancePolicy, tuple[str, ...]]:
    """Build a policy from the decoded JSON of a policy file, and the problems found.

    None means no policy file: the defaults, no problems. Every bad field (wrong type,
    negative TTL, unknown status, unknown key, ``required_sources`` below 2) is one
    problem, and that field keeps its default (``required_sources`` below 2 is clamped
    up to 2). Never raises.
    """
    if data is None:
        return DEFAULT_POLICY, ()
    if not isinstance(data, dict):
        return DEFAULT_POLICY, ("policy must be a JSON object; defaults used",)
    problems: list[str] = []
    schema = data.get("schema", POLICY_SCHEMA)
    if schema != POLICY_SCHEMA:
        problems.append(f"policy schema {schema!r} is not {POLICY_SCHEMA!r}; fields read anyway")
    for key in sorted(set(data) - {"schema", "required_sources", "ttl_days"}):
        problems.append(f"policy field {key!r} is not known; ignored")
    ttl = dict(DEFAULT_TTL_DAYS)
    raw_ttl = data.get("ttl_days", {})
    if isinstance(raw_ttl, dict):
        for status, days in raw_ttl.items():
            if status not in STATUSES:
                problems.append(f"policy ttl_days: {status!r} is not a status class; ignored")
            elif status == STALE and days != 0:
                problems.append("policy ttl_days STALE: a STALE item is never fresh; ignored")
            elif days is None or (_is_int(days) and days >= 0):
                ttl[status] = days
            else:
                problems.append(
                    f"policy ttl_days {status}: {days!r} is not a whole number of days "
                    f"or null; default {DEFAULT_TTL_DAYS[status]} kept"
                )
    else:
        problems.append("policy ttl_days must be an object; defaults kept")
    required = data.get("required_sources", MIN_REQUIRED_SOURCES)
    if not _is_int(required):
        problems.append(
            f"policy required_sources {required!r} is not a whole number; "
            f"{MIN_REQUIRED_SOURCES} used"
        )
        required = MIN_REQUIRED_SOURCES
    elif required < MIN_REQUIRED_SOURCES:
        problems.append(
            f"policy required_sources {required} is below the floor; "
            f"{MIN_REQUIRED_SOURCES} used (never lower)"
        )
        required = MIN_REQUIRED_SOURCES
    return GovernancePolicy(ttl_days=ttl, required_sources=required), tuple(problems)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
