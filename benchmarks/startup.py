"""Benchmark: what the entry points that run on every commit and session cost to start.

    python benchmarks/startup.py [--runs 21]

Each figure is the median wall time of a fresh process, as a ratio to the floor
`python -c "import pygit2"` measured in the same run, interleaved so that machine
noise hits all of them alike (issue 11 asks for at most 1.2x; benchmarks/bench_scale.py
runs the same cases beside its own):

- `gitmem --version`;
- `gitmem hook pre-push REMOTE URL` (the only git hook that runs in the foreground:
  git waits for it before pushing), with nothing configured to sync;
- `gitmem capture --from-hook claude` with a host event on stdin (what Claude Code and
  Codex run when a session ends; the capture itself runs detached);

and, here only (not in bench_scale's bound), the context hooks of issue 16:

- `gitmem recall --from-hook claude` with a prompt on stdin, in a repository with no
  memory yet (the `--prompt-recall` hook, which runs before every prompt);
- `gitmem brief --from-hook codex` outside any repository (a user-scope session start in
  a folder that is not a repository: it prints nothing).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FLOOR = "floor: python -c 'import pygit2'"
LIMIT = 1.2
"""Each entry point costs at most this many floors (issue 11)."""


def timed(command: list[str], cwd: Path, env: dict[str, str], stdin: str = "") -> float:
    began = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=env, input=stdin, capture_output=True, text=True)
    return time.perf_counter() - began


def scratch_repo(root: Path) -> tuple[Path, dict[str, str]]:
    """A repository with one commit under *root*, and the environment to run gitmem in
    (a ``GITMEM_HOME`` with no key: nothing is configured)."""
    repo = root / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(
        ["git", "-C", str(repo), "commit", "-q", "--allow-empty", "-m", "init"],
        check=True,
        env={
            **os.environ,
            "GIT_AUTHOR_NAME": "b",
            "GIT_AUTHOR_EMAIL": "b@x",
            "GIT_COMMITTER_NAME": "b",
            "GIT_COMMITTER_EMAIL": "b@x",
        },
    )
    return repo, {**os.environ, "GITMEM_HOME": str(root / "home")}


def cases(root: Path, repo: Path) -> dict[str, tuple[list[str], str]]:
    """What is timed, name → (command, stdin), run in *repo*; the first is the floor."""
    gitmem = [sys.executable, "-m", "gitmem"]
    event = json.dumps({"session_id": "s", "cwd": str(repo)})  # no transcript: returns
    return {
        FLOOR: ([sys.executable, "-c", "import pygit2"], ""),
        "gitmem --version": ([*gitmem, "--version"], ""),
        "gitmem hook pre-push (foreground)": (
            [*gitmem, "hook", "pre-push", "origin", str(root / "remote.git")],
            "",
        ),
        "gitmem capture --from-hook claude": ([*gitmem, "capture", "--from-hook", "claude"], event),
    }


def context_cases(root: Path, repo: Path) -> dict[str, tuple[list[str], str]]:
    """The agent hosts' context hooks (issue 16), name → (command, stdin)."""
    gitmem = [sys.executable, "-m", "gitmem"]
    prompt = json.dumps({"prompt": "where does the cache live?", "cwd": str(repo)})
    return {
        "gitmem recall --from-hook claude": ([*gitmem, "recall", "--from-hook", "claude"], prompt),
        "gitmem brief --from-hook (no repository)": (
            [*gitmem, "-C", str(root), "brief", "--from-hook", "codex"],
            "",
        ),
    }


def measure(runs: int, context: bool = False) -> dict[str, list[float]]:
    """Every case (with *context*, the context hooks too) *runs* times, interleaved;
    name → wall times in seconds."""
    root = Path(tempfile.mkdtemp(prefix="gitmem-startup-"))
    try:
        repo, env = scratch_repo(root)
        timed_cases = cases(root, repo)
        if context:
            timed_cases.update(context_cases(root, repo))
        times: dict[str, list[float]] = {name: [] for name in timed_cases}
        for _ in range(runs):
            for name, (command, stdin) in timed_cases.items():
                times[name].append(timed(command, repo, env, stdin))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    times = measure(args.runs, context=True)
    floor = statistics.median(times[FLOOR])
    for name, xs in times.items():
        median = statistics.median(xs)
        print(f"{name:40} {median * 1000:7.1f} ms   {median / floor:5.2f}x floor")


if __name__ == "__main__":
    main()
