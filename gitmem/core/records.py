"""Records and their canonical bytes: checkpoints, items and events.

A record is immutable once written. Every dataclass here round-trips through
``to_dict`` / ``from_dict`` and keeps the fields it does not know in ``extra``,
so an older reader can still load (and verify) what a newer writer stored.
Hashing and signing always use the stored bytes (see :mod:`gitmem.core.canonical`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Literal

from gitmem.core import canonical
from gitmem.core.errors import FormatError
from gitmem.core.types import Sha256Hex, is_sha256_hex

CHECKPOINT_SCHEMA = "gitmem/checkpoint/1"
EVENT_SCHEMA = "gitmem/event/1"

# Event names (storage format v1): what the lifecycle replays.
EVENT_RESOLVE = "resolve"
"""A verdict that the item is done. ``note``; ``evidence`` {quote, snapshot} when an agent
resolved it with a quote that verified."""
EVENT_REOPEN = "reopen"
"""Evidence-gated reopen (``gitmem reverify``): ``evidence`` {quote, snapshot}; with
``trust``/``quote`` when the evidence raised the trust class to verbatim."""
EVENT_SUPERSEDE = "supersede"
"""``by``: the id of the item that replaces this one."""
EVENT_LIKELY_SUPERSEDED = "likely-superseded"
"""``by``: the id of a later item that probably replaces this one (not yet confirmed)."""
EVENT_STATE_CHANGED = "state-changed"
"""``note``: what changed in the world since the item was captured."""
EVENT_FORGET = "forget"
"""A tombstone: the item's text is never rendered again."""
EVENT_CORROBORATION = "corroboration"
"""A later session's own verified verbatim restatement: ``snapshot``, ``quote``,
``checkpoint`` (the witness's); the event's ``session`` is the witness session."""
EVENT_STATUS = "status"
"""An epistemic status transition: ``from``, ``to``, ``reason`` (and ``roots`` for a
promotion)."""

NAMESPACE = "gitmem"
"""The SSHSIG namespace of every memory record's receipt."""

REWRITE = "commits-rewritten"
"""``extra``: ``{"rewrites": [[old, new], …], "how": "amend"|"rebase"}``."""


class Kind(StrEnum):
    """What an item is."""

    DECISION = "decision"
    OPEN_LOOP = "open_loop"
    BELIEF = "belief"
    UNCERTAINTY = "uncertainty"
    FACT = "fact"


class Trust(StrEnum):
    """How an item came to exist (the badge): an exact quote checked mechanically, a
    conclusion, or nothing recorded."""

    VERBATIM = "verbatim"
    INFERRED = "inferred"
    UNTAGGED = "untagged"


_BADGES: dict[str, str] = {
    Trust.VERBATIM: "[✓ verbatim]",
    Trust.INFERRED: "[~ inferred]",
    Trust.UNTAGGED: "[? untagged]",
}


def badge_of(trust: str) -> str:
    """The badge a trust class renders as; anything unknown reads as untagged (never
    promoted). Raises nothing."""
    return _BADGES.get(trust, _BADGES[Trust.UNTAGGED])


KINDS = tuple(Kind)
TRUST_CLASSES = tuple(Trust)
RecordType = Literal["checkpoint", "event"]

_TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
_TIME_RE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z")


def format_time(when: datetime) -> str:
    """The timestamp form records are written with: UTC, microseconds, ``Z`` suffix.

    Fixed width, so two written timestamps compare as strings in time order; events
    written one after another by one process never tie."""
    return when.astimezone(UTC).strftime(_TIME_FORMAT)


def sortable_time(text: str) -> str:
    """*text* (any accepted form) rewritten in :func:`format_time`'s fixed-width form.

    Raises:
        FormatError: not a record timestamp.
    """
    return format_time(parse_time(text))


def parse_time(text: str) -> datetime:
    """Parse a record timestamp.

    Raises:
        FormatError: *text* is not of the ``YYYY-MM-DDTHH:MM:SS[.ffffff]Z`` form.
    """
    if not isinstance(text, str) or not _TIME_RE.fullmatch(text):
        raise FormatError(f"timestamp {text!r} is not of the form YYYY-MM-DDTHH:MM:SS[.ffffff]Z")
    try:
        return datetime.fromisoformat(text)
    except ValueError as e:
        raise FormatError(f"timestamp {text!r} is not a valid time") from e


def item_id(origin_session: str, kind: str, text: str) -> str:
    """The stable id of an item: same origin session, kind and text, same id.

    Sixteen hex characters of a domain-separated SHA-256; carry keeps it unchanged.
    """
    material = "\0".join(("gitmem/item/1", origin_session, kind, text)).encode("utf-8")
    return hashlib.sha256(material).hexdigest()[:16]


@dataclass(frozen=True)
class Draft:
    """A proposed item before its quote is checked: from an items file, an extractor or
    a model."""

    kind: Kind
    text: str
    trust: Trust
    quote: str | None
    extra: dict[str, Any]
    message: int | None = None
    """The index of the one message its quote must lie in (a chat import knows which
    message each item came from); None: any one message of the transcript."""


@dataclass(frozen=True)
class Item:
    """One line of memory."""

    id: str
    kind: Kind
    text: str
    trust: Trust
    origin_session: str
    quote: str | None = None
    quote_verified: bool = False
    quote_reason: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    _KNOWN = frozenset(
        ("id", "kind", "text", "trust", "origin_session", "quote", "quote_verified", "quote_reason")
    )

    def to_dict(self) -> dict[str, Any]:
        """The JSON object stored for this item, unknown fields included."""
        data: dict[str, Any] = dict(self.extra)
        data.update(
            id=self.id,
            kind=self.kind,
            text=self.text,
            trust=self.trust,
            origin_session=self.origin_session,
            quote=self.quote,
            quote_verified=self.quote_verified,
            quote_reason=self.quote_reason,
        )
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Item:
        """Load a stored item.

        Raises:
            FormatError: a known field is missing or has the wrong type.
        """
        # Written for speed as well as strictness: a brief parses every item ever stored.
        ident, kind, text, origin = (
            data.get("id"),
            data.get("kind"),
            data.get("text"),
            data.get("origin_session"),
        )
        if not (isinstance(ident, str) and isinstance(text, str) and isinstance(origin, str)):
            missing = next(
                k
                for k, v in (("id", ident), ("text", text), ("origin_session", origin))
                if not isinstance(v, str)
            )
            raise FormatError(f"field {missing!r} must be a string")
        if kind not in KINDS:
            raise FormatError(f"item kind {kind!r} is not one of {', '.join(KINDS)}")
        raw_trust = data.get("trust")
        # An unknown class is never silently promoted: it reads as untagged.
        trust = Trust(raw_trust) if raw_trust in TRUST_CLASSES else Trust.UNTAGGED
        quote = data.get("quote")
        if quote is not None and not isinstance(quote, str):
            raise FormatError("item quote must be a string or null")
        reason = data.get("quote_reason")
        if reason is not None and not isinstance(reason, str):
            raise FormatError("item quote_reason must be a string or null")
        known = cls._KNOWN
        return cls(
            ident,
            Kind(kind),
            text,
            trust,
            origin,
            quote,
            data.get("quote_verified") is True,
            reason,
            {k: v for k, v in data.items() if k not in known},
        )


@dataclass(frozen=True)
class Source:
    """Where a checkpoint's items came from: the stored snapshot of a transcript."""

    snapshot: Sha256Hex
    format: str
    name: str
    size: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "snapshot": self.snapshot,
            "format": self.format,
            "name": self.name,
            "bytes": self.size,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Source:
        """Raises FormatError on a malformed source."""
        snapshot = _str(data, "snapshot")
        if not is_sha256_hex(snapshot):
            raise FormatError("source snapshot must be a hex SHA-256")
        size = data.get("bytes")
        if not isinstance(size, int) or isinstance(size, bool):
            raise FormatError("source bytes must be an integer")
        return cls(Sha256Hex(snapshot), _str(data, "format"), _str(data, "name"), size)


@dataclass(frozen=True)
class Checkpoint:
    """The record one capture writes."""

    session: str
    writer: str
    key: str
    created: str
    commit: str | None
    source: Source | None
    items: tuple[Item, ...]
    extra: Mapping[str, Any] = field(default_factory=dict)

    type: RecordType = "checkpoint"
    _KNOWN = ("type", "schema", "session", "writer", "key", "created", "commit", "source", "items")

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = dict(self.extra)
        data.update(
            type="checkpoint",
            schema=CHECKPOINT_SCHEMA,
            session=self.session,
            writer=self.writer,
            key=self.key,
            created=self.created,
            commit=self.commit,
            source=None if self.source is None else self.source.to_dict(),
            items=[item.to_dict() for item in self.items],
        )
        return data

    def canonical_bytes(self) -> bytes:
        """The bytes that are stored, hashed and signed."""
        return canonical.encode(self.to_dict())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Checkpoint:
        """Raises FormatError on a malformed checkpoint."""
        _expect_schema(data, "checkpoint", CHECKPOINT_SCHEMA)
        raw_items = data.get("items")
        if not isinstance(raw_items, list) or not all(isinstance(i, dict) for i in raw_items):
            raise FormatError("checkpoint items must be a list of objects")
        raw_source = data.get("source")
        if raw_source is not None and not isinstance(raw_source, dict):
            raise FormatError("checkpoint source must be an object or null")
        commit = data.get("commit")
        if commit is not None and not isinstance(commit, str):
            raise FormatError("checkpoint commit must be a string or null")
        created = _str(data, "created")
        parse_time(created)
        return cls(
            session=_str(data, "session"),
            writer=_str(data, "writer"),
            key=_str(data, "key"),
            created=created,
            commit=commit,
            source=None if raw_source is None else Source.from_dict(raw_source),
            items=tuple(Item.from_dict(i) for i in raw_items),
            extra={k: v for k, v in data.items() if k not in cls._KNOWN},
        )


@dataclass(frozen=True)
class Event:
    """A lifecycle record about an item (resolve, reopen, supersede, forget, …).

    The store holds events from format v1 on; what each event means is decided by
    the lifecycle layer, which replays them at read time.
    """

    event: str
    item: str | None
    session: str
    writer: str
    key: str
    created: str
    commit: str | None
    extra: Mapping[str, Any] = field(default_factory=dict)

    type: RecordType = "event"
    _KNOWN = ("type", "schema", "event", "item", "session", "writer", "key", "created", "commit")

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = dict(self.extra)
        data.update(
            type="event",
            schema=EVENT_SCHEMA,
            event=self.event,
            item=self.item,
            session=self.session,
            writer=self.writer,
            key=self.key,
            created=self.created,
            commit=self.commit,
        )
        return data

    def canonical_bytes(self) -> bytes:
        return canonical.encode(self.to_dict())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        """Raises FormatError on a malformed event."""
        _expect_schema(data, "event", EVENT_SCHEMA)
        item = data.get("item")
        if item is not None and not isinstance(item, str):
            raise FormatError("event item must be a string or null")
        commit = data.get("commit")
        if commit is not None and not isinstance(commit, str):
            raise FormatError("event commit must be a string or null")
        created = _str(data, "created")
        parse_time(created)
        return cls(
            event=_str(data, "event"),
            item=item,
            session=_str(data, "session"),
            writer=_str(data, "writer"),
            key=_str(data, "key"),
            created=created,
            commit=commit,
            extra={k: v for k, v in data.items() if k not in cls._KNOWN},
        )


Record = Checkpoint | Event


def parse_record(data: bytes) -> Record:
    """Decode stored record bytes into a checkpoint or an event.

    Raises:
        FormatError: the bytes are not canonical JSON, or not a well-formed record.
    """
    value = canonical.decode(data)
    if not isinstance(value, dict):
        raise FormatError("record is not a JSON object")
    kind = value.get("type")
    if kind == "checkpoint":
        return Checkpoint.from_dict(value)
    if kind == "event":
        return Event.from_dict(value)
    raise FormatError(f"record type {kind!r} is neither checkpoint nor event")


def _expect_schema(data: Mapping[str, Any], kind: str, schema: str) -> None:
    if data.get("type") != kind:
        raise FormatError(f"record type is {data.get('type')!r}, expected {kind!r}")
    if data.get("schema") != schema:
        raise FormatError(f"record schema {data.get('schema')!r} is not {schema!r}")


def _str(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise FormatError(f"field {key!r} must be a string")
    return value
