"""Records as values, for the pure lifecycle modules: no git, no keys, no disk."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from gitmem.core.canonical import sha256_hex
from gitmem.core.items import Item
from gitmem.core.receipts import Ed25519Signer
from gitmem.core.records import Checkpoint, Event, Source, format_time
from gitmem.core.types import Sha256Hex
from gitmem.lifecycle.replay import Replayable

T0 = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
KEY = "SHA256:test"
ALICE = Ed25519Signer(bytes(range(32)))
"""A fixed signing key, so signed bytes are the same in every run."""


def at(days: float = 0, minutes: float = 0) -> str:
    return format_time(T0 + timedelta(days=days, minutes=minutes))


def snapshot(name: str) -> Sha256Hex:
    return sha256_hex(name.encode())


def item(
    text: str,
    *,
    session: str = "s1",
    kind: str = "decision",
    quote: str | None = None,
    **extra: Any,
) -> Item:
    return Item(
        kind=kind,  # type: ignore[arg-type]
        text=text,
        trust="verbatim" if quote else "inferred",  # type: ignore[arg-type]
        origin_session=session,
        snapshot=snapshot(session),
        quote=quote,
        quote_verified=quote is not None,
        extra=extra,
    )


def checkpoint(
    *items: Item,
    carry: tuple[Item, ...] = (),
    session: str = "s1",
    created: str | None = None,
    source: str | None = None,
) -> Replayable:
    """A checkpoint adding *items* and carrying *carry* (by reference), with its items."""
    record = Checkpoint(
        session=session,
        writer="alice@example.com",
        key=KEY,
        created=created or at(),
        commit=None,
        source=Source(snapshot(source or session), "text", f"{session}.md", 10),
        items=tuple(i.address for i in items),
        carried=tuple(i.address for i in carry),
    )
    added = {i.address: i for i in (*items, *carry)}
    return Replayable(sha256_hex(record.canonical_bytes()), record, added)


def event(
    name: str, about: str | None, *, session: str = "s9", created: str | None = None, **extra: Any
) -> Replayable:
    record = Event(
        event=name,
        item=about,
        session=session,
        writer="alice@example.com",
        key=KEY,
        created=created or at(),
        commit=None,
        extra=extra,
    )
    return Replayable(sha256_hex(record.canonical_bytes()), record)
