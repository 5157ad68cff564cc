"""A purge: the one deliberate rewrite of the memory ref, as its signed event says it.

A ``purge`` event (``item: null``) lists exactly what was removed from every commit of
the ref and what replaced what:

- ``items``: the addresses of the item blobs removed;
- ``snapshots``: ``{old address: new address}``, each old snapshot replaced by a redacted
  copy, its own content-addressed snapshot (every occurrence of the text replaced by
  :data:`PURGED_TEXT`);
- ``records``: the addresses of the records (checkpoints, events) removed with their
  receipts, because their own bytes held the text;
- ``text``: for a purge by text, a salted SHA-256 of the text (``{"salt", "sha256"}``),
  never the text; null for a purge by id;
- ``how``: ``id`` or ``text``;
- ``before``: the tip of the ref before the purge (a git commit id; after ``git gc`` it
  names nothing any more).

Pure: the rules of a purge — one :class:`Purge` type for what an event lists and who
signed it, the purges of one history taken together (:class:`Purges`), which stored
bytes hold a text, and a snapshot's redacted copy. Finding the events in a history and
applying them to its commits is :mod:`gitmem.store.purge`; the command is
:mod:`gitmem.lifecycle.purge`; what counts (a verified event by a key the reader trusts)
is the reader's.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from gitmem.core.canonical import is_utf8
from gitmem.core.errors import FormatError, InputError
from gitmem.core.items import Item
from gitmem.core.patterns import lazy_pattern
from gitmem.core.records import EVENT_PURGE, Event, parse_time, sortable_time
from gitmem.core.types import Sha256Hex, is_sha256_hex

S = TypeVar("S", bound=str)

PURGED_TEXT = "[purged]"
"""What a redacted snapshot holds where the purged text was."""
HOW_ID = "id"
HOW_TEXT = "text"
UNSEALED = Sha256Hex("")
"""The address of a purge whose event is not sealed yet."""


@dataclass(frozen=True)
class Purge:
    """One purge: what its event removed and replaced, and, once signed and stored, the
    event's address, its writer and when."""

    items: tuple[Sha256Hex, ...]
    snapshots: Mapping[Sha256Hex, Sha256Hex] = field(default_factory=dict)
    records: tuple[Sha256Hex, ...] = ()
    how: str = HOW_ID
    text: Mapping[str, str] | None = None
    before: str | None = None
    address: Sha256Hex = UNSEALED
    """The purge event's address."""
    writer: str = ""
    key: str = ""
    """The fingerprint of the key that signed its event."""
    created: str = ""

    def to_extra(self) -> dict[str, Any]:
        """The event's fields beside the common ones (sorted lists: one byte form)."""
        return {
            "items": sorted(self.items),
            "snapshots": dict(sorted(self.snapshots.items())),
            "records": sorted(self.records),
            "how": self.how,
            "text": None if self.text is None else dict(self.text),
            "before": self.before,
        }

    @property
    def label(self) -> str:
        """How what it removed renders: ``[purged by WRITER on DATE]``. Raises nothing."""
        return purged_label(self.writer, self.created)

    @classmethod
    def from_event(cls, event: Event, address: Sha256Hex = UNSEALED) -> Purge:
        """The purge an event records (stored at *address*).

        Raises:
            FormatError: not a purge event, or a field of the wrong shape.
        """
        if event.event != EVENT_PURGE or event.item is not None:
            raise FormatError("not a purge event (event 'purge' with item null)")
        extra = event.extra
        snapshots = extra.get("snapshots", {})
        if not isinstance(snapshots, dict) or not all(
            is_sha256_hex(k) and is_sha256_hex(v) for k, v in snapshots.items()
        ):
            raise FormatError("purge snapshots must map snapshot addresses to addresses")
        text = extra.get("text")
        if text is not None and not (
            isinstance(text, dict) and all(isinstance(v, str) for v in text.values())
        ):
            raise FormatError("purge text must be an object of strings or null")
        before = extra.get("before")
        how = extra.get("how", HOW_ID)
        return cls(
            items=_addresses(extra, "items"),
            snapshots={Sha256Hex(k): Sha256Hex(v) for k, v in snapshots.items()},
            records=_addresses(extra, "records"),
            how=how if isinstance(how, str) else HOW_ID,
            text=text,
            before=before if isinstance(before, str) else None,
            address=address,
            writer=event.writer,
            key=event.key,
            created=event.created,
        )


def purge_of(event: Event, address: Sha256Hex = UNSEALED) -> Purge | None:
    """The purge *event* (stored at *address*) records, or None when it is not a
    well-formed purge event. Raises nothing."""
    try:
        return Purge.from_event(event, address)
    except FormatError:
        return None


@dataclass(frozen=True)
class Purges:
    """The purges of one history that count (verified, trusted), in replay order (by
    time, then address), and the intact ones by keys no root of the reader trusts."""

    found: tuple[Purge, ...] = ()
    untrusted: tuple[Purge, ...] = ()
    items: dict[Sha256Hex, Purge] = field(default_factory=dict)
    """The purge that removed each item."""
    snapshots: dict[Sha256Hex, Sha256Hex] = field(default_factory=dict)
    records: frozenset[Sha256Hex] = frozenset()

    @classmethod
    def of(cls, found: Iterable[Purge], untrusted: Iterable[Purge] = ()) -> Purges:
        """Raises nothing."""
        ordered = sorted(found, key=lambda p: (sortable_time(p.created), p.address))
        items: dict[Sha256Hex, Purge] = {}
        snapshots: dict[Sha256Hex, Sha256Hex] = {}
        records: set[Sha256Hex] = set()
        for purge in ordered:
            items.update((address, purge) for address in purge.items)
            snapshots.update(purge.snapshots)
            records.update(purge.records)
        return cls(tuple(ordered), tuple(untrusted), items, snapshots, frozenset(records))


def _addresses(extra: Mapping[str, Any], key: str) -> tuple[Sha256Hex, ...]:
    value = extra.get(key, [])
    if not isinstance(value, list) or not all(is_sha256_hex(v) for v in value):
        raise FormatError(f"purge {key} must be a list of addresses")
    return tuple(Sha256Hex(v) for v in value)


def purged_label(writer: str, created: str) -> str:
    """``[purged by alice@example.com on 2026-11-30]``; *created* is a record timestamp.
    Raises nothing."""
    try:
        day = parse_time(created).date().isoformat()
    except FormatError:
        day = created[:10]
    return f"[purged by {writer} on {day}]"


def item_texts(items: Iterable[Item | None]) -> tuple[str, ...]:
    """The words of *items* as local files may hold them (the ledger, a model's reply):
    each one's text and quotes, verified or not. What a clone scrubs after a purge.
    Raises nothing."""
    found: list[str] = []
    for item in items:
        if item is None:
            continue
        found.append(item.text)
        for quote in (item.quote, item.extra.get("unverified_quote")):
            if isinstance(quote, str) and quote:
                found.append(quote)
    return tuple(found)


def text_digest(text: str, salt: str) -> dict[str, str]:
    """The salted SHA-256 a purge by text records instead of the text (``salt`` is hex).
    It lets someone who knows the text confirm it was purged; it cannot give the text
    back, but a short or guessable text can be confirmed by guessing. Raises nothing."""
    digest = hashlib.sha256(bytes.fromhex(salt) + text.encode("utf-8")).hexdigest()
    return {"salt": salt, "sha256": digest}


def resolve_snapshot(replaced: Mapping[S, S], digest: S) -> S:
    """The snapshot that now stands for *digest*: followed through every purge that
    replaced it (a redacted copy can be redacted again). Raises nothing."""
    seen = {digest}
    while digest in replaced:
        digest = replaced[digest]
        if digest in seen:
            break  # a cycle only a forged map can make: stop where it closes
        seen.add(digest)
    return digest


def needles(text: str) -> tuple[str, ...]:
    """The forms *text* takes inside stored JSON: as is, and JSON-escaped (with and
    without ASCII escapes). Raises nothing."""
    forms = [text, json.dumps(text, ensure_ascii=False)[1:-1], json.dumps(text)[1:-1]]
    return tuple(dict.fromkeys(forms))


def holds(data: bytes, text: str) -> bool:
    """True when the stored bytes *data* hold *text* in any of its :func:`needles` forms.
    Raises nothing."""
    return any(form.encode("utf-8") in data for form in needles(text))


def check_text(text: str) -> str:
    """*text* as a purge may look for it.

    Raises:
        InputError: empty, or only whitespace (it would match everything); or not valid
            UTF-8 (bytes a terminal could not decode: nothing stored is anything but
            UTF-8).
    """
    if not text.strip():
        raise InputError("purge --text needs a non-empty string")
    if not is_utf8(text):
        raise InputError("purge --text needs valid UTF-8 text")
    return text


def redact_snapshot(data: bytes, text: str, formats: Iterable[str | None] = ()) -> bytes | None:
    """A copy of the snapshot *data* with every occurrence of *text* in its messages
    replaced by :data:`PURGED_TEXT`, or None when no message holds *text*. The copy keeps
    the snapshot's encoding: it is read as the formats its records name say (the rule
    every stored quote is checked by, :func:`gitmem.core.quotes.check_stored_quotes`), so
    the quotes of other items still check against it. Only to find the text wherever it
    is, bytes no named format reads are then searched as gitmem's ``messages`` encoding,
    then as plain text; only the messages are searched, never the encoding's own words
    (a role, a field name). Bytes that are not UTF-8 are searched and replaced as bytes.
    Raises nothing."""
    from gitmem.core.transcript import MESSAGES, Message, parse_snapshot, render_snapshot

    for fmt in (*(f for f in formats if f), MESSAGES, "text"):
        try:
            transcript = parse_snapshot(data, "snapshot", fmt)
        except InputError:
            continue
        if not transcript.holds(text):
            return None
        messages = [Message(m.role, m.text.replace(text, PURGED_TEXT)) for m in transcript.messages]
        return render_snapshot(transcript.format, messages).encode("utf-8")
    if not holds(data, text):
        return None
    for form in needles(text):
        data = data.replace(form.encode("utf-8"), PURGED_TEXT.encode("utf-8"))
    return data


_STRUCTURAL_KEYS = frozenset(
    {
        *("type", "schema", "event", "created", "commit", "key", "writer"),
        *("kind", "trust", "format", "bytes"),
    }
)
"""Fields whose values are gitmem's own vocabulary, times, sizes or the signer (a writer's
principal names who signed, in every record of theirs), never what was said."""
_STRUCTURAL_VALUE = lazy_pattern(
    r"[0-9a-f]{64}|[0-9a-f]{40}|SHA256:[A-Za-z0-9+/]{43}|"
    r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z"
)
"""Addresses, commit ids, key fingerprints and record times."""


def value_holds(value: Any, text: str, key: str | None = None) -> bool:
    """True when *text* is inside a string value of a decoded item or record that holds
    what was said: its text, quotes, notes, session ids, file names, evidence. Field
    names, addresses, commit ids, fingerprints, times and the values of gitmem's
    structural fields are not searched, so a short or hex-like text never matches every
    record. Raises nothing."""
    if key in _STRUCTURAL_KEYS:
        return False
    if isinstance(value, str):
        return text in value and not _STRUCTURAL_VALUE.fullmatch(value)
    if isinstance(value, dict):
        return any(value_holds(v, text, k) for k, v in value.items())
    if isinstance(value, list):
        return any(value_holds(v, text) for v in value)
    return False
