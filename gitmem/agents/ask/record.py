"""Every ask outcome, withheld ones included, as one signed event.

The event (``ask``, ``item`` null) holds the question, the outcome and its reason,
the mode and model label, the released answer (or null), the citations, every gate,
the SHA-256 of each model reply's raw bytes (the bytes themselves stay in
``.git/gitmem/raw/``), the excerpts shown (path, snapshot id, lines) and, when the
answer was withheld, what the solver proposed: so a team can audit why an answer was
or was not given. Every string is secret-masked before it is signed.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from gitmem.agents.ask import EVENT_ASK
from gitmem.agents.ask.result import AskResult
from gitmem.capture.masking import mask
from gitmem.core.types import Sha256Hex
from gitmem.store.keys import Identity
from gitmem.store.repo import Store
from gitmem.store.seal import write_event


def event_extra(result: AskResult) -> dict[str, Any]:
    """The event's fields, secrets masked. Pure."""
    data = result.to_json()
    for key in ("format", "event"):
        data.pop(key)
    data["withheld"] = result.withheld
    masked = _masked(data)
    assert isinstance(masked, dict)
    return masked


def record_ask(store: Store, identity: Identity, result: AskResult, session: str) -> Sha256Hex:
    """Sign and append the event of *result*; returns its address.

    Raises:
        GitError, NegativeResult: the store could not be written.
    """
    return write_event(
        store, identity, EVENT_ASK, None, session, datetime.now(UTC), event_extra(result)
    ).address


def _masked(value: Any) -> Any:
    if isinstance(value, str):
        return mask(value).text
    if isinstance(value, list | tuple):
        return [_masked(v) for v in value]
    if isinstance(value, dict):
        return {k: _masked(v) for k, v in value.items()}
    return value
