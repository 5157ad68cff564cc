"""Commands import only what they use: the entry points that run on every commit and at
every session start never load the MCP, HTTP, ask, forge or capture code they do not run,
and the hooks never load the command line's machinery at all (measured in
benchmarks/startup.py)."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import git

from gitmem.cli import fast_path

HEAVY = ("mcp", "http.client", "urllib.request", "gitmem.agents.ask", "gitmem.llm")


def imported(args: list[str], cwd: Path, stdin: str = "", home: Path | None = None) -> set[str]:
    """The modules a fresh `python -m gitmem ARGS` process imports."""
    env = {**os.environ, "GITMEM_HOME": str(home or cwd / "no-home")}
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "gitmem", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    lines = [line.split("|")[-1].strip() for line in done.stderr.splitlines()]
    return {line for line in lines if line and not line.startswith("import time")}


def loaded(modules: set[str], prefix: str) -> bool:
    return any(m == prefix or m.startswith(prefix + ".") for m in modules)


@pytest.mark.parametrize(
    ("args", "fast"),
    [
        (["--version"], True),
        (["-C", "x", "--version"], True),
        (["--verbose", "hook", "post-commit", "abc"], True),
        (["hook", "pre-push", "origin", "url"], True),
        (["capture", "--from-hook", "claude"], True),
        (["hook", "no-such-hook"], False),  # the full command line says what is wrong
        (["capture", "--from-hook", "claude", "--json"], False),
        (["capture", "--from-hook", "vim"], False),
        (["brief"], True),
        (["-C", "x", "brief"], True),
        (["brief", "--json"], False),
        (["recall", "cache", "retries"], True),
        (["recall"], False),  # the full command line says what is missing
        (["recall", "--limit", "3", "cache"], False),
        (["recall", "cache", "--json"], False),
        (["--quiet", "brief"], False),
        (["brief", "--from-hook", "codex"], True),
        (["brief", "--from-hook", "gemini"], True),
        (["brief", "--host", "codex"], True),
        (["brief", "--host", "vim"], False),
        (["brief", "--host", "codex", "--json"], False),
        (["recall", "--from-hook", "claude"], True),
        (["recall", "--from-hook", "vim"], False),
        (["recall", "--from-hook", "claude", "x"], False),
        (["-C"], False),
        ([], False),
    ],
)
def test_only_exact_forms_take_the_fast_path(args: list[str], fast: bool) -> None:
    assert (fast_path(args) is not None) == fast


def test_version_loads_no_command_line(tmp_path: Path) -> None:
    modules = imported(["--version"], tmp_path)
    assert "gitmem" in modules and not loaded(modules, "click")
    assert not loaded(modules, "pygit2")


def test_hooks_load_neither_the_command_line_nor_what_they_do_not_run(repo: Path) -> None:
    pre_push = imported(["hook", "pre-push", "origin", "/nowhere"], repo)
    # The hook ran (it looked for captures in flight; the module importlib loads itself
    # is not listed by -X importtime, its imports are). With no memory in the clone it
    # stops there: nothing to push, so no settings and no capture log.
    assert loaded(pre_push, "gitmem.hooks.inflight")
    assert not loaded(pre_push, "gitmem.store.config")
    for heavy in ("click", "gitmem.capture", "gitmem.team", "gitmem.brief", *HEAVY):
        assert not loaded(pre_push, heavy), heavy
    from_host = imported(["capture", "--from-hook", "claude"], repo, stdin="{}")
    assert loaded(from_host, "gitmem.agents.host_event")
    for heavy in ("click", "pygit2", "gitmem.capture", "gitmem.store.repo", *HEAVY):
        assert not loaded(from_host, heavy), heavy


def test_context_hooks_load_no_command_line_and_no_memory_code_without_memory(
    repo: Path,
) -> None:
    """The session-start and per-prompt hooks of an agent host (issue 16) skip click, and
    in a repository with no memory yet they load neither the brief nor recall."""
    prompt = imported(["recall", "--from-hook", "claude"], repo, stdin='{"prompt": "cache"}')
    start = imported(["brief", "--from-hook", "claude"], repo)
    for modules in (prompt, start):
        assert loaded(modules, "gitmem.agents.host_context")
        for heavy in ("click", "gitmem.brief", "gitmem.agents.recall", "gitmem.capture", *HEAVY):
            assert not loaded(modules, heavy), heavy


def test_the_brief_loads_no_mcp_http_ask_or_forge_code(gm: object, initialised: Path) -> None:
    transcript = initialised.parent / "t.md"
    transcript.write_text("We decided to keep the cache in src/cache.py.\n", encoding="utf-8")
    assert gm("capture", "--transcript", str(transcript)).exit_code == 0  # type: ignore[operator]
    home = initialised.parent / "gitmem-home"
    modules = imported(["brief"], initialised, home=home)
    assert loaded(modules, "gitmem.brief.emit")
    for heavy in ("click", "gitmem.brief.worldcheck.forge", "gitmem.capture", *HEAVY):
        assert not loaded(modules, heavy), heavy


@pytest.mark.slow
def test_a_plain_brief_or_recall_prints_and_fails_as_the_command_line_does(
    gm: object, initialised: Path, tmp_path: Path
) -> None:
    """The click-free forms print what the same commands print through the command line
    (an option that changes nothing sends them there), and fail with its line and code."""
    transcript = initialised.parent / "t.md"
    transcript.write_text("We decided to keep the cache in src/cache.py.\n", encoding="utf-8")
    assert gm("capture", "--transcript", str(transcript)).exit_code == 0  # type: ignore[operator]
    env = {**os.environ, "GITMEM_HOME": str(initialised.parent / "gitmem-home")}

    def run(*args: str, cwd: Path = initialised) -> tuple[int, str, str]:
        done = subprocess.run(
            [sys.executable, "-m", "gitmem", *args],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        return done.returncode, done.stdout, done.stderr

    plain, full = run("brief"), run("brief", "--format", "text")
    assert plain == full and plain[0] == 0 and "src/cache.py" in plain[1]
    plain, full = run("recall", "cache"), run("recall", "cache", "--limit", "10")
    assert plain == full and plain[0] == 0 and "src/cache.py" in plain[1]
    outside = tmp_path / "not-a-repo"
    outside.mkdir()
    plain, full = run("brief", cwd=outside), run("brief", "--format", "text", cwd=outside)
    assert plain == full and plain[0] != 0 and plain[2].count("\n") == 1
    assert plain[2].startswith("gitmem: ") and "internal error" not in plain[2]


def test_a_hook_run_through_the_fast_path_still_does_its_work(repo: Path) -> None:
    """post-commit through the fast path captures the commit (the message, with no agent
    transcript), exactly as through the command line."""
    env = {**os.environ, "GITMEM_HOME": str(repo.parent / "gitmem-home")}
    subprocess.run([sys.executable, "-m", "gitmem", "init"], cwd=repo, env=env, check=True)
    sha = git(repo, "rev-parse", "HEAD").strip()
    subprocess.run(
        [sys.executable, "-m", "gitmem", "hook", "post-commit", sha], cwd=repo, env=env, check=True
    )
    assert git(repo, "rev-list", "--count", "refs/gitmem/memory").strip() == "1"


def test_the_fast_paths_know_every_host() -> None:
    from gitmem.brief.budget import HOSTS
    from gitmem.cli import _AGENTS

    assert set(HOSTS) == _AGENTS


LEAVING = (
    "import atexit, gc, sys\n"
    "from gitmem.cli import main\n"
    "atexit.register(lambda: print('atexit ran', gc.isenabled(), gc.get_freeze_count() > 0))\n"
    "sys.argv = ['gitmem', *sys.argv[1:]]\n"
    "main()\n"
)


@pytest.mark.parametrize("args", [["--version"], ["status", "--json"], ["no-such-command"]])
def test_the_process_leaves_without_a_last_collection_and_still_runs_atexit(
    tmp_path: Path, args: list[str]
) -> None:
    # As the process's own command, main() freezes the objects out of the collector's
    # sight on the way out (the interpreter's last collection over every import costs
    # ~10% of a warm brief) whatever the exit; what atexit holds still runs, and what the
    # command printed is all there.
    env = {**os.environ, "GITMEM_HOME": str(tmp_path / "home")}
    done = subprocess.run(
        [sys.executable, "-c", LEAVING, *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.stdout.endswith("atexit ran False True\n"), (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    if args == ["--version"]:
        assert done.returncode == 0 and done.stdout.startswith("gitmem, version ")
    else:
        assert done.returncode == 2 and done.stderr.startswith("gitmem: ")


def test_main_called_with_arguments_leaves_the_collector_as_it_was() -> None:
    # a caller that runs the command line in its own process (the tests, an embedding
    # tool) keeps its garbage collector
    from gitmem.cli import main

    with pytest.raises(SystemExit):
        main(["--version"])
    assert gc.isenabled() and gc.get_freeze_count() == 0
