"""What ``brief`` shows from a fetch and what ``sync`` merges are one decision
(:mod:`gitmem.lifecycle.acceptance`): for each case, against a real bare remote, the
fetched view and sync agree — both take it, both refuse it for the same reason, or the
view leaves a purge for sync to apply."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import GIT_ENV
from helpers.clones import Clone, make_clone, make_remote

from gitmem.lifecycle.fetched import unmerged
from gitmem.store.repo import MEMORY_REF, Store
from gitmem.store.roots import load_trust_roots

SECRET = "hunter2-zebra-quartz"


def trust(reader: Clone, *writers: Clone) -> None:
    with open(reader.home / "allowed_signers", "a") as handle:
        for writer in writers:
            handle.write(writer.export_key() + "\n")


def plumbing(clone: Clone, *args: str, stdin: str | None = None, index: Path) -> str:
    env = {**os.environ, **GIT_ENV, "GIT_INDEX_FILE": str(index)}
    done = subprocess.run(
        ["git", "-C", str(clone.path), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return done.stdout.strip()


def push_forged(clone: Clone, tmp_path: Path, path: str, data: str, rewrite: bool) -> None:
    """*clone* pushes a commit that adds (or, with an existing *path*, changes) one file
    of the memory tree; with *rewrite*, a root commit instead (a force push)."""
    index = tmp_path / f"index-{clone.name}"
    index.unlink(missing_ok=True)
    tip = clone.tip()
    plumbing(clone, "read-tree", tip, index=index)
    blob = plumbing(clone, "hash-object", "-w", "--stdin", stdin=data, index=index)
    plumbing(clone, "update-index", "--add", "--cacheinfo", f"100644,{blob},{path}", index=index)
    tree = plumbing(clone, "write-tree", index=index)
    parents = [] if rewrite else ["-p", tip]
    forged = plumbing(clone, "commit-tree", tree, *parents, "-m", "forged", index=index)
    clone.git("push", "-q", "--force", "origin", f"{forged}:{MEMORY_REF}")


def capture_secret(clone: Clone) -> str:
    transcript = clone.path.parent / f"{clone.name}-secret.md"
    transcript.write_text(f"Then {clone.name} said: the staging password is {SECRET} today.\n")
    items = (
        '[{"kind":"decision","text":"Staging password rotates","trust":"verbatim",'
        f'"quote":"the staging password is {SECRET} today"}}]'
    )
    done: Any = clone.ok(
        "capture", "--transcript", str(transcript), "--items", "-", "--json", input=items
    ).json()
    return str(done["items"][0]["id"])


def new_records(team: dict[str, Clone], tmp_path: Path) -> None:
    team["alice"].capture("the cache stays local")
    team["alice"].ok("sync")


def untrusted_writer(team: dict[str, Clone], tmp_path: Path) -> None:
    team["carol"].capture("the parser ships on friday")
    team["carol"].ok("sync")


def edited_record(team: dict[str, Clone], tmp_path: Path) -> None:
    push_forged(team["alice"], tmp_path, "checkpoints/ab/" + "c" * 62 + ".json", "{}\n", False)


def stray_path(team: dict[str, Clone], tmp_path: Path) -> None:
    push_forged(team["alice"], tmp_path, "notes/readme.txt", "hello\n", False)


def rewritten(team: dict[str, Clone], tmp_path: Path) -> None:
    push_forged(team["alice"], tmp_path, "stray.txt", "a new history\n", True)


def trusted_purge(team: dict[str, Clone], tmp_path: Path) -> None:
    team["alice"].ok("purge", "--text", SECRET, "--yes")
    team["alice"].ok("sync")


def untrusted_purge(team: dict[str, Clone], tmp_path: Path) -> None:
    team["carol"].ok("sync")
    team["carol"].ok("purge", "--text", SECRET, "--yes")
    team["carol"].ok("sync")


CASES: list[tuple[Callable[[dict[str, Clone], Path], None], str]] = [
    # (what happens on the remote, what bob's view and sync both do with it)
    (new_records, "taken"),
    (untrusted_writer, "taken"),
    (edited_record, "refused"),
    (stray_path, "refused"),
    (rewritten, "refused"),
    (untrusted_purge, "refused"),
    (trusted_purge, "sync applies a purge"),
]


@pytest.mark.parametrize(("happen", "outcome"), CASES, ids=[c[0].__name__ for c in CASES])
def test_the_fetched_view_and_sync_agree(
    tmp_path: Path, happen: Callable[[dict[str, Clone], Path], None], outcome: str
) -> None:
    remote = make_remote(tmp_path)
    team = {name: make_clone(tmp_path, remote, name) for name in ("alice", "bob", "carol")}
    alice, bob = team["alice"], team["bob"]
    trust(alice, bob)
    trust(bob, alice)
    capture_secret(alice)
    alice.ok("sync")
    bob.ok("sync")
    before = bob.tip()

    happen(team, tmp_path)
    bob.git("fetch", "-q", "origin")
    store = Store.discover(bob.path)
    (fetched,) = unmerged(store, load_trust_roots(bob.home, store))
    synced = bob.gm("sync", "--json")
    data: Any = synced.json()
    (memory,) = [r for r in data["refs"] if r["ref"] == MEMORY_REF]

    if outcome == "taken":
        assert fetched.problem is None
        assert synced.exit_code == 0 and memory["merge"] in ("fast-forward", "merged")
        assert memory["new_records"] == fetched.records
    elif outcome == "refused":
        assert fetched.problem is not None and synced.exit_code == 3
        assert memory["merge"] == "refused" and bob.tip() == before
        # One decision, one reason: the view says what sync says, then what to do.
        reason = fetched.problem.rsplit("; ", 1)[0]
        assert reason in memory["problem"], (reason, memory["problem"])
    else:
        assert fetched.problem is not None and "a purge is on one side only" in fetched.problem
        assert synced.exit_code == 0 and memory["purged"]
