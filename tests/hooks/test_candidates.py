"""Release candidates on commit: with ``release_candidates`` set, the post-commit hook
records every new commit of the default branch as an unsigned candidate, detached, and
never a commit of another branch. Through the real installed hooks and git."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import Gm, commit, git
from helpers.capturing import release_verdict
from helpers.polling import wait_for

from gitmem.store.repo import RELEASES_REF

pytestmark = pytest.mark.slow  # real git commits fire the real hooks


@pytest.fixture
def hooked(hooked: Path, gm: Gm) -> Path:
    """The shared fixture's hooked repository, with release candidates on."""
    assert gm("config", "--repo", "release_candidates", "true").exit_code == 0
    return hooked


def captured(gm: Gm, sha: str) -> list[dict[str, Any]]:
    """The hook's capture of *sha*: it runs after the candidate, in the same process."""
    entries = gm("log", "--json").json()
    assert isinstance(entries, list)
    return [e for e in entries if e["commit"] == sha]


def test_a_commit_on_the_default_branch_becomes_a_candidate(hooked: Path, gm: Gm) -> None:
    sha = commit(hooked, "Ship the parser\n")
    wait_for(lambda: captured(gm, sha))
    data = release_verdict(gm, sha)
    assert data["candidate"] is True and data["approved"] is False
    assert any("only a candidate" in r for r in data["reasons"])
    assert gm("release", "verify", sha).exit_code == 1  # a candidate is never approved


def test_a_commit_on_another_branch_records_nothing(hooked: Path, gm: Gm) -> None:
    git(hooked, "switch", "-q", "-c", "feature")
    sha = commit(hooked, "Try a faster parser\n")
    wait_for(lambda: captured(gm, sha))
    assert release_verdict(gm, sha)["candidate"] is False
    assert git(hooked, "for-each-ref", RELEASES_REF) == ""
    # Detached HEAD (a rebase in progress, a bisect) is no branch either.
    git(hooked, "switch", "-q", "--detach", "main")
    detached = commit(hooked, "A detached experiment\n")
    wait_for(lambda: captured(gm, detached))
    assert git(hooked, "for-each-ref", RELEASES_REF) == ""
    # Back on main: the next commit is a candidate; the feature commit still is not.
    git(hooked, "switch", "-q", "main")
    on_main = commit(hooked, "Fix the tokenizer\n")
    wait_for(lambda: captured(gm, on_main))
    assert release_verdict(gm, on_main)["candidate"] is True
    assert release_verdict(gm, sha)["candidate"] is False


def test_without_the_setting_no_candidate_is_recorded(hooked: Path, gm: Gm) -> None:
    assert gm("config", "--repo", "--unset", "release_candidates").exit_code == 0
    sha = commit(hooked, "Quiet change\n")
    wait_for(lambda: captured(gm, sha))
    assert git(hooked, "for-each-ref", RELEASES_REF) == ""
    assert release_verdict(gm, sha)["candidate"] is False


def test_origins_default_branch_is_the_default(hooked: Path, gm: Gm, tmp_path: Path) -> None:
    """With origin's HEAD naming `trunk`, commits on trunk are candidates, on main not."""
    remote = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "trunk", str(remote))
    git(hooked, "remote", "add", "origin", str(remote))
    git(hooked, "push", "-q", "origin", "main:trunk")
    git(hooked, "remote", "set-head", "origin", "trunk")
    on_main = commit(hooked, "On main, which is not the default here\n")
    wait_for(lambda: captured(gm, on_main))
    assert release_verdict(gm, on_main)["candidate"] is False
    git(hooked, "switch", "-q", "-c", "trunk", "--track", "origin/trunk")
    on_trunk = commit(hooked, "On trunk\n")
    wait_for(lambda: captured(gm, on_trunk))
    assert release_verdict(gm, on_trunk)["candidate"] is True
