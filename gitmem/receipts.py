"""Receipts: OpenSSH SSHSIG signatures over record bytes, and allowed_signers trust roots.

A pure core in the python-tuf sense: bytes and trusted keys in, verified objects or a
typed error out. Nothing here touches the disk, git, the clock or a subprocess; the time
a key must be valid at is always a parameter. The wire format is OpenSSH's
``PROTOCOL.sshsig`` (§1 armor, §2 blob, §3 signed data) restricted to Ed25519, and the
trust roots are ssh-keygen(1) ``allowed_signers`` files, so stock ``ssh-keygen -Y verify``
checks every receipt without gitmem. See ``docs/receipts.md``.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import re
import secrets
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Protocol

from nacl.bindings import crypto_sign, crypto_sign_open, crypto_sign_seed_keypair
from nacl.exceptions import CryptoError

from gitmem.errors import FormatError, KeyError_, TrustError
from gitmem.types import Fingerprint

ED25519 = "ssh-ed25519"

_MAGIC = b"SSHSIG"
_SIG_VERSION = 1
_HASHES = ("sha256", "sha512")
_BEGIN = b"-----BEGIN SSH SIGNATURE-----\n"
_END = b"-----END SSH SIGNATURE-----"
_WRAP = 70  # columns ssh-keygen wraps at (PROTOCOL.sshsig only says "SHOULD ... 76")
_WS = " \t\r"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


# --- SSH wire encoding (RFC 4253 §5) ---------------------------------------------------


def _string(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


class _Reader:
    """Reads RFC 4253 fields from a byte string; every short read is a FormatError."""

    def __init__(self, data: bytes, what: str) -> None:
        self._data = data
        self._pos = 0
        self._what = what

    def take(self, n: int, field_name: str) -> bytes:
        end = self._pos + n
        if end > len(self._data):
            raise FormatError(f"{self._what} is truncated inside its {field_name}")
        chunk = self._data[self._pos : end]
        self._pos = end
        return chunk

    def uint32(self, field_name: str) -> int:
        value: int = struct.unpack(">I", self.take(4, field_name))[0]
        return value

    def string(self, field_name: str) -> bytes:
        return self.take(self.uint32(field_name), field_name)

    def text(self, field_name: str) -> str:
        raw = self.string(field_name)
        try:
            value = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise FormatError(f"{self._what} has a {field_name} that is not UTF-8") from e
        if "\0" in value:
            raise FormatError(f"{self._what} has a NUL byte in its {field_name}")
        return value

    def end(self) -> None:
        if self._pos != len(self._data):
            raise FormatError(f"{self._what} has {len(self._data) - self._pos} trailing bytes")


def _b64decode(text: bytes | str, what: str) -> bytes:
    """Strict base64: alphabet only, padded, and canonical (so encodings are not malleable)."""
    data = text.encode("ascii", "replace") if isinstance(text, str) else text
    try:
        out = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError) as e:
        raise FormatError(f"{what} is not valid base64") from e
    if base64.b64encode(out) != data:
        raise FormatError(f"{what} is not canonical base64")
    return out


# --- keys ------------------------------------------------------------------------------


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
        return _string(ED25519.encode()) + _string(self.raw)

    def openssh(self) -> str:
        """The ``ssh-ed25519 AAAAC3...`` form of ``.pub`` files. Raises nothing."""
        return f"{ED25519} {base64.b64encode(self.blob()).decode('ascii')}"

    def fingerprint(self) -> Fingerprint:
        """``SHA256:`` + unpadded base64 of SHA-256(blob), as ``ssh-keygen -lf``. Raises nothing."""
        digest = base64.b64encode(hashlib.sha256(self.blob()).digest()).rstrip(b"=")
        return Fingerprint("SHA256:" + digest.decode("ascii"))

    @classmethod
    def from_blob(cls, blob: bytes) -> PublicKey:
        """Parse an SSH wire-format key. Raises FormatError unless it is a valid Ed25519 blob."""
        reader = _Reader(blob, "public key")
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
        key = cls.from_blob(_b64decode(parts[1], "the public key"))
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
        """Raises KeyError_ when the seed is not 32 bytes."""
        if len(self.seed) != 32:
            raise KeyError_(f"an Ed25519 private key seed is 32 bytes, not {len(self.seed)}")

    @classmethod
    def generate(cls) -> Ed25519Signer:
        """A fresh key from the OS random source. Raises nothing."""
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


@dataclass(frozen=True)
class Signature:
    """A parsed SSHSIG blob; after :func:`verify`, proof that ``public_key`` signed the message."""

    public_key: PublicKey
    namespace: str
    hash_algorithm: str
    signature: bytes


def _signed_data(namespace: str, hash_algorithm: str, message: bytes) -> bytes:
    # PROTOCOL.sshsig §3: MAGIC_PREAMBLE, string namespace, string reserved (empty),
    # string hash_algorithm, string H(message).
    digest = hashlib.new(hash_algorithm, message).digest()
    return (
        _MAGIC
        + _string(namespace.encode("utf-8"))
        + _string(b"")
        + _string(hash_algorithm.encode("ascii"))
        + _string(digest)
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
    KeyError_ when the signer returns a signature that does not verify under its own
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
        raise KeyError_(f"the signer for {key.fingerprint()} made a signature that does not verify")
    # PROTOCOL.sshsig §2: the blob, then §1: base64 between header and footer.
    blob = (
        _MAGIC
        + struct.pack(">I", _SIG_VERSION)
        + _string(key.blob())
        + _string(namespace.encode("utf-8"))
        + _string(b"")
        + _string(hash_algorithm.encode("ascii"))
        + _string(_string(ED25519.encode()) + _string(raw))
    )
    b64 = base64.b64encode(blob)
    lines = [b64[i : i + _WRAP] for i in range(0, len(b64), _WRAP)]
    return _BEGIN + b"\n".join(lines) + b"\n" + _END + b"\n"


def parse_signature(armored: bytes) -> Signature:
    """Parse armored SSHSIG bytes without checking the signature.

    Raises FormatError for bad armor or base64, a wrong magic or version, a non-empty
    reserved field, a non-Ed25519 key or signature, wrong lengths, an unknown hash
    algorithm, an empty namespace, or trailing bytes.
    """
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
    blob = _b64decode(b"".join(lines), "receipt body")
    reader = _Reader(blob, "receipt")
    # 2. §2 MAGIC_PREAMBLE "SSHSIG".
    if reader.take(len(_MAGIC), "magic preamble") != _MAGIC:
        raise FormatError("receipt does not start with the SSHSIG magic preamble")
    # 3. §2 SIG_VERSION: verifiers MUST reject versions they do not support; we know 1 only.
    version = reader.uint32("version")
    if version != _SIG_VERSION:
        raise FormatError(f"receipt has SSHSIG version {version}; only version 1 is supported")
    # 4. §2 publickey: the usual SSH encoding; Ed25519 only.
    key = PublicKey.from_blob(reader.string("public key"))
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
    inner = _Reader(reader.string("signature"), "receipt signature")
    if inner.string("signature type") != ED25519.encode():
        raise FormatError(f"receipt signature is not an {ED25519} signature")
    raw = inner.string("signature bytes")
    inner.end()
    if len(raw) != 64:
        raise FormatError(f"an Ed25519 signature is 64 bytes, not {len(raw)}")
    # 9. Nothing may follow the signature.
    reader.end()
    return Signature(key, namespace, hash_algorithm, raw)


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


# --- allowed_signers -------------------------------------------------------------------


@functools.lru_cache(maxsize=512)
def _pattern(pattern: str) -> re.Pattern[str]:
    # ssh_config(5) PATTERNS: '*' is any run of characters, '?' exactly one.
    text = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)
    return re.compile(text, re.DOTALL)


def _match_list(value: str, patterns: Sequence[str]) -> bool:
    # match_pattern_list: a match of any "!pattern" vetoes; otherwise one positive match
    # is needed.
    positive = False
    for item in patterns:
        negated = item.startswith("!")
        if _pattern(item[1:] if negated else item).fullmatch(value):
            if negated:
                return False
            positive = True
    return positive


def _floor_seconds(when: datetime) -> datetime:
    if when.tzinfo is None or when.utcoffset() is None:
        raise ValueError("a verification time must be timezone-aware")
    return when.replace(microsecond=0)


def _ssh_time(when: datetime) -> str:
    when = when.astimezone(UTC)
    if when.time() == datetime.min.time():
        return when.strftime("%Y%m%dZ")
    return when.strftime("%Y%m%d%H%MZ" if when.second == 0 else "%Y%m%d%H%M%SZ")


def _human_time(when: datetime) -> str:
    when = when.astimezone(UTC)
    if when.time() == datetime.min.time():
        return when.strftime("%Y-%m-%d")
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def _quote_principals(principals: str) -> str:
    if '"' in principals or "\n" in principals or "\0" in principals:
        raise ValueError(f"principals {principals!r} cannot be written in allowed_signers")
    if not principals or principals.startswith("#") or any(c in principals for c in _WS):
        return f'"{principals}"'
    return principals


@dataclass(frozen=True)
class AllowedSigner:
    """One line of an allowed_signers file: who may sign with which key, for what, when."""

    principals: tuple[str, ...]
    key: PublicKey
    namespaces: tuple[str, ...] | None
    valid_after: datetime | None
    valid_before: datetime | None
    cert_authority: bool
    source: str
    line: int
    comment: str = ""

    def matches_principal(self, principal: str) -> bool:
        """True when *principal* matches the pattern list (``*``, ``?``, ``!``). Raises nothing."""
        return _match_list(principal, self.principals)

    def allows_namespace(self, namespace: str) -> bool:
        """True when no ``namespaces=`` was given or *namespace* matches it. Raises nothing."""
        return self.namespaces is None or _match_list(namespace, self.namespaces)

    def valid_at(self, when: datetime) -> bool:
        """True when valid-after <= *when* <= valid-before (whole seconds, as ssh-keygen).

        Raises ValueError when *when* is a naive datetime.
        """
        when = _floor_seconds(when)
        if self.valid_after is not None and when < self.valid_after:
            return False
        return self.valid_before is None or when <= self.valid_before

    def to_line(self) -> str:
        """This entry in allowed_signers syntax (times in UTC with ``Z``).

        Raises ValueError when a principal holds a double quote or a newline, which the
        format cannot express.
        """
        options = ["cert-authority"] if self.cert_authority else []
        if self.namespaces is not None:
            value = ",".join(self.namespaces).replace('"', '\\"')
            options.append(f'namespaces="{value}"')
        if self.valid_after is not None:
            options.append(f'valid-after="{_ssh_time(self.valid_after)}"')
        if self.valid_before is not None:
            options.append(f'valid-before="{_ssh_time(self.valid_before)}"')
        fields = [_quote_principals(",".join(self.principals))]
        fields += [",".join(options)] if options else []
        fields.append(self.key.openssh())
        fields += [self.comment] if self.comment else []
        return " ".join(fields)


@dataclass(frozen=True)
class AllowedSignersFile:
    """A parsed trust root: its usable entries and one sentence per skipped line."""

    entries: tuple[AllowedSigner, ...]
    problems: tuple[str, ...]


class _LineError(Exception):
    """A malformed allowed_signers line; the message completes "line N: ..."."""


def _split_token(text: str) -> tuple[str, str]:
    end = next((i for i, c in enumerate(text) if c in _WS), len(text))
    return text[:end], text[end:].lstrip(_WS)


def _looks_like_key(key_type: str, rest: str) -> bool:
    # As ssh-keygen: the field after the principals is a key when it is a key type
    # followed by base64 whose blob names that same type; otherwise it is options.
    b64, _ = _split_token(rest)
    try:
        blob = _b64decode(b64, "key")
        return _Reader(blob, "key").string("key type") == key_type.encode()
    except FormatError:
        return False


def _split_options(text: str) -> tuple[str, str]:
    quoted = False
    i = 0
    while i < len(text) and (quoted or text[i] not in _WS):
        if text.startswith('\\"', i):
            i += 1
        elif text[i] == '"':
            quoted = not quoted
        i += 1
    if quoted:
        raise _LineError("an option value has no closing quote")
    return text[:i], text[i:].lstrip(_WS)


def _dequote(text: str, pos: int, name: str) -> tuple[str, int]:
    if not text.startswith('"', pos):
        raise _LineError(f'the {name} value must be in double quotes, as {name}="..."')
    out: list[str] = []
    pos += 1
    while pos < len(text) and text[pos] != '"':
        if text.startswith('\\"', pos):
            pos += 1
        out.append(text[pos])
        pos += 1
    if pos >= len(text):
        raise _LineError(f"the {name} value has no closing quote")
    return "".join(out), pos + 1


def _parse_time(value: str, name: str) -> datetime:
    # YYYYMMDD[Z] or YYYYMMDDHHMM[SS][Z]; a Z (or UTC) suffix means UTC. ssh-keygen reads
    # the rest as local time; a pure core has no local zone, so gitmem reads them as UTC.
    digits = value
    if len(digits) > 1 and digits[-1] in "Zz":
        digits = digits[:-1]
    elif len(digits) > 3 and digits[-3:].upper() == "UTC":
        digits = digits[:-3]
    if len(digits) not in (8, 12, 14) or not (digits.isascii() and digits.isdigit()):
        raise _LineError(f"{name} {value!r} is not YYYYMMDD[HHMM[SS]][Z]")
    digits = digits.ljust(14, "0")
    try:
        when = datetime(
            int(digits[:4]),
            int(digits[4:6]),
            int(digits[6:8]),
            int(digits[8:10]),
            int(digits[10:12]),
            int(digits[12:14]),
            tzinfo=UTC,
        )
    except ValueError as e:
        raise _LineError(f"{name} {value!r} is not a real date and time") from e
    if when <= _EPOCH:
        raise _LineError(f"{name} {value!r} is not after 1970-01-01")
    return when


_Options = tuple[bool, tuple[str, ...] | None, datetime | None, datetime | None]
_NO_OPTS: _Options = (False, None, None, None)


def _unknown(text: str) -> str:
    word = text.split(",")[0]
    return f"{word!r} is neither a known option nor a key type followed by a valid key"


def _parse_options(text: str) -> _Options:
    ca = False
    values: dict[str, str] = {}
    pos = 0
    while True:
        lower = text[pos:].lower()
        if lower.startswith("cert-authority"):
            ca, pos = True, pos + len("cert-authority")
        else:
            name = next(
                (
                    n
                    for n in ("namespaces", "valid-after", "valid-before")
                    if lower.startswith(n + "=")
                ),
                None,
            )
            if name is None:
                raise _LineError(_unknown(text[pos:]))
            if name in values:
                raise _LineError(f"{name} is given twice")
            values[name], pos = _dequote(text, pos + len(name) + 1, name)
        if pos == len(text):
            break
        if text[pos] != ",":
            raise _LineError(_unknown(text[pos:]))
        pos += 1
        if pos == len(text):
            raise _LineError("the options end with a comma")
    namespaces = tuple(values["namespaces"].split(",")) if "namespaces" in values else None
    after = _parse_time(values["valid-after"], "valid-after") if "valid-after" in values else None
    before = (
        _parse_time(values["valid-before"], "valid-before") if "valid-before" in values else None
    )
    if after is not None and before is not None and before <= after:
        raise _LineError("valid-before is not later than valid-after")
    return ca, namespaces, after, before


def _parse_line(text: str, source: str, number: int) -> AllowedSigner:
    # Field 1: the principals, a comma list, optionally in double quotes.
    if text.startswith('"'):
        end = text.find('"', 1)
        if end < 0:
            raise _LineError("the principals have no closing quote")
        principals, rest = text[1:end], text[end + 1 :]
        if rest and rest[0] not in _WS:
            raise _LineError("the principals' closing quote is not followed by a space")
        rest = rest.lstrip(_WS)
    else:
        principals, rest = _split_token(text)
        if '"' in principals:
            raise _LineError("the principals have a stray double quote")
    if not principals:
        raise _LineError("the principals are empty")
    # Field 2 (optional): options; then the key type, base64 key and comment.
    first, after_first = _split_token(rest)
    options = ""
    if not _looks_like_key(first, after_first):
        options, rest = _split_options(rest)
    ca, namespaces, valid_after, valid_before = _parse_options(options) if options else _NO_OPTS
    key_type, rest = _split_token(rest)
    b64, comment = _split_token(rest)
    if not key_type or not b64:
        raise _LineError("there is no key after the principals and options")
    try:
        blob = _b64decode(b64, "the key")
        blob_type = _Reader(blob, "the key").string("key type").decode("ascii", "replace")
    except FormatError as e:
        raise _LineError(str(e)) from e
    if blob_type != key_type:
        raise _LineError(f"the key is labelled {key_type} but is a {blob_type} key")
    if key_type != ED25519:
        raise _LineError(f"{key_type} keys are not supported (gitmem accepts {ED25519} only)")
    try:
        key = PublicKey.from_blob(blob)
    except FormatError as e:
        raise _LineError(str(e)) from e
    return AllowedSigner(
        principals=tuple(principals.split(",")),
        key=key,
        namespaces=namespaces,
        valid_after=valid_after,
        valid_before=valid_before,
        cert_authority=ca,
        source=source,
        line=number,
        comment=comment.rstrip(_WS),
    )


def parse_allowed_signers(text: str, source: str) -> AllowedSignersFile:
    """Parse an ssh-keygen(1) ALLOWED SIGNERS file; *source* names it in messages.

    Each malformed or non-Ed25519 line is skipped and reported as one sentence in
    ``problems`` ("line 3: ..."); later lines still count. Times
    without a ``Z`` suffix are read as UTC (ssh-keygen reads them as local time).
    Raises nothing.
    """
    entries: list[AllowedSigner] = []
    problems: list[str] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip(_WS)
        if not line or line.startswith("#"):
            continue
        try:
            entries.append(_parse_line(line, source, number))
        except _LineError as e:
            problems.append(f"line {number}: {e}; line skipped")
    return AllowedSignersFile(tuple(entries), tuple(problems))


def allowed_signers_line(
    principal: str,
    key: PublicKey,
    namespaces: Sequence[str] | None = ("gitmem",),
    comment: str = "",
) -> str:
    """One allowed_signers line that trusts *key* for *principal* in *namespaces*.

    ``namespaces=None`` allows every namespace. Raises ValueError for an empty
    principal or namespace, or one holding a comma, double quote or control character,
    and for a comment holding a newline.
    """
    for value in (principal, *(namespaces or ())):
        if not value or any(c in value for c in ',"') or any(ord(c) < 32 for c in value):
            raise ValueError(f"{value!r} cannot be a principal or namespace in allowed_signers")
    if "\n" in comment or "\r" in comment:
        raise ValueError("an allowed_signers comment must be a single line")
    entry = AllowedSigner(
        principals=(principal,),
        key=key,
        namespaces=None if namespaces is None else tuple(namespaces),
        valid_after=None,
        valid_before=None,
        cert_authority=False,
        source="",
        line=0,
        comment=comment.strip(),
    )
    return entry.to_line()


# --- trust decisions -------------------------------------------------------------------


@dataclass(frozen=True)
class TrustVerdict:
    """Whether a key may sign for a principal; ``reason`` is one sentence for the user.

    ``principals`` holds the principal patterns of the fully matching entries when
    trusted, otherwise those of every plain entry that lists this key (who the key is).
    """

    trusted: bool
    principals: tuple[str, ...]
    reason: str


def _plain_entries(roots: Sequence[AllowedSignersFile], key: PublicKey) -> list[AllowedSigner]:
    # A cert-authority entry trusts certificates signed by that key, never the key itself.
    return [e for root in roots for e in root.entries if e.key == key and not e.cert_authority]


def _patterns(entries: Sequence[AllowedSigner]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(p for e in entries for p in e.principals))


def check_trust(
    roots: Sequence[AllowedSignersFile],
    key: PublicKey,
    principal: str,
    namespace: str,
    when: datetime,
) -> TrustVerdict:
    """Is *key* trusted to sign for *principal* in *namespace* at *when*?

    Trusted iff some entry of some root has this exact key (not as cert-authority),
    matches the principal, allows the namespace and is valid at *when* (pass the
    record's creation time). Raises ValueError when *when* is naive.
    """
    at = _floor_seconds(when)
    fp = key.fingerprint()
    held = _plain_entries(roots, key)
    if not held:
        if any(e.key == key for root in roots for e in root.entries):
            reason = f"key {fp} is listed only as a cert-authority, which trusts no plain key"
        else:
            reason = f"untrusted key: {fp} is in no allowed_signers trust root"
        return TrustVerdict(False, (), reason)
    owners = _patterns(held)
    for_principal = [e for e in held if e.matches_principal(principal)]
    if not for_principal:
        listed = ",".join(owners)
        reason = f"key {fp} is not valid for principal {principal} (it is listed for {listed})"
        return TrustVerdict(False, owners, reason)
    in_namespace = [e for e in for_principal if e.allows_namespace(namespace)]
    if not in_namespace:
        return TrustVerdict(False, owners, f"key {fp} not allowed for namespace {namespace}")
    valid = [e for e in in_namespace if e.valid_at(when)]
    if not valid:
        shown = _human_time(at)
        ends = [e.valid_before for e in in_namespace if e.valid_before and at > e.valid_before]
        if ends:
            limit = _human_time(max(ends))
            reason = f"key {fp} expired (valid-before {limit}) before the record's time {shown}"
        else:
            start = min(e.valid_after for e in in_namespace if e.valid_after is not None)
            reason = f"key {fp} was not yet valid (valid-after {_human_time(start)}) at {shown}"
        return TrustVerdict(False, owners, reason)
    entry = valid[0]
    reason = f"signed by {principal} ({fp}) per {entry.source} line {entry.line}"
    return TrustVerdict(True, _patterns(valid), reason)


def find_principals(
    roots: Sequence[AllowedSignersFile],
    key: PublicKey,
    namespace: str,
    when: datetime,
) -> tuple[str, ...]:
    """Principal patterns of every entry that trusts *key* in *namespace* at *when*.

    In file order, without duplicates; empty when the key is trusted nowhere. Unlike
    ``ssh-keygen -Y find-principals`` this checks the namespace and collects every
    matching line, not only the first. Raises ValueError when *when* is naive.
    """
    _floor_seconds(when)
    held = _plain_entries(roots, key)
    return _patterns([e for e in held if e.allows_namespace(namespace) and e.valid_at(when)])
