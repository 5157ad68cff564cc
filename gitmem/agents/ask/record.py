"""Every ask outcome, withheld ones included, as one signed event.

The event (``ask``, ``item`` null) holds the question, the outcome and its reason,
the mode and model label, the released answer (or null), the citations, every gate,
the SHA-256 of each model reply's raw bytes (the bytes themselves stay in
``.git/gitmem/raw/``), the excerpts shown (path, snapshot id, lines) and, when the
answer was withheld, what the solver proposed: so a team can audit why an answer was
or was not given, plus the ``reuse_key`` that lets an identical ask reuse it
(:mod:`~gitmem.agents.ask.reuse`). Every string is secret-masked before it is signed.

With ``--no-record`` the same fields are kept as one local record instead
(``.git/gitmem/ask/<sha256>.json``, with its ``created`` time): not signed, not in the
shared memory, never pushed.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from gitmem.agents.ask import EVENT_ASK
from gitmem.agents.ask.result import AskResult, RecordInfo
from gitmem.agents.ask.reuse import LOCAL, SIGNED, write_local
from gitmem.capture.masking import mask
from gitmem.core.errors import NegativeResult
from gitmem.core.records import format_time
from gitmem.store.keys import Identity
from gitmem.store.repo import Store
from gitmem.store.seal import write_event


def event_extra(result: AskResult, reuse_key: str | None = None) -> dict[str, Any]:
    """The event's fields, secrets masked. Pure."""
    data = result.to_json()
    for key in ("format", "event", "record"):
        data.pop(key)
    data["withheld"] = result.withheld
    if reuse_key is not None:
        data["reuse_key"] = reuse_key
    masked = _masked(data)
    assert isinstance(masked, dict)
    return masked


def record_ask(
    store: Store,
    identity: Identity,
    result: AskResult,
    session: str,
    reuse_key: str | None = None,
    now: datetime | None = None,
) -> RecordInfo:
    """Sign and append the event of *result*; returns where it is.

    Raises:
        GitError, NegativeResult: the store could not be written.
    """
    when = now or datetime.now(UTC)
    sealed = write_event(
        store, identity, EVENT_ASK, None, session, when, event_extra(result, reuse_key)
    )
    return RecordInfo(SIGNED, sealed.address, sealed.record.created)


def keep_local(
    store: Store, result: AskResult, reuse_key: str, now: datetime | None = None
) -> RecordInfo:
    """Keep the record of *result* locally only (``--no-record``); returns where it is.

    Raises:
        NegativeResult: the local record could not be written.
    """
    created = format_time(now or datetime.now(UTC))
    data = {**event_extra(result, reuse_key), "event": EVENT_ASK, "created": created}
    try:
        address = write_local(store.local_dir, data)
    except OSError as e:
        raise NegativeResult(f"cannot keep the local ask record: {e.strerror or e}") from e
    return RecordInfo(LOCAL, address, created)


def _masked(value: Any) -> Any:
    if isinstance(value, str):
        return mask(value).text
    if isinstance(value, list | tuple):
        return [_masked(v) for v in value]
    if isinstance(value, dict):
        return {k: _masked(v) for k, v in value.items()}
    return value
