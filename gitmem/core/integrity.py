"""Is this stored record genuine? A pure check over the exact bytes read.

No git, no disk, no clock: the caller hands over the address the path claims,
the record bytes, the receipt bytes and the trust roots. The same function serves
``brief`` (which degrades what fails) and ``verify`` (which lists it).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from gitmem.core.allowed_signers import AllowedSignersFile, check_trust
from gitmem.core.canonical import JSONValue, Unread, decode, decode_as, sha256_hex
from gitmem.core.errors import FormatError, TrustError
from gitmem.core.items import Item, parse_item
from gitmem.core.receipts import verify
from gitmem.core.records import (
    EVENT_PURGE,
    NAMESPACE,
    Event,
    Record,
    parse_record,
    parse_time,
    repository_of,
)
from gitmem.core.revocation import Revocations, revoked_reason
from gitmem.core.types import Sha256Hex

# Short labels, used in badges: "[⚠ verbatim withheld: receipt invalid]".
RECORD_EDITED = "record edited"
RECORD_UNREADABLE = "record unreadable"
RECEIPT_MISSING = "receipt missing"
RECEIPT_INVALID = "receipt invalid"
UNTRUSTED_KEY = "untrusted key"
WRITER_MISMATCH = "writer mismatch"
WRONG_FOLDER = "record in the wrong folder"
OTHER_REPOSITORY = "written for another repository"
NOT_HERE = frozenset({UNTRUSTED_KEY, OTHER_REPOSITORY})
"""The verdicts on an intact record this reader does not take as written here: a key
no root vouches for, or another repository. Not failures of the store: sync and restore
carry such records, and every reader shows them degraded."""


class RecordCheck(NamedTuple):
    """The verdict on one stored record."""

    address: Sha256Hex
    problem: str | None
    """None when the record holds; otherwise one of the short labels above."""
    detail: str
    """One sentence: who signed it, or what failed."""
    record: Record | None
    """The parsed record when the bytes parse at all, genuine or not."""

    @property
    def ok(self) -> bool:
        return self.problem is None

    @property
    def summary(self) -> str:
        """The label and the sentence, e.g. "record edited: its bytes hash to …" (the
        label once, even when the sentence already starts with it). Raises nothing."""
        return describe(self.problem or "verified", self.detail)


def describe(label: str, detail: str) -> str:
    """``label: detail``, without saying the label twice when *detail* already opens with
    it ("untrusted key: SHA256:… is revoked"). Raises nothing."""
    return detail if detail.startswith(label) else f"{label}: {detail}"


@dataclass(frozen=True)
class TrustRoots:
    """What a reader trusts, loaded once: the allowed_signers roots (revoked keys already
    removed) and the revocations themselves, which say why a key no longer counts."""

    signers: tuple[AllowedSignersFile, ...] = ()
    revoked: Revocations = field(default_factory=Revocations)
    branch: str | None = None
    """The trust branch the team root was read from (None outside a repository)."""
    notices: tuple[str, ...] = ()
    """Sentences a reader should see: keys this branch adds that grant nothing yet, lines
    skipped in the repository file, a shallow clone."""
    repositories: frozenset[str] | None = None
    """The repository ids a record may name to be read as written here: the trust
    branch's root commits and the former ones the team lists; None when it cannot be
    told (outside a repository, a shallow clone): then a record's repository is not
    checked."""
    repository: str | None = None
    """What a record written here names (None: nothing, as outside a repository)."""
    team_root: str | None = None
    """The source of the team root among :attr:`signers` (None: no team root)."""
    kept: frozenset[str] = frozenset()
    """The purge events this clone applied while their keys were trusted: they stay
    applied when a key is revoked afterwards (revocation changes whom the reader
    trusts from now on, not what history already removed)."""

    def digest(self) -> str:
        """A digest of the roots: a verdict cached under one set of roots holds only under
        the same roots. Raises nothing."""
        material = "\n".join(
            f"{root.source}\0{entry.to_line()}" for root in self.signers for entry in root.entries
        )
        if self.repositories is not None:
            material += "\nrepositories\0" + ",".join(sorted(self.repositories))
        if self.kept:
            material += "\nkept\0" + ",".join(sorted(self.kept))
        return hashlib.sha256(material.encode()).hexdigest()

    def listed_keys(self) -> frozenset[str]:
        """The fingerprints of every plain key the roots list, for anyone, at any time: a
        record naming another key cannot hold under these roots. Raises nothing."""
        return frozenset(
            entry.key.fingerprint()
            for root in self.signers
            for entry in root.entries
            if not entry.cert_authority
        )

    def check(
        self,
        address: Sha256Hex,
        data: bytes,
        receipt: bytes | None,
        kind: str | None = None,
        parsed: Record | None = None,
        value: JSONValue = None,
    ) -> RecordCheck:
        """:func:`check_record` of one memory record under these roots (*kind*: the
        record type its folder holds, when known; *parsed* and *value* as there). A purge
        event in :attr:`kept` holds whatever its key's trust is now. Raises nothing."""
        check = check_record(
            address,
            data,
            receipt,
            self.signers,
            NAMESPACE,
            self.revoked,
            self.repositories,
            kind,
            parsed,
            value,
        )
        record = check.record
        if (
            check.problem == UNTRUSTED_KEY
            and address in self.kept
            and isinstance(record, Event)
            and record.event == EVENT_PURGE
            and record.item is None
        ):
            detail = f"a purge applied here while its key was trusted; now {check.detail}"
            return check._replace(problem=None, detail=detail)
        return check

    def team_only(self) -> TrustRoots:
        """These roots without the personal one: what the team as a whole trusts. Raises
        nothing."""
        team = tuple(r for r in self.signers if r.source == self.team_root)
        return TrustRoots(team, self.revoked, self.branch, (), self.repositories, self.repository)


def check_record(
    address: Sha256Hex,
    data: bytes,
    receipt: bytes | None,
    roots: Sequence[AllowedSignersFile],
    namespace: str = NAMESPACE,
    revoked: Revocations | None = None,
    repositories: frozenset[str] | None = None,
    kind: str | None = None,
    parsed: Record | None = None,
    value: JSONValue = None,
) -> RecordCheck:
    """Check one record end to end. Never raises on bad bytes; it reports them.

    With *revoked*, a record that fails on trust because its key was revoked says so
    (the roots no longer list a revoked key at all). With *repositories*, a record that
    names another repository is not taken as written here. With *kind*, the record must
    be of the type its folder holds (an event stored under ``checkpoints/`` is never
    read as one). With *parsed*, what ``parse_record(data, form_checked=True)`` gave (a
    caller that read the record already): only the form of the bytes is checked again,
    and the answer is the one a parse here gives; with *value* as well, the JSON value
    *parsed* was made from, that form is checked without decoding the bytes again."""
    # 0. Bytes left unread for their size (git's header said so) are neither hashed
    #    nor parsed: the record cannot be read, whatever it holds.
    if isinstance(data, Unread):
        return RecordCheck(address, RECORD_UNREADABLE, data.reason, None)
    record: Record | None
    try:
        if parsed is None:
            record, unreadable = parse_record(data), ""
        else:
            # the canonical form, which the parse that gave *parsed* left out
            decode(data) if value is None else decode_as(data, value)
            record, unreadable = parsed, ""
    except FormatError as e:
        record, unreadable = None, str(e)

    # 1. Content addressing: the bytes must hash to the address their path claims.
    actual = sha256_hex(data)
    if actual != address:
        return RecordCheck(
            address,
            RECORD_EDITED,
            f"its bytes hash to {actual[:12]}…, not to the address in its path "
            f"({address[:12]}…): it was changed after it was written",
            record,
        )
    # 2. A receipt must exist for exactly these bytes.
    if receipt is None:
        return RecordCheck(address, RECEIPT_MISSING, "no receipt is stored for it", record)
    if isinstance(receipt, Unread):
        return RecordCheck(address, RECEIPT_INVALID, f"the receipt: {receipt.reason}", record)
    # 3. The bytes must be a well-formed record (we need its writer and time), of the
    #    type its folder holds.
    if record is None:
        return RecordCheck(address, RECORD_UNREADABLE, unreadable, None)
    if kind is not None and record.type != kind:
        folder = {"checkpoint": "checkpoints", "event": "events"}.get(record.type, "another")
        detail = f"it holds a record of type {record.type!r}, which belongs under {folder}/"
        return RecordCheck(address, WRONG_FOLDER, detail, record)
    # 4. The SSHSIG signature must verify over the exact stored bytes.
    try:
        signature = verify(data, receipt, namespace)
    except FormatError as e:
        return RecordCheck(address, RECEIPT_INVALID, f"the receipt is malformed: {e}", record)
    except TrustError as e:
        return RecordCheck(address, RECEIPT_INVALID, str(e), record)
    fingerprint = signature.public_key.fingerprint()
    # 5. The key the record names must be the key that signed it.
    if record.key != fingerprint:
        return RecordCheck(
            address,
            WRITER_MISMATCH,
            f"it names key {record.key} but was signed by {fingerprint}",
            record,
        )
    # 6. A trust root must vouch for that key, for this writer, at the record's time.
    verdict = check_trust(
        roots, signature.public_key, record.writer, namespace, parse_time(record.created)
    )
    if not verdict.trusted:
        why = None if revoked is None else revoked_reason(receipt, revoked)
        return RecordCheck(address, UNTRUSTED_KEY, why or verdict.reason, record)
    # 7. It must have been written for this repository, when it names one.
    named = repository_of(record)
    if repositories is not None and named is not None and named not in repositories:
        return RecordCheck(
            address,
            OTHER_REPOSITORY,
            f"it names repository {named[:12]}, whose history is not this one's ({verdict.reason})",
            record,
        )
    return RecordCheck(address, None, verdict.reason, record)


ITEM_EDITED = "item edited"
ITEM_MISSING = "item missing"
ITEM_UNREADABLE = "item unreadable"


class ItemCheck(NamedTuple):
    """The verdict on one item blob a record names."""

    address: Sha256Hex
    problem: str | None
    """None when the blob holds; otherwise one of the short labels above."""
    detail: str
    item: Item | None

    @property
    def ok(self) -> bool:
        return self.problem is None


def check_item(address: Sha256Hex, data: bytes | None) -> ItemCheck:
    """Is the blob at *address* the item a record named by that address? Its bytes must
    be stored, hash to the address and parse as an item. Whether a genuine record names
    it is the caller's question. Never raises on bad bytes; it reports them."""
    if data is None:
        return ItemCheck(address, ITEM_MISSING, "no item blob is stored at its address", None)
    if isinstance(data, Unread):
        return ItemCheck(address, ITEM_UNREADABLE, data.reason, None)
    actual = sha256_hex(data)
    if actual != address:
        return ItemCheck(
            address,
            ITEM_EDITED,
            f"its bytes hash to {actual[:12]}…, not to the address its records name "
            f"({address[:12]}…): it was changed after it was written",
            None,
        )
    try:
        item = parse_item(data, actual)
    except FormatError as e:
        return ItemCheck(address, ITEM_UNREADABLE, str(e), None)
    return ItemCheck(address, None, "its bytes hash to the address its records name", item)
