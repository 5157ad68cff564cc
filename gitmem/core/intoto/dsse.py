"""DSSE v1.0 (Dead Simple Signing Envelope): the pre-authentication encoding, the JSON
envelope, and Ed25519 signatures over it.

The signature covers ``PAE(payloadType, payload)`` (DSSE protocol.md, "Signature
Definition")::

    "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body

with ``LEN`` the ASCII decimal byte length, no leading zeros. The envelope (DSSE
envelope.md) holds the payload in base64, its type, and one or more signatures, each
with an optional ``keyid`` hint; gitmem's keyid is the signing key's OpenSSH
fingerprint (``SHA256:…``). The same Ed25519 key signs SSHSIG receipts, whose signed
data starts with ``SSHSIG``; PAE starts with ``DSSEv1``, so no signature can stand for
both.

Pure: bytes and keys in, envelopes or typed errors out.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from nacl.bindings import crypto_sign_open
from nacl.exceptions import CryptoError

from gitmem.core import boundedjson
from gitmem.core.errors import InputError, IntegrityError
from gitmem.core.receipts import PublicKey, Signer

_PREFIX = b"DSSEv1"
_URL_SAFE = str.maketrans("-_", "+/")


def pae(payload_type: str, payload: bytes) -> bytes:
    """The pre-authentication encoding of *payload* of *payload_type*: the bytes a DSSE
    signature covers. Raises nothing."""
    kind = payload_type.encode("utf-8")
    return b"%s %d %s %d %s" % (_PREFIX, len(kind), kind, len(payload), payload)


class EnvelopeSignature(NamedTuple):
    keyid: str
    """The hint naming the key ("" when unset: unset and empty mean the same)."""
    sig: bytes


class Envelope(NamedTuple):
    """A DSSE JSON envelope, decoded."""

    payload: bytes
    payload_type: str
    signatures: tuple[EnvelopeSignature, ...]

    def to_json(self) -> dict[str, Any]:
        """The JSON envelope (standard base64, as most tools write it). Raises nothing."""
        return {
            "payload": base64.b64encode(self.payload).decode("ascii"),
            "payloadType": self.payload_type,
            "signatures": [
                {"keyid": s.keyid, "sig": base64.b64encode(s.sig).decode("ascii")}
                for s in self.signatures
            ],
        }

    def line(self) -> bytes:
        """The envelope as one JSON Lines line (compact, newline-terminated): a line of an
        in-toto bundle (``.intoto.jsonl``). Raises nothing."""
        text = json.dumps(self.to_json(), separators=(",", ":"), sort_keys=True)
        return text.encode("ascii") + b"\n"


def sign_envelope(payload_type: str, payload: bytes, signer: Signer) -> Envelope:
    """*payload* in an envelope signed by *signer* over its PAE; the keyid is the key's
    OpenSSH fingerprint. Raises nothing (a signer that cannot sign raises its own
    SigningKeyError)."""
    signature = signer.sign_raw(pae(payload_type, payload))
    keyid = signer.public_key.fingerprint()
    return Envelope(payload, payload_type, (EnvelopeSignature(keyid, signature),))


def parse_envelope(data: bytes | str) -> Envelope:
    """The envelope in one JSON text. Standard and URL-safe base64 are both accepted
    (DSSE: verifiers MUST accept either), with or without padding; unknown fields are
    ignored (DSSE parsing rules).

    Raises:
        InputError: not JSON, or not an object with a base64 ``payload``, a string
            ``payloadType`` and a list of ``signatures`` each with a base64 ``sig``.
    """
    try:
        value = boundedjson.loads(data)
    except ValueError as e:
        raise InputError(f"not a DSSE envelope: not JSON ({e})") from e
    if not isinstance(value, dict):
        raise InputError("not a DSSE envelope: not a JSON object")
    payload, payload_type, signatures = (
        value.get("payload"),
        value.get("payloadType"),
        value.get("signatures"),
    )
    if not isinstance(payload_type, str):
        raise InputError("not a DSSE envelope: payloadType must be a string")
    if not isinstance(signatures, list):
        raise InputError("not a DSSE envelope: signatures must be a list")
    return Envelope(
        b64decode(payload, "payload"),
        payload_type,
        tuple(_signature(s) for s in signatures),
    )


def _signature(value: object) -> EnvelopeSignature:
    if not isinstance(value, dict):
        raise InputError("not a DSSE envelope: each signature must be an object")
    keyid = value.get("keyid", "")
    if keyid is None:
        keyid = ""
    if not isinstance(keyid, str):
        raise InputError("not a DSSE envelope: a keyid must be a string")
    return EnvelopeSignature(keyid, b64decode(value.get("sig"), "sig"))


def b64decode(value: object, what: str) -> bytes:
    """Standard or URL-safe base64, padded or not.

    Raises:
        InputError: not a string of base64.
    """
    if not isinstance(value, str):
        raise InputError(f"not a DSSE envelope: {what} must be a base64 string")
    text = value.translate(_URL_SAFE)
    text += "=" * (-len(text) % 4)
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as e:
        raise InputError(f"not a DSSE envelope: {what} is not base64") from e


def _ed25519_ok(key: PublicKey, signature: bytes, data: bytes) -> bool:
    if len(signature) != 64:
        return False
    try:
        crypto_sign_open(signature + data, key.raw)
    except CryptoError:
        return False
    return True


def candidate_keys(envelope: Envelope, keys: Iterable[PublicKey]) -> list[PublicKey]:
    """The keys among *keys* that some signature of *envelope* may be by: those its keyid
    names, and every one for a signature with no keyid (the hint is unauthenticated: it
    only narrows which keys to try). Raises nothing."""
    known = list(dict.fromkeys(keys))
    wanted = {s.keyid for s in envelope.signatures}
    if "" in wanted:
        return known
    return [k for k in known if k.fingerprint() in wanted]


def verify_envelope(envelope: Envelope, keys: Sequence[PublicKey]) -> PublicKey:
    """The first of *keys* that signed *envelope*'s PAE (DSSE "To verify": filter by
    keyid, verify each signature over PAE(payloadType, payload)).

    Raises:
        IntegrityError: no signature verifies under any of *keys* (the payload or its
            type changed after signing, or the signature is not theirs).
    """
    message = pae(envelope.payload_type, envelope.payload)
    for signature in envelope.signatures:
        for key in keys:
            named = signature.keyid in ("", key.fingerprint())
            if named and _ed25519_ok(key, signature.sig, message):
                return key
    shown = ", ".join(sorted({s.keyid for s in envelope.signatures if s.keyid})) or "no keyid"
    raise IntegrityError(
        f"the envelope's signature ({shown}) does not verify over its payload: "
        "it was changed after it was signed"
    )
