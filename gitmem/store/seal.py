"""Write event records: signed, content-addressed, append-only like checkpoints.

The lifecycle layer decides what each event means; this module only turns one into
canonical bytes, signs it and appends it.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from gitmem.core import canonical
from gitmem.core.receipts import sign
from gitmem.core.records import NAMESPACE, Event, format_time
from gitmem.core.types import Sha256Hex
from gitmem.store.keys import Identity
from gitmem.store.repo import Entry, Store, content_path


def event_entries(
    identity: Identity,
    name: str,
    item: str | None,
    session: str,
    now: datetime,
    commit: str | None,
    extra: Mapping[str, Any] | None = None,
) -> tuple[Sha256Hex, Event, list[Entry]]:
    """The signed event's address, the event, and the store entries (record + receipt)
    to append.

    Raises:
        InputError: *extra* cannot be stored as canonical JSON.
    """
    event = Event(
        event=name,
        item=item,
        session=session,
        writer=identity.principal,
        key=identity.signer.public_key.fingerprint(),
        created=format_time(now),
        commit=commit,
        extra=dict(extra or {}),
    )
    data = event.canonical_bytes()
    address = canonical.sha256_hex(data)
    return (
        address,
        event,
        [
            Entry(content_path("events", address), data),
            Entry(content_path("receipts", address), sign(data, identity.signer, NAMESPACE)),
        ],
    )


def write_event(
    store: Store,
    identity: Identity,
    name: str,
    item: str | None,
    session: str,
    now: datetime,
    extra: Mapping[str, Any] | None = None,
    snapshot: bytes | None = None,
) -> Sha256Hex:
    """Sign and append one event (and the snapshot its evidence names); returns its
    address.

    Raises:
        InputError: *extra* cannot be stored as canonical JSON.
        GitError, NegativeResult: the store could not be written.
    """
    address, _, entries = event_entries(
        identity, name, item, session, now, store.head_commit(), extra
    )
    if snapshot is not None:
        entries.insert(
            0, Entry(content_path("snapshots", canonical.sha256_hex(snapshot)), snapshot)
        )
    store.append(entries, message=f"gitmem: event {name} {address[:12]}", author=identity.principal)
    return address
