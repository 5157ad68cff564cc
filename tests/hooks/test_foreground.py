"""The pre-push hook's first look (read from files, without pygit2) says "nothing to do"
exactly when the full decision would neither say nor start anything, and leaves every
other case to it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import git, run
from helpers.polling import wait_carried

from gitmem.hooks import inflight
from gitmem.hooks.foreground import GUARD, UNTOLD_FILE, settled
from gitmem.hooks.push import _owed
from gitmem.store.gitfiles import find_git_dirs, names_remote, read_refs
from gitmem.store.repo import Store

MEMORY = "refs/gitmem/memory"
TRACKING = "refs/gitmem-remotes/origin/memory"


@pytest.fixture
def pushed(repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """*repo* with memory whose tip the remote `origin`, as last fetched, holds."""
    monkeypatch.delenv(GUARD, raising=False)
    git(repo, "remote", "add", "origin", str(tmp_path / "remote.git"))
    tip = memory_commit(repo, "first")
    git(repo, "update-ref", MEMORY, tip)
    git(repo, "update-ref", TRACKING, tip)
    return repo


def memory_commit(repo: Path, message: str) -> str:
    tree = git(repo, "write-tree").strip()
    return git(repo, "commit-tree", tree, "-m", message).strip()


def full(repo: Path, remote: str) -> bool:
    """Whether the full decision (through pygit2) says or starts something."""
    store = Store.discover(repo)
    return (store.local_dir / UNTOLD_FILE).exists() or _owed(store, remote)


def local(repo: Path) -> Path:
    path = repo / ".git" / "gitmem"
    path.mkdir(exist_ok=True)
    return path


def moved(repo: Path) -> None:
    git(repo, "update-ref", MEMORY, memory_commit(repo, "second"))


def untracked(repo: Path) -> None:
    git(repo, "update-ref", "-d", TRACKING)


def in_flight(repo: Path) -> None:
    marker = inflight.marker_path(local(repo), "post-commit", "c" * 40)
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(json.dumps({"pid": os.getpid()}))  # a live process: running


def died(repo: Path) -> None:
    marker = inflight.marker_path(local(repo), "post-commit", "d" * 40)
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(json.dumps({"pid": 2**31 - 2}))  # no such process: not waited for


def sync_on_push(repo: Path) -> None:
    (local(repo) / "config.json").write_text(json.dumps({"sync_on_push": True}))


def untold(repo: Path) -> None:
    (local(repo) / UNTOLD_FILE).write_text(json.dumps({"origin": ["a carry failed"]}))


def packed(repo: Path) -> None:
    git(repo, "pack-refs", "--all")


def packed_then_moved(repo: Path) -> None:
    git(repo, "pack-refs", "--all")
    moved(repo)


def symbolic(repo: Path) -> None:
    git(repo, "symbolic-ref", "refs/gitmem/releases", MEMORY)


def junk_name(repo: Path) -> None:
    git(repo, "update-ref", "refs/gitmem/other", memory_commit(repo, "junk"))


def second_ref(repo: Path) -> None:
    git(repo, "update-ref", "refs/gitmem/releases", memory_commit(repo, "release"))


def no_memory(repo: Path) -> None:
    git(repo, "update-ref", "-d", MEMORY)


def remote_elsewhere(repo: Path) -> None:
    """origin defined by an included file only: not this reader's to say."""
    url = git(repo, "config", "remote.origin.url").strip()
    git(repo, "remote", "rename", "origin", "elsewhere")
    git(repo, "update-ref", TRACKING, git(repo, "rev-parse", MEMORY).strip())
    extra = repo.parent / "extra.gitconfig"
    extra.write_text(f'[remote "origin"]\n\turl = {url}\n')
    git(repo, "config", "include.path", str(extra))


def nothing(repo: Path) -> None:
    pass


CASES: dict[str, tuple[Callable[[Path], None], bool, bool]] = {
    "nothing owed": (nothing, True, False),
    "a dead capture's marker": (died, True, False),
    "refs packed": (packed, True, False),
    "no memory": (no_memory, True, False),
    "a tip the remote lacks": (moved, False, True),
    "a packed tip the remote lacks": (packed_then_moved, False, True),
    "never fetched from the remote": (untracked, False, True),
    "a capture in flight": (in_flight, False, True),
    "sync_on_push": (sync_on_push, False, True),
    "a carry's failure to say": (untold, False, True),
    "a symbolic memory ref": (symbolic, False, True),
    "a ref gitmem never writes": (junk_name, True, False),
    "a second ref the remote lacks": (second_ref, False, True),
    "a remote only an included file names": (remote_elsewhere, False, False),
}
"""Each case: what changes, whether the first look settles it, whether the full
decision says or starts something."""


@pytest.mark.parametrize("case", list(CASES))
def test_the_first_look_settles_only_what_the_full_decision_would_leave(
    pushed: Path, case: str
) -> None:
    change, first_look, owed = CASES[case]
    change(pushed)
    assert settled(str(pushed), "origin", "url") is first_look
    assert full(pushed, "origin") is owed


def test_a_push_to_a_url_is_left_to_the_full_decision(pushed: Path, tmp_path: Path) -> None:
    url = str(tmp_path / "remote.git")
    assert settled(str(pushed), url, url) is False
    assert full(pushed, url)


def test_inside_a_linked_worktree_it_reads_the_shared_refs(pushed: Path, tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    git(pushed, "worktree", "add", "-q", "--detach", str(tree))
    found = find_git_dirs(tree / ".")
    assert found is not None and found.common_dir == (pushed / ".git").resolve()
    assert settled(str(tree), "origin", "url") is True
    moved(pushed)
    assert settled(str(tree), "origin", "url") is False and full(tree, "origin")


def test_inside_its_own_push_or_a_push_of_memory_refs_there_is_nothing_to_do(
    pushed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    moved(pushed)  # owed, were the hook to decide
    monkeypatch.setenv(GUARD, "1")
    assert settled(str(pushed), "origin", "url") is True


def test_outside_a_repository_or_in_a_bare_one_it_leaves_the_decision(tmp_path: Path) -> None:
    assert settled(str(tmp_path), "origin", "url") is False
    bare = tmp_path / "bare.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    assert find_git_dirs(bare) is None


def test_what_the_files_do_not_say_plainly_is_unsure(pushed: Path, tmp_path: Path) -> None:
    common = pushed / ".git"
    assert read_refs(common, ("refs/gitmem-remotes/../x/",)) is None
    assert names_remote(common, "origin") is True
    assert names_remote(common, "upstream") is None
    lock = common / "refs" / "gitmem" / "memory.lock"
    lock.write_text("0" * 40 + "\n")  # an update under way
    assert read_refs(common, ("refs/gitmem/",)) is None
    lock.unlink()
    assert read_refs(common, ("refs/gitmem/",)) == {
        MEMORY: git(pushed, "rev-parse", MEMORY).strip()
    }
    other = tmp_path / "other"
    other.mkdir()
    (other / "config").write_text('[remote "origin"] url = x\n')  # legal, not read here
    assert names_remote(other, "origin") is None
    (other / "config").write_text('[Remote "origin"]\n\tURL = x\n')
    assert names_remote(other, "origin") is True


def test_after_a_carry_the_next_push_decides_without_pygit2(
    initialised: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(GUARD, raising=False)
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(initialised, "remote", "add", "origin", str(remote))
    transcript = tmp_path / "t.md"
    transcript.write_text("We decided: keep the cache local.\n")
    assert run("-C", str(initialised), "capture", "--transcript", str(transcript)).exit_code == 0
    command = [sys.executable, "-X", "importtime", "-m", "gitmem", "-C", str(initialised)]
    hook = [*command, "hook", "pre-push", "origin", str(remote)]
    first = subprocess.run(hook, input="", capture_output=True, text=True, check=False)
    assert first.returncode == 0 and "pygit2" in first.stderr  # owed: decided in full
    wait_carried(initialised)
    assert git(remote, "rev-parse", MEMORY) == git(initialised, "rev-parse", MEMORY)
    again = subprocess.run(hook, input="", capture_output=True, text=True, check=False)
    modules = {line.split("|")[-1].strip() for line in again.stderr.splitlines()}
    # It read the refs and, every one carried, the settings (importlib's own import of
    # the hook module is not listed; its imports are), and never loaded pygit2.
    assert again.returncode == 0 and "gitmem:" not in again.stderr
    assert {"gitmem.store.gitfiles", "gitmem.store.config"} <= modules
    assert "pygit2" not in modules and "gitmem.store.spawn" not in modules
