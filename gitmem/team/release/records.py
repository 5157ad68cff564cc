"""Release records: what they hold, and the check of one stored record.

Releases live in ``refs/gitmem/releases`` in the memory store's layout: each record is
an event (``events/<h>.json``, canonical JSON, schema ``gitmem/event/1``) and each
signed one has its receipt at ``receipts/<h>.sig``, an SSHSIG in namespace
``gitmem-release``. Three events:

- ``release-candidate``: unsigned; names a commit and its tree. Never approves anything.
- ``release-approval``: a maintainer's signature over a commit, its tree and the
  release's sequence number.
- ``release-pin``: the second signature, made after the release was restored and run
  on another machine: commit, tree, sequence, ``recovery_tested: true`` and the
  SHA-256 of the recovery evidence.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gitmem.core.canonical import sha256_hex
from gitmem.core.errors import FormatError, TrustError
from gitmem.core.integrity import (
    RECEIPT_INVALID,
    RECORD_EDITED,
    RECORD_UNREADABLE,
    UNTRUSTED_KEY,
    WRITER_MISMATCH,
    RecordCheck,
    check_record,
)
from gitmem.core.receipts import fingerprint_of_blob, receipt_key
from gitmem.core.records import Event, parse_as, parse_record, parse_time
from gitmem.core.revocation import revoked_reason
from gitmem.core.types import GitOid, Sha256Hex, is_sha256_hex
from gitmem.store.repo import StoredRecord
from gitmem.team.release import sshkeygen
from gitmem.team.release.roots import ReleaseRoots

NAMESPACE = "gitmem-release"
CANDIDATE = "release-candidate"
APPROVAL = "release-approval"
PIN = "release-pin"
SESSION = "release"
NOT_RELEASE = "not a release record"
MAX_SEQUENCE = 2**63 - 1
"""The highest sequence number: a signed 64-bit integer, which every JSON reader gitmem
uses (and SQLite) carries exactly; a number past it is refused, never stored."""
_OID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


@dataclass(frozen=True)
class Release:
    """What a release is: a commit and the tree it names."""

    commit: GitOid
    tree: GitOid


@dataclass(frozen=True)
class ReleaseRecord:
    """A release record as read and checked."""

    address: Sha256Hex
    event: str
    release: Release
    sequence: int | None
    principal: str
    key: str
    created: str
    trusted: bool
    reason: str
    extra: Mapping[str, Any]
    intact: bool = True
    """Its bytes hold (address, layout, fields, any receipt), whoever signed it: an
    unsigned candidate is intact, an edited one is not."""

    @property
    def kind(self) -> str:
        return self.event.removeprefix("release-")


def release_fields(event: Event) -> tuple[Release, int | None]:
    """The release a record names, and its sequence number (None for a candidate).

    Raises:
        FormatError: a field is missing or malformed.
    """
    tree = event.extra.get("tree")
    if not isinstance(event.commit, str) or not _OID.fullmatch(event.commit):
        raise FormatError("a release record needs the full id of its commit")
    if not isinstance(tree, str) or not _OID.fullmatch(tree):
        raise FormatError("a release record needs the full id of its tree")
    release = Release(GitOid(event.commit), GitOid(tree))
    if event.event == CANDIDATE:
        return release, None
    sequence = event.extra.get("sequence")
    if not isinstance(sequence, int) or isinstance(sequence, bool) or sequence < 1:
        raise FormatError("a release approval or pin needs a positive integer sequence")
    if sequence > MAX_SEQUENCE:
        raise FormatError(f"a release sequence is at most {MAX_SEQUENCE}")
    if event.event == PIN:
        evidence = event.extra.get("evidence")
        if event.extra.get("recovery_tested") is not True:
            raise FormatError("a pin must state recovery_tested: true")
        if not isinstance(evidence, dict) or not is_sha256_hex(str(evidence.get("sha256"))):
            raise FormatError("a pin needs the SHA-256 of its recovery evidence")
    return release, sequence


def check_release(stored: StoredRecord, roots: ReleaseRoots) -> RecordCheck | None:
    """Check one stored release record; None for an intact unsigned candidate.

    Approvals and pins are checked end to end (address, receipt, trusted key at the
    record's time, in namespace ``gitmem-release``): Ed25519 receipts by gitmem's own
    verifier, hardware ``sk-`` receipts by ``ssh-keygen -Y verify``. Raises nothing.
    """
    try:
        record = parse_record(stored.data)
    except FormatError as e:
        return RecordCheck(stored.address, RECORD_UNREADABLE, str(e), None)
    actual = sha256_hex(stored.data)
    if actual != stored.address:
        return RecordCheck(
            stored.address,
            RECORD_EDITED,
            f"its bytes hash to {actual[:12]}…, not to the address in its path",
            record,
        )
    if not isinstance(record, Event) or not record.event.startswith("release-"):
        return RecordCheck(stored.address, NOT_RELEASE, "only release events belong here", record)
    try:
        release_fields(record)
    except FormatError as e:
        return RecordCheck(stored.address, RECORD_UNREADABLE, str(e), record)
    if record.event == CANDIDATE and stored.receipt is None:
        return None
    if record.event not in (CANDIDATE, APPROVAL, PIN):
        return RecordCheck(
            stored.address, NOT_RELEASE, f"unknown release event {record.event!r}", record
        )
    if stored.receipt is not None:
        try:
            key_type, blob = receipt_key(stored.receipt)
        except FormatError:
            key_type, blob = "", b""
        if key_type == sshkeygen.SK_ED25519:
            return _check_with_ssh_keygen(stored, stored.receipt, record, blob, roots)
    check = check_record(
        stored.address, stored.data, stored.receipt, roots.signers, namespace=NAMESPACE
    )
    revoked = revoked_reason(stored.receipt, roots.revoked)
    if check.problem == UNTRUSTED_KEY and revoked is not None:
        return check._replace(detail=revoked)
    return check


def _check_with_ssh_keygen(
    stored: StoredRecord, receipt: bytes, record: Event, blob: bytes, roots: ReleaseRoots
) -> RecordCheck:
    # 1-3 (address, receipt present, readable record) were checked by the caller.
    # 4. The key the record names must be the key inside the receipt.
    fingerprint = fingerprint_of_blob(blob)
    if record.key != fingerprint:
        detail = f"it names key {record.key} but was signed by {fingerprint}"
        return RecordCheck(stored.address, WRITER_MISMATCH, detail, record)
    # 5. A revoked key vouches for nothing (ssh-keygen is told too, with -r).
    revoked = revoked_reason(receipt, roots.revoked)
    if revoked is not None:
        return RecordCheck(stored.address, UNTRUSTED_KEY, revoked, record)
    if roots.signers_text is None:
        detail = f"untrusted key: {fingerprint} is in no release trust root (none is committed)"
        return RecordCheck(stored.address, UNTRUSTED_KEY, detail, record)
    # 6. Signature, principal, namespace and validity at the record's time: ssh-keygen.
    try:
        sshkeygen.check_novalidate(stored.data, receipt, NAMESPACE)
    except TrustError as e:
        return RecordCheck(stored.address, RECEIPT_INVALID, str(e), record)
    trusted, reason = sshkeygen.verify(
        stored.data,
        receipt,
        record.writer,
        NAMESPACE,
        roots.signers_text,
        roots.revoked.text(),
        parse_time(record.created),
    )
    if not trusted:
        return RecordCheck(stored.address, UNTRUSTED_KEY, f"untrusted key: {reason}", record)
    return RecordCheck(stored.address, None, reason, record)


def read_checked(stored: StoredRecord, check: RecordCheck | None) -> ReleaseRecord | None:
    """The release record behind a check, or None when it is not a readable release
    record. Raises nothing."""
    record = parse_as(stored.data, Event)
    if record is None:
        return None
    try:
        release, sequence = release_fields(record)
    except FormatError:
        return None
    return ReleaseRecord(
        address=stored.address,
        event=record.event,
        release=release,
        sequence=sequence,
        principal=record.writer,
        key=record.key,
        created=record.created,
        trusted=check is not None and check.ok,
        reason="unsigned candidate" if check is None else check.detail,
        extra=record.extra,
        intact=check is None or check.ok or check.problem == UNTRUSTED_KEY,
    )
