"""Sync and purge, against a real bare remote: a trusted teammate's purge is accepted and
applied; one by an untrusted key, or any rewrite a purge does not account for, is
refused with local records intact; a purge is pushed with a lease, even over commits
the remote gained meanwhile, and never resurrected by a merge."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers import git
from helpers.clones import Clone, make_clone
from helpers.grep import SECRET, all_objects, files_holding

from gitmem.store.purge import HistoryEditor, purge_edit
from gitmem.store.repo import MEMORY_REF, Store


@pytest.fixture
def team(alice: Clone, bob: Clone) -> tuple[Clone, Clone]:
    """Alice and Bob, whose keys the team root trusts: committed to .gitmem/allowed_signers
    on the trust branch (only a purge the team root trusts is ever forced onto a remote)."""
    alice.commit_file(".gitmem/allowed_signers", f"{alice.export_key()}\n{bob.export_key()}\n")
    bob.git("pull", "-q")
    return alice, bob


def item_ids(clone: Clone) -> set[str]:
    return {str(i["id"]) for i in clone.brief()["items"]}


def reachable(repo: Path) -> bytes:
    """The bytes of every object reachable from any ref of *repo*."""
    listed = git(repo, "rev-list", "--objects", "--all")
    oids = "\n".join(line.split()[0] for line in listed.splitlines()) + "\n"
    return subprocess.run(
        ["git", "-C", str(repo), "cat-file", "--batch"],
        input=oids.encode(),
        check=True,
        capture_output=True,
    ).stdout


def sync_json(clone: Clone) -> dict[str, Any]:
    done = clone.gm("sync", "--json")
    data: Any = done.json()
    (memory,) = [r for r in data["refs"] if r["ref"] == MEMORY_REF]
    return {"exit": done.exit_code, "stderr": done.stderr, **memory}


def test_a_trusted_teammates_purge_is_accepted_and_applied(
    team: tuple[Clone, Clone], remote: Path
) -> None:
    alice, bob = team
    secret = alice.capture_secret()
    kept = alice.capture("the cache stays local")
    alice.ok("sync")
    bob.ok("sync")
    assert secret in item_ids(bob)  # and bob's ledger now holds its text
    assert files_holding(bob.path / ".git" / "gitmem", SECRET.encode())
    bobs = bob.capture("the parser ships on friday")  # not pushed yet: bob's own history

    purged: Any = alice.ok("purge", "--text", SECRET, "--yes", "--json").json()
    pushed = sync_json(alice)
    assert pushed["exit"] == 0 and pushed["pushed"] and pushed["forced"], pushed
    assert SECRET.encode() not in reachable(remote)

    accepted = sync_json(bob)
    assert accepted["exit"] == 0, accepted["stderr"]
    assert accepted["purged"] == [purged["event"]] and accepted["pushed"]
    assert not accepted["forced"]  # bob's push descends from the purged remote: no force
    ids = item_ids(bob)
    assert secret not in ids and {kept, bobs} <= bob.records() | ids
    assert bobs in bob.records() and kept in bob.records()
    assert SECRET.encode() not in reachable(bob.path)
    assert files_holding(bob.path / ".git" / "gitmem", SECRET.encode()) == []  # the ledger too
    bob.git("reflog", "expire", "--expire=now", "--all")
    bob.git("gc", "--prune=now", "-q")
    assert SECRET.encode() not in all_objects(bob.path)
    assert files_holding(bob.path / ".git", SECRET.encode()) == []
    assert bob.gm("verify").exit_code == 0
    assert "[purged by alice@example.com on" in bob.ok("show", secret[:8]).stdout

    # Back at alice: bob's capture arrives, nothing purged comes back.
    again = sync_json(alice)
    assert again["exit"] == 0 and not again["forced"]
    assert alice.tip() == bob.tip() == git(remote, "rev-parse", MEMORY_REF).strip()
    assert SECRET.encode() not in reachable(alice.path)
    assert alice.gm("verify").exit_code == 0


def test_a_purge_by_an_untrusted_key_is_refused_and_local_records_stay(
    tmp_path: Path, team: tuple[Clone, Clone], remote: Path
) -> None:
    alice, bob = team
    secret = alice.capture_secret()
    alice.ok("sync")
    bob.ok("sync")
    carol = make_clone(tmp_path, remote, "carol")  # bob trusts no key of hers
    carol.ok("sync")
    carol.ok("purge", secret[:8], "--yes")
    # Her own sync never forces a purge the team root does not trust: it stays local.
    held = sync_json(carol)
    assert held["exit"] == 1 and not held["forced"] and not held["pushed"]
    assert "only this clone's personal trust root vouches for" in held["problem"]
    # Anyone who can push can still force it by hand.
    carol.git("push", "-q", "--force", "origin", f"{MEMORY_REF}:{MEMORY_REF}")
    before = bob.tip()

    refused = sync_json(bob)
    assert refused["exit"] == 3 and refused["merge"] == "refused"
    assert "rewrote refs/gitmem/memory" in refused["problem"]
    assert "by keys no trust root of this clone vouches for" in refused["problem"]
    assert bob.tip() == before and secret in item_ids(bob)  # local records intact
    assert not refused["pushed"]
    assert bob.gm("verify").exit_code == 0


def test_a_rewrite_a_purge_does_not_account_for_is_refused(
    team: tuple[Clone, Clone], remote: Path
) -> None:
    alice, bob = team
    secret = alice.capture_secret()
    other = alice.capture("the cache stays local")
    alice.ok("sync")
    bob.ok("sync")
    alice.ok("purge", secret[:8], "--yes")
    # Alice (trusted) also drops another item by hand, then force-pushes.
    store = Store.discover(alice.path)
    blob = next(a for a in store.read().items if a not in (secret,))
    from gitmem.core.purge import Purge
    from gitmem.core.types import Sha256Hex

    edit = purge_edit(Purge(items=(Sha256Hex(blob),)), {})
    tip = store.tip()
    assert tip is not None
    store.compare_and_swap(tip, HistoryEditor(store.repo, edit).edit(tip), "by hand")
    alice.git("push", "-q", "--force", "origin", f"{MEMORY_REF}:{MEMORY_REF}")
    before = bob.tip()

    refused = sync_json(bob)
    assert refused["exit"] == 3 and "do not account for everything it changed" in refused["problem"]
    assert bob.tip() == before and {secret, other} <= bob.records() | item_ids(bob)
    assert len(item_ids(bob)) == 2


def test_a_purge_is_pushed_over_what_the_remote_gained_meanwhile(
    team: tuple[Clone, Clone], remote: Path
) -> None:
    alice, bob = team
    secret = alice.capture_secret()
    alice.ok("sync")
    bob.ok("sync")
    alice.ok("purge", "--text", SECRET, "--yes")
    carried = bob.capture("the parser ships on friday")  # bob's checkpoint carries the secret
    assert sync_json(bob)["exit"] == 0  # a fast-forward: the remote holds the secret again

    pushed = sync_json(alice)  # alice's purge is applied to what she fetched, then forced
    assert pushed["exit"] == 0 and pushed["forced"] and pushed["merge"] == "merged"
    assert SECRET.encode() not in reachable(remote)
    assert carried in alice.records()

    accepted = bob.ok("sync").stdout
    assert (
        "✓ refs/gitmem/memory: fast-forward" in accepted
        and "1 purge(s) from origin applied here" in accepted
    )
    assert secret not in item_ids(bob) and SECRET.encode() not in reachable(bob.path)
    assert bob.gm("verify").exit_code == 0 and alice.gm("verify").exit_code == 0


def test_two_purges_of_one_snapshot_are_accepted_together(
    team: tuple[Clone, Clone], remote: Path
) -> None:
    """The second purge redacts the first one's copy again: a clone that saw neither
    applies both, and ends with exactly the purger's history."""
    alice, bob = team
    transcript = alice.path.parent / "two-secrets.md"
    transcript.write_text(
        "Alice said: the staging password is hunter2-zebra-quartz today.\n"
        "Alice said: the client is Acme Rocket Supplies, keep it quiet.\n"
        "Alice said: we keep the cache local for the whole release.\n"
    )
    items = (
        '[{"kind":"decision","text":"Keep the cache local","trust":"verbatim",'
        '"quote":"we keep the cache local for the whole release"}]'
    )
    alice.ok("capture", "--transcript", str(transcript), "--items", "-", input=items)
    alice.ok("sync")
    bob.ok("sync")
    first: Any = alice.ok("purge", "--text", SECRET, "--yes", "--json").json()
    second: Any = alice.ok("purge", "--text", "Acme Rocket", "--yes", "--json").json()
    (copy,) = first["snapshots"].values()
    assert list(second["snapshots"]) == [copy]  # the first copy, redacted again
    assert sync_json(alice)["forced"]

    accepted = sync_json(bob)
    assert accepted["exit"] == 0, accepted["stderr"]
    assert accepted["purged"] == [first["event"], second["event"]]
    assert bob.tip() == alice.tip()
    for text in (SECRET.encode(), b"Acme Rocket"):
        assert text not in reachable(bob.path) and text not in reachable(remote)
    shown = bob.brief()["items"]
    assert [i["quote"] for i in shown] == ["we keep the cache local for the whole release"]
    assert bob.gm("verify").exit_code == 0
