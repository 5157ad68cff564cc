"""Items: one line of memory each, and what an item is (its kind) and how it came to exist
(its trust class).

An item is stored once, as its own content-addressed blob (``items/<h>.json``); records
name it by that address. Like every record it round-trips through ``to_dict`` /
``from_dict`` and keeps the fields it does not know in ``extra``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any

from gitmem.core import canonical
from gitmem.core.errors import FormatError
from gitmem.core.types import Sha256Hex, is_sha256_hex

ITEM_SCHEMA = "gitmem/item/2"


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
_KIND_OF = {kind.value: kind for kind in Kind}
_TRUST_OF = {trust.value: trust for trust in Trust}
"""Each member by its value: a lookup where ``Kind(value)`` goes through the enum's
machinery (~1 µs; 20,000 stored items a ``verify`` of 10,000 checkpoints reads)."""


def statement_id(session: str, kind: str, text: str) -> str:
    """Sixteen hex characters naming a statement: the same session, kind and text, the
    same id. Not an item's identity (that is its address): a key for "was this said and
    kept already?" before an item is built. Raises nothing."""
    material = "\0".join(("gitmem/item/1", session, kind, text)).encode("utf-8", "surrogatepass")
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
    """One line of memory, stored once as its own blob (``items/<h>.json``).

    Immutable: carrying, corroboration and status are never written into it; readers
    derive them from the checkpoints that name its address and from events. Its
    identity is its address, the SHA-256 of its canonical bytes.
    """

    kind: Kind
    text: str
    trust: Trust
    origin_session: str
    snapshot: Sha256Hex | None = None
    """The origin transcript's snapshot, the one its quote was checked against."""
    quote: str | None = None
    quote_verified: bool = False
    quote_reason: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    _KNOWN = frozenset(
        (
            *("schema", "kind", "text", "trust", "origin_session", "snapshot", "quote"),
            *("quote_verified", "quote_reason"),
        )
    )

    def to_dict(self) -> dict[str, Any]:
        """The JSON object stored for this item, unknown fields included."""
        data: dict[str, Any] = dict(self.extra)
        data.update(
            schema=ITEM_SCHEMA,
            kind=self.kind,
            text=self.text,
            trust=self.trust,
            origin_session=self.origin_session,
            snapshot=self.snapshot,
            quote=self.quote,
            quote_verified=self.quote_verified,
            quote_reason=self.quote_reason,
        )
        return data

    def canonical_bytes(self) -> bytes:
        """The bytes that are stored and hashed.

        Raises:
            InputError: a field (an unknown one, say) cannot be stored as canonical JSON.
        """
        return canonical.encode(self.to_dict())

    @cached_property
    def address(self) -> Sha256Hex:
        """The SHA-256 of the item's canonical bytes: where it is stored, how records name
        it. Raises InputError as :meth:`canonical_bytes` does."""
        return canonical.sha256_hex(self.canonical_bytes())

    @property
    def id(self) -> Sha256Hex:
        """The item's identity, its :attr:`address` (commands accept a unique prefix)."""
        return self.address

    @property
    def statement(self) -> str:
        """Its :func:`statement_id`: origin session, kind and text."""
        return statement_id(self.origin_session, self.kind, self.text)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Item:
        """Load a stored item.

        Raises:
            FormatError: a known field is missing or has the wrong type.
        """
        if data.get("schema") != ITEM_SCHEMA:
            raise FormatError(f"item schema {data.get('schema')!r} is not {ITEM_SCHEMA!r}")
        kind, text, origin = data.get("kind"), data.get("text"), data.get("origin_session")
        if not (isinstance(text, str) and isinstance(origin, str)):
            missing = "text" if not isinstance(text, str) else "origin_session"
            raise FormatError(f"field {missing!r} must be a string")
        member = _KIND_OF.get(kind) if isinstance(kind, str) else None
        if member is None:
            raise FormatError(f"item kind {kind!r} is not one of {', '.join(KINDS)}")
        raw_trust = data.get("trust")
        # An unknown class is never silently promoted: it reads as untagged.
        trust = Trust.UNTAGGED
        if isinstance(raw_trust, str):
            trust = _TRUST_OF.get(raw_trust, Trust.UNTAGGED)
        snapshot = data.get("snapshot")
        if snapshot is not None and not is_sha256_hex(snapshot):
            raise FormatError("item snapshot must be a hex SHA-256 or null")
        quote = data.get("quote")
        if quote is not None and not isinstance(quote, str):
            raise FormatError("item quote must be a string or null")
        reason = data.get("quote_reason")
        if reason is not None and not isinstance(reason, str):
            raise FormatError("item quote_reason must be a string or null")
        known = cls._KNOWN
        return cls(
            member,
            text,
            trust,
            origin,
            None if snapshot is None else Sha256Hex(snapshot),
            quote,
            data.get("quote_verified") is True,
            reason,
            {k: v for k, v in data.items() if k not in known},
        )


def parse_item(data: bytes, address: Sha256Hex | None = None) -> Item:
    """Decode stored item bytes; *address* is their SHA-256 when the caller hashed them
    already (:func:`gitmem.core.integrity.check_item` does, to compare it with the
    address the item is stored at): they are not hashed again.

    Raises:
        FormatError: the bytes are not canonical JSON, or not a well-formed item.
    """
    value = canonical.decode(data)
    if not isinstance(value, dict):
        raise FormatError("item is not a JSON object")
    item = Item.from_dict(value)
    # Its address is the hash of the bytes it was read from (stored bytes are hashed,
    # never re-serialised): filled in here, as the cached property would keep it.
    item.__dict__["address"] = canonical.sha256_hex(data) if address is None else address
    return item
