"""The pure record check: every way a stored record can fail, and the one way it holds."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from helpers.record_values import ALICE
from hypothesis import given, settings
from hypothesis import strategies as st

from gitmem.core.allowed_signers import allowed_signers_line, parse_allowed_signers
from gitmem.core.canonical import sha256_hex
from gitmem.core.integrity import (
    RECEIPT_INVALID,
    RECEIPT_MISSING,
    RECORD_EDITED,
    RECORD_UNREADABLE,
    UNTRUSTED_KEY,
    WRITER_MISMATCH,
    check_record,
)
from gitmem.core.items import Item, Kind, Trust
from gitmem.core.receipts import Ed25519Signer, sign
from gitmem.core.records import Checkpoint, format_time

MALLORY = Ed25519Signer(bytes(range(1, 33)))
ROOTS = (parse_allowed_signers(allowed_signers_line("alice", ALICE.public_key) + "\n", "test"),)


def record(signer: Ed25519Signer = ALICE, writer: str = "alice") -> bytes:
    item = Item(
        kind=Kind.DECISION,
        text="ship it",
        trust=Trust.VERBATIM,
        origin_session="s1",
        quote="we ship it on friday",
        quote_verified=True,
    )
    checkpoint = Checkpoint(
        session="s1",
        writer=writer,
        key=signer.public_key.fingerprint(),
        created=format_time(datetime(2026, 11, 1, tzinfo=UTC)),
        commit=None,
        source=None,
        items=(item.address,),
    )
    return checkpoint.canonical_bytes()


DATA = record()
RECEIPT = sign(DATA, ALICE, "gitmem")


def test_a_genuine_record_holds() -> None:
    check = check_record(sha256_hex(DATA), DATA, RECEIPT, ROOTS)
    assert check.ok and check.problem is None
    assert isinstance(check.record, Checkpoint)
    assert "alice" in check.detail


@settings(max_examples=200)
@given(st.data())
def test_flipping_any_byte_of_the_record_fails(data: st.DataObject) -> None:
    index = data.draw(st.integers(0, len(DATA) - 1))
    bit = data.draw(st.integers(0, 7))
    flipped = bytearray(DATA)
    flipped[index] ^= 1 << bit
    check = check_record(sha256_hex(DATA), bytes(flipped), RECEIPT, ROOTS)
    assert check.problem == RECORD_EDITED
    # Even re-addressed (as if moved to the path of its new hash) it cannot verify.
    moved = check_record(sha256_hex(bytes(flipped)), bytes(flipped), RECEIPT, ROOTS)
    assert moved.problem in (RECEIPT_INVALID, RECORD_UNREADABLE, WRITER_MISMATCH, UNTRUSTED_KEY)


@settings(max_examples=200)
@given(st.data())
def test_flipping_any_byte_of_the_receipt_fails(data: st.DataObject) -> None:
    index = data.draw(st.integers(0, len(RECEIPT) - 1))
    bit = data.draw(st.integers(0, 7))
    flipped = bytearray(RECEIPT)
    flipped[index] ^= 1 << bit
    check = check_record(sha256_hex(DATA), DATA, bytes(flipped), ROOTS)
    if check.ok:
        # Only a change base64 decoding ignores may pass: the decoded receipt is identical.
        from gitmem.core.receipts import parse_signature

        assert parse_signature(bytes(flipped)) == parse_signature(RECEIPT)
    else:
        assert check.problem == RECEIPT_INVALID


def test_missing_receipt() -> None:
    assert check_record(sha256_hex(DATA), DATA, None, ROOTS).problem == RECEIPT_MISSING


def test_signed_by_an_untrusted_key() -> None:
    forged = record(MALLORY)
    check = check_record(sha256_hex(forged), forged, sign(forged, MALLORY, "gitmem"), ROOTS)
    assert check.problem == UNTRUSTED_KEY
    assert check.record is not None  # still readable, so its items can be shown degraded


def test_trusted_key_but_another_writer() -> None:
    claimed = record(writer="bob")
    check = check_record(sha256_hex(claimed), claimed, sign(claimed, ALICE, "gitmem"), ROOTS)
    assert check.problem == UNTRUSTED_KEY


def test_record_naming_another_key_than_the_signer() -> None:
    claimed = record(MALLORY)
    check = check_record(sha256_hex(claimed), claimed, sign(claimed, ALICE, "gitmem"), ROOTS)
    assert check.problem == WRITER_MISMATCH


def test_receipt_from_another_namespace() -> None:
    receipt = sign(DATA, ALICE, "gitmem-release")
    assert check_record(sha256_hex(DATA), DATA, receipt, ROOTS).problem == RECEIPT_INVALID


def test_unreadable_but_signed_bytes() -> None:
    junk = b"not a record"
    check = check_record(sha256_hex(junk), junk, sign(junk, ALICE, "gitmem"), ROOTS)
    assert check.problem == RECORD_UNREADABLE and check.record is None


@pytest.mark.parametrize("receipt", [b"", b"-----BEGIN SSH SIGNATURE-----\nAAAA\n"])
def test_malformed_receipt(receipt: bytes) -> None:
    assert check_record(sha256_hex(DATA), DATA, receipt, ROOTS).problem == RECEIPT_INVALID
