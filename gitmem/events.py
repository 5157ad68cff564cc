"""Write event records: signed, content-addressed, append-only like checkpoints.

The lifecycle layer decides what each event means; this module only turns one into
canonical bytes, signs it and appends it.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from gitmem import canonical
from gitmem.integrity import NAMESPACE
from gitmem.keys import Identity
from gitmem.model import Event, format_time
from gitmem.receipts import sign
from gitmem.store import Entry, Store, content_path
from gitmem.types import Sha256Hex

REWRITE = "commits-rewritten"
"""``extra``: ``{"rewrites": [[old, new], …], "how": "amend"|"rebase"}``."""


def write_event(
    store: Store,
    identity: Identity,
    name: str,
    item: str | None,
    session: str,
    now: datetime,
    extra: Mapping[str, Any] | None = None,
) -> Sha256Hex:
    """Sign and append one event; returns its address.

    Raises:
        InputError: *extra* cannot be stored as canonical JSON.
        GitError, NegativeResult: the store could not be written.
    """
    event = Event(
        event=name,
        item=item,
        session=session,
        writer=identity.principal,
        key=identity.signer.public_key.fingerprint(),
        created=format_time(now),
        commit=store.head_commit(),
        extra=dict(extra or {}),
    )
    data = event.canonical_bytes()
    address = canonical.sha256_hex(data)
    store.append(
        [
            Entry(content_path("events", address), data),
            Entry(content_path("receipts", address), sign(data, identity.signer, NAMESPACE)),
        ],
        message=f"gitmem: event {name} {address[:12]}",
        author=identity.principal,
    )
    return address
