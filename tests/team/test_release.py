"""Signed releases: candidates, approvals by held keys (file, ssh-agent, ssh-keygen, a
hardware-style sk signature), threshold, rollback, pins, and interop with ssh-keygen."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import struct
import subprocess
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pygit2
import pytest
from helpers import Gm, Result, commit, git, needs_ssh_keygen
from helpers.capturing import release_verdict
from nacl.bindings import crypto_sign, crypto_sign_seed_keypair

from gitmem.core import sshwire
from gitmem.core.receipts import Ed25519Signer, fingerprint_of_blob, sign
from gitmem.core.records import Event, format_time
from gitmem.store.keys import write_private_key
from gitmem.store.layout import content_path
from gitmem.store.repo import RELEASES_REF, Entry, Store
from gitmem.team.release.decide import Seen, decide
from gitmem.team.release.records import APPROVAL, Release, ReleaseRecord

NS = "gitmem-release"


def maintainer(tmp_path: Path, name: str) -> tuple[Path, Ed25519Signer]:
    signer = Ed25519Signer.generate()
    path = tmp_path / "keys" / name
    write_private_key(path, signer, name)
    return path, signer


def signer_line(principal: str, signer: Ed25519Signer) -> str:
    return f'{principal} namespaces="{NS}" {signer.public_key.openssh()}'


@pytest.fixture
def m1(tmp_path: Path) -> tuple[Path, Ed25519Signer]:
    return maintainer(tmp_path, "m1")


@pytest.fixture
def trusted(repo: Path, m1: tuple[Path, Ed25519Signer]) -> Path:
    """A repository whose committed release root trusts m1@example.com."""
    commit(repo, "signers", ".gitmem/release_signers", signer_line("m1@example.com", m1[1]) + "\n")
    return repo


def approve(gm: Gm, key: Path, principal: str = "m1@example.com", *extra: str) -> Result:
    return gm("release", "approve", "HEAD", "--key", str(key), "--principal", principal, *extra)


def test_a_candidate_is_never_approved(trusted: Path, gm: Gm) -> None:
    first = gm("release", "candidate", "HEAD", "--json").json()
    again = gm("release", "candidate", "HEAD", "--json").json()
    assert first["new"] and not again["new"]  # type: ignore[index]
    assert first["record"] == again["record"]  # type: ignore[index]
    data = release_verdict(gm)
    assert set(data) == {"approved", "candidate", "pinned", "approvals", "reasons"}
    assert data["candidate"] and not data["approved"] and not data["pinned"]
    assert data["approvals"] == []
    assert any("only a candidate" in r for r in data["reasons"])


def test_approve_with_a_key_file_then_verify(
    trusted: Path, gm: Gm, m1: tuple[Path, Ed25519Signer]
) -> None:
    result = approve(gm, m1[0])
    assert result.exit_code == 0, result.stderr
    assert "as release 1" in result.stdout
    data = release_verdict(gm)
    assert data["approved"] and not data["pinned"]
    (approval,) = data["approvals"]
    assert approval["kind"] == "approval" and approval["trusted"] and approval["counted"]
    assert approval["principal"] == "m1@example.com" and approval["sequence"] == 1
    assert approval["key"] == m1[1].public_key.fingerprint()
    assert any(r.startswith("not pinned") for r in data["reasons"])
    assert gm("verify").exit_code == 0  # the releases ref verifies too


@needs_ssh_keygen
def test_an_approval_verifies_with_stock_ssh_keygen(
    trusted: Path, gm: Gm, m1: tuple[Path, Ed25519Signer], tmp_path: Path
) -> None:
    assert approve(gm, m1[0]).exit_code == 0
    address = release_verdict(gm)["approvals"][0]["record"]
    record = git(trusted, "cat-file", "blob", f"{RELEASES_REF}:{content_path('events', address)}")
    receipt = tmp_path / "approval.sig"
    receipt.write_text(
        git(trusted, "cat-file", "blob", f"{RELEASES_REF}:{content_path('receipts', address)}")
    )
    check = ["ssh-keygen", "-Y", "verify", "-f", str(trusted / ".gitmem" / "release_signers")]
    check += ["-I", "m1@example.com"]
    done = subprocess.run(
        [*check, "-n", NS, "-s", str(receipt)],
        input=record.encode(),
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert b'Good "gitmem-release" signature for m1@example.com' in done.stdout
    wrong = subprocess.run(
        [*check, "-n", "gitmem", "-s", str(receipt)],
        input=record.encode(),
        capture_output=True,
        check=False,
    )
    assert wrong.returncode != 0  # an approval is never a memory receipt


def write_approval(repo: Path, signer: Ed25519Signer, writer: str, message: str) -> str:
    """An approval of HEAD (sequence 1) signed by *signer* for *writer*, written straight
    into the releases ref with plain store writes, as someone who bypasses gitmem would;
    the commit it approves."""
    store = Store.discover(repo)
    head = store.repo.revparse_single("HEAD")
    assert isinstance(head, pygit2.Commit)
    event = Event(
        APPROVAL,
        None,
        "release",
        writer,
        signer.public_key.fingerprint(),
        format_time(datetime.now(UTC)),
        str(head.id),
        {"tree": str(head.tree_id), "sequence": 1},
    )
    data = event.canonical_bytes()
    address = hashlib.sha256(data).hexdigest()
    store.at(RELEASES_REF).append(
        [
            Entry(content_path("events", address), data),  # type: ignore[arg-type]
            Entry(content_path("receipts", address), sign(data, signer, NS)),  # type: ignore[arg-type]
        ],
        message,
        "mallory",
    )
    return str(head.id)


def test_an_untrusted_key_cannot_approve(trusted: Path, gm: Gm, tmp_path: Path) -> None:
    mallory, signer = maintainer(tmp_path, "mallory")
    result = approve(gm, mallory, "mallory@example.com")
    assert result.exit_code == 1 and "not stored" in result.stderr
    assert git(trusted, "for-each-ref", RELEASES_REF) == ""  # nothing written
    # Mallory writes the approval into the ref herself: it is listed, and never counts.
    write_approval(trusted, signer, "m1@example.com", "forged")
    result_json = release_verdict(gm)
    assert not result_json["approved"]
    (listed,) = result_json["approvals"]
    assert not listed["trusted"] and not listed["counted"]
    assert any("does not count: untrusted key" in r for r in result_json["reasons"])
    assert gm("verify").exit_code == 0  # intact, only untrusted: listed, not a failure
    assert gm("verify", "--strict").exit_code == 3


def test_a_branch_that_adds_its_authors_key_approves_nothing(
    trusted: Path, gm: Gm, tmp_path: Path
) -> None:
    # A build machine checks the release out: HEAD is the commit under review. Its own
    # release_signers granted the key it added, so a branch approved itself.
    mallory, signer = maintainer(tmp_path, "mallory")
    git(trusted, "checkout", "-q", "-b", "feature")
    roots = (trusted / ".gitmem" / "release_signers").read_text()
    commit(trusted, "innocent", ".gitmem/release_signers", roots + signer_line("m@x.org", signer))
    refused = approve(gm, mallory, "m@x.org")
    assert refused.exit_code == 1 and "not stored" in refused.stderr
    assert git(trusted, "for-each-ref", RELEASES_REF) == ""
    approved = write_approval(trusted, signer, "m@x.org", "self-approved")
    verdict = release_verdict(gm)
    assert not verdict["approved"]
    assert any("does not count: untrusted key" in r for r in verdict["reasons"])
    # Once the team merges the key where it reviews code, it counts.
    git(trusted, "checkout", "-q", "main")
    git(trusted, "merge", "-q", "--ff-only", "feature")
    assert release_verdict(gm, approved)["approved"]


def test_a_branch_cannot_lower_the_threshold(
    trusted: Path, gm: Gm, m1: tuple[Path, Ed25519Signer]
) -> None:
    commit(trusted, "policy", ".gitmem/release_policy.json", '{"threshold": 2}')
    git(trusted, "checkout", "-q", "-b", "feature")
    commit(trusted, "one is enough", ".gitmem/release_policy.json", '{"threshold": 1}')
    assert approve(gm, m1[0]).exit_code == 0
    verdict = release_verdict(gm)
    assert not verdict["approved"]
    assert any("1 of 2 required approval(s)" in r for r in verdict["reasons"])


def test_with_no_default_branch_the_checked_out_commit_is_no_root(
    trusted: Path, gm: Gm, m1: tuple[Path, Ed25519Signer]
) -> None:
    # A build fetching one tag has no default branch: the trust branch falls back to
    # HEAD, the commit under review, which must not vouch for itself.
    assert approve(gm, m1[0]).exit_code == 0
    git(trusted, "checkout", "-q", "--detach")
    git(trusted, "branch", "-q", "-D", "main")
    verdict = release_verdict(gm)
    assert not verdict["approved"]
    assert any("this clone has none" in r and "trust_ref" in r for r in verdict["reasons"])
    git(trusted, "branch", "-q", "trunk")
    assert gm("config", "--repo", "trust_ref", "trunk").exit_code == 0
    assert release_verdict(gm)["approved"]


def test_a_pushed_approvals_claims_are_shown_on_one_line(
    trusted: Path, gm: Gm, tmp_path: Path
) -> None:
    # Its principal is what the record says: ESC, BEL and a line break went to the
    # terminal, and a forged "✓ approval" line with them.
    _, signer = maintainer(tmp_path, "mallory")
    writer = "m\x1b]0;owned\x07\x1b[2J\n  ✓ approval by m1@example.com"
    write_approval(trusted, signer, writer, "forged")
    done = gm("release", "verify", "HEAD")
    assert done.exit_code == 1 and "owned" in done.stdout
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout
    assert not [line for line in done.stdout.splitlines() if line.startswith("  ✓")]


def test_an_uncommitted_release_root_grants_nothing(
    repo: Path, gm: Gm, m1: tuple[Path, Ed25519Signer]
) -> None:
    (repo / ".gitmem").mkdir()
    (repo / ".gitmem" / "release_signers").write_text(signer_line("m1@example.com", m1[1]))
    result = approve(gm, m1[0])
    assert result.exit_code == 1 and "no .gitmem/release_signers is committed" in result.stderr


def test_threshold_needs_distinct_maintainers(
    repo: Path, gm: Gm, m1: tuple[Path, Ed25519Signer], tmp_path: Path
) -> None:
    m1_spare = maintainer(tmp_path, "m1-spare")
    m2 = maintainer(tmp_path, "m2")
    lines = [
        signer_line("m1@example.com", m1[1]),
        signer_line("m1@example.com", m1_spare[1]),
        signer_line("m2@example.com", m2[1]),
    ]
    commit(repo, "signers", ".gitmem/release_signers", "\n".join(lines) + "\n")
    commit(repo, "policy", ".gitmem/release_policy.json", json.dumps({"threshold": 2}))
    assert approve(gm, m1[0]).exit_code == 0
    assert approve(gm, m1_spare[0]).exit_code == 0  # the same maintainer, another key
    data = release_verdict(gm)
    assert not data["approved"] and "1 of 2 required approval(s) by trusted keys" in data["reasons"]
    assert approve(gm, m2[0], "m2@example.com").exit_code == 0
    data = release_verdict(gm)
    assert data["approved"] and {a["sequence"] for a in data["approvals"]} == {1}
    assert sum(a["counted"] for a in data["approvals"]) == 2


def test_a_bad_policy_fails_closed(trusted: Path, gm: Gm, m1: tuple[Path, Ed25519Signer]) -> None:
    commit(trusted, "policy", ".gitmem/release_policy.json", '{"threshold": 0}')
    assert approve(gm, m1[0]).exit_code == 0
    data = release_verdict(gm)
    assert not data["approved"]
    assert any("threshold must be a positive integer" in r for r in data["reasons"])


def test_sequence_numbers_guard_against_rollback(
    trusted: Path, gm: Gm, m1: tuple[Path, Ed25519Signer]
) -> None:
    assert approve(gm, m1[0]).exit_code == 0
    first = git(trusted, "rev-parse", "HEAD").strip()
    assert release_verdict(gm, first)["approved"]
    commit(trusted, "changes", "CHANGES", "v2\n")
    result = approve(gm, m1[0], "m1@example.com", "--json")
    assert result.json()["sequence"] == 2  # type: ignore[index]
    assert release_verdict(gm)["approved"]
    old = release_verdict(gm, first)
    assert not old["approved"]
    assert any(r.startswith("rollback: this release has sequence 1") for r in old["reasons"])
    commit(trusted, "changes", "CHANGES", "v3\n")
    stale = approve(gm, m1[0], "m1@example.com", "--sequence", "1")
    assert stale.exit_code == 2 and "would roll back" in stale.stderr


def test_a_sequence_is_bounded_by_what_the_format_carries(
    trusted: Path, gm: Gm, m1: tuple[Path, Ed25519Signer]
) -> None:
    for past in (str(2**63), "99999999999999999999", str(10**4200)):
        refused = approve(gm, m1[0], "m1@example.com", "--sequence", past)
        assert refused.exit_code == 2, refused.stderr
        assert refused.stderr.count("\n") == 1 and "at most 9223372036854775807" in refused.stderr
    assert git(trusted, "for-each-ref", RELEASES_REF) == ""  # nothing written
    assert approve(gm, m1[0], "m1@example.com", "--sequence", str(2**63 - 1)).exit_code == 0
    commit(trusted, "changes", "CHANGES", "v2\n")
    full = approve(gm, m1[0])
    assert full.exit_code == 2 and "no sequence is left" in full.stderr


def test_a_pushed_approval_past_the_bound_never_counts(
    trusted: Path, gm: Gm, m1: tuple[Path, Ed25519Signer]
) -> None:
    store = Store.discover(trusted)
    head = store.repo.revparse_single("HEAD")
    assert isinstance(head, pygit2.Commit)
    signer = m1[1]
    event = Event(
        APPROVAL,
        None,
        "release",
        "m1@example.com",
        signer.public_key.fingerprint(),
        format_time(datetime.now(UTC)),
        str(head.id),
        {"tree": str(head.tree_id), "sequence": 2**63},
    )
    data = event.canonical_bytes()
    address = hashlib.sha256(data).hexdigest()
    store.at(RELEASES_REF).append(
        [
            Entry(content_path("events", address), data),  # type: ignore[arg-type]
            Entry(content_path("receipts", address), sign(data, signer, NS)),  # type: ignore[arg-type]
        ],
        "pushed",
        "a teammate",
    )
    assert not release_verdict(gm)["approved"]
    checked = gm("verify")
    assert checked.exit_code == 3 and "a release sequence is at most" in checked.stdout


def test_pin_needs_an_approved_release_and_recovery_evidence(
    trusted: Path, gm: Gm, m1: tuple[Path, Ed25519Signer], tmp_path: Path
) -> None:
    evidence = tmp_path / "recovery.log"
    evidence.write_text("restored on host-b from the replica; test suite passed\n")
    args = ["release", "pin", "HEAD", "--key", str(m1[0]), "--principal", "m1@example.com"]
    missing = gm(*args, "--evidence", str(evidence))
    assert missing.exit_code == 2 and "--recovery-tested" in missing.stderr
    early = gm(*args, "--evidence", str(evidence), "--recovery-tested")
    assert early.exit_code == 1 and "not an approved release" in early.stderr
    assert approve(gm, m1[0]).exit_code == 0
    pinned = gm(*args, "--evidence", str(evidence), "--recovery-tested", "--json")
    assert pinned.exit_code == 0, pinned.stderr
    data = release_verdict(gm)
    assert data["approved"] and data["pinned"] and data["reasons"] == []
    pin = next(a for a in data["approvals"] if a["kind"] == "pin")
    record = git(
        trusted, "cat-file", "blob", f"{RELEASES_REF}:{content_path('events', pin['record'])}"
    )
    stored = json.loads(record)
    assert stored["evidence"]["sha256"] == hashlib.sha256(evidence.read_bytes()).hexdigest()
    assert stored["recovery_tested"] is True


def test_a_tampered_approval_does_not_count(
    trusted: Path, gm: Gm, m1: tuple[Path, Ed25519Signer]
) -> None:
    assert approve(gm, m1[0]).exit_code == 0
    store = Store.discover(trusted).at(RELEASES_REF)
    address = release_verdict(gm)["approvals"][0]["record"]
    path = content_path("events", address)
    data = store.read_path(path)
    assert data is not None
    tip = store.repo.get(str(store.tip()))
    assert isinstance(tip, pygit2.Commit)
    index = pygit2.Index()
    index.read_tree(tip.tree)
    edited = data.replace(b'"sequence":1', b'"sequence":9')
    index.add(pygit2.IndexEntry(path, store.repo.create_blob(edited), pygit2.enums.FileMode.BLOB))
    who = pygit2.Signature("mallory", "mallory@example.net")
    commit = store.repo.create_commit(
        None, who, who, "edit", index.write_tree(store.repo), [tip.id]
    )
    store.repo.references[RELEASES_REF].set_target(commit, "edit")
    data_json = release_verdict(gm)
    assert not data_json["approved"]
    assert any("record edited" in r or "hash to" in r for r in data_json["reasons"])
    report = gm("verify", "--json").json()
    assert report["ok"] is False  # type: ignore[index]
    assert {p["ref"] for p in report["problems"]} == {RELEASES_REF}  # type: ignore[index]


def test_a_revoked_maintainer_key_does_not_count(
    trusted: Path, gm: Gm, m1: tuple[Path, Ed25519Signer]
) -> None:
    assert approve(gm, m1[0]).exit_code == 0
    approved = git(trusted, "rev-parse", "HEAD").strip()
    commit(trusted, "revoked keys", ".gitmem/revoked_keys", m1[1].public_key.openssh() + "\n")
    data = release_verdict(gm, approved)
    assert not data["approved"] and not data["approvals"][0]["trusted"]
    assert "is revoked" in data["approvals"][0]["reason"]


def test_bad_revision_is_bad_input(trusted: Path, gm: Gm) -> None:
    result = gm("release", "verify", "no-such-rev")
    assert result.exit_code == 2 and result.stderr.count("\n") == 1


@needs_ssh_keygen
def test_approve_through_ssh_keygen(trusted: Path, gm: Gm, m1: tuple[Path, Ed25519Signer]) -> None:
    # The same code path a hardware -sk key takes: `ssh-keygen -Y sign -f KEY`.
    result = approve(gm, m1[0], "m1@example.com", "--signer", "ssh-keygen")
    assert result.exit_code == 0, result.stderr
    assert release_verdict(gm)["approved"]


@pytest.fixture
def agent(m1: tuple[Path, Ed25519Signer], monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if shutil.which("ssh-agent") is None or shutil.which("ssh-add") is None:
        pytest.skip("ssh-agent is not installed")
    folder = Path(tempfile.mkdtemp(prefix="gm-agent-"))  # short: socket paths are limited
    sock = folder / "agent.sock"
    proc = subprocess.Popen(
        ["ssh-agent", "-D", "-a", str(sock)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        for _ in range(200):
            if sock.exists():
                break
            time.sleep(0.01)
        env = {**os.environ, "SSH_AUTH_SOCK": str(sock)}
        subprocess.run(["ssh-add", "-q", str(m1[0])], env=env, check=True, capture_output=True)
        monkeypatch.setenv("SSH_AUTH_SOCK", str(sock))
        yield str(sock)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


def test_approve_through_ssh_agent(
    trusted: Path, gm: Gm, m1: tuple[Path, Ed25519Signer], agent: str
) -> None:
    public = m1[0].with_name("m1.pub")
    result = gm(
        "release", "approve", "HEAD", "--signer", "agent", "--key", str(public),
        "--principal", "m1@example.com",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert release_verdict(gm)["approved"]
    # Without --key: the agent's only Ed25519 key.
    commit(trusted, "changes", "CHANGES", "v2\n")
    again = gm("release", "approve", "HEAD", "--signer", "agent", "--principal", "m1@example.com")
    assert again.exit_code == 0, again.stderr


def _sk_approval(seed: bytes, principal: str, commit: pygit2.Commit) -> tuple[bytes, bytes]:
    """An approval signed as an ed25519-sk authenticator signs (PROTOCOL.u2f), emulated in
    software: what `ssh-keygen -Y sign` returns for a hardware key."""
    sk_type, application = b"sk-ssh-ed25519@openssh.com", b"ssh:"
    public, secret = crypto_sign_seed_keypair(seed)
    blob = sshwire.string(sk_type) + sshwire.string(bytes(public)) + sshwire.string(application)
    event = Event(
        APPROVAL,
        None,
        "release",
        principal,
        fingerprint_of_blob(blob),
        format_time(datetime.now(UTC)),
        str(commit.id),
        {"tree": str(commit.tree_id), "sequence": 1},
    )
    data = event.canonical_bytes()
    signed = (
        b"SSHSIG"
        + sshwire.string(NS.encode())
        + sshwire.string(b"")
        + sshwire.string(b"sha512")
        + sshwire.string(hashlib.sha512(data).digest())
    )
    flags, counter = 0x01, 7  # user present
    to_sign = (
        hashlib.sha256(application).digest()
        + bytes([flags])
        + struct.pack(">I", counter)
        + hashlib.sha256(signed).digest()
    )
    raw = bytes(crypto_sign(to_sign, secret))[:64]
    sig = (
        sshwire.string(sk_type) + sshwire.string(raw) + bytes([flags]) + struct.pack(">I", counter)
    )
    body = (
        b"SSHSIG"
        + struct.pack(">I", 1)
        + sshwire.string(blob)
        + sshwire.string(NS.encode())
        + sshwire.string(b"")
        + sshwire.string(b"sha512")
        + sshwire.string(sig)
    )
    b64 = base64.b64encode(body)
    lines = b"\n".join(b64[i : i + 70] for i in range(0, len(b64), 70))
    armored = b"-----BEGIN SSH SIGNATURE-----\n" + lines + b"\n-----END SSH SIGNATURE-----\n"
    return data, armored


@needs_ssh_keygen
def test_a_hardware_key_approval_is_verified_by_ssh_keygen(repo: Path, gm: Gm) -> None:
    store = Store.discover(repo)
    seed = bytes(range(32))
    public, _ = crypto_sign_seed_keypair(seed)
    sk_key = sshwire.string(b"sk-ssh-ed25519@openssh.com") + sshwire.string(bytes(public))
    sk_key += sshwire.string(b"ssh:")
    key_line = f"sk-ssh-ed25519@openssh.com {base64.b64encode(sk_key).decode()}"
    commit(
        repo, "signers", ".gitmem/release_signers", f'hw@example.com namespaces="{NS}" {key_line}\n'
    )
    head = store.repo.revparse_single("HEAD")
    assert isinstance(head, pygit2.Commit)
    data, armored = _sk_approval(seed, "hw@example.com", head)
    address = hashlib.sha256(data).hexdigest()
    store.at(RELEASES_REF).append(
        [
            Entry(content_path("events", address), data),  # type: ignore[arg-type]
            Entry(content_path("receipts", address), armored),  # type: ignore[arg-type]
        ],
        "approve with a hardware key",
        "hw@example.com",
    )
    data_json = release_verdict(gm)
    assert data_json["approved"], data_json["reasons"]
    assert "checked by ssh-keygen" in data_json["approvals"][0]["reason"]
    # The committed revocation list reaches ssh-keygen too (-r).
    commit(repo, "revoked keys", ".gitmem/revoked_keys", key_line + "\n")
    revoked = release_verdict(gm, str(head.id))
    assert not revoked["approved"] and "is revoked" in revoked["approvals"][0]["reason"]


def _record(commit: str, sequence: int, principal: str, key: str) -> ReleaseRecord:
    return ReleaseRecord(
        address=hashlib.sha256(f"{commit}{principal}{key}".encode()).hexdigest(),  # type: ignore[arg-type]
        event=APPROVAL,
        release=Release(commit, "t" * 40),  # type: ignore[arg-type]
        sequence=sequence,
        principal=principal,
        key=key,
        created="2026-11-01T00:00:00Z",
        trusted=True,
        reason="ok",
        extra={},
    )


def test_a_contested_sequence_counts_for_nobody() -> None:
    a, b = "a" * 40, "b" * 40
    records = [_record(a, 3, "m1", "k1"), _record(b, 3, "m2", "k2")]
    verdict_a = decide(
        records,
        Release(a, "t" * 40),
        1,
        has_root=True,
        policy_problem=None,
        seen=None,  # type: ignore[arg-type]
    )
    assert not verdict_a.approved
    assert any("also claimed by an approval of commit bbbbbbbbbbbb" in r for r in verdict_a.reasons)
    alone = decide(
        records[:1], Release(a, "t" * 40), 1, has_root=True, policy_problem=None,  # type: ignore[arg-type]
        seen=Seen(3, a),
    )  # fmt: skip
    assert alone.approved and alone.sequence == 3
