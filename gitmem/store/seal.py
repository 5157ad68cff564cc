"""Seal records: sign them, address them, and make the entries that store them.

Every signed record gitmem writes — a checkpoint, a lifecycle event, a release
approval or pin — is sealed the same way, by :func:`seal`:

1. its canonical bytes are the record (never a re-serialised copy);
2. its address is the SHA-256 of those bytes;
3. its receipt is an SSHSIG over exactly those bytes, in the namespace of its ref
   (``gitmem`` for memory, ``gitmem-release`` for releases);
4. it is stored at ``checkpoints/<h>.json`` or ``events/<h>.json``, its receipt at
   ``receipts/<h>.sig``.

Who signs is the caller's: gitmem's own key (:meth:`gitmem.store.keys.Identity.sign`)
or a maintainer's held key (ssh-agent, ``ssh-keygen``). The lifecycle layer decides what
each event means; this module only seals one, and appends it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from gitmem.core import canonical
from gitmem.core.records import NAMESPACE, REPOSITORY, Event, Record, format_time
from gitmem.core.types import Sha256Hex
from gitmem.store.keys import Identity
from gitmem.store.layout import content_path, record_path
from gitmem.store.repo import Entry, Store

Sign = Callable[[bytes, str], bytes]
"""Makes the armored SSHSIG of a message in a namespace (and raises SigningKeyError when it
cannot)."""


@dataclass(frozen=True)
class Sealed:
    """A record signed and addressed: what an append stores for it."""

    address: Sha256Hex
    record: Record
    data: bytes
    """The record's canonical bytes, exactly as signed and stored."""
    receipt: bytes

    @property
    def path(self) -> str:
        """Where the record is stored."""
        return record_path(self.record.type, self.address)

    @property
    def entries(self) -> list[Entry]:
        """The store entries: the record at its content path, then its receipt."""
        return [
            Entry(self.path, self.data),
            Entry(content_path("receipts", self.address), self.receipt),
        ]


def seal(record: Record, sign: Sign, namespace: str) -> Sealed:
    """Sign *record*'s canonical bytes in *namespace* and address them.

    Raises:
        InputError: the record cannot be stored as canonical JSON.
        SigningKeyError: *sign* could not sign.
    """
    data = record.canonical_bytes()
    return Sealed(canonical.sha256_hex(data), record, data, sign(data, namespace))


def new_event(
    identity: Identity,
    name: str,
    item: str | None,
    session: str,
    now: datetime,
    commit: str | None,
    extra: Mapping[str, Any] | None = None,
) -> Event:
    """An event written by *identity* now (unsealed), naming the repository it is
    written for. Raises nothing."""
    bound = {} if identity.repository is None else {REPOSITORY: identity.repository}
    return Event(
        event=name,
        item=item,
        session=session,
        writer=identity.principal,
        key=identity.signer.public_key.fingerprint(),
        created=format_time(now),
        commit=commit,
        extra={**bound, **(extra or {})},
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
) -> Sealed:
    """Seal and append one event (and the snapshot its evidence names); returns it sealed
    (its address, the event, its bytes).

    Raises:
        InputError: *extra* cannot be stored as canonical JSON.
        GitError, NegativeResult: the store could not be written.
    """
    event = new_event(identity, name, item, session, now, store.head_commit(), extra)
    sealed = seal(event, identity.sign, NAMESPACE)
    entries = sealed.entries
    if snapshot is not None:
        entries.insert(
            0, Entry(content_path("snapshots", canonical.sha256_hex(snapshot)), snapshot)
        )
    store.append(
        entries, message=f"gitmem: event {name} {sealed.address[:12]}", author=identity.principal
    )
    return sealed
