"""Memory travels with plain git (issue 14): real clones of a bare remote, real hooks
fired by real `git commit` / `git push` / `git pull` subprocesses, real ssh-keygen keys,
team trust committed on the trust branch."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest
from helpers import GIT_ENV
from helpers.capturing import brief_items
from helpers.clones import Clone, make_clone
from helpers.polling import wait_carried

pytestmark = pytest.mark.slow  # real git commit, push and pull fire the real hooks in subprocesses

MEMORY_REF = "refs/gitmem/memory"
TRACKING = "refs/gitmem-remotes/origin/memory"


def sh(clone: Clone, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run git in *clone* as its owner would from a terminal: their GITMEM_HOME, so the
    hooks it fires sign with their key."""
    env = {**os.environ, **GIT_ENV, "GITMEM_HOME": str(clone.home)}
    env.pop("GIT_COMMITTER_DATE", None)  # real times: the commits are real work
    done = subprocess.run(
        ["git", "-C", str(clone.path), *args], capture_output=True, text=True, env=env
    )
    if check:
        assert done.returncode == 0, (args, done.stdout, done.stderr)
    if "push" in args:
        wait_carried(clone.path)  # the pre-push hook carries memory detached
    return done


def commit_as(clone: Clone, message: str) -> str:
    """Commit work in *clone* as its owner (see :func:`sh`): the hooks run."""
    with (clone.path / "work.txt").open("a") as handle:
        handle.write(message + "\n")
    sh(clone, "add", "work.txt")
    sh(clone, "commit", "-q", "-m", message)
    return sh(clone, "rev-parse", "HEAD").stdout.strip()


def remote_tip(remote: Path) -> str:
    done = subprocess.run(
        ["git", "--git-dir", str(remote), "rev-parse", "--verify", "-q", MEMORY_REF],
        capture_output=True,
        text=True,
    )
    return done.stdout.strip()


def config(clone: Clone) -> str:
    return sh(clone, "config", "--list", "--local").stdout


@pytest.fixture
def alice(alice: Clone) -> Clone:
    """Alice (the shared fixture) with the commit hooks, her key committed on main (the
    trust branch)."""
    alice.ok("hooks", "install")
    signers = f"{alice.export_key()}\n"
    (alice.path / ".gitmem").mkdir()
    (alice.path / ".gitmem" / "allowed_signers").write_text(signers)
    sh(alice, "add", ".gitmem/allowed_signers")
    sh(alice, "commit", "-q", "-m", "Trust alice's gitmem key")
    sh(alice, "push", "-q", "origin", "main")
    return alice


def test_memory_goes_with_push_and_comes_with_pull(
    tmp_path: Path, remote: Path, alice: Clone
) -> None:
    before = config(alice)
    commit_as(alice, "Decision: keep the cache local")
    sh(alice, "push", "-q")  # right after the commit: the carry waits for its capture
    assert remote_tip(remote) == alice.tip()
    assert "Keep the cache local" in brief_items(alice.gm, "text")

    # A fresh clone: `gitmem init`, then `git pull`.
    bob = make_clone(tmp_path, remote, "bob", init=False)
    bob.ok("init", "--name", bob.principal)
    bob.ok("hooks", "install")
    sh(bob, "pull", "-q")
    shown = brief_items(bob.gm, "text")
    assert shown["Keep the cache local"]["trust"] == "verbatim"  # alice's key, committed
    assert bob.git("rev-parse", "--verify", "-q", TRACKING).strip() == alice.tip()

    # Bob trusts himself on main too, decides something, pushes with an explicit refspec.
    signers = bob.path / ".gitmem" / "allowed_signers"
    signers.write_text(signers.read_text() + bob.export_key() + "\n")
    sh(bob, "add", ".gitmem/allowed_signers")
    sh(bob, "commit", "-q", "-m", "Trust bob's gitmem key")
    commit_as(bob, "Decision: retry the upload twice")
    sh(bob, "push", "-q", "origin", "main")
    assert remote_tip(remote) == bob.tip()
    assert bob.git("merge-base", "--is-ancestor", alice.tip(), bob.tip()) == ""  # merged

    sh(alice, "pull", "-q")
    shown = brief_items(alice.gm, "text")
    assert shown["Retry the upload twice"]["trust"] == "verbatim"
    assert shown["Keep the cache local"]["trust"] == "verbatim"

    # Three commits pushed at once: every checkpoint arrives.
    decisions = [
        "Decision: log every retry",
        "Decision: cap the queue",
        "Decision: drop the v1 endpoint",
    ]
    shas = [commit_as(alice, d) for d in decisions]
    sh(alice, "push", "-q", "origin", "main")
    sh(bob, "pull", "-q")
    named = {e["commit"] for e in json.loads(alice.ok("log", "--json").stdout)}
    assert set(shas) <= named and remote_tip(remote) == alice.tip()
    shown = brief_items(bob.gm, "text")
    for decision in decisions:
        assert decision.removeprefix("Decision: ").capitalize() in shown, sorted(shown)
        assert shown[decision.removeprefix("Decision: ").capitalize()]["trust"] == "verbatim"

    # Nothing but fetch refspecs changed in git's config.
    after = config(alice)
    for clone_config in (after, config(bob)):
        assert "push.default" not in clone_config and "remote.origin.push" not in clone_config
    added = set(after.splitlines()) - set(before.splitlines())
    assert added <= {"remote.origin.fetch=+refs/gitmem/*:refs/gitmem-remotes/origin/*"}


def test_status_shows_each_remote(tmp_path: Path, remote: Path, alice: Clone) -> None:
    commit_as(alice, "Decision: keep the cache local")
    sh(alice, "push", "-q")
    bob = make_clone(tmp_path, remote, "bob")
    data = json.loads(bob.ok("status", "--json").stdout)
    (origin,) = data["remotes"]
    assert origin["remote"] == "origin" and origin["fetch_refspec"] is True
    assert origin["fetched"] == alice.tip()  # init fetched it
    assert origin["unmerged_records"] >= 2 and origin["unmerged_problem"] is None
    assert origin["behind"] >= 1 and origin["last_push"] is None
    mine = json.loads(alice.ok("status", "--json").stdout)["remotes"][0]
    assert mine["ahead"] == 0 and mine["behind"] == 0 and mine["unmerged_records"] == 0
    assert mine["last_push"]["refs"][MEMORY_REF] == alice.tip()
    assert "remote origin: memory" in alice.ok("status").stdout


def test_a_write_merges_what_was_fetched(tmp_path: Path, remote: Path, alice: Clone) -> None:
    commit_as(alice, "Decision: keep the cache local")
    sh(alice, "push", "-q")
    bob = make_clone(tmp_path, remote, "bob")
    assert bob.git("for-each-ref", MEMORY_REF) == ""  # read, not merged
    item = brief_items(bob.gm, "text")["Keep the cache local"]
    # the text only restates its quote without the label: the quote alone is shown
    assert '"Decision: keep the cache local"' in bob.ok("recall", "cache").stdout
    assert "Keep the cache local" in bob.ok("show", item["id"]).stdout
    assert bob.git("for-each-ref", MEMORY_REF) == ""  # reading wrote nothing
    bob.capture("the upload retries twice")
    assert bob.git("merge-base", "--is-ancestor", alice.tip(), bob.tip()) == ""
    assert json.loads(bob.ok("status", "--json").stdout)["remotes"][0]["unmerged_records"] == 0
    assert bob.gm("verify").exit_code == 0


def test_a_tampered_fetch_is_not_read(tmp_path: Path, remote: Path, alice: Clone) -> None:
    commit_as(alice, "Decision: keep the cache local")
    sh(alice, "push", "-q")
    bob = make_clone(tmp_path, remote, "bob")
    # Someone rewrites a record on the remote side's copy bob fetched.
    tip = bob.git("rev-parse", TRACKING).strip()
    tree = bob.git("ls-tree", "-r", tip).splitlines()
    checkpoint = next(line for line in tree if "\tcheckpoints/" in line)
    path = checkpoint.split("\t")[1]
    bob.git("update-ref", TRACKING, bob.forge(tip, path, '{"edited": true}\n'))
    assert "Keep the cache local" not in brief_items(bob.gm, "text")
    origin = json.loads(bob.ok("status", "--json").stdout)["remotes"][0]
    assert origin["unmerged_problem"] and "not read" in origin["unmerged_problem"]


def test_a_fresh_clone_that_has_not_fetched_is_told(tmp_path: Path, alice: Clone) -> None:
    remote = tmp_path / "remote.git"
    commit_as(alice, "Decision: keep the cache local")
    sh(alice, "push", "-q")
    bob = make_clone(tmp_path, remote, "bob", init=False)
    result = bob.gm("brief")
    (line,) = [line for line in result.stdout.splitlines() if "never fetched" in line]
    assert "`gitmem init`" in line and "`git fetch origin`" in line
    bob.ok("init", "--name", bob.principal)  # fetches it
    assert "Keep the cache local" in brief_items(bob.gm, "text")
    assert "never fetched" not in bob.ok("brief").stdout


def test_uninstall_restores_git_config(tmp_path: Path, remote: Path) -> None:
    carol = make_clone(tmp_path, remote, "carol", init=False)
    before = config(carol)
    carol.ok("init", "--name", carol.principal)
    carol.ok("hooks", "install")
    assert "gitmem-remotes" in config(carol)
    result = carol.ok("hooks", "uninstall")
    assert "removed remote.origin.fetch" in result.stdout
    assert config(carol) == before
    assert not (carol.path / ".git" / "hooks" / "pre-push").exists()


@pytest.mark.parametrize("record", ["garbage\n", '{"version": 1, "changes": "x"}\n', "[]\n"])
def test_uninstall_with_an_unreadable_record_removes_only_gitmems_refspec(
    tmp_path: Path, remote: Path, record: str
) -> None:
    carol = make_clone(tmp_path, remote, "carol", init=False)
    sh(carol, "config", "--add", "remote.origin.fetch", "+refs/notes/*:refs/notes/*")
    before = config(carol)
    carol.ok("init", "--name", carol.principal)
    assert "gitmem-remotes/origin" in config(carol)
    (carol.path / ".git" / "gitmem" / "git-config.json").write_text(record)
    result = carol.ok("hooks", "uninstall")
    assert "git-config.json could not be read" in result.stdout
    assert "removed remote.origin.fetch = +refs/gitmem/*:refs/gitmem-remotes/origin/*" in (
        result.stdout
    )
    assert config(carol) == before  # the user's own refspecs stay


def test_a_push_never_fails_because_of_memory(tmp_path: Path, remote: Path, alice: Clone) -> None:
    held = remote_tip(remote)
    commit_as(alice, "Decision: keep the cache local")
    # The remote refuses every update of refs/gitmem/*: the branch still goes.
    hook = remote / "hooks" / "update"
    hook.write_text('#!/bin/sh\ncase "$1" in refs/gitmem/*) exit 1 ;; esac\nexit 0\n')
    hook.chmod(0o755)
    started = time.monotonic()
    done = sh(alice, "push", "origin", "main")
    assert time.monotonic() - started < 60
    head = alice.git("rev-parse", "HEAD").strip()
    assert (
        subprocess.run(
            ["git", "--git-dir", str(remote), "rev-parse", "main"], capture_output=True, text=True
        ).stdout.strip()
        == head
    )
    assert remote_tip(remote) == held != alice.tip()
    # The carry ran detached (sh waited for it): the next push says what it could not do.
    assert not [line for line in done.stderr.splitlines() if line.startswith("gitmem:")]
    commit_as(alice, "Decision: retry the upload twice")
    done = sh(alice, "push", "origin", "main")
    gitmem_lines = [line for line in done.stderr.splitlines() if line.startswith("gitmem:")]
    assert len(gitmem_lines) == 1 and "not pushed" in gitmem_lines[0]
    assert remote_tip(remote) == held != alice.tip()


def test_every_reader_reads_one_view_so_none_rebuilds_the_index(
    tmp_path: Path, remote: Path, alice: Clone
) -> None:
    """Fetched memory not merged yet: brief, status, doctor, log and ask read the same
    view (the local memory and what was fetched), so the one index, brought up by the
    first of them, is current for each next one; none rebuilds it for a view of its own
    (at 10,000 checkpoints a rebuild is a quarter of a minute)."""
    commit_as(alice, "Decision: keep the cache local")
    sh(alice, "push", "-q")
    bob = make_clone(tmp_path, remote, "bob")
    bob.capture("the upload retries twice")  # his own memory, merged with alice's
    shas = [commit_as(alice, "Decision: cap the queue at 500")]
    sh(alice, "push", "-q")
    sh(bob, "fetch", "-q")
    assert json.loads(bob.ok("status", "--json").stdout)["remotes"][0]["unmerged_records"] >= 1
    assert "Cap the queue at 500" in brief_items(bob.gm, "text")
    for reader in (("log", "--json"), ("doctor",), ("ask", "how big is the queue?"), ("brief",)):
        done = bob.gm(*reader)
        assert done.exit_code in (0, 1, 10, 11, 12, 13), (reader, done.stderr)
        store = json.loads(bob.ok("status", "--json").stdout)["store"]
        assert store["read_model"] == "current", reader
    # ask recorded its event on the view: a union merge, as every write makes one
    logged = {e["commit"] for e in json.loads(bob.ok("log", "--json").stdout)}
    assert set(shas) <= logged
    assert json.loads(bob.ok("status", "--json").stdout)["remotes"][0]["unmerged_records"] == 0
