"""gitmem export / import --format intoto / verify --attest, through the real CLI, checked
by an independent verifier (securesystemslib's DSSE, jsonschema, stock ssh-keygen) that
imports no gitmem code."""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from helpers import Result, git
from helpers.attesting import (
    SCHEMA,
    envelopes,
    export,
    fresh_clone,
    in_clone,
    independent,
    memory_tip,
    resigned,
    small_memory,
    statement_of,
    write_bundle,
)
from helpers.capturing import capture_text, decision
from helpers.tamper import edit_record, remove_path

from gitmem.core.receipts import Ed25519Signer
from gitmem.store.keys import load_identity
from gitmem.store.repo import Store

Gm = Any


@pytest.fixture
def memory(initialised: Path, gm: Gm) -> dict[str, str]:
    return small_memory(gm, initialised)


@pytest.fixture
def bundle(initialised: Path, gm: Gm, memory: dict[str, str]) -> Path:
    out = initialised.parent / "memory.intoto.jsonl"
    export(gm, out, "--all")
    return out


def by_text(bundle: Path) -> dict[str, dict[str, Any]]:
    found = {}
    for envelope in envelopes(bundle):
        statement = statement_of(envelope)
        item = json.loads(base64.b64decode(statement["predicate"]["item"]["content"]))
        found[item["text"]] = statement
    return found


# -- export --------------------------------------------------------------------------


def test_an_export_is_one_signed_envelope_per_item_that_an_independent_verifier_accepts(
    bundle: Path, home: Path, memory: dict[str, str]
) -> None:
    lines = envelopes(bundle)
    assert len(lines) == len(memory) == 5
    key = load_identity(home).signer.public_key.fingerprint()
    for envelope in lines:
        assert envelope["payloadType"] == "application/vnd.in-toto+json"
        assert [s["keyid"] for s in envelope["signatures"]] == [key]
    verdicts = independent(bundle, home)
    assert [v["ok"] for v in verdicts] == [True] * 5, verdicts


def test_every_statement_validates_against_the_published_schema(bundle: Path) -> None:
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    for envelope in envelopes(bundle):
        jsonschema.validate(statement_of(envelope), schema, cls=jsonschema.Draft202012Validator)


def test_the_schema_refuses_a_statement_that_breaks_it(bundle: Path) -> None:
    schema = json.loads(SCHEMA.read_text())
    statement = statement_of(envelopes(bundle)[0])
    statement["predicate"]["trust"] = "certain"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(statement, schema, cls=jsonschema.Draft202012Validator)


def test_the_predicate_says_what_the_brief_says_with_the_bytes_behind_it(
    bundle: Path, initialised: Path, memory: dict[str, str]
) -> None:
    items = by_text(bundle)
    kept = items["Keep the parser in src/parser.py"]
    predicate = kept["predicate"]
    head = git(initialised, "rev-parse", "HEAD").strip()
    assert kept["subject"] == [
        {
            "name": f"items/{memory['Keep the parser in src/parser.py'][:2]}/"
            f"{memory['Keep the parser in src/parser.py'][2:]}.json",
            "digest": kept["predicate"]["item"]["digest"],
        },
        {"name": "commit", "digest": {"gitCommit": head}},
    ]
    checkpoint = predicate["checkpoint"]["record"]["digest"]["sha256"]
    assert json.loads(carried(bundle)[checkpoint])["commit"] == head
    assert predicate["trust"] == predicate["capturedTrust"] == "verbatim"
    assert predicate["degraded"] is None
    assert predicate["quote"]["text"] == "keep the parser in src/parser.py"
    assert predicate["worldCheck"]["status"] == "confirmed"  # README.md exists at HEAD
    assert predicate["lifecycle"]["state"] == "open"
    assert predicate["writer"] == "alice@example.com"
    resolved = items["Benchmark the parser"]["predicate"]["lifecycle"]
    assert resolved["state"] == "resolved"
    assert [e["event"] for e in resolved["events"]] == ["resolve"]
    inferred = items["The parser is fast enough"]["predicate"]
    assert inferred["trust"] == "inferred" and inferred["quote"] is None


def carried(bundle: Path) -> dict[str, bytes]:
    """The bytes the bundle's lines carry, by their sha256 digest."""
    found = {}
    for envelope in envelopes(bundle):
        predicate = statement_of(envelope)["predicate"]
        signed = [predicate["checkpoint"], *predicate["lifecycle"]["events"]]
        for descriptor in [*(s["record"] for s in signed), *predicate["snapshots"]]:
            if "content" in descriptor:
                found[descriptor["digest"]["sha256"]] = base64.b64decode(descriptor["content"])
    return found


def test_a_quote_is_located_by_byte_ranges_in_its_snapshot(bundle: Path) -> None:
    predicate = by_text(bundle)["The cache lives in var/cache"]["predicate"]
    quote = predicate["quote"]
    (snapshot,) = [s for s in predicate["snapshots"] if s["digest"]["sha256"] == quote["snapshot"]]
    data = base64.b64decode(snapshot["content"])
    ((start, end),) = quote["ranges"]
    assert quote["message"] == 0
    assert data[start:end].decode() == 'the cache lives in "var/cache"'
    assert start == len("Ünïcode first: ".encode())  # bytes, not characters


def test_a_forgotten_item_travels_without_its_text_being_said(bundle: Path) -> None:
    (statement,) = [
        s
        for s in map(statement_of, envelopes(bundle))
        if s["predicate"]["lifecycle"]["state"] == "forgotten"
    ]
    predicate = statement["predicate"]
    assert predicate["text"] is None and predicate["quote"] is None
    assert [e["event"] for e in predicate["lifecycle"]["events"]] == ["forget"]


def test_shared_records_and_snapshots_travel_once_per_file_receipts_in_every_line(
    bundle: Path,
) -> None:
    sent: dict[str, int] = {}
    named: dict[str, int] = {}
    for envelope in envelopes(bundle):
        predicate = statement_of(envelope)["predicate"]
        signed = [predicate["checkpoint"], *predicate["lifecycle"]["events"]]
        assert all("content" in s["receipt"] for s in signed)
        for descriptor in [*(s["record"] for s in signed), *predicate["snapshots"]]:
            digest = descriptor["digest"]["sha256"]
            named[digest] = named.get(digest, 0) + 1
            sent[digest] = sent.get(digest, 0) + ("content" in descriptor)
    assert set(sent.values()) == {1} and max(named.values()) > 1


def test_an_item_the_brief_degrades_is_exported_degraded_saying_why(
    initialised: Path, gm: Gm, home: Path, memory: dict[str, str]
) -> None:
    # The reader stops trusting the writer's key: every item is shown degraded.
    signers = home / "allowed_signers"
    saved = signers.read_text()
    signers.write_text("")
    out = initialised.parent / "untrusted.intoto.jsonl"
    done = gm("export", "--all", "-o", str(out))
    signers.write_text(saved)
    assert done.exit_code == 0, done.stderr
    for envelope in envelopes(out):
        predicate = statement_of(envelope)["predicate"]
        assert predicate["trust"] == "untagged" and predicate["quote"] is None
        assert predicate["degraded"]["label"] == "untrusted key"
        assert "no allowed_signers trust root" in predicate["degraded"]["reason"]


def test_items_and_since_choose_what_is_exported(
    initialised: Path, gm: Gm, memory: dict[str, str]
) -> None:
    out = initialised.parent / "some.intoto.jsonl"
    wanted = memory["The cache lives in var/cache"]
    export(gm, out, "--items", wanted[:10])
    assert list(by_text(out)) == ["The cache lives in var/cache"]
    tip = memory_tip(initialised)
    said = "We agreed to ship on Friday afternoon at the latest.\n"
    capture_text(
        gm, initialised.parent / "fourth.md", said, [decision("Ship on Friday", said[10:34])]
    )
    export(gm, out, "--since", tip)
    assert list(by_text(out)) == ["Ship on Friday"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "exactly one of --items ID…, --since REV, --all"),
        (("--all", "--since", "HEAD"), "exactly one of"),
        (("--items",), "--items takes the ids"),
        (("--items", "zz"), "give at least 4 hex characters"),
        (("--items", "abcdef12"), "no item abcdef12"),
        (("--since", "no-such-rev"), "--since 'no-such-rev' is neither"),
        (("--all", "--format", "cbor"), "Invalid value for '--format'"),
    ],
)
def test_a_bad_selection_is_one_line_and_exit_2(
    gm: Gm, memory: dict[str, str], args: tuple[str, ...], message: str
) -> None:
    done = gm("export", *args)
    assert done.exit_code == 2 and message in done.stderr and done.stdout == ""
    assert done.stderr.count("\n") == 1


def test_export_needs_a_key(gm: Gm, repo: Path) -> None:
    done = gm("export", "--all")
    assert done.exit_code == 2 and "gitmem init" in done.stderr


def test_scai_reports_say_which_claims_have_a_verbatim_quote_as_evidence(
    initialised: Path, gm: Gm, home: Path, memory: dict[str, str]
) -> None:
    out = initialised.parent / "scai.intoto.jsonl"
    export(gm, out, "--all", "--format", "scai")
    attributes = {}
    for envelope in envelopes(out):
        statement = statement_of(envelope)
        assert statement["predicateType"] == "https://in-toto.io/attestation/scai/v0.3"
        (attribute,) = statement["predicate"]["attributes"]
        attributes[statement["subject"][0]["digest"]["sha256"]] = attribute
    kept = attributes[memory["Keep the parser in src/parser.py"]]
    assert kept["attribute"] == "gitmem/verbatim-quote"
    assert base64.b64decode(kept["target"]["content"]) == b"keep the parser in src/parser.py"
    assert kept["evidence"]["name"].startswith("snapshots/") and "content" not in kept["evidence"]
    assert attributes[memory["The parser is fast enough"]]["attribute"] == "gitmem/inferred"
    assert all(v["ok"] for v in independent(out, home))  # DSSE holds for SCAI lines too


# -- import --------------------------------------------------------------------------


def test_an_import_into_a_fresh_clone_gives_the_same_brief_and_verify(
    initialised: Path, gm: Gm, bundle: Path
) -> None:
    clone = fresh_clone(initialised)
    done = in_clone(clone, "import", "--format", "intoto", str(bundle))
    assert done.exit_code == 0, done.stderr
    assert "5 item(s)" in done.stdout and "stored" in done.stdout
    assert same_brief(
        gm("brief", "--json", "--budget", "0"), in_clone(clone, "brief", "--json", "--budget", "0")
    )
    source, target = gm("verify", "--json").json(), in_clone(clone, "verify", "--json").json()
    assert isinstance(source, dict) and isinstance(target, dict)
    assert target["ok"] and source["ok"]
    for field in ("records", "receipts", "snapshots", "problems", "untrusted"):
        assert target[field] == source[field], field
    again = in_clone(clone, "import", "--format", "intoto", str(bundle))
    assert again.exit_code == 0 and "all already stored" in again.stdout


def same_brief(left: Result, right: Result) -> bool:
    assert left.exit_code == right.exit_code == 0

    def items(result: Result) -> list[dict[str, Any]]:
        data: Any = result.json()
        return [{k: v for k, v in i.items() if k != "age"} for i in data["items"]]

    return items(left) == items(right) and bool(items(left))


def refused(clone: Path, bundle: Path, code: int, says: str) -> None:
    before = memory_tip(clone)
    done = in_clone(clone, "import", "--format", "intoto", str(bundle))
    assert done.exit_code == code, (done.stdout, done.stderr)
    assert says in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert done.stdout == "" and memory_tip(clone) == before  # nothing written


def test_a_changed_payload_is_refused_and_the_independent_verifier_says_so(
    initialised: Path, bundle: Path, home: Path
) -> None:
    lines = envelopes(bundle)
    statement = statement_of(lines[1])
    statement["predicate"]["trust"] = "verbatim"
    statement["predicate"]["text"] = "Something nobody said"
    payload = json.dumps(statement).encode()
    lines[1]["payload"] = base64.b64encode(payload).decode()
    tampered = write_bundle(initialised.parent / "changed.intoto.jsonl", lines)
    refused(fresh_clone(initialised), tampered, 3, "line 2: the envelope's signature")
    verdicts = independent(tampered, home)
    assert [v["ok"] for v in verdicts] == [True, False, True, True, True]
    assert verdicts[1]["problems"][0].startswith("DSSE")


def test_a_swapped_subject_digest_is_refused_even_when_signed_again(
    initialised: Path, bundle: Path, home: Path
) -> None:
    lines = envelopes(bundle)
    other = statement_of(lines[0])["subject"][0]["digest"]
    statement = statement_of(lines[2])
    statement["subject"][0]["digest"] = other
    lines[2] = resigned(statement, load_identity(home).signer)  # a trusted exporter's mistake
    tampered = write_bundle(initialised.parent / "swapped.intoto.jsonl", lines)
    refused(fresh_clone(initialised), tampered, 3, "line 3: its subject's sha256")
    verdicts = independent(tampered, home)
    assert not verdicts[2]["ok"] and "subject sha256 is not the item's" in verdicts[2]["problems"]
    # and without signing again, the signature already fails
    lines[2]["payload"] = base64.b64encode(json.dumps(statement).encode()).decode()
    lines[2]["signatures"] = envelopes(bundle)[2]["signatures"]
    again = write_bundle(initialised.parent / "swapped2.intoto.jsonl", lines)
    refused(fresh_clone(initialised, "clone2"), again, 3, "signature")


def test_a_signature_by_an_untrusted_key_is_refused(
    initialised: Path, bundle: Path, home: Path
) -> None:
    lines = envelopes(bundle)
    lines[0] = resigned(statement_of(lines[0]), Ed25519Signer.generate())
    tampered = write_bundle(initialised.parent / "untrusted.intoto.jsonl", lines)
    refused(fresh_clone(initialised), tampered, 3, "line 1: untrusted key")
    verdicts = independent(tampered, home)
    assert not verdicts[0]["ok"] and verdicts[0]["problems"][0].startswith("DSSE")


def test_an_envelope_whose_inner_receipt_fails_is_refused(
    initialised: Path, bundle: Path, home: Path
) -> None:
    lines = envelopes(bundle)
    statement = statement_of(lines[0])
    record = statement["predicate"]["checkpoint"]["record"]
    data = base64.b64decode(record["content"]).replace(b'"branch":"main"', b'"branch":"evil"')
    record["content"] = base64.b64encode(data).decode()
    record["digest"] = {
        "sha256": hashlib.sha256(data).hexdigest(),
        "gitBlob": hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest(),
    }
    lines[0] = resigned(statement, load_identity(home).signer)
    tampered = write_bundle(initialised.parent / "receipt.intoto.jsonl", lines)
    refused(fresh_clone(initialised), tampered, 3, "line 1: its checkpoint's receipt does not hold")
    verdicts = independent(tampered, home)
    assert not verdicts[0]["ok"] and "receipt of checkpoints/" in verdicts[0]["problems"][0]


def test_a_file_that_is_not_an_export_is_bad_input(
    initialised: Path, gm: Gm, memory: dict[str, str]
) -> None:
    clone = fresh_clone(initialised)
    junk = initialised.parent / "junk.jsonl"
    junk.write_text("not json\n")
    refused(clone, junk, 2, "line 1: not a DSSE envelope")
    refused(clone, initialised.parent / "missing.jsonl", 2, "cannot read")
    scai = initialised.parent / "scai.jsonl"
    export(gm, scai, "--all", "--format", "scai")
    refused(clone, scai, 2, "holds no gitmem memory-item attestation")


def test_other_attestations_in_a_bundle_are_skipped(
    initialised: Path, gm: Gm, bundle: Path
) -> None:
    scai = initialised.parent / "scai.jsonl"
    export(gm, scai, "--all", "--format", "scai")
    mixed = initialised.parent / "mixed.jsonl"
    mixed.write_text(scai.read_text() + bundle.read_text())
    done = in_clone(fresh_clone(initialised), "import", "--format", "intoto", str(mixed), "--json")
    assert done.exit_code == 0, done.stderr
    assert done.json() == {
        "items": 5,
        "records": 5,
        "snapshots": 3,
        "skipped": 5,
        "untrusted": 0,
        "written": True,
    }


# -- verify --attest -----------------------------------------------------------------


def test_verify_attest_is_a_signed_test_result_about_the_memory_commit(
    initialised: Path, gm: Gm, home: Path, memory: dict[str, str]
) -> None:
    done = gm("verify", "--attest")
    assert done.exit_code == 0, done.stderr
    (envelope,) = [json.loads(line) for line in done.stdout.splitlines()]
    out = write_bundle(initialised.parent / "verify.intoto.jsonl", [envelope])
    assert independent(out, home) == [{"line": 1, "ok": True, "problems": []}]
    statement = statement_of(envelope)
    assert statement["predicateType"] == "https://in-toto.io/attestation/test-result/v0.1"
    assert statement["subject"] == [
        {"name": "refs/gitmem/memory", "digest": {"gitCommit": memory_tip(initialised)}}
    ]
    predicate = statement["predicate"]
    assert predicate["result"] == "PASSED" and predicate["failedTests"] == []
    assert "integrity:refs/gitmem/memory" in predicate["passedTests"]
    assert all(
        not s.startswith("/") for s in predicate["configuration"][1]["annotations"]["sources"]
    )


def test_verify_attest_fails_its_test_and_exits_3_on_an_integrity_failure(
    initialised: Path, gm: Gm, memory: dict[str, str]
) -> None:
    store = Store.discover(initialised)
    entries: Any = gm("log", "--json").json()
    checkpoint = next(e["sha256"] for e in entries if e["type"] == "checkpoint")
    edit_record(store, checkpoint, b"parser", b"lexer")
    done = gm("verify", "--attest")
    assert done.exit_code == 3
    predicate = statement_of(json.loads(done.stdout))["predicate"]
    assert predicate["result"] == "FAILED"
    assert predicate["failedTests"] == ["integrity:refs/gitmem/memory"]
    assert predicate["gitmemVerify"]["problems"]


def test_verify_attest_refuses_json_and_an_empty_memory(initialised: Path, gm: Gm) -> None:
    nothing = gm("verify", "--attest")
    assert nothing.exit_code == 2 and "nothing to attest" in nothing.stderr
    both = gm("verify", "--attest", "--json")
    assert both.exit_code == 2 and "do not go together" in both.stderr


def test_a_line_that_only_names_a_record_needs_the_file_or_the_store_to_hold_it(
    initialised: Path, gm: Gm, bundle: Path
) -> None:
    lines = envelopes(bundle)
    first = statement_of(lines[0])["predicate"]["checkpoint"]["record"]
    leaning = [
        e
        for e in lines[1:]
        if statement_of(e)["predicate"]["checkpoint"]["record"]["digest"]["sha256"]
        == first["digest"]["sha256"]
    ]
    assert leaning and "content" in first  # the first line carries what later ones name
    rest = write_bundle(initialised.parent / "rest.intoto.jsonl", lines[1:])
    refused(fresh_clone(initialised), rest, 3, "named without its bytes")
    done = gm("import", "--format", "intoto", str(rest))  # the source holds them all
    assert done.exit_code == 0 and "all already stored" in done.stdout, done.stderr


def test_without_o_the_bundle_goes_to_stdout_and_json_reports_a_written_one(
    initialised: Path, gm: Gm, memory: dict[str, str]
) -> None:
    wanted = memory["Keep the parser in src/parser.py"]
    done = gm("export", "--items", wanted[:8], memory["The cache lives in var/cache"][:8])
    assert done.exit_code == 0 and done.stderr == ""
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert statement_of(lines[0])["subject"][0]["digest"]["sha256"] == wanted
    assert len(lines) == 2
    out = initialised.parent / "two.intoto.jsonl"
    report = gm("export", "--all", "-o", str(out), "--json")
    assert report.json() == {"items": 5, "skipped": [], "output": str(out)}
    assert gm("export", "--all", "--json").exit_code == 2


def test_an_item_whose_blob_is_gone_cannot_travel_and_a_warning_says_so(
    initialised: Path, gm: Gm, memory: dict[str, str]
) -> None:
    gone = memory["The parser is fast enough"]
    remove_path(Store.discover(initialised), f"items/{gone[:2]}/{gone[2:]}.json")
    out = initialised.parent / "four.intoto.jsonl"
    done = gm("export", "--all", "-o", str(out))
    assert done.exit_code == 0
    assert f"not exported: item {gone[:12]}: its blob is missing or edited" in done.stderr
    assert gone not in {statement_of(e)["subject"][0]["digest"]["sha256"] for e in envelopes(out)}
    assert len(envelopes(out)) == 4
