"""The memory-item predicate: one item of memory as an in-toto Statement.

Subjects: the item's blob (``sha256`` of its stored bytes, its address, and ``gitBlob``)
and, when the capture recorded one, the repository commit its checkpoint was captured at
(``gitCommit``). The predicate (:data:`MEMORY_ITEM`, documented field by field in
``docs/export.md``, schema ``docs/schemas/memory-item-v1.json``) says what a reader's
brief says of the item — trust class as shown, why it is degraded, the quote with the
snapshot and byte ranges it stands at, status and lifecycle, world-check — and carries
the exact bytes that make it checkable without gitmem: the item blob, its checkpoint
with the SSHSIG receipt over it, the lifecycle events with theirs, and the transcript
snapshots (records and snapshots once per export file, receipts in every statement).

Pure: values in, JSON-ready statements out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from gitmem.core.intoto.statement import JSON_MEDIA, descriptor, statement
from gitmem.core.quotes import SPAN_JOIN

MEMORY_ITEM = "https://gitmem.dev/attestation/memory-item/v1"
"""The predicate type of one exported item (major version in the URI, as in-toto asks)."""

COMMIT_SUBJECT = "commit"
"""The name of the subject that is the repository commit a capture was taken at."""


class Stored(NamedTuple):
    """Stored bytes as they travel: where they are kept, their SHA-256, and the bytes
    themselves (None: only pointed at, because they travel elsewhere in the file)."""

    name: str
    digest: str
    data: bytes | None
    media: str = JSON_MEDIA

    def to_json(self, git_blob: bool = False) -> dict[str, Any]:
        """Its ResourceDescriptor. Raises nothing."""
        return descriptor(
            self.name, self.data, digest=self.digest, media=self.media, git_blob=git_blob
        )


class Signed(NamedTuple):
    """A record and its receipt (None: none is stored)."""

    record: Stored
    receipt: Stored | None

    def to_json(self) -> dict[str, Any]:
        return {
            "record": self.record.to_json(git_blob=True),
            "receipt": None if self.receipt is None else self.receipt.to_json(),
        }


class LifeEvent(NamedTuple):
    """A lifecycle event that touched the item."""

    event: str
    created: str
    writer: str
    signed: Signed

    def to_json(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "created": self.created,
            "writer": self.writer,
            **self.signed.to_json(),
        }


class QuoteAt(NamedTuple):
    """A quote, and where its snapshot says it: the message, and the UTF-8 byte ranges
    of that message's text (for a plain-text snapshot, of the snapshot itself)."""

    text: str
    snapshot: str
    message: int | None
    ranges: tuple[tuple[int, int], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "snapshot": self.snapshot,
            "message": self.message,
            "ranges": [list(r) for r in self.ranges],
        }


class Standing(NamedTuple):
    """Where the item stands now, as the reader's replay says."""

    state: str | None
    """open, resolved, superseded, stale or forgotten; None for an item of a record that
    failed its check (nothing about it is replayed)."""
    status: str
    carried: bool
    corroboration: int
    contradiction: str | None


class MemoryItem(NamedTuple):
    """One item as a reader's brief shows it, with the bytes behind it."""

    item: Stored
    kind: str
    text: str | None
    """None for a forgotten item (its text is never shown; its bytes still travel)."""
    trust: str
    """The trust class the reader's brief shows."""
    captured_trust: str
    degraded: tuple[str, str] | None
    """(label, reason) when the brief degrades it."""
    quote: QuoteAt | None
    session: str
    writer: str
    key: str
    created: str
    transcript_time: str
    last_seen: str
    commit: str | None
    checkpoint: Signed
    standing: Standing
    events: tuple[LifeEvent, ...]
    snapshots: tuple[Stored, ...]
    world: tuple[str | None, str | None]
    """(status, summary) of world-check at export; (None, None) when nothing was checked."""


class Exporter(NamedTuple):
    principal: str
    key: str
    at: str
    """When, in the records' timestamp form."""


def memory_item_statement(item: MemoryItem, exporter: Exporter) -> dict[str, Any]:
    """The Statement v1 of *item*, exported by *exporter*. Raises nothing."""
    label, reason = item.degraded or (None, None)
    predicate = {
        "item": item.item.to_json(git_blob=True),
        "kind": item.kind,
        "text": item.text,
        "trust": item.trust,
        "capturedTrust": item.captured_trust,
        "degraded": None if label is None else {"label": label, "reason": reason},
        "quote": None if item.quote is None else item.quote.to_json(),
        "session": item.session,
        "writer": item.writer,
        "key": item.key,
        "times": {
            "created": item.created,
            "transcriptTime": item.transcript_time,
            "lastSeen": item.last_seen,
        },
        "checkpoint": item.checkpoint.to_json(),
        "lifecycle": {
            **item.standing._asdict(),
            "events": [e.to_json() for e in item.events],
        },
        "snapshots": [s.to_json() for s in item.snapshots],
        "worldCheck": {"status": item.world[0], "summary": item.world[1]},
        "exporter": {"principal": exporter.principal, "key": exporter.key},
        "exportedAt": exporter.at,
    }
    return statement(subjects_of(item), MEMORY_ITEM, predicate)


def subjects_of(item: MemoryItem) -> list[dict[str, Any]]:
    """The subjects of *item*'s statements: its blob (``sha256`` and ``gitBlob``) and the
    commit its checkpoint was captured at (``gitCommit``), when recorded. Raises nothing."""
    blob = item.item.to_json(git_blob=True)
    found = [{"name": blob["name"], "digest": blob["digest"]}]
    if item.commit is not None:
        found.append({"name": COMMIT_SUBJECT, "digest": {"gitCommit": item.commit}})
    return found


def quote_location(
    quote: str, messages: Sequence[str]
) -> tuple[int, tuple[tuple[int, int], ...]] | None:
    """Where *quote* stands in a snapshot's *messages*: the first message holding its
    bytes, and their UTF-8 byte ranges in that message's text — one range when it
    appears whole, else one per fragment of a span joined by " … " (in order, without
    overlap). None when the bytes are not there as they are (a quote matched only
    after folding). Raises nothing."""
    pieces = [quote]
    fragments = quote.split(SPAN_JOIN)
    for candidate in ([quote], fragments) if len(fragments) > 1 else (pieces,):
        for index, text in enumerate(messages):
            ranges = _placed(candidate, text)
            if ranges is not None:
                return index, ranges
    return None


def _placed(pieces: Sequence[str], text: str) -> tuple[tuple[int, int], ...] | None:
    ranges: list[tuple[int, int]] = []
    at = 0
    for piece in pieces:
        if not piece:
            return None
        found = text.find(piece, at)
        if found < 0:
            return None
        start = len(text[:found].encode("utf-8"))
        ranges.append((start, start + len(piece.encode("utf-8"))))
        at = found + len(piece)
    return tuple(ranges)
