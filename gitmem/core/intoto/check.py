"""The check of one memory-item envelope before its bytes are stored (``gitmem import
--format intoto``).

Integrity is required and trust in the exporter too; the records inside are held to
the rule sync holds them to (intact, whoever signed them: the reader decides trust when
it reads). In order:

1. Only DSSE envelopes of in-toto statements are looked at; any other line of a bundle
   is not this check's (in-toto bundles: consumers ignore what they do not recognise).
2. The envelope is verified before its payload is parsed: a signature over
   PAE(payloadType, payload) by a key the trust roots list, found by its keyid.
3. The statement's predicate must be a memory item (another one is not this check's),
   and the exporter it names must be the key that signed, trusted for that principal
   in namespace ``gitmem`` at the export's time.
4. The item's bytes hash to the ``sha256`` (and ``gitBlob``) its subject names, and
   parse as an item.
5. Its checkpoint's bytes hash to their digest, its SSHSIG receipt verifies over them
   by the key the checkpoint names, the checkpoint names the item, and the ``gitCommit``
   subject is the commit it records.
6. Each lifecycle event: the same, and it is about the item.
7. Each snapshot's bytes hash to their digest.
8. What the predicate says of the item agrees with its bytes: kind, text, session,
   writer and key.

Records and snapshots that several items share travel once per file: a descriptor
without ``content`` is resolved from *known* (what :func:`carried` found in every line,
and what the store holds), by its digest; what is named and not known is refused.

Pure: an envelope and the reader's trust roots in; the verified bytes, or a typed error
saying which step failed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from gitmem.core import boundedjson
from gitmem.core.allowed_signers import check_trust
from gitmem.core.canonical import sha256_hex
from gitmem.core.errors import FormatError, InputError, IntegrityError, TrustError
from gitmem.core.integrity import UNTRUSTED_KEY, TrustRoots
from gitmem.core.intoto.dsse import Envelope, candidate_keys, verify_envelope
from gitmem.core.intoto.memory import COMMIT_SUBJECT, MEMORY_ITEM
from gitmem.core.intoto.statement import (
    PAYLOAD_TYPE,
    content_of,
    git_blob_id,
    parse_statement,
    sha256_of,
)
from gitmem.core.items import parse_item
from gitmem.core.receipts import PublicKey
from gitmem.core.records import NAMESPACE, Checkpoint, Event, Record, parse_time
from gitmem.core.types import Sha256Hex


class CheckedRecord(NamedTuple):
    """A record whose bytes and receipt hold (its signer perhaps not trusted here)."""

    address: Sha256Hex
    record: Record
    data: bytes
    receipt: bytes
    trusted: bool


class CheckedItem(NamedTuple):
    """What one envelope brings, verified: the item, its checkpoint, its events, and
    the snapshots it names."""

    address: Sha256Hex
    data: bytes
    records: tuple[CheckedRecord, ...]
    """The checkpoint first, then the events."""
    snapshots: Mapping[str, bytes]
    exporter: str


def carried(envelope: Envelope) -> tuple[dict[str, bytes], set[str]]:
    """The bytes a memory-item envelope carries for its records and snapshots, by
    SHA-256, and the digests it only names. Only bytes that hash to their digest are
    taken, so it does not matter which line brought them; nothing else is trusted here,
    and what does not read is left to :func:`check_envelope` to refuse. Raises nothing."""
    try:
        value = parse_statement(envelope.payload)
    except InputError:
        return {}, set()
    predicate = value.get("predicate") or {}
    if value["predicateType"] != MEMORY_ITEM or not isinstance(predicate, dict):
        return {}, set()
    lifecycle = predicate.get("lifecycle")
    events = lifecycle.get("events") if isinstance(lifecycle, dict) else None
    signed = [predicate.get("checkpoint"), *(events if isinstance(events, list) else [])]
    found = [s.get("record") for s in signed if isinstance(s, dict)]
    snapshots = predicate.get("snapshots")
    found += snapshots if isinstance(snapshots, list) else []
    brought: dict[str, bytes] = {}
    named: set[str] = set()
    for descriptor in found:
        try:
            data = content_of(descriptor, "it")
            digest = sha256_of(descriptor, "it")
        except FormatError:
            continue
        if data is None:
            named.add(digest)
        else:
            brought[digest] = data
    return brought, named


def root_keys(roots: TrustRoots) -> list[PublicKey]:
    """Every plain key the roots list (cert-authority lines trust no plain key). Raises
    nothing."""
    return [e.key for root in roots.signers for e in root.entries if not e.cert_authority]


Checked = dict[tuple[str, bytes | None], CheckedRecord]
"""Records already checked in this import, by (address, receipt): a checkpoint and an
event serve several items, and the same bytes check the same."""


def check_envelope(
    envelope: Envelope,
    roots: TrustRoots,
    known: Mapping[str, bytes],
    checked: Checked | None = None,
) -> CheckedItem | None:
    """Steps 1–8 of the module: the verified content of a memory-item envelope, or None
    for an envelope that is not one (another in-toto attestation). *known* holds, by
    SHA-256, the bytes of records and snapshots the envelope may only name; *checked*
    keeps the records found to hold, for the next envelope that names them.

    Raises:
        TrustError: signed by a key no root lists, or one not trusted for the exporter.
        IntegrityError: a signature, digest, receipt or record that does not hold
            (:class:`FormatError` for bytes that are not what they must be).
        InputError: a signed payload that is not an in-toto statement.
    """
    # 1. An in-toto statement, or not this check's.
    if envelope.payload_type != PAYLOAD_TYPE:
        return None
    # 2. The signature, before the payload is parsed.
    keys = candidate_keys(envelope, root_keys(roots))
    if not keys:
        if _peek_type(envelope.payload) != MEMORY_ITEM:
            return None
        named = ", ".join(sorted({s.keyid for s in envelope.signatures})) or "no keyid"
        raise TrustError(f"untrusted key: the envelope is signed by {named}, in no trust root")
    key = verify_envelope(envelope, keys)
    # 3. A memory item, by a trusted exporter.
    value = parse_statement(envelope.payload)
    if value["predicateType"] != MEMORY_ITEM:
        return None
    predicate: dict[str, Any] = value.get("predicate") or {}
    exporter = _trusted_exporter(predicate, key, roots)
    # 4. The item, against its subject.
    address, data = _item(value["subject"], predicate.get("item"))
    item = parse_item(data)
    # 5. Its checkpoint and receipt.
    checked = {} if checked is None else checked
    checkpoint = _signed(predicate.get("checkpoint"), "its checkpoint", roots, known, checked)
    record = checkpoint.record
    if not isinstance(record, Checkpoint) or address not in record.named:
        raise IntegrityError("its checkpoint does not name the item")
    commits = [s["digest"].get("gitCommit") for s in value["subject"] if "gitCommit" in s["digest"]]
    if commits != ([] if record.commit is None else [record.commit]):
        raise IntegrityError(
            f"its {COMMIT_SUBJECT} subject {commits} is not the commit its checkpoint "
            f"records ({record.commit})"
        )
    # 6. Its lifecycle events.
    lifecycle = predicate.get("lifecycle")
    events = lifecycle.get("events") if isinstance(lifecycle, dict) else None
    if not isinstance(events, list):
        raise FormatError("its lifecycle has no list of events")
    records = [checkpoint]
    for n, found in enumerate(events, 1):
        event = _signed(found, f"its lifecycle event {n}", roots, known, checked)
        if not isinstance(event.record, Event) or event.record.part_for(address) is None:
            raise IntegrityError(f"its lifecycle event {n} is not about the item")
        records.append(event)
    # 7. Its snapshots.
    snapshots = predicate.get("snapshots")
    if not isinstance(snapshots, list):
        raise FormatError("it has no list of snapshots")
    brought = {
        sha256_of(s, f"snapshot {n}"): _bytes(s, f"its snapshot {n}", known)
        for n, s in enumerate(snapshots, 1)
    }
    # 8. What it says agrees with the bytes.
    said = {
        "kind": item.kind,
        "text": item.text,
        "session": item.origin_session,
        "writer": record.writer,
        "key": record.key,
    }
    for field, truth in said.items():
        claimed = predicate.get(field)
        if claimed != truth and not (field == "text" and claimed is None):
            raise IntegrityError(f"its {field} {claimed!r} is not what its bytes say ({truth!r})")
    return CheckedItem(address, data, tuple(records), brought, exporter)


def _peek_type(payload: bytes) -> object:
    """The predicate type a payload claims, read only to tell whether an envelope no
    root's key signed is ours to refuse or another tool's to ignore."""
    try:
        value = boundedjson.loads(payload)
    except ValueError:
        return None
    return value.get("predicateType") if isinstance(value, dict) else None


def _trusted_exporter(predicate: Mapping[str, Any], key: PublicKey, roots: TrustRoots) -> str:
    exporter = predicate.get("exporter")
    principal = exporter.get("principal") if isinstance(exporter, dict) else None
    named = exporter.get("key") if isinstance(exporter, dict) else None
    if not isinstance(principal, str) or not principal:
        raise FormatError("it names no exporter")
    if named != key.fingerprint():
        raise IntegrityError(f"its exporter's key {named} is not the key that signed it")
    verdict = check_trust(
        roots.signers, key, principal, NAMESPACE, parse_time(str(predicate.get("exportedAt")))
    )
    if not verdict.trusted:
        raise TrustError(verdict.reason)
    return principal


def _item(subjects: list[dict[str, Any]], found: object) -> tuple[Sha256Hex, bytes]:
    data = content_of(found, "its item")
    if data is None:
        raise FormatError("its item's bytes are not in it")
    address = sha256_hex(data)
    named = [s["digest"] for s in subjects if "sha256" in s["digest"]]
    if len(named) != 1 or named[0]["sha256"] != address:
        shown = [d.get("sha256", "")[:12] for d in named]
        raise IntegrityError(
            f"its subject's sha256 {shown} is not the digest of the item it carries "
            f"({address[:12]}…)"
        )
    if named[0].get("gitBlob", git_blob_id(data)) != git_blob_id(data):
        raise IntegrityError("its subject's gitBlob is not the item it carries")
    return address, data


def _bytes(found: object, what: str, known: Mapping[str, bytes]) -> bytes:
    """The bytes a descriptor carries, or those *known* holds for its digest.

    Raises:
        FormatError: not a descriptor, or content that does not hash to its digest.
        IntegrityError: only named, and not known.
    """
    data = content_of(found, what)
    if data is not None:
        return data
    digest = sha256_of(found, what)
    if digest not in known:
        raise IntegrityError(
            f"{what} ({digest[:12]}…) is named without its bytes, and neither the file nor "
            "the store holds them"
        )
    return known[digest]


def _signed(
    found: object, what: str, roots: TrustRoots, known: Mapping[str, bytes], checked: Checked
) -> CheckedRecord:
    """A record and its receipt, checked as sync checks what it fetches: intact (bytes,
    form, a receipt by the key the record names) whoever signed it."""
    if not isinstance(found, dict):
        raise FormatError(f"{what} is not a record with its receipt")
    data = _bytes(found.get("record"), what, known)
    receipt_found = found.get("receipt")
    receipt = None if receipt_found is None else content_of(receipt_found, f"{what}'s receipt")
    address = sha256_hex(data)
    if (address, receipt) in checked:
        return checked[address, receipt]
    check = roots.check(address, data, receipt)
    if check.record is None or receipt is None or not (check.ok or check.problem == UNTRUSTED_KEY):
        raise IntegrityError(f"{what}'s receipt does not hold: {check.summary}")
    checked[address, receipt] = CheckedRecord(address, check.record, data, receipt, check.ok)
    return checked[address, receipt]
