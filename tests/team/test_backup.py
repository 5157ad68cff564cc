"""Backup to a storage-only replica, verified restore (and refused restores), and
transcripts recreated from their stored snapshots."""

from __future__ import annotations

from pathlib import Path

import pygit2
from helpers import git, tamper
from helpers.clones import Clone, make_clone, make_remote

from gitmem.store.repo import MEMORY_REF, Store


def refs_of(repo: Path) -> str:
    return git(repo, "for-each-ref", "--format=%(objectname) %(refname)")


def test_backup_creates_a_bare_replica_and_is_unforced(alice: Clone, tmp_path: Path) -> None:
    alice.capture("the cache stays local")
    replica = tmp_path / "replica.git"
    first = alice.ok("backup", str(replica), "--json").json()
    assert first["refs"][0]["outcome"] == "created"  # type: ignore[index]
    assert git(replica, "rev-parse", "--is-bare-repository").strip() == "true"
    assert git(replica, "rev-parse", MEMORY_REF).strip() == alice.tip()
    assert alice.ok("backup", str(replica), "--json").json()["refs"][0]["outcome"] == (  # type: ignore[index]
        "up-to-date"
    )
    # Another clone backs up a different history: never forced over the first.
    (tmp_path / "elsewhere").mkdir()
    other = make_clone(tmp_path, make_remote(tmp_path / "elsewhere"), "carol")
    other.capture("a different history")
    refused = other.gm("backup", str(replica))
    assert refused.exit_code == 1 and "refused refs/gitmem/memory" in refused.stderr
    assert git(replica, "rev-parse", MEMORY_REF).strip() == alice.tip()


def test_nothing_to_back_up(alice: Clone, tmp_path: Path) -> None:
    result = alice.gm("backup", str(tmp_path / "replica.git"))
    assert result.exit_code == 1 and "nothing to back up" in result.stderr
    assert not (tmp_path / "replica.git").exists()


def test_restoring_from_a_path_where_nothing_is_is_bad_input(alice: Clone, tmp_path: Path) -> None:
    before = refs_of(alice.path)
    for args in (("restore",), ("restore", "--list"), ("restore", "--at", "2026-01-01")):
        result = alice.gm(*args, str(tmp_path / "no-such-replica.git"))
        assert result.exit_code == 2, result.stderr
        assert result.stderr.count("\n") == 1 and "no replica at" in result.stderr
    assert refs_of(alice.path) == before


def test_restore_into_a_fresh_clone_and_recreate_the_transcript(
    alice: Clone, tmp_path: Path
) -> None:
    address = alice.capture("the cache stays local")
    replica = tmp_path / "replica.git"
    alice.ok("backup", str(replica))
    # A second machine: the same person (same home), a fresh clone with no memory.
    fresh = make_clone(tmp_path, tmp_path / "remote.git", "alice2", init=False)
    fresh.home = alice.home
    restored = fresh.ok("restore", str(replica), "--json").json()
    assert restored["refs"][0]["outcome"] == "created"  # type: ignore[index]
    assert fresh.records() == {address}
    assert fresh.ok("verify").exit_code == 0
    assert not [r for r in refs_of(fresh.path).split("\n") if "gitmem-restore" in r]

    transcript = next(tmp_path.glob("alice-*.md"))
    shown = fresh.ok("snapshot", "show", address[:12])  # a checkpoint's hash works too
    assert shown.stdout == transcript.read_text()
    target = tmp_path / "recreated.md"
    fresh.ok("snapshot", "show", address, "--output", str(target))
    assert target.read_bytes() == transcript.read_bytes()
    assert fresh.gm("snapshot", "show", "zz").exit_code == 2
    assert fresh.gm("snapshot", "show", "0" * 12).exit_code == 2


def _tampered_replica(alice: Clone, tmp_path: Path) -> Path:
    address = alice.capture("the cache stays local")
    replica = tmp_path / "replica.git"
    alice.ok("backup", str(replica))
    store = Store(pygit2.Repository(str(replica)))
    tamper.edit_record(store, address, b"the cache stays local", b"the cache goes remote")
    return replica


def test_a_tampered_replica_is_refused_and_nothing_changes(alice: Clone, tmp_path: Path) -> None:
    replica = _tampered_replica(alice, tmp_path)
    fresh = make_clone(tmp_path, tmp_path / "remote.git", "alice2", init=False)
    fresh.home = alice.home
    before = refs_of(fresh.path)
    result = fresh.gm("restore", str(replica))
    assert result.exit_code == 3
    assert "restore from" in result.stderr and "refused, nothing changed" in result.stderr
    assert "item edited" in result.stderr and "Traceback" not in result.stderr
    assert refs_of(fresh.path) == before  # no memory ref, no scratch refs


def test_intact_records_by_an_untrusted_key_restore_as_sync_accepts_them(
    alice: Clone, tmp_path: Path
) -> None:
    """Integrity is the store's, trust the reader's: restore takes what sync takes."""
    address = alice.capture("the cache stays local")
    replica = tmp_path / "replica.git"
    alice.ok("backup", str(replica))
    stranger = make_clone(tmp_path, tmp_path / "remote.git", "stranger")
    stranger.ok("restore", str(replica))
    assert stranger.records() == {address}
    (item,) = stranger.brief()["items"]
    assert item["trust"] == "untagged" and item["degraded_reason"].startswith("untrusted key")
    verify = stranger.gm("verify", "--json")
    assert verify.exit_code == 0 and verify.json()["untrusted_records"] == 1  # type: ignore[index]
    assert stranger.gm("verify", "--strict").exit_code == 3


def test_a_refused_restore_leaves_no_object_behind(alice: Clone, tmp_path: Path) -> None:
    replica = _tampered_replica(alice, tmp_path)
    fresh = make_clone(tmp_path, tmp_path / "remote.git", "alice3", init=False)
    fresh.home = alice.home
    store = fresh.path / ".git" / "objects"
    objects = sorted(str(p) for p in store.rglob("*") if p.is_file())
    refs = refs_of(fresh.path)
    assert fresh.gm("restore", str(replica)).exit_code == 3
    assert sorted(str(p) for p in store.rglob("*") if p.is_file()) == objects
    assert refs_of(fresh.path) == refs


def test_a_replica_that_rewrote_this_clones_history_is_refused(
    alice: Clone, tmp_path: Path
) -> None:
    alice.capture("the cache stays local")
    replica = tmp_path / "replica.git"
    alice.ok("backup", str(replica))
    # The replica is rewritten: its memory now holds a history without alice's record.
    git(replica, "update-ref", "-d", MEMORY_REF)
    elsewhere = make_clone(tmp_path, tmp_path / "remote.git", "alice3", init=False)
    elsewhere.home = alice.home
    elsewhere.capture("another record entirely")
    elsewhere.ok("backup", str(replica))
    before = alice.tip()
    result = alice.gm("restore", str(replica))
    assert result.exit_code == 3 and "history rewritten" in result.stderr
    assert alice.tip() == before


def test_restore_moves_forward_only(alice: Clone, tmp_path: Path) -> None:
    first = alice.capture("the cache stays local")
    replica = tmp_path / "replica.git"
    alice.ok("backup", str(replica))
    alice.capture("the queue is bounded")
    result = alice.ok("restore", str(replica), "--json").json()
    assert result["refs"][0]["outcome"] == "up-to-date"  # type: ignore[index]
    assert first in alice.records() and len(alice.records()) == 2


def test_a_clone_that_fails_integrity_backs_up_nothing(alice: Clone, tmp_path: Path) -> None:
    address = alice.capture("the cache stays local")
    tamper.edit_record(
        Store.discover(alice.path), address, b"the cache stays local", b"the cache goes remote"
    )
    replica = tmp_path / "replica.git"
    result = alice.gm("backup", str(replica))
    assert result.exit_code == 3 and "backup refused, nothing pushed" in result.stderr
    assert "item edited" in result.stderr
    assert not replica.exists() or refs_of(replica) == ""
