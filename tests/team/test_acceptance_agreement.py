"""What ``brief`` shows from a fetch and what ``sync`` merges are one decision
(:mod:`gitmem.lifecycle.acceptance`): for each case, against a real bare remote, the
fetched view and sync agree — both take it, both refuse it for the same reason, or the
view leaves a purge for sync to apply."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers.clones import Clone, make_clone, make_remote
from helpers.grep import SECRET

from gitmem.lifecycle.fetched import unmerged
from gitmem.store.repo import MEMORY_REF, Store
from gitmem.store.roots import load_trust_roots


def push_forged(clone: Clone, path: str, data: str, rewrite: bool) -> None:
    """*clone* pushes a commit that adds (or, with an existing *path*, changes) one file
    of the memory tree; with *rewrite*, a root commit instead (a force push)."""
    forged = clone.forge(clone.tip(), path, data, root=rewrite)
    clone.git("push", "-q", "--force", "origin", f"{forged}:{MEMORY_REF}")


def new_records(team: dict[str, Clone], tmp_path: Path) -> None:
    team["alice"].capture("the cache stays local")
    team["alice"].ok("sync")


def untrusted_writer(team: dict[str, Clone], tmp_path: Path) -> None:
    team["carol"].capture("the parser ships on friday")
    team["carol"].ok("sync")


def edited_record(team: dict[str, Clone], tmp_path: Path) -> None:
    push_forged(team["alice"], "checkpoints/ab/" + "c" * 62 + ".json", "{}\n", False)


def stray_path(team: dict[str, Clone], tmp_path: Path) -> None:
    push_forged(team["alice"], "notes/readme.txt", "hello\n", False)


def rewritten(team: dict[str, Clone], tmp_path: Path) -> None:
    push_forged(team["alice"], "stray.txt", "a new history\n", True)


def trusted_purge(team: dict[str, Clone], tmp_path: Path) -> None:
    team["alice"].ok("purge", "--text", SECRET, "--yes")
    team["alice"].ok("sync")


def untrusted_purge(team: dict[str, Clone], tmp_path: Path) -> None:
    carol = team["carol"]
    carol.ok("sync")
    carol.ok("purge", "--text", SECRET, "--yes")
    carol.git("push", "-q", "--force", "origin", f"{MEMORY_REF}:{MEMORY_REF}")


CASES: list[tuple[Callable[[dict[str, Clone], Path], None], str]] = [
    # (what happens on the remote, what bob's view and sync both do with it)
    (new_records, "taken"),
    (untrusted_writer, "taken"),
    (edited_record, "quarantined"),
    (stray_path, "quarantined"),
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
    alice.commit_file(".gitmem/allowed_signers", f"{alice.export_key()}\n{bob.export_key()}\n")
    bob.git("pull", "-q")
    alice.capture_secret()
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

    if outcome in ("taken", "quarantined"):
        assert fetched.problem is None
        assert memory["merge"] in ("fast-forward", "merged") and memory["problem"] is None
        assert memory["new_records"] == fetched.records
        # What fails its own check is taken with the rest, never read as genuine, reported.
        assert bool(memory["quarantined"]) == (outcome == "quarantined")
        assert synced.exit_code == (3 if outcome == "quarantined" else 0)
    elif outcome == "refused":
        assert fetched.problem is not None and synced.exit_code == 3
        assert memory["merge"] == "refused" and bob.tip() == before
        # One decision, one reason: the view says what sync says, then what to do.
        reason = fetched.problem.rsplit("; ", 1)[0]
        assert reason in memory["problem"], (reason, memory["problem"])
    else:
        assert fetched.problem is not None and "a purge is on one side only" in fetched.problem
        assert synced.exit_code == 0 and memory["purged"]
