"""Tests for gitmem.core.receipts: SSHSIG receipts and allowed_signers trust roots.

Fast in-process tests, plus interop tests against the real OpenSSH ``ssh-keygen`` that
are skipped (with the reason) only where it is not installed.
"""

from __future__ import annotations

import base64
import os
import shutil
import struct
import subprocess
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from helpers.record_values import ALICE
from hypothesis import given, settings
from hypothesis import strategies as st

from gitmem.core.allowed_signers import (
    AllowedSigner,
    AllowedSignersFile,
    allowed_signers_line,
    check_trust,
    find_principals,
    parse_allowed_signers,
)
from gitmem.core.errors import FormatError, SigningKeyError, TrustError
from gitmem.core.receipts import Ed25519Signer, PublicKey, Signature, parse_signature, sign, verify

BOB = Ed25519Signer(bytes(range(32, 64)))
MESSAGE = b'{"kind":"checkpoint","items":[]}\n' * 64  # 2 KiB, like a small record
WHEN = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)
SRC = "~/.config/gitmem/allowed_signers"


def _string(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


def _dearmor(armored: bytes) -> bytes:
    return base64.b64decode(b"".join(armored.splitlines()[1:-1]))


def _armor(blob: bytes) -> bytes:
    b64 = base64.b64encode(blob)
    body = b"\n".join(b64[i : i + 70] for i in range(0, len(b64), 70))
    return b"-----BEGIN SSH SIGNATURE-----\n" + body + b"\n-----END SSH SIGNATURE-----\n"


def _blob(
    *,
    magic: bytes = b"SSHSIG",
    version: int = 1,
    key: bytes = ALICE.public_key.blob(),
    namespace: bytes = b"gitmem",
    reserved: bytes = b"",
    hash_alg: bytes = b"sha512",
    sig_type: bytes = b"ssh-ed25519",
    sig: bytes = bytes(64),
    sig_trailing: bytes = b"",
    trailing: bytes = b"",
) -> bytes:
    return (
        magic
        + struct.pack(">I", version)
        + _string(key)
        + _string(namespace)
        + _string(reserved)
        + _string(hash_alg)
        + _string(_string(sig_type) + _string(sig) + sig_trailing)
        + trailing
    )


# --- keys ------------------------------------------------------------------------------


def test_public_key_encodings_round_trip() -> None:
    key = ALICE.public_key
    assert key.blob() == _string(b"ssh-ed25519") + _string(key.raw)
    assert key.openssh().startswith("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI")
    assert PublicKey.from_blob(key.blob()) == key
    assert PublicKey.from_openssh(key.openssh() + " alice@laptop") == key
    assert key.fingerprint().startswith("SHA256:") and not key.fingerprint().endswith("=")
    assert key != BOB.public_key


@pytest.mark.parametrize(
    "blob",
    [
        _string(b"ssh-rsa") + _string(b"\x01\x00\x01") + _string(b"\x00" * 64),
        _string(b"ssh-ed25519") + _string(bytes(31)),
        _string(b"ssh-ed25519") + _string(bytes(32)) + b"\x00",
        _string(b"ssh-ed25519") + struct.pack(">I", 32) + bytes(10),
        b"\x00\x00",
    ],
    ids=["rsa", "short-key", "trailing", "truncated", "garbage"],
)
def test_from_blob_rejects_anything_but_ed25519(blob: bytes) -> None:
    with pytest.raises(FormatError):
        PublicKey.from_blob(blob)


@pytest.mark.parametrize(
    "text",
    [
        "ssh-ed25519",
        "ssh-ed25519 not*base64",
        "ssh-rsa " + ALICE.public_key.openssh().split()[1],
        "ssh-ed25519 " + base64.b64encode(b"x" * 10).decode(),
    ],
)
def test_from_openssh_rejects_bad_lines(text: str) -> None:
    with pytest.raises(FormatError):
        PublicKey.from_openssh(text)


def test_signer_checks_seed_and_hides_it() -> None:
    with pytest.raises(SigningKeyError):
        Ed25519Signer(b"short")
    assert bytes(range(32)).hex() not in repr(ALICE)
    fresh = Ed25519Signer.generate()
    assert fresh.public_key != ALICE.public_key
    assert len(fresh.sign_raw(b"x")) == 64


# --- sign and verify -------------------------------------------------------------------


@pytest.mark.parametrize("hash_algorithm", ["sha512", "sha256"])
def test_sign_verify_round_trip(hash_algorithm: str) -> None:
    armored = sign(MESSAGE, ALICE, "gitmem", hash_algorithm)
    got = verify(MESSAGE, armored, "gitmem")
    assert got == parse_signature(armored)
    assert got.public_key == ALICE.public_key
    assert (got.namespace, got.hash_algorithm, len(got.signature)) == (
        "gitmem",
        hash_algorithm,
        64,
    )


def test_armor_layout_matches_ssh_keygen_conventions() -> None:
    lines = sign(MESSAGE, ALICE, "gitmem").split(b"\n")
    assert lines[0] == b"-----BEGIN SSH SIGNATURE-----"
    assert lines[-2:] == [b"-----END SSH SIGNATURE-----", b""]
    assert all(len(line) == 70 for line in lines[1:-3]) and 0 < len(lines[-3]) <= 70


def test_signing_is_deterministic() -> None:
    assert sign(MESSAGE, ALICE, "gitmem") == sign(MESSAGE, ALICE, "gitmem")


def test_wrong_namespace_is_a_trust_error() -> None:
    armored = sign(MESSAGE, ALICE, "gitmem")
    with pytest.raises(TrustError, match="namespace 'gitmem', not 'gitmem-release'"):
        verify(MESSAGE, armored, "gitmem-release")


def test_signature_by_one_key_relabelled_with_another_fails() -> None:
    blob = _dearmor(sign(MESSAGE, ALICE, "gitmem"))
    alice, bob = ALICE.public_key.blob(), BOB.public_key.blob()
    with pytest.raises(TrustError, match=BOB.public_key.fingerprint()):
        verify(MESSAGE, _armor(blob.replace(alice, bob)), "gitmem")


@settings(max_examples=150)
@given(position=st.integers(0, len(MESSAGE) - 1), mask=st.integers(1, 255))
def test_flipping_any_message_byte_fails(position: int, mask: int) -> None:
    armored = sign(MESSAGE, ALICE, "gitmem")
    tampered = bytearray(MESSAGE)
    tampered[position] ^= mask
    with pytest.raises(TrustError):
        verify(bytes(tampered), armored, "gitmem")


def _assert_tamper_rejected(blob: bytes, position: int, mask: int) -> None:
    tampered = bytearray(blob)
    tampered[position] ^= mask
    try:
        verify(MESSAGE, _armor(bytes(tampered)), "gitmem")
    except (FormatError, TrustError):
        return
    pytest.fail(f"flipping byte {position} with {mask:#04x} still verified")


BLOB = _dearmor(sign(MESSAGE, ALICE, "gitmem"))


@settings(max_examples=300)
@given(position=st.integers(0, len(BLOB) - 1), mask=st.integers(1, 255))
def test_flipping_any_signature_blob_byte_fails(position: int, mask: int) -> None:
    _assert_tamper_rejected(BLOB, position, mask)


@pytest.mark.parametrize("mask", [0x01, 0x80])
def test_flipping_each_signature_blob_byte_fails(mask: int) -> None:
    for position in range(len(BLOB)):
        _assert_tamper_rejected(BLOB, position, mask)


GOOD = sign(MESSAGE, ALICE, "gitmem")


@pytest.mark.parametrize(
    ("armored", "message"),
    [
        (GOOD[1:], "does not start"),
        (GOOD.replace(b"-----END SSH SIGNATURE-----", b"-----END SIG-----"), "does not end"),
        (GOOD.replace(b"\n", b"\r\n"), "does not start"),
        (GOOD + b"junk\n", "does not end"),
        (GOOD.replace(b"\n", b"\n\n", 2), "empty line"),
        (GOOD.replace(b"U1NI", b"U1N!", 1), "not valid base64"),
        (_armor(b"SSHSIG\x00\x00\x00\x01")[:-30] + b"R\n-----END SSH SIGNATURE-----\n", "base64"),
        (_armor(_blob(magic=b"SSHSIH")), "magic"),
        (_armor(_blob(version=2)), "version 2"),
        (_armor(_blob(version=0)), "version 0"),
        (_armor(_blob(key=_string(b"ssh-ed25519") + _string(bytes(31)))), "32 bytes"),
        (_armor(_blob(key=_string(b"ssh-rsa") + _string(b"x"))), "not supported"),
        (_armor(_blob(namespace=b"")), "empty namespace"),
        (_armor(_blob(namespace=b"\xff")), "not UTF-8"),
        (_armor(_blob(namespace=b"git\x00mem")), "NUL"),
        (_armor(_blob(reserved=b"tag")), "reserved"),
        (_armor(_blob(hash_alg=b"sha1")), "unsupported hash"),
        (_armor(_blob(sig_type=b"rsa-sha2-512")), "not an ssh-ed25519 signature"),
        (_armor(_blob(sig=bytes(63))), "64 bytes"),
        (_armor(_blob(sig_trailing=b"\x00")), "signature has 1 trailing bytes"),
        (_armor(_blob(trailing=b"\x00")), "receipt has 1 trailing bytes"),
        (_armor(_blob()[:-5]), "truncated"),
    ],
)
def test_parse_signature_rejects_malformed_receipts(armored: bytes, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        parse_signature(armored)


@pytest.mark.parametrize(
    ("blob", "message"),
    [
        (_blob(sig_type=b"ssh-ed25518"), "not an ssh-ed25519 signature"),
        (_blob(sig=bytes(63)), "64 bytes"),
        (_blob(sig=bytes(65)), "64 bytes"),
        (_blob(sig_trailing=b"\x00"), "signature has 1 trailing bytes"),
        (_blob(trailing=b"\x00"), "receipt has 1 trailing bytes"),
        (_blob()[:-1], "truncated"),
        (_blob()[:-1] + b"\x00\x00", "receipt has 1 trailing bytes"),
    ],
)
def test_a_known_receipt_head_does_not_let_a_bad_signature_field_through(
    blob: bytes, message: str
) -> None:
    # Receipts are read faster once their head (key, namespace, hash) has been read
    # whole; what follows that head must still be read as strictly as the first time.
    good = _blob(sig=bytes(range(64)))
    first = parse_signature(_armor(good))
    assert parse_signature(_armor(good)) == first
    assert first.signature == bytes(range(64)) and first.namespace == "gitmem"
    with pytest.raises(FormatError, match=message):
        parse_signature(_armor(blob))


def test_parse_rejects_non_canonical_base64() -> None:
    # The blob length leaves spare bits in the last base64 character; setting them gives
    # the same bytes under a lenient decoder, so the armor would be malleable.
    assert len(BLOB) % 3 == 2
    body_end = GOOD.index(b"=\n-----END")
    last = GOOD[body_end - 1 : body_end]
    alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    sibling = alphabet[alphabet.index(last) ^ 0b01 : (alphabet.index(last) ^ 0b01) + 1]
    tampered = GOOD[: body_end - 1] + sibling + GOOD[body_end:]
    assert base64.b64decode(b"".join(tampered.splitlines()[1:-1])) == BLOB
    with pytest.raises(FormatError, match="not canonical"):
        parse_signature(tampered)


def test_parse_accepts_other_wrap_widths_and_a_missing_final_newline() -> None:
    b64 = base64.b64encode(BLOB)
    body = b"\n".join(b64[i : i + 76] for i in range(0, len(b64), 76))
    armored = b"-----BEGIN SSH SIGNATURE-----\n" + body + b"\n-----END SSH SIGNATURE-----"
    assert verify(MESSAGE, armored, "gitmem") == verify(MESSAGE, GOOD, "gitmem")


def test_sign_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="namespace"):
        sign(MESSAGE, ALICE, "")
    with pytest.raises(ValueError, match="hash"):
        sign(MESSAGE, ALICE, "gitmem", "md5")


class _LyingSigner:
    @property
    def public_key(self) -> PublicKey:
        return BOB.public_key

    def sign_raw(self, data: bytes) -> bytes:
        return ALICE.sign_raw(data)


def test_sign_refuses_a_signer_whose_key_does_not_match() -> None:
    with pytest.raises(SigningKeyError, match="does not verify"):
        sign(MESSAGE, _LyingSigner(), "gitmem")


# --- allowed_signers -------------------------------------------------------------------

A_KEY = ALICE.public_key.openssh()
B_KEY = BOB.public_key.openssh()
ECDSA_KEY = (
    ec.derive_private_key(12345, ec.SECP256R1())
    .public_key()
    .public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH)
    .decode()
)


def test_parse_allowed_signers_reads_every_field() -> None:
    text = "\n".join(
        [
            "# team trust root",
            "",
            f"alice@example.com {A_KEY} alice's laptop",
            f'  "Bob Builder,*@ops.example.com" Namespaces="gitmem,gitmem-*",'
            f'VALID-AFTER="20250101",valid-before="202601011230Z" {B_KEY}',
            f"carol cert-authority {B_KEY}",
            f'dave valid-after="20250102030405UTC" {A_KEY}\r',
        ]
    )
    parsed = parse_allowed_signers(text, SRC)
    assert parsed.problems == ()
    alice, bob, carol, dave = parsed.entries
    assert alice == AllowedSigner(
        ("alice@example.com",), ALICE.public_key, None, None, None, False, SRC, 3, "alice's laptop"
    )
    assert bob.principals == ("Bob Builder", "*@ops.example.com")
    assert bob.namespaces == ("gitmem", "gitmem-*")
    assert bob.valid_after == datetime(2025, 1, 1, tzinfo=UTC)
    assert bob.valid_before == datetime(2026, 1, 1, 12, 30, tzinfo=UTC)
    assert (bob.line, carol.cert_authority, bob.cert_authority) == (4, True, False)
    assert dave.valid_after == datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)
    lower_z = parse_allowed_signers(f'x valid-before="202501020304z" {A_KEY}', SRC).entries
    assert lower_z[0].valid_before == datetime(2025, 1, 2, 3, 4, tzinfo=UTC)
    for entry in parsed.entries:
        again = parse_allowed_signers(entry.to_line(), "copy").entries
        assert again == (replace(entry, source="copy", line=1),)


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        (f"alice {ECDSA_KEY}", "ecdsa-sha2-nistp256 keys are not supported"),
        (f"alice valid-after=20250101 {A_KEY}", "must be in double quotes"),
        (f'alice valid-after="2025010" {A_KEY}', "is not YYYYMMDD"),
        (f'alice valid-after="20251301" {A_KEY}', "not a real date"),
        (f'alice valid-after="19700101Z" {A_KEY}', "not after 1970"),
        (f'alice valid-after="20250101",valid-before="20250101" {A_KEY}', "not later"),
        (f'alice namespaces="a",namespaces="b" {A_KEY}', "given twice"),
        (f"alice no-touch-required {A_KEY}", "'no-touch-required' is neither a known option"),
        (f'alice namespaces="gitmem {A_KEY}', "no closing quote"),
        (f"alice cert-authority, {A_KEY}", "end with a comma"),
        (f'"alice {A_KEY}', "no closing quote"),
        (f'"alice"x {A_KEY}', "not followed by a space"),
        (f'al"ice {A_KEY}', "stray double quote"),
        (f'"" {A_KEY}', "principals are empty"),
        ("alice", "no key"),
        ("alice ssh-ed25519", "'ssh-ed25519' is neither a known option nor a key type"),
        ("alice ssh-ed25519 AAAA!", "'ssh-ed25519' is neither"),
        (f"alice ssh-rsa {A_KEY.split()[1]}", "'ssh-rsa' is neither"),
        (
            f"alice cert-authority ssh-rsa {A_KEY.split()[1]}",
            "labelled ssh-rsa but is a ssh-ed25519",
        ),
        ("alice ssh-ed25519 " + base64.b64encode(_string(b"ssh-ed25519")).decode(), "truncated"),
    ],
)
def test_malformed_lines_become_problems(line: str, problem: str) -> None:
    parsed = parse_allowed_signers(f"# header\n{line}\nbob {B_KEY}\n", SRC)
    assert [e.principals for e in parsed.entries] == [("bob",)]
    assert len(parsed.problems) == 1
    assert parsed.problems[0].startswith("line 2: ") and parsed.problems[0].endswith("skipped")
    assert problem in parsed.problems[0]


def _entry(**changes: object) -> AllowedSigner:
    base = AllowedSigner(("alice",), ALICE.public_key, ("gitmem",), None, None, False, SRC, 2)
    return replace(base, **changes)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("patterns", "principal", "expected"),
    [
        (("alice",), "alice", True),
        (("alice",), "Alice", False),
        (("alice",), "alice2", False),
        (("*@example.com",), "bob@example.com", True),
        (("*@example.com",), "bob@example.org", False),
        (("?ob",), "bob", True),
        (("?ob",), "bbob", False),
        (("*", "!mallory"), "bob", True),
        (("*", "!mallory"), "mallory", False),
        (("!mallory",), "bob", False),
        (("a.c",), "abc", False),
        (("a[b]c",), "abc", False),
    ],
)
def test_principal_patterns(patterns: tuple[str, ...], principal: str, expected: bool) -> None:
    assert _entry(principals=patterns).matches_principal(principal) is expected


def test_namespaces_are_pattern_lists() -> None:
    assert _entry(namespaces=None).allows_namespace("anything")
    assert _entry(namespaces=("gitmem-*",)).allows_namespace("gitmem-release")
    assert not _entry(namespaces=("gitmem",)).allows_namespace("gitmem-release")
    assert not _entry(namespaces=("",)).allows_namespace("gitmem")


def test_validity_window_is_inclusive_in_whole_seconds() -> None:
    start, end = datetime(2025, 1, 1, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC)
    entry = _entry(valid_after=start, valid_before=end)
    assert entry.valid_at(start) and entry.valid_at(end)
    assert entry.valid_at(end + timedelta(microseconds=999_999))
    assert not entry.valid_at(end + timedelta(seconds=1))
    assert not entry.valid_at(start - timedelta(microseconds=1))
    assert entry.valid_at(datetime(2025, 1, 1, 2, tzinfo=timezone(timedelta(hours=1))))
    with pytest.raises(ValueError, match="timezone-aware"):
        entry.valid_at(datetime(2025, 6, 1))


def test_allowed_signers_line() -> None:
    key = ALICE.public_key
    assert allowed_signers_line("alice", key) == f'alice namespaces="gitmem" {A_KEY}'
    line = allowed_signers_line("Alice Smith", key, None, "laptop")
    assert line == f'"Alice Smith" {A_KEY} laptop'
    assert parse_allowed_signers(line, SRC).entries[0].principals == ("Alice Smith",)
    for bad in ("", "a,b", 'a"b', "a\nb"):
        with pytest.raises(ValueError):
            allowed_signers_line(bad, key)
    with pytest.raises(ValueError):
        allowed_signers_line("alice", key, ("gitmem,x",))


# --- trust decisions -------------------------------------------------------------------


def _roots(*lines: str) -> list[AllowedSignersFile]:
    return [parse_allowed_signers("\n".join(lines) + "\n", SRC)]


@pytest.mark.parametrize(
    ("lines", "principal", "namespace", "reason"),
    [
        ([f"bob {B_KEY}"], "alice", "gitmem", "untrusted key: {fp} is in no allowed_signers"),
        ([f"alice {A_KEY}"], "bob", "gitmem", "key {fp} is not valid for principal bob"),
        (
            [f'alice namespaces="gitmem" {A_KEY}'],
            "alice",
            "gitmem-release",
            "key {fp} not allowed for namespace gitmem-release",
        ),
        (
            [f'alice valid-before="20250101" {A_KEY}'],
            "alice",
            "gitmem",
            "key {fp} expired (valid-before 2025-01-01) before the record's time "
            "2025-06-01T12:00:00Z",
        ),
        (
            [f'alice valid-after="202507010930Z" {A_KEY}'],
            "alice",
            "gitmem",
            "key {fp} was not yet valid (valid-after 2025-07-01T09:30:00Z)",
        ),
        ([f"alice cert-authority {A_KEY}"], "alice", "gitmem", "only as a cert-authority"),
    ],
)
def test_check_trust_says_why_not(
    lines: list[str], principal: str, namespace: str, reason: str
) -> None:
    verdict = check_trust(_roots(*lines), ALICE.public_key, principal, namespace, WHEN)
    assert not verdict.trusted
    assert reason.format(fp=ALICE.public_key.fingerprint()) in verdict.reason


def test_check_trust_accepts_a_matching_entry_in_any_root() -> None:
    personal = parse_allowed_signers(f"bob {B_KEY}\n", "personal")
    team = parse_allowed_signers(
        f'# team\nalice valid-before="20250101" {A_KEY}\n'
        f'alice,*@example.com namespaces="gitmem",valid-after="20250101" {A_KEY}\n',
        ".gitmem/allowed_signers",
    )
    assert team.problems == ()
    verdict = check_trust([personal, team], ALICE.public_key, "alice", "gitmem", WHEN)
    fp = ALICE.public_key.fingerprint()
    assert verdict.trusted
    assert verdict.reason == f"signed by alice ({fp}) per .gitmem/allowed_signers line 3"
    assert verdict.principals == ("alice", "*@example.com")
    assert find_principals([personal, team], ALICE.public_key, "gitmem", WHEN) == (
        "alice",
        "*@example.com",
    )
    early = datetime(2024, 6, 1, tzinfo=UTC)
    assert find_principals([personal, team], ALICE.public_key, "gitmem", early) == ("alice",)
    assert find_principals([personal, team], ALICE.public_key, "other", WHEN) == ()
    assert find_principals([personal], ALICE.public_key, "gitmem", WHEN) == ()


def test_trust_checks_need_an_aware_time() -> None:
    with pytest.raises(ValueError):
        check_trust(
            _roots(f"alice {A_KEY}"), ALICE.public_key, "alice", "gitmem", datetime(2025, 1, 1)
        )


def test_trust_asked_again_under_the_same_roots_still_depends_on_the_time() -> None:
    """A verify asks under one tuple of roots record after record: what does not depend
    on the time is worked out once, a validity window is still judged at each time, and
    other roots are asked afresh."""
    text = f'alice valid-before="20250101" {A_KEY}\nbob {B_KEY}\n'
    roots = (parse_allowed_signers(text, SRC),)
    before, after = datetime(2024, 6, 1, tzinfo=UTC), datetime(2025, 6, 1, tzinfo=UTC)
    for _ in range(2):
        assert check_trust(roots, ALICE.public_key, "alice", "gitmem", before).trusted
        late = check_trust(roots, ALICE.public_key, "alice", "gitmem", after)
        assert not late.trusted and "expired" in late.reason
        assert check_trust(roots, BOB.public_key, "bob", "gitmem", after).trusted
        assert not check_trust(roots, BOB.public_key, "alice", "gitmem", after).trusted
    fewer = (parse_allowed_signers(f"alice {A_KEY}\n", SRC),)
    assert not check_trust(fewer, BOB.public_key, "bob", "gitmem", after).trusted
    assert check_trust(fewer, ALICE.public_key, "alice", "gitmem", after).trusted
    with pytest.raises(ValueError):
        check_trust(roots, BOB.public_key, "bob", "gitmem", datetime(2025, 1, 1))


# --- interop with the real OpenSSH ssh-keygen ------------------------------------------

SSH_KEYGEN = shutil.which("ssh-keygen")
needs_openssh = pytest.mark.skipif(
    SSH_KEYGEN is None, reason="ssh-keygen (OpenSSH) is not installed"
)


@pytest.fixture
def keygen(tmp_path: Path) -> Callable[..., subprocess.CompletedProcess[bytes]]:
    """Run ssh-keygen hermetically: HOME in tmp_path, local time = UTC, never a prompt."""
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "TZ": "UTC"}

    def run(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
        assert SSH_KEYGEN is not None
        return subprocess.run(
            [SSH_KEYGEN, *args], input=stdin, capture_output=True, cwd=tmp_path, env=env, timeout=30
        )

    return run


def _write_private_key(path: Path, signer: Ed25519Signer) -> Path:
    pem = Ed25519PrivateKey.from_private_bytes(signer.seed).private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.OpenSSH,
        serialization.NoEncryption(),
    )
    path.write_bytes(pem)
    path.chmod(0o600)
    return path


@needs_openssh
def test_ssh_keygen_verifies_our_receipt(
    tmp_path: Path, keygen: Callable[..., subprocess.CompletedProcess[bytes]]
) -> None:
    (tmp_path / "allowed_signers").write_text(
        allowed_signers_line("alice", ALICE.public_key) + "\n"
    )
    (tmp_path / "receipt.sig").write_bytes(sign(MESSAGE, ALICE, "gitmem"))
    args = ("-Y", "verify", "-f", "allowed_signers", "-n", "gitmem", "-s", "receipt.sig")
    good = keygen(*args, "-I", "alice", stdin=MESSAGE)
    assert good.returncode == 0, good.stderr
    assert keygen(*args, "-I", "alice", stdin=MESSAGE + b"x").returncode != 0
    assert keygen(*args, "-I", "bob", stdin=MESSAGE).returncode != 0


@needs_openssh
@pytest.mark.parametrize("hash_algorithm", ["sha512", "sha256"])
def test_we_verify_ssh_keygen_signatures(
    tmp_path: Path, keygen: Callable[..., subprocess.CompletedProcess[bytes]], hash_algorithm: str
) -> None:
    made = keygen("-q", "-t", "ed25519", "-N", "", "-C", "", "-f", "key")
    assert made.returncode == 0, made.stderr
    key = PublicKey.from_openssh((tmp_path / "key.pub").read_text())
    signed = keygen(
        "-Y", "sign", "-f", "key", "-n", "gitmem", "-O", f"hashalg={hash_algorithm}", stdin=MESSAGE
    )
    assert signed.returncode == 0, signed.stderr
    assert verify(MESSAGE, signed.stdout, "gitmem") == Signature(
        key, "gitmem", hash_algorithm, parse_signature(signed.stdout).signature
    )
    with pytest.raises(TrustError):
        verify(MESSAGE[:-1], signed.stdout, "gitmem")


@needs_openssh
@pytest.mark.parametrize(
    ("namespace", "message"),
    [("gitmem", MESSAGE), ("gitmem-release", b""), ("n" * 40, b"x")],  # 40: body is 4 full lines
)
def test_our_armored_bytes_equal_ssh_keygen_output(
    tmp_path: Path,
    keygen: Callable[..., subprocess.CompletedProcess[bytes]],
    namespace: str,
    message: bytes,
) -> None:
    _write_private_key(tmp_path / "key", ALICE)
    theirs = keygen("-Y", "sign", "-f", "key", "-n", namespace, stdin=message)
    assert theirs.returncode == 0, theirs.stderr
    assert sign(message, ALICE, namespace) == theirs.stdout


@needs_openssh
def test_fingerprint_equals_ssh_keygen_lf(
    tmp_path: Path, keygen: Callable[..., subprocess.CompletedProcess[bytes]]
) -> None:
    for signer in (ALICE, BOB):
        (tmp_path / "key.pub").write_text(signer.public_key.openssh() + "\n")
        listed = keygen("-lf", "key.pub")
        assert listed.returncode == 0, listed.stderr
        assert listed.stdout.split()[1].decode() == signer.public_key.fingerprint()


INTEROP_SIGNERS = "\n".join(
    [
        "# a trust root exercising what gitmem reads",
        '"alice@example.com,*@ops.example.com,!mallory@ops.example.com" '
        f'namespaces="gitmem,gitmem-rel*" {A_KEY} alice laptop',
        f'zed@example.com namespaces="other" {A_KEY}',
        f"alice@example.com {ECDSA_KEY}",
        f'carol@example.com valid-before="20250101Z" {B_KEY}',
        f'carol@example.com,dave@example.com valid-after="202501010000",'
        f'valid-before="20260101123000" {B_KEY}',
        f"frank@example.com cert-authority {B_KEY}",
        f'"Erin Q" valid-after="20240101" {B_KEY}',
        "",
    ]
)


@needs_openssh
def test_trust_decisions_agree_with_ssh_keygen(
    tmp_path: Path, keygen: Callable[..., subprocess.CompletedProcess[bytes]]
) -> None:
    (tmp_path / "allowed_signers").write_text(INTEROP_SIGNERS)
    roots = [parse_allowed_signers(INTEROP_SIGNERS, "allowed_signers")]
    assert roots[0].problems == (
        "line 4: ecdsa-sha2-nistp256 keys are not supported "
        "(gitmem accepts ssh-ed25519 only); line skipped",
    )
    cases = [
        (ALICE, principal, namespace, "20250601000000")
        for principal in (
            "alice@example.com",
            "bob@ops.example.com",
            "mallory@ops.example.com",
            "zed@example.com",
            "eve@example.com",
        )
        for namespace in ("gitmem", "gitmem-release", "other")
    ] + [
        (BOB, principal, "gitmem", time)
        for principal in ("carol@example.com", "dave@example.com", "frank@example.com", "Erin Q")
        for time in (
            "20231231235959",
            "20240601000000",
            "20250101000000",
            "20260101123000",
            "20260101123001",
        )
    ]
    outcomes = []
    for signer, principal, namespace, time in cases:
        sig = tmp_path / f"{namespace}.sig"
        sig.write_bytes(sign(MESSAGE, signer, namespace))
        theirs = (
            keygen(
                "-Y",
                "verify",
                "-f",
                "allowed_signers",
                "-I",
                principal,
                "-n",
                namespace,
                "-s",
                sig.name,
                f"-Overify-time={time}",
                stdin=MESSAGE,
            ).returncode
            == 0
        )
        when = datetime.strptime(time, "%Y%m%d%H%M%S").replace(tzinfo=UTC)
        ours = check_trust(roots, signer.public_key, principal, namespace, when).trusted
        outcomes.append(ours)
        assert ours == theirs, (principal, namespace, time)
    assert 0 < sum(outcomes) < len(outcomes)

    (tmp_path / "bob.sig").write_bytes(sign(MESSAGE, BOB, "gitmem"))
    for time in ("20240601000000", "20250601000000", "20270101000000"):
        found = keygen(
            "-Y",
            "find-principals",
            "-f",
            "allowed_signers",
            "-s",
            "bob.sig",
            f"-Overify-time={time}",
        )
        when = datetime.strptime(time, "%Y%m%d%H%M%S").replace(tzinfo=UTC)
        collected = find_principals(roots, BOB.public_key, "gitmem", when)
        # ssh-keygen prints the first matching line only; every line here has one window.
        first = next(
            e
            for e in roots[0].entries
            if e.key == BOB.public_key and not e.cert_authority and e.valid_at(when)
        )
        assert found.stdout.decode().split("\n")[:-1] == list(first.principals)
        assert set(first.principals) <= set(collected)
