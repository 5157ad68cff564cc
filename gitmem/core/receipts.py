"""Receipts: OpenSSH SSHSIG signatures over record bytes (trust roots:
:mod:`gitmem.core.allowed_signers`).

A pure core in the python-tuf sense: bytes and trusted keys in, verified objects or a
typed error out. Nothing here touches the disk, git, the clock or a subprocess; the time
a key must be valid at is always a parameter. The wire format is OpenSSH's
``PROTOCOL.sshsig`` (§1 armor, §2 blob, §3 signed data) restricted to Ed25519, and the
trust roots are ssh-keygen(1) ``allowed_signers`` files, so stock ``ssh-keygen -Y verify``
checks every receipt without gitmem. See ``docs/receipts.md``.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import struct
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from nacl.bindings import crypto_sign, crypto_sign_open, crypto_sign_seed_keypair
from nacl.exceptions import CryptoError

from gitmem.core import sshwire
from gitmem.core.canonical import Unread
from gitmem.core.errors import FormatError, SigningKeyError, TrustError
from gitmem.core.types import Fingerprint

ED25519 = "ssh-ed25519"

MAX_BYTES = 64 << 10
"""The most bytes a receipt may hold: an armored Ed25519 SSHSIG is ~300 (the namespace is
the one part of any length). A longer one is left unread
(:class:`gitmem.core.canonical.Unread`)."""
_MAGIC = b"SSHSIG"
_SIG_VERSION = 1
_HASHES = {"sha256": hashlib.sha256, "sha512": hashlib.sha512}
"""The hashes SSHSIG names, each by its constructor (``hashlib.new`` by name costs more
than the hash of a small record)."""
_BEGIN = b"-----BEGIN SSH SIGNATURE-----\n"
_END = b"-----END SSH SIGNATURE-----"
_WRAP = 70  # columns ssh-keygen wraps at (PROTOCOL.sshsig only says "SHOULD ... 76")


# --- keys ------------------------------------------------------------------------------


@functools.lru_cache(maxsize=256)  # a store is signed by a handful of keys, over and over
def fingerprint_of_blob(blob: bytes) -> Fingerprint:
    """``SHA256:`` + unpadded base64 of SHA-256(blob), as ``ssh-keygen -lf`` prints it,
    for a key of any type. Raises nothing."""
    digest = base64.b64encode(hashlib.sha256(blob).digest()).rstrip(b"=")
    return Fingerprint("SHA256:" + digest.decode("ascii"))


@functools.lru_cache(maxsize=256)
def _fingerprint_of_raw(raw: bytes) -> Fingerprint:
    """The fingerprint of the Ed25519 key *raw*, its blob built once per key (every
    record a store's check reads asks for its signer's). Raises nothing."""
    return fingerprint_of_blob(sshwire.string(ED25519.encode()) + sshwire.string(raw))


@dataclass(frozen=True)
class PublicKey:
    """An Ed25519 public key (32 raw bytes) as OpenSSH names and encodes it."""

    raw: bytes
    algorithm: str = ED25519

    def __post_init__(self) -> None:
        """Raises FormatError for a non-Ed25519 algorithm or a key that is not 32 bytes."""
        if self.algorithm != ED25519:
            raise FormatError(f"key type {self.algorithm} is not supported (only {ED25519})")
        if len(self.raw) != 32:
            raise FormatError(f"an Ed25519 public key is 32 bytes, not {len(self.raw)}")

    def blob(self) -> bytes:
        """SSH wire encoding: ``string "ssh-ed25519", string raw``. Raises nothing."""
        return sshwire.string(ED25519.encode()) + sshwire.string(self.raw)

    def openssh(self) -> str:
        """The ``ssh-ed25519 AAAAC3...`` form of ``.pub`` files. Raises nothing."""
        return f"{ED25519} {base64.b64encode(self.blob()).decode('ascii')}"

    def fingerprint(self) -> Fingerprint:
        """``SHA256:`` + unpadded base64 of SHA-256(blob), as ``ssh-keygen -lf``. Raises nothing."""
        return _fingerprint_of_raw(self.raw)

    @classmethod
    def from_blob(cls, blob: bytes) -> PublicKey:
        """Parse an SSH wire-format key. Raises FormatError unless it is a valid Ed25519 blob."""
        reader = sshwire.Reader(blob, "public key")
        key_type = reader.string("key type")
        if key_type != ED25519.encode():
            shown = key_type.decode("ascii", "replace")
            raise FormatError(f"key type {shown!r} is not supported (only {ED25519})")
        raw = reader.string("key bytes")
        reader.end()
        return cls(raw)

    @classmethod
    def from_openssh(cls, text: str) -> PublicKey:
        """Parse ``ssh-ed25519 AAAA... [comment]``. Raises FormatError for anything else."""
        parts = text.split()
        if len(parts) < 2:
            raise FormatError("an OpenSSH public key line needs a key type and base64 key")
        key = cls.from_blob(sshwire.b64decode(parts[1], "the public key"))
        if parts[0] != key.algorithm:
            raise FormatError(f"key line says {parts[0]!r} but holds an {key.algorithm} key")
        return key


class Signer(Protocol):
    """Anything that holds an Ed25519 private key: a seed in memory, an ssh-agent, a token."""

    @property
    def public_key(self) -> PublicKey: ...

    def sign_raw(self, data: bytes) -> bytes:
        """Return the 64-byte Ed25519 signature of *data*."""
        ...


@dataclass(frozen=True)
class Ed25519Signer:
    """A :class:`Signer` from a 32-byte Ed25519 seed (the raw private key)."""

    seed: bytes = field(repr=False)

    def __post_init__(self) -> None:
        """Raises SigningKeyError when the seed is not 32 bytes."""
        if len(self.seed) != 32:
            raise SigningKeyError(f"an Ed25519 private key seed is 32 bytes, not {len(self.seed)}")

    @classmethod
    def generate(cls) -> Ed25519Signer:
        """A fresh key from the OS random source. Raises nothing."""
        import secrets  # only a new key needs randomness; verifying never does

        return cls(secrets.token_bytes(32))

    @functools.cached_property
    def _keypair(self) -> tuple[bytes, bytes]:
        public, secret = crypto_sign_seed_keypair(self.seed)
        return bytes(public), bytes(secret)

    @property
    def public_key(self) -> PublicKey:
        """The matching public key. Raises nothing."""
        return PublicKey(self._keypair[0])

    def sign_raw(self, data: bytes) -> bytes:
        """The 64-byte Ed25519 signature of *data*. Raises nothing."""
        return bytes(crypto_sign(data, self._keypair[1])[:64])


# --- SSHSIG ----------------------------------------------------------------------------


class Signature(NamedTuple):
    """A parsed SSHSIG blob; after :func:`verify`, proof that ``public_key`` signed the message."""

    public_key: PublicKey
    namespace: str
    hash_algorithm: str
    signature: bytes


def _signed_data(namespace: str, hash_algorithm: str, message: bytes) -> bytes:
    # PROTOCOL.sshsig §3: MAGIC_PREAMBLE, string namespace, string reserved (empty),
    # string hash_algorithm, string H(message).
    digest = _HASHES[hash_algorithm](message).digest()
    return (
        _MAGIC
        + sshwire.string(namespace.encode("utf-8"))
        + sshwire.string(b"")
        + sshwire.string(hash_algorithm.encode("ascii"))
        + sshwire.string(digest)
    )


def _ed25519_ok(key: PublicKey, signature: bytes, data: bytes) -> bool:
    try:
        crypto_sign_open(signature + data, key.raw)
    except CryptoError:
        return False
    return True


def sign(message: bytes, signer: Signer, namespace: str, hash_algorithm: str = "sha512") -> bytes:
    """Sign *message* and return armored SSHSIG bytes, byte-identical to ``ssh-keygen -Y sign``.

    Raises ValueError for an empty namespace or a hash other than sha256/sha512, and
    SigningKeyError when the signer returns a signature that does not verify under its own
    public key (a broken agent or a mismatched key pair).
    """
    if not namespace or "\0" in namespace:
        raise ValueError("an SSHSIG namespace must be non-empty and contain no NUL")
    if hash_algorithm not in _HASHES:
        raise ValueError(f"hash algorithm must be sha256 or sha512, not {hash_algorithm!r}")
    key = signer.public_key
    data = _signed_data(namespace, hash_algorithm, message)
    raw = signer.sign_raw(data)
    if len(raw) != 64 or not _ed25519_ok(key, raw, data):
        raise SigningKeyError(
            f"the signer for {key.fingerprint()} made a signature that does not verify"
        )
    # PROTOCOL.sshsig §2: the blob, then §1: base64 between header and footer.
    blob = (
        _MAGIC
        + struct.pack(">I", _SIG_VERSION)
        + sshwire.string(key.blob())
        + sshwire.string(namespace.encode("utf-8"))
        + sshwire.string(b"")
        + sshwire.string(hash_algorithm.encode("ascii"))
        + sshwire.string(sshwire.string(ED25519.encode()) + sshwire.string(raw))
    )
    b64 = base64.b64encode(blob)
    lines = [b64[i : i + _WRAP] for i in range(0, len(b64), _WRAP)]
    return _BEGIN + b"\n".join(lines) + b"\n" + _END + b"\n"


def _open(armored: bytes) -> sshwire.Reader:
    """Steps 1-3 of reading a receipt: armor, magic preamble, version.

    Raises:
        FormatError: bad armor or base64, a wrong magic or an unsupported version.
    """
    return _reader(_armored_blob(armored))


def _armored_blob(armored: bytes) -> bytes:
    """Step 1 of reading a receipt: the blob inside its armor.

    Raises:
        FormatError: bad armor or base64.
    """
    if isinstance(armored, Unread):
        raise FormatError(f"the receipt: {armored.reason}")
    # 1. §1 armor: the header starts the bytes, the footer follows a newline and ends them.
    if not armored.startswith(_BEGIN):
        raise FormatError("receipt does not start with '-----BEGIN SSH SIGNATURE-----'")
    body = armored[len(_BEGIN) :]
    for tail in (b"\n" + _END + b"\n", b"\n" + _END):
        if body.endswith(tail):
            body = body[: -len(tail)]
            break
    else:
        raise FormatError("receipt does not end with '-----END SSH SIGNATURE-----'")
    lines = body.split(b"\n")
    if any(not line for line in lines):
        raise FormatError("receipt armor has an empty line")
    return sshwire.b64decode(b"".join(lines), "receipt body")


def _reader(blob: bytes) -> sshwire.Reader:
    """Steps 2-3 of reading a receipt: magic preamble, version; a reader after them.

    Raises:
        FormatError: a wrong magic or an unsupported version.
    """
    reader = sshwire.Reader(blob, "receipt")
    # 2. §2 MAGIC_PREAMBLE "SSHSIG".
    if reader.take(len(_MAGIC), "magic preamble") != _MAGIC:
        raise FormatError("receipt does not start with the SSHSIG magic preamble")
    # 3. §2 SIG_VERSION: verifiers MUST reject versions they do not support; we know 1 only.
    version = reader.uint32("version")
    if version != _SIG_VERSION:
        raise FormatError(f"receipt has SSHSIG version {version}; only version 1 is supported")
    return reader


def receipt_key(armored: bytes) -> tuple[str, bytes]:
    """The type and wire blob of the key inside an SSHSIG, of any key type (a hardware
    ``sk-`` key included, which :func:`parse_signature` refuses).

    Raises:
        FormatError: not an armored SSHSIG of version 1.
    """
    key = _open(armored).string("public key")
    return sshwire.Reader(key, "public key").text("key type"), key


def parse_signature(armored: bytes) -> Signature:
    """Parse armored SSHSIG bytes without checking the signature.

    Raises FormatError for bad armor or base64, a wrong magic or version, a non-empty
    reserved field, a non-Ed25519 key or signature, wrong lengths, an unknown hash
    algorithm, an empty namespace, or trailing bytes.
    """
    blob = _armored_blob(armored)  # step 1
    head = _HEADS.get(blob[:-_TAIL])
    if head is not None and blob[-_TAIL:-64] == _SIG_HEAD:
        # Steps 2-9 gave this very head before, and a signature field of the one
        # layout they accept follows it: the same answer without reading it again.
        return Signature(head[0], head[1], head[2], blob[-64:])
    reader = _reader(blob)  # steps 2-3
    # 4. §2 publickey: the usual SSH encoding; Ed25519 only.
    key = _key_of_blob(reader.string("public key"))
    # 5. §2 namespace: MUST NOT be empty.
    namespace = reader.text("namespace")
    if not namespace:
        raise FormatError("receipt has an empty namespace")
    # 6. §2 reserved: the spec lets readers ignore it, but ssh-keygen never signs it, so a
    #    non-empty value would be unsigned bytes inside a receipt; we refuse them.
    if reader.string("reserved field"):
        raise FormatError("receipt has a non-empty reserved field")
    # 7. §2 hash_algorithm: "sha256" or "sha512".
    hash_algorithm = reader.text("hash algorithm")
    if hash_algorithm not in _HASHES:
        raise FormatError(f"receipt uses unsupported hash algorithm {hash_algorithm!r}")
    # 8. §2 signature: the SSH Ed25519 encoding, string "ssh-ed25519", string sig[64].
    inner = sshwire.Reader(reader.string("signature"), "receipt signature")
    if inner.string("signature type") != ED25519.encode():
        raise FormatError(f"receipt signature is not an {ED25519} signature")
    raw = inner.string("signature bytes")
    inner.end()
    if len(raw) != 64:
        raise FormatError(f"an Ed25519 signature is 64 bytes, not {len(raw)}")
    # 9. Nothing may follow the signature.
    reader.end()
    if len(_HEADS) < _MAX_HEADS:
        _HEADS[blob[:-_TAIL]] = (key, namespace, hash_algorithm)
    return Signature(key, namespace, hash_algorithm, raw)


_SIG_HEAD = sshwire.string(sshwire.string(ED25519.encode()) + sshwire.string(bytes(64)))[:-64]
"""How the signature field of every valid receipt starts, before its 64 bytes."""
_TAIL = len(_SIG_HEAD) + 64
_HEADS: dict[bytes, tuple[PublicKey, str, str]] = {}
"""Each receipt head (magic to hash algorithm) :func:`parse_signature` accepted, with what
it holds: a store's receipts share a handful of heads (one per key and namespace), and
reading each again costs more than the signature check."""
_MAX_HEADS = 256


@functools.lru_cache(maxsize=256)  # a store is signed by a handful of keys, over and over
def _key_of_blob(blob: bytes) -> PublicKey:
    """:meth:`PublicKey.from_blob`, parsed once per key blob (a failure is not kept: it
    raises again). Raises FormatError unless *blob* is a valid Ed25519 key."""
    return PublicKey.from_blob(blob)


def verify(message: bytes, armored: bytes, namespace: str) -> Signature:
    """Check that *armored* is a valid SSHSIG over exactly *message* in *namespace*.

    This proves that the key inside the receipt signed; whether that key is trusted
    for a principal is :func:`check_trust`'s question. Raises FormatError when the
    receipt is malformed, TrustError when the namespace differs or the signature does
    not verify over *message*.
    """
    sig = parse_signature(armored)  # steps 1-9
    # 10. The namespace in the blob must equal the one the caller expects.
    if sig.namespace != namespace:
        raise TrustError(f"receipt is for namespace {sig.namespace!r}, not {namespace!r}")
    # 11. §3: rebuild the signed data from the expected namespace and H(message) ...
    data = _signed_data(namespace, sig.hash_algorithm, message)
    # 12. ... and check it under the key from the blob.
    if not _ed25519_ok(sig.public_key, sig.signature, data):
        raise TrustError(
            f"receipt signature by {sig.public_key.fingerprint()} does not match these bytes"
        )
    return sig
