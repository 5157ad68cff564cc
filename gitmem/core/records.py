"""Records and their canonical bytes: checkpoints, items and events.

A record is immutable once written. Every dataclass here round-trips through
``to_dict`` / ``from_dict`` and keeps the fields it does not know in ``extra``,
so an older reader can still load (and verify) what a newer writer stored.
Hashing and signing always use the stored bytes (see :mod:`gitmem.core.canonical`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, Literal, TypeVar, cast

from gitmem.core import canonical
from gitmem.core.errors import FormatError
from gitmem.core.types import Sha256Hex, are_sha256_hex, is_sha256_hex

CHECKPOINT_SCHEMA = "gitmem/checkpoint/2"
EVENT_SCHEMA = "gitmem/event/2"
V1_SCHEMAS = frozenset({"gitmem/checkpoint/1", "gitmem/event/1"})
"""Storage format v1 (items copied into checkpoints) was never released; it is refused."""

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
"""A later session's own verified verbatim statement of an item's claim: ``snapshot``,
``quote``, ``checkpoint`` (the corroborating session's); the event's ``session`` is the
corroborating session."""
EVENT_STATUS = "status"
"""An epistemic status transition: ``from``, ``to``, ``reason`` (and ``roots`` for a
promotion)."""
EVENT_PURGE = "purge"
"""The one deliberate rewrite (``item`` null): ``items`` removed, ``snapshots`` replaced
``{old: new}``, ``records`` removed, ``how``, ``text`` (a salted digest, never the text),
``before`` (the pre-purge tip); see :mod:`gitmem.core.purge`."""

NAMESPACE = "gitmem"
"""The SSHSIG namespace of every memory record's receipt."""

REWRITE = "commits-rewritten"
"""``extra``: ``{"rewrites": [[old, new], …], "how": "amend"|"rebase"}``."""


RecordType = Literal["checkpoint", "event"]

_TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
_TIME_RE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z")


TRANSCRIPT_TIME = "transcript_time"
"""A checkpoint's optional field: when its session said what it holds (docs/storage.md)."""
BRANCH = "branch"
"""A checkpoint's optional field: the branch checked out where it was captured."""
REPOSITORY = "repository"
"""A checkpoint's and an event's optional field: the repository it was written for, as
its first commit names it (a root commit id of the trust branch; docs/storage.md). A
record written before records named it has none."""


def format_time(when: datetime) -> str:
    """The timestamp form records are written with: UTC, microseconds, ``Z`` suffix.

    Fixed width, so two written timestamps compare as strings in time order; events
    written one after another by one process never tie."""
    return when.astimezone(UTC).strftime(_TIME_FORMAT)


@lru_cache(maxsize=8192)  # replay asks again and again for the same records' times
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


@dataclass(frozen=True)
class Source:
    """Where a checkpoint's items came from: the stored snapshot of a transcript."""

    snapshot: Sha256Hex
    format: str
    name: str
    size: int
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.extra,
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
        extra = {k: v for k, v in data.items() if k not in _SOURCE_KEYS}
        return cls(Sha256Hex(snapshot), _str(data, "format"), _str(data, "name"), size, extra)


_SOURCE_KEYS = frozenset(("snapshot", "format", "name", "bytes"))


@dataclass(frozen=True)
class Checkpoint:
    """The record one capture writes. It names items by address: the ones it adds, and
    the open ones it carries (a reference, never a copy), so its receipt vouches for
    each item blob by hash."""

    session: str
    writer: str
    key: str
    created: str
    commit: str | None
    source: Source | None
    items: tuple[Sha256Hex, ...]
    """The addresses of the items this capture adds."""
    carried: tuple[Sha256Hex, ...] = ()
    """The addresses of the open items it carries forward."""
    extra: Mapping[str, Any] = field(default_factory=dict)

    type: RecordType = "checkpoint"
    _KNOWN = frozenset(
        {"type", "schema", "session", "writer", "key", "created", "commit", "source"}
        | {"items", "carried"}
    )

    @property
    def named(self) -> tuple[Sha256Hex, ...]:
        """Every item address it names, added and carried."""
        return self.items + self.carried

    @property
    def transcript_time(self) -> str:
        """When its session said what it holds, in :func:`format_time`'s form: the
        ``transcript_time`` it records (the host's latest message time, else the file's
        modification time), never later than when it was captured; its capture time when
        it records none. Sessions are the unit of time: replay order, ageing and "newest"
        all use this."""
        created = sortable_time(self.created)
        said = self.extra.get(TRANSCRIPT_TIME)
        return min(created, sortable_time(said)) if isinstance(said, str) else created

    @property
    def branch(self) -> str | None:
        """The branch checked out where it was captured (None: detached, or not recorded)."""
        value = self.extra.get(BRANCH)
        return value if isinstance(value, str) and value else None

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
            items=list(self.items),
            carried=list(self.carried),
        )
        return data

    def canonical_bytes(self) -> bytes:
        """The bytes that are stored, hashed and signed."""
        return canonical.encode(self.to_dict())

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Checkpoint:
        """Raises FormatError on a malformed checkpoint."""
        _expect_schema(data, "checkpoint", CHECKPOINT_SCHEMA)
        raw_source = data.get("source")
        if raw_source is not None and not isinstance(raw_source, dict):
            raise FormatError("checkpoint source must be an object or null")
        commit = _str_or_none(data, "checkpoint", "commit")
        created = _str(data, "created")
        parse_time(created)
        said = data.get(TRANSCRIPT_TIME)
        if said is not None:
            parse_time(said)
        branch = data.get(BRANCH)
        if branch is not None and not isinstance(branch, str):
            raise FormatError("checkpoint branch must be a string")
        return cls(
            session=_str(data, "session"),
            writer=_str(data, "writer"),
            key=_str(data, "key"),
            created=created,
            commit=commit,
            source=None if raw_source is None else Source.from_dict(raw_source),
            items=_addresses(data, "items"),
            carried=_addresses(data, "carried"),
            extra={k: v for k, v in data.items() if k not in cls._KNOWN},
        )


@dataclass(frozen=True)
class Event:
    """A lifecycle record about an item (resolve, reopen, supersede, forget, …).

    What each event means is decided by the lifecycle layer, which replays them at read
    time.
    """

    event: str
    item: str | None
    """The address of the item it is about (None for one about several, or none)."""
    session: str
    writer: str
    key: str
    created: str
    commit: str | None
    extra: Mapping[str, Any] = field(default_factory=dict)

    type: RecordType = "event"
    _KNOWN = frozenset(
        ("type", "schema", "event", "item", "session", "writer", "key", "created", "commit")
    )

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

    def parts(self) -> Iterator[tuple[str, Event]]:
        """(item address, this event as it applies to that item) for every item it is
        about: itself when it names one ``item``; when it names several in ``items`` (one
        event for a capture's supersessions or ageing), a view of each with its shared
        fields and that item's own part (views, not signed bytes)."""
        batch = self.extra.get("items") if self.item is None else None
        if isinstance(batch, dict):
            for address, part in batch.items():
                if isinstance(part, dict):
                    yield address, self._about(address, part)
        elif self.item is not None:
            yield self.item, self

    def part_for(self, item: str) -> Event | None:
        """This event as it applies to *item* (as :meth:`parts` gives it); None when it is
        not about *item*."""
        if self.item is not None:
            return self if self.item == item else None
        batch = self.extra.get("items")
        part = batch.get(item) if isinstance(batch, dict) else None
        return self._about(item, part) if isinstance(part, dict) else None

    def _about(self, item: str, part: Mapping[str, Any]) -> Event:
        shared = {k: v for k, v in self.extra.items() if k != "items"}
        return Event(
            self.event,
            item,
            self.session,
            self.writer,
            self.key,
            self.created,
            self.commit,
            {**shared, **part},
        )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        """Raises FormatError on a malformed event."""
        _expect_schema(data, "event", EVENT_SCHEMA)
        item = _str_or_none(data, "event", "item")
        commit = _str_or_none(data, "event", "commit")
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
_R = TypeVar("_R", Checkpoint, Event)


def repository_of(record: Record) -> str | None:
    """The repository *record* names (:data:`REPOSITORY`), None when it names none; a
    value that is not a string is returned as its text, so it matches no repository.
    Raises nothing."""
    value = record.extra.get(REPOSITORY)
    return None if value is None else value if isinstance(value, str) else repr(value)


def record_time(record: Record) -> str:
    """Where *record* stands in time, in :func:`format_time`'s form: a checkpoint at its
    :attr:`~Checkpoint.transcript_time`, an event when it was written. Raises
    FormatError on a malformed time (a parsed record has none)."""
    if isinstance(record, Checkpoint):
        return record.transcript_time
    return sortable_time(record.created)


def parse_record(data: bytes, *, form_checked: bool = False) -> Record:
    """Decode stored record bytes into a checkpoint or an event. With *form_checked*, the
    bytes were already found canonical elsewhere (:func:`canonical.decode_unchecked`):
    their form is not checked again.

    Raises:
        FormatError: the bytes are not canonical JSON, or not a well-formed record.
    """
    value = canonical.decode_unchecked(data) if form_checked else canonical.decode(data)
    return record_of(value)


def record_of(value: canonical.JSONValue) -> Record:
    """The checkpoint or event a decoded record *value* holds.

    Raises:
        FormatError: not a well-formed record.
    """
    if not isinstance(value, dict):
        raise FormatError("record is not a JSON object")
    kind = value.get("type")
    if kind == "checkpoint":
        return Checkpoint.from_dict(value)
    if kind == "event":
        return Event.from_dict(value)
    raise FormatError(f"record type {kind!r} is neither checkpoint nor event")


def parse_as(data: bytes, kind: type[_R], *, form_checked: bool = False) -> _R | None:
    """The record in *data* when it is a *kind* (:class:`Checkpoint` or :class:`Event`;
    *form_checked* as for :func:`parse_record`), else None: another kind, or bytes that
    do not read. Raises nothing."""
    try:
        record = parse_record(data, form_checked=form_checked)
    except FormatError:
        return None
    return record if isinstance(record, kind) else None


def _expect_schema(data: Mapping[str, Any], kind: str, schema: str) -> None:
    if data.get("type") != kind:
        raise FormatError(f"record type is {data.get('type')!r}, expected {kind!r}")
    if isinstance(data.get("schema"), str) and data["schema"] in V1_SCHEMAS:
        raise FormatError(V1_REFUSED)
    if data.get("schema") != schema:
        raise FormatError(f"record schema {data.get('schema')!r} is not {schema!r}")


V1_REFUSED = (
    "storage format v1, which this gitmem does not read (v1 was never released; "
    "v2 stores items by reference)"
)


def _addresses(data: Mapping[str, Any], key: str) -> tuple[Sha256Hex, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not are_sha256_hex(value):
        raise FormatError(f"checkpoint {key} must be a list of item addresses")
    return cast(tuple[Sha256Hex, ...], tuple(value))  # not a call per address


def _str_or_none(data: Mapping[str, Any], record: str, key: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise FormatError(f"{record} {key} must be a string or null")
    return value


def _str(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise FormatError(f"field {key!r} must be a string")
    return value
