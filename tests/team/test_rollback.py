"""After a teammate rolls the remote's memory back, the pre-push hook and ``gitmem sync``
give the same answer: the rollback is reported and local records are pushed back only
when the user asks (``gitmem sync --accept-rewrite``). Real clones, a bare remote, the
real pre-push hook fired by a real ``git push``."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from helpers import GIT_ENV, git
from helpers.clones import Clone, make_clone, make_remote
from helpers.polling import wait_carried

from gitmem.store.repo import MEMORY_REF

pytestmark = pytest.mark.slow


def sh(clone: Clone, *args: str) -> subprocess.CompletedProcess[str]:
    """git in *clone* as its owner runs it from a terminal (the hooks sign as them)."""
    env = {**os.environ, **GIT_ENV, "GITMEM_HOME": str(clone.home)}
    done = subprocess.run(
        ["git", "-C", str(clone.path), *args], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done


def remote_memory(remote: Path) -> str:
    return git(remote, "rev-parse", "--verify", "-q", MEMORY_REF).strip()


@pytest.mark.parametrize("fetched", [True, False], ids=["fetched", "not-fetched"])
def test_a_rolled_back_remote_gets_the_same_answer_from_push_and_sync(
    tmp_path: Path, fetched: bool
) -> None:
    remote = make_remote(tmp_path)
    alice, bob = make_clone(tmp_path, remote, "alice"), make_clone(tmp_path, remote, "bob")
    alice.commit_file(".gitmem/allowed_signers", f"{alice.export_key()}\n{bob.export_key()}\n")
    bob.git("pull", "-q")
    first = alice.capture("we keep the cache local")
    alice.ok("sync")
    older = remote_memory(remote)
    second = alice.capture("the parser ships on friday")
    alice.ok("sync")
    bob.ok("sync")
    # Someone with push access rolls the remote's memory back.
    alice.git("push", "-q", "--force", "origin", f"{older}:{MEMORY_REF}")
    mine = bob.capture("the upload retries twice")
    if fetched:
        bob.git("fetch", "-q", "origin")

    def push(work: str) -> subprocess.CompletedProcess[str]:
        (bob.path / "work.txt").write_text(work)
        sh(bob, "add", "work.txt")
        sh(bob, "-c", "core.hooksPath=.git/hooks", "commit", "-q", "--no-verify", "-m", "work")
        pushed = sh(bob, "push", "origin", "main")
        wait_carried(bob.path)  # the hook carries memory detached
        return pushed

    push("work\n")
    # What the carry could not do, the next push says.
    pushed = push("more work\n")
    said = [line for line in pushed.stderr.splitlines() if line.startswith("gitmem:")]
    assert said and "not pushed back" in said[-1], pushed.stderr
    assert remote_memory(remote) == older  # the hook pushed nothing back
    assert git(remote, "rev-parse", "main").strip() == bob.git("rev-parse", "HEAD").strip()

    synced = bob.gm("sync")
    assert synced.exit_code == 3 and "not pushed back" in synced.stderr
    reason = synced.stderr.split("rewrote refs/gitmem/memory", 1)[1].split(";")[0]
    assert reason in said[-1]  # the same answer
    assert remote_memory(remote) == older
    assert {first, second, mine} <= bob.records()  # nothing genuine lost here

    bob.ok("sync", "--accept-rewrite")  # the user asks: pushed back
    assert remote_memory(remote) == bob.tip()
    alice.ok("sync")
    assert {first, second, mine} <= alice.records()
