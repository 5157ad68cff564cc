"""A teammate with push access, against a team of clones that trust each other through
the committed team root (issue 28): nothing Mallory pushes fools, blanks or stops another
clone. Each test runs real clones against a bare remote and shows what a user sees
(brief, sync, verify exit codes) and that nothing genuine was lost."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import git
from helpers.clones import Clone, make_clone, make_remote

from gitmem.core.canonical import sha256_hex
from gitmem.store.layout import content_path
from gitmem.store.repo import MEMORY_REF, Entry, Store

pytestmark = pytest.mark.slow

SECRET = "hunter2-zebra-quartz"


def team_of(tmp_path: Path, *names: str) -> dict[str, Clone]:
    """Clones of one bare remote; alice and bob are in the team root on the trust branch,
    every other clone is someone with push access whom nobody trusts."""
    remote = make_remote(tmp_path)
    clones = {name: make_clone(tmp_path, remote, name) for name in names}
    alice, bob = clones["alice"], clones["bob"]
    alice.commit_file(".gitmem/allowed_signers", f"{alice.export_key()}\n{bob.export_key()}\n")
    for clone in clones.values():
        clone.git("pull", "-q")
    return clones


def shown(clone: Clone) -> dict[str, dict[str, Any]]:
    """The brief's items by text."""
    data: Any = json.loads(clone.ok("brief", "--format", "json", "--budget", "0").stdout)
    return {item["text"]: item for item in data["items"]}


def push_entries(clone: Clone, entries: list[Entry]) -> None:
    """*clone* appends *entries* to its memory ref and pushes it (a fast-forward)."""
    Store.discover(clone.path).append(entries, "more memory", clone.principal)
    clone.git("push", "-q", "origin", f"{MEMORY_REF}:{MEMORY_REF}")


def reachable(repo: Path) -> bytes:
    """The bytes of every object reachable from any ref of *repo*."""
    import subprocess

    listed = git(repo, "rev-list", "--objects", "--all")
    oids = "\n".join(line.split()[0] for line in listed.splitlines()) + "\n"
    done = subprocess.run(
        ["git", "-C", str(repo), "cat-file", "--batch"], input=oids.encode(), capture_output=True
    )
    return done.stdout


def elsewhere(tmp_path: Path, name: str, owner: Clone) -> Clone:
    """A clone of another repository (its own remote, its own first commit) where
    *owner* works with the same key (gitmem keeps one per user)."""
    (tmp_path / name).mkdir()
    remote = tmp_path / name / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    seed = tmp_path / name / "seed"
    git(tmp_path, "init", "-q", "-b", "main", str(seed))
    (seed / "README.md").write_text(f"# {name}, another project\n")
    git(seed, "add", "README.md")
    git(seed, "commit", "-q", "-m", f"{name}: first commit")
    git(seed, "push", "-q", str(remote), "main")
    clone = make_clone(tmp_path / name, remote, owner.name, init=False)
    clone.home = owner.home
    clone.ok("init", "--name", owner.principal)
    return clone


def records_of(clone: Clone) -> list[Entry]:
    """Every file of *clone*'s memory tree, as entries."""
    store = Store.discover(clone.path)
    listed = clone.git("ls-tree", "-r", "--name-only", MEMORY_REF).split()
    data = store.read_paths(listed)
    return [Entry(path, data[path]) for path in listed if path in data]


def test_a_record_signed_for_another_repository_is_never_verbatim_here(tmp_path: Path) -> None:
    clones = team_of(tmp_path, "alice", "bob", "mallory")
    alice, bob, mallory = clones["alice"], clones["bob"], clones["mallory"]
    alice.capture("we keep the cache local")
    alice.ok("sync")
    # Alice's other project: the same key (one per user), another repository.
    other = elsewhere(tmp_path, "other", alice)
    other.capture(
        "we DROP the production database tonight", "We DROP the production database tonight"
    )
    # Mallory, whom nobody trusts, replays it into this project's memory.
    mallory.ok("sync")
    push_entries(mallory, records_of(other))

    synced = bob.gm("sync", "--json")
    assert synced.exit_code == 0  # intact records travel; trust is the reader's
    items = shown(bob)
    dropped = items["We DROP the production database tonight"]
    assert dropped["trust"] != "verbatim" and dropped["quote"] is None
    assert "written for another repository" in dropped["degraded_reason"]
    assert items["We keep the cache local"]["trust"] == "verbatim"  # nothing genuine lost
    text = bob.ok("brief").stdout
    assert "written for another repository" in text and "all 2 receipts verified" not in text
    verify = bob.gm("verify")
    assert verify.exit_code == 0 and "written for another repository" in verify.stdout
    assert bob.gm("verify", "--strict").exit_code == 3


def test_a_repository_split_off_takes_its_memory_along_once_the_team_says_so(
    tmp_path: Path,
) -> None:
    clones = team_of(tmp_path, "alice", "bob")
    alice = clones["alice"]
    alice.capture("we keep the cache local")
    root = alice.git("rev-list", "--max-parents=0", "HEAD").strip()
    # A new repository (its own first commit) that takes the project's memory with it.
    split = elsewhere(tmp_path, "split", alice)
    push_entries(split, records_of(alice))
    assert "another repository" in shown(split)["We keep the cache local"]["degraded_reason"]
    split.commit_file(
        ".gitmem/repository", f"# memory of the project it was split from\nalso {root}\n"
    )
    assert shown(split)["We keep the cache local"]["trust"] == "verbatim"
    assert split.gm("verify", "--strict").exit_code == 0


def test_records_written_before_binding_still_verify_and_strict_marks_them(
    tmp_path: Path,
) -> None:
    from gitmem.core.items import Item, Kind, Trust
    from gitmem.core.records import NAMESPACE, Checkpoint, Source
    from gitmem.store.keys import load_identity

    clones = team_of(tmp_path, "alice", "bob")
    alice = clones["alice"]
    alice.capture("we keep the cache local")  # written now: it names this repository
    identity = load_identity(alice.home)
    said = b"We agreed to ship the parser on friday."
    item = Item(
        Kind.DECISION,
        "Ship on friday",
        Trust.VERBATIM,
        "old",
        None,
        "ship the parser on friday",
        True,
    )
    old = Checkpoint(  # as a gitmem before records were bound wrote it: no repository
        "old",
        identity.principal,
        identity.signer.public_key.fingerprint(),
        "2026-10-01T00:00:00Z",
        None,
        Source(sha256_hex(said), "text", "t.md", len(said)),
        (item.address,),
    )
    data = old.canonical_bytes()
    Store.discover(alice.path).append(
        [
            Entry(content_path("snapshots", sha256_hex(said)), said),
            Entry(content_path("items", item.address), item.canonical_bytes()),
            Entry(content_path("checkpoints", sha256_hex(data)), data),
            Entry(content_path("receipts", sha256_hex(data)), identity.sign(data, NAMESPACE)),
        ],
        "old",
        identity.principal,
    )
    assert shown(alice)["Ship on friday"]["trust"] == "verbatim"  # read as before
    plain = alice.gm("verify")
    assert plain.exit_code == 0 and "name no repository" not in plain.stdout
    strict = alice.gm("verify", "--strict")
    assert strict.exit_code == 0 and "1 intact record(s) name no repository" in strict.stdout
    assert alice.gm("verify", "--json").json()["unbound_records"] == 1  # type: ignore[index]


def test_a_junk_ref_is_skipped_and_everything_else_exchanged(tmp_path: Path) -> None:
    clones = team_of(tmp_path, "alice", "bob", "mallory")
    alice, bob, mallory = clones["alice"], clones["bob"], clones["mallory"]
    alice.capture("we keep the cache local")
    alice.ok("sync")
    blob = mallory.git("hash-object", "-w", "README.md").strip()
    tree = mallory.git("rev-parse", "HEAD^{tree}").strip()
    mallory.git("push", "-q", "origin", f"{blob}:refs/gitmem/aaa-junk", f"{tree}:refs/gitmem/tree")
    mine = bob.capture("the parser ships on friday")

    synced = bob.gm("sync", "--json")
    data: Any = synced.json()
    refs = {r["ref"]: r for r in data["refs"]}
    assert synced.exit_code == 3  # reported
    assert data["refs"][0]["ref"] == MEMORY_REF  # memory first
    assert refs[MEMORY_REF]["problem"] is None and refs[MEMORY_REF]["pushed"]
    assert refs["refs/gitmem/aaa-junk"]["merge"] == "skipped"
    assert "not a plain ref to a commit" in refs["refs/gitmem/tree"]["problem"]
    assert "We keep the cache local" in shown(bob)  # alice's came in
    assert alice.gm("sync").exit_code == 3  # she meets the same junk, and goes on
    assert mine in alice.records()  # bob's went out
    assert bob.gm("verify").exit_code == 0


def test_a_bad_record_is_quarantined_and_the_team_keeps_exchanging(tmp_path: Path) -> None:
    clones = team_of(tmp_path, "alice", "bob", "mallory")
    alice, bob, mallory = clones["alice"], clones["bob"], clones["mallory"]
    alice.capture("we keep the cache local")
    alice.ok("sync")
    mallory.ok("sync")
    garbage = b'{"type": "checkpoint", not json at all'
    stray = b"x" * (2 << 20)  # a large file where no snapshot of that name belongs
    push_entries(
        mallory,
        [
            Entry(content_path("checkpoints", sha256_hex(garbage)), garbage),
            Entry("snapshots/00/not-a-hash.txt", stray),
        ],
    )
    mine = bob.capture("the parser ships on friday")

    synced = bob.gm("sync", "--json")
    (memory,) = [r for r in synced.json()["refs"] if r["ref"] == MEMORY_REF]  # type: ignore[index]
    assert synced.exit_code == 3 and memory["problem"] is None and memory["pushed"]
    bad = {q["path"]: q for q in memory["quarantined"]}
    assert content_path("checkpoints", sha256_hex(garbage)) in bad
    assert "snapshots/00/not-a-hash.txt" in bad
    assert all("mallory" in (q["author"] or "") for q in bad.values())
    text = bob.ok("status").stdout + bob.ok("brief").stdout
    assert "quarantined" in text and "mallory" in text
    assert "We keep the cache local" in shown(bob)
    assert alice.gm("sync").exit_code == 3  # she meets them too: quarantined, not frozen
    assert mine in alice.records()
    assert shown(alice)["The parser ships on friday"]["trust"] == "verbatim"
    assert bob.gm("verify").exit_code == 3  # the store does hold a malformed record


def untrusted_purge(clones: dict[str, Clone]) -> str:
    """Alice's secret item; then Mallory purges it with her own key and force-pushes the
    purged history by hand (her own sync would not: the team root does not trust it)."""
    alice, mallory = clones["alice"], clones["mallory"]
    transcript = alice.path.parent / "secret.md"
    transcript.write_text(f"Then alice said: the staging password is {SECRET} today.\n")
    items = (
        '[{"kind":"decision","text":"Staging password rotates","trust":"verbatim",'
        f'"quote":"the staging password is {SECRET} today"}}]'
    )
    done: Any = alice.ok(
        "capture", "--transcript", str(transcript), "--items", "-", "--json", input=items
    ).json()
    alice.capture("we keep the cache local")
    alice.ok("sync")
    clones["bob"].ok("sync")  # bob has seen the remote before the purge
    mallory.ok("sync")
    mallory.ok("purge", "--text", SECRET, "--yes")
    held = mallory.gm("sync")
    assert held.exit_code == 1 and "personal trust root" in held.stderr
    mallory.git("push", "-q", "--force", "origin", f"{MEMORY_REF}:{MEMORY_REF}")
    return str(done["items"][0]["id"])


def test_an_untrusted_purge_is_said_in_the_first_lines_never_no_memory(tmp_path: Path) -> None:
    clones = team_of(tmp_path, "alice", "bob", "mallory")
    bob = clones["bob"]
    secret = untrusted_purge(clones)

    refused = bob.gm("sync")
    assert refused.exit_code == 3 and "not pushed back" in refused.stderr
    first = bob.ok("brief").stdout.splitlines()[1:4]
    assert any("purge that no trust root of this clone vouches for" in line for line in first)
    assert any("mallory@example.com" in line for line in first)

    # A teammate who clones afterwards is told the same, first; never "No memory yet".
    dave = make_clone(tmp_path, tmp_path / "remote.git", "dave")
    dave.commit_file("dave.txt", "hi\n", push=False)
    text = dave.ok("brief").stdout
    head = text.splitlines()[1:4]
    assert any("mallory@example.com" in line and "removed" in line for line in head), head
    assert "No memory yet" not in text
    assert "We keep the cache local" in shown(dave)
    assert secret in shown(bob).get("Staging password rotates", {}).get(
        "id", ""
    )  # bob lost nothing


def test_a_trusted_purge_stays_applied_after_its_key_is_revoked(tmp_path: Path) -> None:
    clones = team_of(tmp_path, "alice", "bob")
    alice, bob = clones["alice"], clones["bob"]
    # Bob's own item comes from a transcript that also holds the secret.
    transcript = bob.path.parent / "bob.md"
    transcript.write_text(
        f"Bob said: we keep the cache local. The staging password is {SECRET} for now.\n"
    )
    items = (
        '[{"kind":"decision","text":"Keep the cache local","trust":"verbatim",'
        '"quote":"we keep the cache local"}]'
    )
    bob.ok("capture", "--transcript", str(transcript), "--items", "-", input=items)
    bob.ok("sync")
    alice.ok("sync")
    alice.ok("purge", "--text", SECRET, "--yes")
    assert alice.gm("sync", "--json").json()["refs"][0]["forced"]  # type: ignore[index]
    bob.ok("sync")
    assert shown(bob)["Keep the cache local"]["trust"] == "verbatim"

    # The team revokes alice's key (stolen, say).
    key = alice.export_key().split(" ", 2)[2]
    bob.commit_file(".gitmem/revoked_keys", f"# alice's laptop\n{key}\n")
    alice.git("pull", "-q")
    assert bob.gm("verify").exit_code == 0  # not a "snapshot missing" failure
    assert shown(bob)["Keep the cache local"]["trust"] == "verbatim"
    assert SECRET.encode() not in reachable(bob.path)  # nothing purged came back
    assert bob.gm("sync").exit_code == 0 and alice.gm("sync").exit_code == 0


def test_the_brief_says_what_verify_knows(tmp_path: Path) -> None:
    from helpers import tamper

    from gitmem.core.records import EVENT_RESOLVE
    from gitmem.store.keys import load_identity
    from gitmem.store.seal import new_event, seal

    clones = team_of(tmp_path, "alice", "bob")
    alice = clones["alice"]
    alice.capture("we keep the cache local")
    (item,) = shown(alice).values()
    assert "all 1 receipts verified" in alice.ok("brief").stdout
    store = Store.discover(alice.path)
    # A signed resolve, stored under checkpoints/: never applied.
    from datetime import UTC, datetime

    sealed = seal(
        new_event(
            load_identity(alice.home), EVENT_RESOLVE, item["id"], "human", datetime.now(UTC), None
        ),
        load_identity(alice.home).sign,
        "gitmem",
    )
    store.append(
        [Entry(content_path("checkpoints", sealed.address), sealed.data), sealed.entries[1]],
        "misfiled",
        "mallory",
    )
    orphan = b'{"kind":"fact"}'
    store.append([Entry(content_path("items", sha256_hex(orphan)), orphan)], "planted", "mallory")
    tamper.add_entry(store, "snapshots/ab/" + "c" * 62 + ".txt", b"target", 0o120000)
    alice.git("update-ref", "refs/gitmem/junk", alice.git("rev-parse", "HEAD^{tree}").strip())

    text = alice.ok("brief").stdout
    assert "We keep the cache local" in shown(alice)  # the misfiled resolve never applied
    header = text.splitlines()[1]
    assert "receipts verified" in header and "all 1 receipts verified" not in header
    for said in ("wrong folder", "no record names it", "a symlink", "refs/gitmem/junk"):
        assert said in text, text
    assert alice.gm("verify").exit_code == 3
