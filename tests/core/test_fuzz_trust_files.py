"""Fuzz: allowed_signers files and revocation lists skip a bad line with one sentence in
``problems`` and never raise; every trust decision over what they hold raises nothing
(docs/receipts.md)."""

from __future__ import annotations

import base64
from datetime import UTC, datetime

from helpers.hostile import FUZZ
from helpers.record_values import ALICE
from hypothesis import given
from hypothesis import strategies as st

from gitmem.core.allowed_signers import check_trust, find_principals, parse_allowed_signers
from gitmem.core.revocation import combine, parse_revoked_keys, without_revoked

KEY = ALICE.public_key.openssh()
KEY_TYPE, KEY_B64 = KEY.split()[:2]
WHEN = datetime(2026, 1, 1, tzinfo=UTC)

TOKENS = (
    "alice@example.com",
    '"alice bob"',
    '"',
    "*",
    "!*",
    "?",
    "a" * 5_000,
    "cert-authority",
    'namespaces="gitmem"',
    'namespaces="',
    'valid-after="20250101"',
    'valid-before="99991231235959Z"',
    'valid-after="00000000"',
    'valid-before="20251301"',
    'valid-after="2025010112"',
    "valid-after=20250101",
    ",",
    "#",
    KEY_TYPE,
    KEY_B64,
    KEY,
    "ssh-rsa",
    "ssh-ed25519 AAAA",
    base64.b64encode(b"\x00\x00\xff\xffssh-ed25519").decode(),
    base64.b64encode(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + b"\x01" * 31).decode(),
    "====",
    "\x00",
    "\ufffd",
    "\t",
    "\r",
)

lines = st.lists(st.sampled_from(TOKENS), max_size=6).map(" ".join)
files = st.lists(lines, max_size=6).map("\n".join)


@FUZZ
@given(files)
def test_allowed_signers_files(text: str) -> None:
    root = parse_allowed_signers(text, "allowed_signers")
    assert all(p.startswith("line ") and "\n" not in p for p in root.problems)
    revoked = parse_revoked_keys(text, "revoked_keys")
    kept = without_revoked(root, combine([revoked]))
    for principal in ("alice@example.com", "", "*"):
        check_trust([kept], ALICE.public_key, principal, "gitmem", WHEN)
        find_principals([kept], ALICE.public_key, "gitmem", WHEN)
    for entry in kept.entries:
        if '"' not in ",".join(entry.principals):
            assert parse_allowed_signers(entry.to_line(), "again").entries


@FUZZ
@given(files)
def test_revocation_lists(text: str) -> None:
    revoked = parse_revoked_keys(text, "revoked_keys")
    assert all("line" in p and "\n" not in p for p in revoked.problems)
    parse_revoked_keys(revoked.text(), "again")
