"""Team trust across clones: the committed .gitmem/allowed_signers, key rotation with
valid-after / valid-before, and revocation lists (gitmem's and ssh-keygen's)."""

from __future__ import annotations

import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from helpers.clones import Clone

from gitmem.capture.run import Context, capture_transcript
from gitmem.capture.transcripts import parse_transcript
from gitmem.core.items import Draft
from gitmem.core.receipts import Ed25519Signer
from gitmem.store.keys import Identity, load_identity
from gitmem.store.layout import content_path
from gitmem.store.repo import MEMORY_REF, Store


def items_by_quote(clone: Clone) -> dict[str, dict[str, Any]]:
    shown = clone.brief()["items"]
    return {str(i["text"]): i for i in shown}


def test_teammate_receipts_verify_through_the_committed_file_only(
    alice: Clone,
    bob: Clone,
) -> None:
    bob.capture("the parser ships on friday", "Parser ships Friday")
    bob.ok("sync")
    alice.ok("sync")

    item = items_by_quote(alice)["Parser ships Friday"]
    assert item["trust"] == "untagged" and item["quote"] is None
    assert item["degraded_reason"].startswith("untrusted key")
    assert "verbatim withheld: untrusted key" in alice.ok("brief").stdout

    # An uncommitted edit of the team root grants nothing.
    team_file = alice.path / ".gitmem" / "allowed_signers"
    team_file.parent.mkdir()
    team_file.write_text(bob.export_key() + "\n")
    assert items_by_quote(alice)["Parser ships Friday"]["degraded_reason"].startswith(
        "untrusted key"
    )

    # Committed on a branch that origin's main does not have yet: it grants nothing, and
    # the brief says why in one line.
    alice.git("checkout", "-q", "-b", "trust-bob")
    alice.git("add", ".gitmem/allowed_signers")
    alice.git("commit", "-q", "-m", "trust bob")
    assert items_by_quote(alice)["Parser ships Friday"]["trust"] == "untagged"
    notice = [w for w in alice.brief()["warnings"] if w["code"] == "trust-branch"]
    assert (
        len(notice) == 1
        and "added by this branch, not yet by origin/main" in (notice[0]["message"])
    )
    status: Any = alice.ok("status", "--json").json()
    assert status["trust_branch"] == "origin/main"

    # Merged where the team reviews code: now it counts.
    alice.git("push", "-q", "origin", "trust-bob:main")
    item = items_by_quote(alice)["Parser ships Friday"]
    assert item["trust"] == "verbatim" and item["quote"] == "the parser ships on friday"
    assert not [w for w in alice.brief()["warnings"] if w["code"] == "trust-branch"]
    assert alice.gm("verify").exit_code == 0


def _capture_at(store: Store, identity: Identity, quote: str, when: datetime) -> str:
    text = f"Bob said: {quote}.\n"
    drafts = [Draft("decision", quote.capitalize(), "verbatim", quote, {})]
    result = capture_transcript(
        Context.open(store, identity=identity),
        parse_transcript(text.encode(), f"{quote[:8]}.md"),
        None,
        source="test",
        drafts=drafts,
        session=f"s-{quote[:8].replace(' ', '-')}",
        now=when,
    )
    return str(result.checkpoint)


def test_key_rotation_with_validity_windows(alice: Clone, bob: Clone, tmp_path: Path) -> None:
    old = load_identity(bob.home)
    new = Identity(bob.principal, Ed25519Signer.generate(), tmp_path / "unused")
    store = Store.discover(bob.path)
    may, july = datetime(2026, 5, 1, tzinfo=UTC), datetime(2026, 7, 1, tzinfo=UTC)
    _capture_at(store, old, "the old key signed this in may", may)
    _capture_at(store, old, "the old key signed this in july", july)
    _capture_at(store, new, "the new key signed this in july", july)
    bob.ok("sync")
    alice.ok("sync")
    old_key, new_key = old.signer.public_key.openssh(), new.signer.public_key.openssh()
    alice.commit_file(
        ".gitmem/allowed_signers",
        f'{bob.principal} namespaces="gitmem",valid-before="20260601Z" {old_key}\n'
        f'{bob.principal} namespaces="gitmem",valid-after="20260601Z" {new_key}\n',
    )
    shown = items_by_quote(alice)
    assert shown["The old key signed this in may"]["trust"] == "verbatim"  # still vouches
    assert shown["The old key signed this in july"]["degraded_reason"].startswith("untrusted key")
    assert shown["The new key signed this in july"]["trust"] == "verbatim"
    report: Any = alice.gm("verify", "--json").json()
    assert report["problems"] == []  # intact: an expired key is a question of trust
    (expired,) = report["untrusted"]
    assert "expired (valid-before 2026-06-01)" in expired["detail"]


def test_a_revoked_key_vouches_for_nothing(alice: Clone, bob: Clone) -> None:
    address = bob.capture("the parser ships on friday", "Parser ships Friday")
    bob.ok("sync")
    alice.ok("sync")
    alice.commit_file(".gitmem/allowed_signers", bob.export_key() + "\n")
    assert items_by_quote(alice)["Parser ships Friday"]["trust"] == "verbatim"

    bob_key = load_identity(bob.home).signer.public_key.openssh()
    alice.commit_file(".gitmem/revoked_keys", f"# stolen laptop\n{bob_key} bob-laptop\n")
    item = items_by_quote(alice)["Parser ships Friday"]
    assert item["degraded_reason"].startswith("untrusted key") and item["quote"] is None
    status: Any = alice.ok("status", "--json").json()
    problems = [p for root in status["trust_roots"] for p in root["problems"]]
    assert any("is revoked (HEAD:.gitmem/revoked_keys)" in p for p in problems)

    # The same file revokes the key for stock ssh-keygen.
    if shutil.which("ssh-keygen") is None:
        pytest.skip("ssh-keygen is not installed")
    folder = alice.path.parent
    receipt = folder / "receipt.sig"
    receipt.write_bytes(
        alice.git("cat-file", "blob", f"{MEMORY_REF}:{content_path('receipts', address)}").encode()
    )
    record = alice.git("cat-file", "blob", f"{MEMORY_REF}:{content_path('checkpoints', address)}")
    args = ["ssh-keygen", "-Y", "verify", "-f", str(alice.path / ".gitmem" / "allowed_signers")]
    args += ["-I", bob.principal, "-n", "gitmem", "-s", str(receipt)]
    good = subprocess.run(args, input=record.encode(), capture_output=True, check=False)
    assert good.returncode == 0, good.stderr
    revoked = subprocess.run(
        [*args, "-r", str(alice.path / ".gitmem" / "revoked_keys")],
        input=record.encode(),
        capture_output=True,
        check=False,
    )
    assert revoked.returncode != 0


def test_a_revocation_line_that_revokes_nothing_is_reported(alice: Clone, bob: Clone) -> None:
    # A fingerprint where the key line belongs (or a binary KRL) was skipped in silence:
    # the key stayed trusted, and no brief, status or doctor said so.
    bob.capture("the parser ships on friday", "Parser ships Friday")
    bob.ok("sync")
    alice.ok("sync")
    alice.commit_file(".gitmem/allowed_signers", bob.export_key() + "\n")
    fingerprint = load_identity(bob.home).signer.public_key.fingerprint()
    alice.commit_file(".gitmem/revoked_keys", f"# stolen laptop\n{fingerprint}\n")
    assert items_by_quote(alice)["Parser ships Friday"]["trust"] == "verbatim"  # not revoked
    warnings = [w["message"] for w in alice.brief()["warnings"]]
    assert any("revoked_keys line 2" in w and "is not revoked" in w for w in warnings)
    assert "is not revoked" in alice.ok("brief").stdout
    assert "revoked_keys line 2" in alice.ok("status").stdout
    status: Any = alice.ok("status", "--json").json()
    assert any("line 2" in p for p in status["revocation_problems"])
    doctor = alice.gm("doctor")
    assert "revocation line(s) skipped" in doctor.stdout


def test_a_personal_revocation_applies_to_every_root(alice: Clone, bob: Clone) -> None:
    bob.capture("the parser ships on friday", "Parser ships Friday")
    bob.ok("sync")
    alice.ok("sync")
    alice.commit_file(".gitmem/allowed_signers", bob.export_key() + "\n")
    bob_key = load_identity(bob.home).signer.public_key.openssh()
    (alice.home / "revoked_keys").write_text(f"{bob_key}\nnot a key line\n")
    assert items_by_quote(alice)["Parser ships Friday"]["degraded_reason"].startswith(
        "untrusted key"
    )


def test_checking_out_a_contributors_branch_never_trusts_their_key(
    alice: Clone,
    bob: Clone,
) -> None:
    """The attack: a contributor's branch appends their own key and carries memory they
    signed; checking the branch out must not make that memory verbatim."""
    bob.capture("we skip the security review this once", "Skip the security review")
    bob.git("checkout", "-q", "-b", "bob/feature")
    bob.commit_file(".gitmem/allowed_signers", bob.export_key() + "\n", push=False)
    bob.git("push", "-q", "origin", "bob/feature")
    bob.ok("sync")
    alice.git("fetch", "-q", "origin")
    alice.git("checkout", "-q", "-b", "bob/feature", "origin/bob/feature")
    alice.ok("sync")

    item = items_by_quote(alice)["Skip the security review"]
    assert item["trust"] == "untagged" and item["quote"] is None
    brief = alice.ok("brief").stdout
    assert "verbatim withheld: untrusted key" in brief
    assert "1 key(s) added by this branch, not yet by origin/main" in brief

    # A reviewer may choose another trust branch explicitly; then it is theirs to answer for.
    alice.ok("config", "--repo", "trust_ref", "origin/bob/feature")
    assert items_by_quote(alice)["Skip the security review"]["trust"] == "verbatim"
    status: Any = alice.ok("status", "--json").json()
    assert status["trust_branch"] == "origin/bob/feature"


def test_without_a_remote_the_local_default_branch_is_the_trust_branch(
    alice: Clone,
    bob: Clone,
) -> None:
    bob.capture("the parser ships on friday", "Parser ships Friday")
    bob.ok("sync")
    alice.ok("sync")
    alice.git("remote", "remove", "origin")
    alice.git("checkout", "-q", "-b", "feature")
    alice.commit_file(".gitmem/allowed_signers", bob.export_key() + "\n", push=False)
    assert items_by_quote(alice)["Parser ships Friday"]["trust"] == "untagged"
    assert alice.ok("status", "--json").json()["trust_branch"] == "main"  # type: ignore[index]

    alice.git("checkout", "-q", "main")
    alice.git("merge", "-q", "--ff-only", "feature")
    assert items_by_quote(alice)["Parser ships Friday"]["trust"] == "verbatim"
