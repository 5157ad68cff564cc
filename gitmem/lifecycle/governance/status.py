"""Epistemic status classes and the explicit edges between them.

Seven classes, one state machine. An edge not in :data:`TRANSITIONS` does not exist:
there is no ``REPORTED → VERIFIED`` and no ``REJECTED → VERIFIED``, and the edges that
reopen a closed or doubted item (``→ INFERRED`` from ``REPORTED``, ``STALE``,
``QUARANTINED``, ``SUPERSEDED`` or ``REJECTED``) need new evidence. The one edge into
``VERIFIED`` (``INFERRED → VERIFIED``) is also gated: take it only when
:func:`gitmem.lifecycle.governance.can_promote_to_verified` allows it.

Status is the lifecycle axis; it is not the trust class (verbatim / inferred / untagged),
which says how an item was captured.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType

from gitmem.core.errors import InputError
from gitmem.core.items import Trust


class Status(StrEnum):
    """The seven epistemic classes."""

    REPORTED = "REPORTED"
    INFERRED = "INFERRED"
    VERIFIED = "VERIFIED"
    STALE = "STALE"
    QUARANTINED = "QUARANTINED"
    SUPERSEDED = "SUPERSEDED"
    REJECTED = "REJECTED"


REPORTED, INFERRED, VERIFIED, STALE, QUARANTINED, SUPERSEDED, REJECTED = Status
STATUSES = tuple(Status)

TRANSITIONS: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        REPORTED: frozenset({INFERRED, STALE, QUARANTINED, SUPERSEDED, REJECTED}),
        INFERRED: frozenset({VERIFIED, STALE, QUARANTINED, SUPERSEDED, REJECTED}),
        VERIFIED: frozenset({STALE, QUARANTINED, SUPERSEDED, REJECTED}),
        STALE: frozenset({INFERRED, QUARANTINED, SUPERSEDED, REJECTED}),
        QUARANTINED: frozenset({INFERRED, SUPERSEDED, REJECTED}),
        SUPERSEDED: frozenset({INFERRED}),
        REJECTED: frozenset({INFERRED}),
    }
)
"""Every allowed edge, ``from → {to, …}``. Self-edges are not transitions."""

EVIDENCE_GATED: frozenset[tuple[str, str]] = frozenset(
    {
        (REPORTED, INFERRED),
        (STALE, INFERRED),
        (QUARANTINED, INFERRED),
        (SUPERSEDED, INFERRED),
        (REJECTED, INFERRED),
    }
)
"""Edges that exist only when new evidence comes with them (``gitmem reverify``)."""

PROMOTION_EDGE = (INFERRED, VERIFIED)
"""The only edge into VERIFIED; take it only after an allowed promotion."""


class TransitionError(InputError):
    """A status change that is not an edge of the state machine (exit code 2)."""


def initial_status(trust: str) -> str:
    """The status an item starts in, from its trust class.

    A verbatim item starts ``REPORTED`` (someone said exactly this; the claim itself is
    unchecked); an inferred, untagged or unknown one starts ``INFERRED``. Never raises.
    """
    return REPORTED if trust == Trust.VERBATIM else INFERRED


def normalize_status(value: object) -> str:
    """*value* if it is exactly one of :data:`STATUSES`, else ``QUARANTINED``.

    An unknown, misspelt, lower-case or non-string class is never read as a default
    class: it quarantines. Never raises.
    """
    if isinstance(value, str) and value in STATUSES:
        return value
    return QUARANTINED


def check_transition(current: str, target: str, new_evidence: bool = False) -> None:
    """Check that ``current → target`` is an edge of the state machine.

    *new_evidence* says that new evidence comes with the change; the edges in
    :data:`EVIDENCE_GATED` need it. This only checks the table: the promotion edge
    ``INFERRED → VERIFIED`` additionally needs an allowed
    :func:`~gitmem.lifecycle.governance.can_promote_to_verified`.

    Raises:
        TransitionError: either class is unknown, the two are the same, the edge does
            not exist, or it needs new evidence that was not given. The message names
            the edge.
    """
    edge = f"{current} → {target}"
    for name in (current, target):
        if name not in STATUSES:
            raise TransitionError(f"{edge}: {name!r} is not a status class ({', '.join(STATUSES)})")
    if current == target:
        raise TransitionError(f"{edge}: the item is already {current}")
    if target not in TRANSITIONS[current]:
        raise TransitionError(f"{edge} is not an allowed transition")
    if (current, target) in EVIDENCE_GATED and not new_evidence:
        raise TransitionError(f"{edge} is allowed only with new evidence")
