"""Evidence roots and the one function that counts independent sources.

A root is where a claim's evidence ultimately comes from: ``{type, root_id,
expires_at?}``. Only four types can count toward a quorum; memory citing memory never
does. Roots are deduplicated by canonical key (:mod:`gitmem.lifecycle.governance.rootkeys`)
before counting, and a root whose expiry cannot be read fails closed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from gitmem.lifecycle.governance.rootkeys import canonical_root_id

QUALIFYING_ROOT_TYPES = (
    "canonical_repository_state",
    "primary_external_source",
    "primary_instrument",
    "human_authorized_evidence",
)
NON_QUALIFYING_ROOT_TYPES = ("agent_memory", "repeated_agent_claim")

_RFC3339_RE = re.compile(r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})")


@dataclass(frozen=True)
class EvidenceRoot:
    """One evidence root as the item states it (not yet canonicalised)."""

    type: str
    root_id: str
    expires_at: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON object form, ``expires_at`` only when set."""
        data: dict[str, Any] = {"type": self.type, "root_id": self.root_id}
        if self.expires_at is not None:
            data["expires_at"] = self.expires_at
        return data


def parse_expiry(text: str) -> datetime | None:
    """An RFC 3339 timestamp with an explicit zone (``Z`` or ``±HH:MM``), else None.

    A time without a zone, a date alone or anything else is unreadable, and callers
    treat unreadable as expired (fail closed). Never raises.
    """
    if not isinstance(text, str) or not _RFC3339_RE.fullmatch(text):
        return None
    try:
        return datetime.fromisoformat(text.upper())
    except ValueError:
        return None


def parse_roots(value: object) -> tuple[tuple[EvidenceRoot, ...], tuple[str, ...]]:
    """Read the roots of an item's ``evidence`` JSON, and the problems found.

    *value* is ``{"independent_sources": [...]}`` (other keys ignored), a bare list of
    root objects, or None (no evidence). A malformed entry is dropped with a problem,
    so it never counts. A root of an unknown type is kept (it never counts) and
    reported. Never raises.
    """
    if value is None:
        return (), ()
    if isinstance(value, dict):
        entries = value.get("independent_sources")
        if entries is None:
            return (), ()
        if not isinstance(entries, list):
            return (), ("evidence independent_sources must be a list",)
    elif isinstance(value, list):
        entries = value
    else:
        return (), ("evidence must be an object or a list",)
    roots: list[EvidenceRoot] = []
    problems: list[str] = []
    for n, entry in enumerate(entries):
        root, problem = _parse_root(entry, n)
        if problem is not None:
            problems.append(problem)
        if root is not None:
            roots.append(root)
    return tuple(roots), tuple(problems)


def _parse_root(entry: object, n: int) -> tuple[EvidenceRoot | None, str | None]:
    where = f"evidence root {n}"
    if not isinstance(entry, dict):
        return None, f"{where} is not an object; dropped"
    kind, root_id, expires = entry.get("type"), entry.get("root_id"), entry.get("expires_at")
    if not isinstance(kind, str) or not kind:
        return None, f"{where} has no type; dropped"
    if not isinstance(root_id, str) or not root_id.strip():
        return None, f"{where} has no root_id; dropped"
    if expires is not None and not isinstance(expires, str):
        return None, f"{where} expires_at is not a string; dropped"
    root = EvidenceRoot(kind, root_id, expires)
    if kind not in QUALIFYING_ROOT_TYPES + NON_QUALIFYING_ROOT_TYPES:
        return root, f"{where} type {kind!r} is not known; it does not count"
    return root, None


def canonical_root_key(root: EvidenceRoot) -> str | None:
    """The key that identifies *root* for deduplication, or None if it cannot qualify.

    The key depends on the root id only, never on the type: two roots of different
    types that name the same thing are one root. Forms and rules:
    :mod:`gitmem.lifecycle.governance.rootkeys`. Never raises.
    """
    return canonical_root_id(root.root_id)


def is_qualifying(root: EvidenceRoot) -> bool:
    """True when *root* could count: a qualifying type and a canonical key. Never raises."""
    return root.type in QUALIFYING_ROOT_TYPES and canonical_root_key(root) is not None


def root_expired(root: EvidenceRoot, now: datetime | None) -> bool:
    """True when *root* has an unreadable ``expires_at``, or one at or before *now*.

    Raises:
        ValueError: *now* is a naive datetime.
    """
    if root.expires_at is None:
        return False
    expiry = parse_expiry(root.expires_at)
    if expiry is None:
        return True
    return now is not None and expiry <= require_aware(now, "now")


def count_independent_sources(roots: Sequence[EvidenceRoot], now: datetime | None = None) -> int:
    """How many independent sources *roots* hold: the one counting rule.

    1. only the qualifying types count;
    2. a root with no canonical key (an abbreviated sha, an unpinned ref) does not;
    3. a root whose ``expires_at`` cannot be read does not (fail closed);
    4. when *now* is given, a root that expired at or before *now* does not;
    5. the rest are counted once per canonical key.

    Raises:
        ValueError: *now* is a naive datetime.
    """
    if now is not None:
        require_aware(now, "now")
    keys: set[str] = set()
    for root in roots:
        key = canonical_root_key(root) if root.type in QUALIFYING_ROOT_TYPES else None
        if key is not None and not root_expired(root, now):
            keys.add(key)
    return len(keys)


def cites_memory(roots: Sequence[EvidenceRoot], previous_memory_ids: Sequence[str]) -> bool:
    """True when the item points at memory: previous memory ids, or a memory-typed root.

    Never raises.
    """
    return bool(previous_memory_ids) or any(r.type in NON_QUALIFYING_ROOT_TYPES for r in roots)


def is_self_referential(roots: Sequence[EvidenceRoot], previous_memory_ids: Sequence[str]) -> bool:
    """Memory citing memory: it cites memory and has no qualifying root at all.

    "Cites memory" is non-empty *previous_memory_ids* or a root of a non-qualifying
    type (``agent_memory``, ``repeated_agent_claim``). Expiry is not considered here;
    it is a freshness question. Never raises.
    """
    return cites_memory(roots, previous_memory_ids) and count_independent_sources(roots) == 0


def require_aware(when: datetime, name: str) -> datetime:
    """*when* itself, if it carries a time zone.

    Raises:
        ValueError: *when* is naive (comparing it with a zoned time would be a guess).
    """
    if when.tzinfo is None or when.utcoffset() is None:
        raise ValueError(f"{name} must be a timezone-aware datetime")
    return when
