"""The pure in-toto core: DSSE's PAE and envelopes, statements and descriptors, where a
quote stands in its snapshot, the Test Result of a verify run, and the check of an
envelope before import (the end-to-end cases are in tests/team/test_attest.py)."""

from __future__ import annotations

import base64
import json
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitmem.core.allowed_signers import allowed_signers_line, parse_allowed_signers
from gitmem.core.errors import FormatError, InputError, IntegrityError, TrustError
from gitmem.core.integrity import TrustRoots
from gitmem.core.intoto.check import check_envelope
from gitmem.core.intoto.dsse import (
    Envelope,
    EnvelopeSignature,
    pae,
    parse_envelope,
    sign_envelope,
    verify_envelope,
)
from gitmem.core.intoto.memory import MEMORY_ITEM, quote_location
from gitmem.core.intoto.statement import (
    PAYLOAD_TYPE,
    content_of,
    descriptor,
    git_blob_id,
    payload_of,
    statement,
)
from gitmem.core.intoto.testresult import RefRun, verify_run_statement
from gitmem.core.receipts import Ed25519Signer

SIGNER = Ed25519Signer(bytes(range(32)))


def test_pae_is_the_dsse_specs_test_vector() -> None:
    assert pae("http://example.com/HelloWorld", b"hello world") == (
        b"DSSEv1 29 http://example.com/HelloWorld 11 hello world"
    )
    assert pae("", b"") == b"DSSEv1 0  0 "
    assert pae("ü", b"x") == "DSSEv1 2 ü 1 x".encode()  # lengths in bytes


def test_an_envelope_round_trips_and_verifies_by_its_keyid() -> None:
    envelope = sign_envelope(PAYLOAD_TYPE, b'{"a":1}', SIGNER)
    assert envelope.signatures[0].keyid == SIGNER.public_key.fingerprint()
    parsed = parse_envelope(envelope.line())
    assert parsed == envelope
    assert verify_envelope(parsed, [Ed25519Signer.generate().public_key, SIGNER.public_key]) == (
        SIGNER.public_key
    )


@settings(max_examples=60)
@given(st.data())
def test_any_changed_byte_of_payload_or_type_breaks_the_signature(data: st.DataObject) -> None:
    envelope = sign_envelope(PAYLOAD_TYPE, b'{"predicate":{"text":"ship it"}}', SIGNER)
    field = data.draw(st.sampled_from(["payload", "payload_type"]))
    original = envelope.payload if field == "payload" else envelope.payload_type.encode()
    at = data.draw(st.integers(0, len(original) - 1))
    changed = bytearray(original)
    changed[at] ^= data.draw(st.integers(1, 127))
    tampered = (
        envelope._replace(payload=bytes(changed))
        if field == "payload"
        else envelope._replace(payload_type=bytes(changed).decode("latin-1"))
    )
    with pytest.raises(IntegrityError, match="does not verify"):
        verify_envelope(tampered, [SIGNER.public_key])


def test_url_safe_and_unpadded_base64_are_read_as_dsse_requires() -> None:
    envelope = sign_envelope(PAYLOAD_TYPE, b"\xfb\xff\xfe payload?", SIGNER)
    value = envelope.to_json()
    value["payload"] = base64.urlsafe_b64encode(envelope.payload).decode().rstrip("=")
    value["signatures"][0]["sig"] = value["signatures"][0]["sig"].rstrip("=")
    assert parse_envelope(json.dumps(value)) == envelope


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[]", "not a JSON object"),
        ('{"payload": "e30=", "signatures": []}', "payloadType must be a string"),
        ('{"payload": "!!", "payloadType": "x", "signatures": []}', "payload is not base64"),
        ('{"payload": "e30=", "payloadType": "x", "signatures": [{"sig": 3}]}', "sig must be"),
        ('{"payload": "e30=", "payloadType": "x", "signatures": {}}', "must be a list"),
        ("{", "not JSON"),
    ],
)
def test_what_is_not_an_envelope_is_bad_input(text: str, says: str) -> None:
    with pytest.raises(InputError, match=says):
        parse_envelope(text)


def test_a_signature_under_another_keyid_is_not_tried_with_this_key() -> None:
    envelope = sign_envelope(PAYLOAD_TYPE, b"{}", SIGNER)
    wrong = envelope._replace(
        signatures=(EnvelopeSignature("SHA256:other", envelope.signatures[0].sig),)
    )
    with pytest.raises(IntegrityError):
        verify_envelope(wrong, [SIGNER.public_key])
    unnamed = envelope._replace(signatures=(EnvelopeSignature("", envelope.signatures[0].sig),))
    assert verify_envelope(unnamed, [SIGNER.public_key]) == SIGNER.public_key


def test_git_blob_id_is_what_git_hash_object_says(tmp_path: object) -> None:
    data = "a blob with ünïcode\nand a newline\n".encode()
    done = subprocess.run(
        ["git", "hash-object", "--stdin"], input=data, capture_output=True, check=True
    )
    assert git_blob_id(data) == done.stdout.decode().strip()


def test_a_descriptor_carries_its_bytes_and_refuses_others() -> None:
    found = descriptor("items/ab/cd.json", b"{}", git_blob=True)
    assert content_of(found, "it") == b"{}"
    found["content"] = base64.b64encode(b"[]").decode()
    with pytest.raises(FormatError, match="hashes to"):
        content_of(found, "it")
    assert content_of({"digest": {"sha256": "a" * 64}}, "it") is None
    with pytest.raises(FormatError, match="sha256 digest"):
        content_of({"digest": {"sha256": "A" * 64}}, "it")


@pytest.mark.parametrize(
    ("quote", "messages", "where"),
    [
        ("keep it", ["no", "we keep it here"], (1, ((3, 10),))),
        ("ünï code", ["a ünï code"], (0, ((2, 12),))),
        ("first part … last part", ["first part, then last part"], (0, ((0, 10), (17, 26)))),
        ("a … b", ["a … b"], (0, ((0, 7),))),  # the transcript's own ellipsis, whole
        ("Keep It", ["keep it"], None),  # only after folding: no byte range says it
        ("b … a", ["a then b"], None),  # fragments out of order
    ],
)
def test_a_quote_is_found_by_its_own_bytes(
    quote: str, messages: list[str], where: tuple[int, tuple[tuple[int, int], ...]] | None
) -> None:
    assert quote_location(quote, messages) == where
    if where is not None:
        text = messages[where[0]].encode()
        pieces = [text[s:e].decode() for s, e in where[1]]
        assert " … ".join(pieces) == quote


@pytest.mark.parametrize(
    ("problems", "untrusted", "strict", "result"),
    [
        (0, 0, False, "PASSED"),
        (0, 2, False, "WARNED"),
        (0, 2, True, "FAILED"),
        (1, 0, False, "FAILED"),
    ],
)
def test_a_verify_run_passes_warns_or_fails(
    problems: int, untrusted: int, strict: bool, result: str
) -> None:
    value = verify_run_statement(
        [
            RefRun("refs/gitmem/memory", "c" * 40, problems, untrusted),
            RefRun("refs/gitmem/x", None, 0, 0),
        ],
        [{"name": "gitmem verify", "uri": "pkg:pypi/gitmem-verified@0"}],
        {"ok": not problems},
        strict,
    )
    assert value["predicate"]["result"] == result
    assert value["subject"] == [{"name": "refs/gitmem/memory", "digest": {"gitCommit": "c" * 40}}]


def _roots() -> TrustRoots:
    line = allowed_signers_line("alice@example.com", SIGNER.public_key)
    return TrustRoots((parse_allowed_signers(line + "\n", "test"),))


def test_an_envelope_that_is_no_memory_item_is_left_alone() -> None:
    roots = _roots()
    other = payload_of(statement([], "https://slsa.dev/provenance/v1", {}))
    assert check_envelope(sign_envelope("application/json", b"{}", SIGNER), roots, {}) is None
    assert check_envelope(sign_envelope(PAYLOAD_TYPE, other, SIGNER), roots, {}) is None
    stranger = Ed25519Signer.generate()
    assert check_envelope(sign_envelope(PAYLOAD_TYPE, other, stranger), roots, {}) is None
    ours = payload_of(statement([], MEMORY_ITEM, {}))
    with pytest.raises(TrustError, match="untrusted key"):
        check_envelope(sign_envelope(PAYLOAD_TYPE, ours, stranger), roots, {})


def test_a_memory_item_from_an_exporter_the_roots_do_not_trust_for_that_name_is_refused() -> None:
    predicate = {
        "exporter": {"principal": "mallory@example.com", "key": SIGNER.public_key.fingerprint()},
        "exportedAt": "2026-01-01T00:00:00Z",
    }
    payload = payload_of(statement([], MEMORY_ITEM, predicate))
    with pytest.raises(TrustError, match="not valid for principal mallory"):
        check_envelope(sign_envelope(PAYLOAD_TYPE, payload, SIGNER), _roots(), {})
    other_key = {**predicate, "exporter": {"principal": "alice@example.com", "key": "SHA256:x"}}
    payload = payload_of(statement([], MEMORY_ITEM, other_key))
    with pytest.raises(IntegrityError, match="not the key that signed it"):
        check_envelope(sign_envelope(PAYLOAD_TYPE, payload, SIGNER), _roots(), {})


def test_an_envelope_type_is_as_built() -> None:
    assert isinstance(sign_envelope(PAYLOAD_TYPE, b"", SIGNER), Envelope)
