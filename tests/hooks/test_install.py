"""Git hooks against real git: where they go, what they keep, what they start, and that a
commit or a push never waits for gitmem or fails because of it.

The Python side of ``gitmem hook …`` is replaced by a fake command that records its
argv, the file it was handed, its descriptors and its session, then (when asked) sleeps,
writes a "done" file and exits with a chosen code.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import GIT_ENV, ROOT

from gitmem.core.errors import GitError, InputError
from gitmem.hooks import install as hooks
from gitmem.hooks.install import FOREIGN_SUFFIX, HOOK_NAMES, MARKER

FAKE_GITMEM = """\
import json, os, sys, time
from pathlib import Path

log = Path(sys.argv[1])
args = sys.argv[2:]
fds = {}
for name in os.listdir("/proc/self/fd") if os.path.isdir("/proc/self/fd") else []:
    try:
        fds[name] = os.readlink(f"/proc/self/fd/{name}")
    except OSError:
        pass
handed = None
if args[:2] == ["hook", "post-rewrite"] and len(args) == 4:
    handed = Path(args[3]).read_text()
    Path(args[3]).unlink()
record = {
    "argv": args,
    "handed": handed,
    "stdin": sys.stdin.read(),
    "cwd": os.getcwd(),
    "fds": fds,
    "session_leader": os.getsid(0) == os.getpid(),
    "skip": os.environ.get("GITMEM_SKIP"),
    "index_file": os.environ.get("GIT_INDEX_FILE"),
}
with open(log, "a") as handle:
    handle.write(json.dumps(record) + "\\n")
time.sleep(float(os.environ.get("FAKE_GITMEM_SLEEP", "0")))
Path(str(log) + ".done").write_text("done")
sys.exit(int(os.environ.get("FAKE_GITMEM_EXIT", "0")))
"""


class Fake:
    """The fake gitmem command and what it recorded."""

    def __init__(self, tmp_path: Path) -> None:
        self.script = tmp_path / "fake_gitmem.py"
        self.script.write_text(FAKE_GITMEM)
        self.log = tmp_path / "fake-gitmem.log"
        self.done = Path(f"{self.log}.done")
        self.command = [sys.executable, str(self.script), str(self.log)]

    def records(self) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines()]

    def wait(self, predicate: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first record matching *predicate*, waiting for the detached child to write it."""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            for record in self.records():
                if predicate(record):
                    return record
            time.sleep(0.05)
        raise AssertionError(f"no matching record; got {self.records()}")


@pytest.fixture
def fake(tmp_path: Path) -> Fake:
    return Fake(tmp_path)


def run_git(
    cwd: Path, *args: str, env: dict[str, str] | None = None, check: bool = True
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        ["git", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, **GIT_ENV, **(env or {})},
        check=False,
    )
    if check:
        assert done.returncode == 0, done.stderr
    return done


def empty_commit(cwd: Path, message: str, env: dict[str, str] | None = None) -> str:
    run_git(cwd, "commit", "-q", "--allow-empty", "-m", message, env=env)
    return run_git(cwd, "rev-parse", "HEAD").stdout.strip()


def write_hook(path: Path, body: str, mode: int = 0o755) -> bytes:
    data = f"#!/bin/sh\n{body}\n".encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    path.chmod(mode)
    return data


def git_hooks(repo: Path) -> Path:
    return repo / ".git" / "hooks"


# -- where the hooks go ---------------------------------------------------------------


@pytest.mark.parametrize("setup", ["plain", "subdir", "worktree", "relative", "absolute"])
def test_hooks_dir_is_where_git_runs_hooks(repo: Path, tmp_path: Path, setup: str) -> None:
    start = repo
    if setup == "subdir":
        start = repo / "src"
        start.mkdir()
    elif setup == "worktree":
        start = tmp_path / "wt"
        run_git(repo, "worktree", "add", "-q", str(start))
    elif setup == "relative":
        run_git(repo, "config", "core.hooksPath", ".githooks")
    elif setup == "absolute":
        run_git(repo, "config", "core.hooksPath", str(tmp_path / "team-hooks"))

    folder = hooks.hooks_dir(start)

    named = run_git(start, "rev-parse", "--git-path", "hooks").stdout.strip()
    assert os.path.realpath(folder) == os.path.realpath(start / named)
    probe = tmp_path / "probe"
    write_hook(folder / "post-commit", f"echo ran > '{probe}'")
    empty_commit(start, "probe")
    assert probe.read_text() == "ran\n"


def test_hooks_dir_outside_a_repository(tmp_path: Path) -> None:
    with pytest.raises(GitError, match="not a git repository"):
        hooks.hooks_dir(tmp_path)


# -- install, status, uninstall -----------------------------------------------------


def test_install_status_uninstall(repo: Path, fake: Fake) -> None:
    assert [s.installed for s in hooks.status(repo)] == [False, False, False]

    states = hooks.install(repo, gitmem_command=fake.command)

    assert [(s.name, s.installed, s.ours, s.foreign) for s in states] == [
        (name, True, True, None) for name in HOOK_NAMES
    ]
    assert hooks.status(repo) == states
    for name in HOOK_NAMES:
        path = git_hooks(repo) / name
        assert path.read_bytes() == hooks.render_script(name, fake.command)
        assert MARKER in path.read_text().splitlines()
        assert path.stat().st_mode & 0o111 == 0o111

    states = hooks.uninstall(repo)

    assert [(s.installed, s.ours, s.foreign) for s in states] == [(False, False, None)] * 3
    assert not any((git_hooks(repo) / name).exists() for name in HOOK_NAMES)


def test_default_command_is_this_python(repo: Path) -> None:
    hooks.install(repo)
    text = (git_hooks(repo) / "post-commit").read_text()
    assert f"gitmem_exe={sys.executable}" in text or f"gitmem_exe='{sys.executable}'" in text
    assert 'exec setsid "$gitmem_exe" -m gitmem "$@"' in text


def test_install_twice_is_idempotent_and_never_wraps_itself(repo: Path, fake: Fake) -> None:
    hooks.install(repo, gitmem_command=fake.command)
    before = {p.name: p.read_bytes() for p in git_hooks(repo).iterdir()}

    states = hooks.install(repo, gitmem_command=fake.command)

    assert {p.name: p.read_bytes() for p in git_hooks(repo).iterdir()} == before
    assert all(s.ours and s.foreign is None for s in states)

    other = [sys.executable, "-m", "gitmem"]
    hooks.install(repo, gitmem_command=other)

    assert (git_hooks(repo) / "post-commit").read_bytes() == hooks.render_script(
        "post-commit", other
    )
    assert not list(git_hooks(repo).glob(f"*{FOREIGN_SUFFIX}"))


def test_our_own_script_is_never_kept_as_foreign(repo: Path, fake: Fake) -> None:
    kept = git_hooks(repo) / f"post-commit{FOREIGN_SUFFIX}"
    kept.write_bytes(hooks.render_script("post-commit", fake.command))

    hooks.install(repo, gitmem_command=fake.command)

    assert not kept.exists()


def test_a_hook_in_the_way_is_refused_and_nothing_changes(repo: Path, fake: Fake) -> None:
    folder = git_hooks(repo)
    theirs = write_hook(folder / "post-rewrite", "echo theirs")
    older = write_hook(folder / f"post-rewrite{FOREIGN_SUFFIX}", "echo older")
    before = sorted(p.name for p in folder.iterdir())

    with pytest.raises(InputError, match="will not overwrite"):
        hooks.install(repo, gitmem_command=fake.command)

    assert sorted(p.name for p in folder.iterdir()) == before
    assert (folder / "post-rewrite").read_bytes() == theirs
    assert (folder / f"post-rewrite{FOREIGN_SUFFIX}").read_bytes() == older


def test_render_script_rejects_unknown_hooks() -> None:
    with pytest.raises(InputError, match="unknown hook"):
        hooks.render_script("pre-commit")


# -- foreign hooks ------------------------------------------------------------------


def test_foreign_hook_is_kept_run_and_restored_exactly(
    repo: Path, fake: Fake, tmp_path: Path
) -> None:
    marker = tmp_path / "foreign-ran"
    path = git_hooks(repo) / "post-commit"
    original = write_hook(path, f"echo \"ran $#\" >> '{marker}'", mode=0o750)

    states = hooks.install(repo, gitmem_command=fake.command)

    kept = git_hooks(repo) / f"post-commit{FOREIGN_SUFFIX}"
    assert states[0].foreign == kept
    assert kept.read_bytes() == original
    sha = empty_commit(repo, "with a foreign hook")
    assert marker.read_text() == "ran 0\n"
    assert fake.wait(lambda r: r["argv"][:2] == ["hook", "post-commit"])["argv"][2] == sha

    hooks.uninstall(repo)

    assert path.read_bytes() == original
    assert stat.S_IMODE(path.stat().st_mode) == 0o750
    assert not kept.exists()


def test_foreign_symlinked_hook_is_restored_as_a_symlink(repo: Path, fake: Fake) -> None:
    target = repo / "tools" / "hook.sh"
    write_hook(target, "true")
    link = git_hooks(repo) / "pre-push"
    link.symlink_to(os.path.relpath(target, link.parent))

    hooks.install(repo, gitmem_command=fake.command)
    hooks.uninstall(repo)

    assert link.is_symlink() and link.resolve() == target.resolve()


def test_uninstall_keeps_a_foreign_hook_that_replaced_ours(repo: Path, fake: Fake) -> None:
    folder = git_hooks(repo)
    older = write_hook(folder / "post-commit", "echo older")
    hooks.install(repo, gitmem_command=fake.command)
    newer = write_hook(folder / "post-commit", "echo newer")

    states = hooks.uninstall(repo)

    assert (folder / "post-commit").read_bytes() == newer
    assert (folder / f"post-commit{FOREIGN_SUFFIX}").read_bytes() == older
    assert (states[0].installed, states[0].ours) == (True, False)
    assert states[0].foreign == folder / f"post-commit{FOREIGN_SUFFIX}"


def test_foreign_post_rewrite_gets_the_same_arguments_and_stdin(
    repo: Path, fake: Fake, tmp_path: Path
) -> None:
    seen = tmp_path / "foreign-post-rewrite"
    write_hook(git_hooks(repo) / "post-rewrite", f"{{ echo \"$@\"; cat; }} > '{seen}'")
    hooks.install(repo, gitmem_command=fake.command)
    old = empty_commit(repo, "to amend")

    run_git(repo, "commit", "-q", "--amend", "--allow-empty", "-m", "amended")

    new = run_git(repo, "rev-parse", "HEAD").stdout.strip()
    record = fake.wait(lambda r: r["argv"][:2] == ["hook", "post-rewrite"])
    assert record["argv"][2] == "amend"
    assert record["handed"] == f"{old} {new}\n"
    assert seen.read_text() == f"amend\n{old} {new}\n"


# -- what the shims start ----------------------------------------------------------


def test_post_commit_passes_the_new_sha(repo: Path, fake: Fake) -> None:
    hooks.install(repo, gitmem_command=fake.command)

    sha = empty_commit(repo, "first")

    record = fake.wait(lambda r: r["argv"][:2] == ["hook", "post-commit"])
    assert record["argv"] == ["hook", "post-commit", sha]
    assert Path(record["cwd"]).resolve() == repo.resolve()
    assert record["stdin"] == ""
    assert record["index_file"] is None


def test_post_rewrite_hands_over_the_pairs(repo: Path, fake: Fake) -> None:
    hooks.install(repo, gitmem_command=fake.command)
    old = empty_commit(repo, "to amend")

    run_git(repo, "commit", "-q", "--amend", "--allow-empty", "-m", "amended")

    new = run_git(repo, "rev-parse", "HEAD").stdout.strip()
    record = fake.wait(lambda r: r["argv"][:2] == ["hook", "post-rewrite"])
    handed = Path(record["argv"][3])
    assert record["argv"][2] == "amend"
    assert record["handed"] == f"{old} {new}\n"
    assert handed.is_absolute()
    assert handed.parent == (repo / ".git" / "gitmem" / "hook-input").resolve()


def test_gitmem_skip_skips_our_part_only(repo: Path, fake: Fake, tmp_path: Path) -> None:
    marker = tmp_path / "foreign-ran"
    write_hook(git_hooks(repo) / "post-commit", f"echo ran >> '{marker}'")
    hooks.install(repo, gitmem_command=fake.command)

    skipped = empty_commit(repo, "skipped", env={"GITMEM_SKIP": "1"})
    recorded = empty_commit(repo, "recorded")

    fake.wait(lambda r: r["argv"] == ["hook", "post-commit", recorded])
    assert marker.read_text() == "ran\nran\n"
    assert [r for r in fake.records() if skipped in r["argv"]] == []


def test_a_missing_gitmem_is_silent(repo: Path, tmp_path: Path) -> None:
    gone = [str(tmp_path / "uninstalled" / "python"), "-m", "gitmem"]
    hooks.install(repo, gitmem_command=gone)

    done = run_git(repo, "commit", "--allow-empty", "-m", "still fine")

    assert done.returncode == 0
    for name in HOOK_NAMES:
        ran = subprocess.run(
            ["sh", str(git_hooks(repo) / name), "origin", "url"],
            cwd=repo,
            input="",
            capture_output=True,
            text=True,
            check=False,
        )
        assert (ran.returncode, ran.stdout, ran.stderr) == (0, "", "")


def test_commit_returns_before_the_detached_child_finishes(repo: Path, fake: Fake) -> None:
    hooks.install(repo, gitmem_command=fake.command)

    # capture_output gives git pipes: had the child kept one, run() would wait for it.
    sha = empty_commit(repo, "slow child", env={"FAKE_GITMEM_SLEEP": "2"})

    assert not fake.done.exists()
    record = fake.wait(lambda r: r["argv"] == ["hook", "post-commit", sha])
    if record["fds"]:  # Linux: what the child holds
        assert {record["fds"][fd] for fd in ("0", "1", "2")} == {"/dev/null"}
        assert not [t for t in record["fds"].values() if t.startswith(("pipe:", "socket:"))]
    if shutil.which("setsid"):
        assert record["session_leader"]


# -- pre-push -----------------------------------------------------------------------


@pytest.fixture
def bare_origin(repo: Path, tmp_path: Path) -> Path:
    """An empty bare repository, *repo*'s origin."""
    bare = tmp_path / "remote.git"
    run_git(tmp_path, "init", "-q", "--bare", str(bare))
    run_git(repo, "remote", "add", "origin", str(bare))
    return bare


def test_pre_push_never_fails_a_push_even_when_gitmem_fails(
    repo: Path, bare_origin: Path, fake: Fake
) -> None:
    hooks.install(repo, gitmem_command=fake.command)
    head = run_git(repo, "rev-parse", "HEAD").stdout.strip()

    done = run_git(repo, "push", "-q", "origin", "main", env={"FAKE_GITMEM_EXIT": "1"})

    assert done.returncode == 0
    assert run_git(bare_origin, "rev-parse", "main").stdout.strip() == head
    record = fake.wait(lambda r: r["argv"][:2] == ["hook", "pre-push"])
    assert record["argv"] == ["hook", "pre-push", "origin", str(bare_origin)]


def test_a_failing_foreign_pre_push_still_fails_the_push(
    repo: Path, bare_origin: Path, fake: Fake, tmp_path: Path
) -> None:
    seen = tmp_path / "foreign-pre-push"
    hook = git_hooks(repo) / "pre-push"
    write_hook(hook, f"{{ echo \"$@\"; cat; }} > '{seen}'\nexit 3")
    hooks.install(repo, gitmem_command=fake.command)
    head = run_git(repo, "rev-parse", "HEAD").stdout.strip()

    done = run_git(repo, "push", "-q", "origin", "main", check=False)

    assert done.returncode != 0
    assert run_git(bare_origin, "rev-parse", "--verify", "-q", "main", check=False).stdout == ""
    zero = "0" * len(head)
    assert seen.read_text() == (
        f"origin {bare_origin}\nrefs/heads/main {head} refs/heads/main {zero}\n"
    )

    write_hook(git_hooks(repo) / f"pre-push{FOREIGN_SUFFIX}", "cat >/dev/null")
    run_git(repo, "push", "-q", "origin", "main")

    fake.wait(lambda r: r["argv"][:2] == ["hook", "pre-push"])
    assert len([r for r in fake.records() if r["argv"][:2] == ["hook", "pre-push"]]) == 1


# -- core.hooksPath and worktrees ----------------------------------------------------


def test_shared_hooks_path_is_refused_unless_forced(repo: Path, fake: Fake, tmp_path: Path) -> None:
    team = tmp_path / "team-hooks"
    team.mkdir()
    run_git(repo, "config", "core.hooksPath", str(team))

    with pytest.raises(InputError, match=r"core\.hooksPath points to .*--force"):
        hooks.install(repo, gitmem_command=fake.command)
    assert list(team.iterdir()) == []
    assert not any((git_hooks(repo) / name).exists() for name in HOOK_NAMES)

    hooks.install(repo, force=True, gitmem_command=fake.command)

    assert all((team / name).exists() for name in HOOK_NAMES)
    sha = empty_commit(repo, "team hooks")
    fake.wait(lambda r: r["argv"] == ["hook", "post-commit", sha])


def test_hooks_path_naming_the_usual_folder_is_not_shared(repo: Path, fake: Fake) -> None:
    run_git(repo, "config", "core.hooksPath", str(git_hooks(repo)))

    states = hooks.install(repo, gitmem_command=fake.command)

    assert all(s.ours for s in states)


def test_worktrees_share_the_hooks(repo: Path, fake: Fake, tmp_path: Path) -> None:
    worktree = tmp_path / "wt"
    run_git(repo, "worktree", "add", "-q", "-b", "side", str(worktree))

    hooks.install(worktree, gitmem_command=fake.command)

    assert hooks.hooks_dir(worktree) == hooks.hooks_dir(repo)
    assert hooks.status(repo) == hooks.status(worktree)
    in_main = empty_commit(repo, "in main")
    in_worktree = empty_commit(worktree, "in worktree")
    fake.wait(lambda r: r["argv"] == ["hook", "post-commit", in_main])
    record = fake.wait(lambda r: r["argv"] == ["hook", "post-commit", in_worktree])
    assert Path(record["cwd"]).resolve() == worktree.resolve()


# -- the shims themselves --------------------------------------------------------------


@pytest.mark.parametrize("name", HOOK_NAMES)
@pytest.mark.parametrize("shell", ["sh", "dash", "bash"])
def test_shims_parse(name: str, shell: str, tmp_path: Path) -> None:
    if shutil.which(shell) is None:
        pytest.skip(f"no {shell}")
    script = tmp_path / name
    script.write_bytes(hooks.render_script(name, ["/opt/with space/python", "-m", "gitmem"]))

    done = subprocess.run([shell, "-n", str(script)], capture_output=True, text=True)

    assert done.returncode == 0, done.stderr
    assert "@GITMEM" not in script.read_text()


@pytest.mark.parametrize("name", HOOK_NAMES)
def test_the_repository_hooks_folder_holds_the_packaged_templates(name: str) -> None:
    packaged = ROOT / "gitmem" / "hooks" / "templates" / name
    assert (ROOT / "hooks" / name).read_bytes() == packaged.read_bytes()
    assert packaged.read_text().splitlines()[1] == MARKER


def test_leave_caller_drops_inherited_descriptors_and_the_session() -> None:
    """What `gitmem hook` does first: a pipe it inherited no longer keeps anyone waiting."""
    read_end, write_end = os.pipe()
    child = (
        "import os\n"
        "from gitmem.hooks.detach import leave_caller\n"
        "def is_open(fd):\n"
        "    try:\n"
        "        os.fstat(fd)\n"
        "        return True\n"
        "    except OSError:\n"
        "        return False\n"
        f"before = is_open({write_end})\n"
        "leave_caller()\n"
        f"print(before, is_open({write_end}), os.getsid(0) == os.getpid())\n"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", child],
            pass_fds=[write_end],
            capture_output=True,
            text=True,
            check=True,
        )
    finally:
        os.close(read_end)
        os.close(write_end)

    assert done.stdout.split() == ["True", "False", "True"]
