"""Benchmark: what the entry points that run on every commit and session cost to start.

    python benchmarks/startup.py [--runs 21]

Each figure is the median wall time of a fresh process, as a ratio to the floor
`python -c "import pygit2"` measured in the same run, interleaved so that machine
noise hits all of them alike (issue 11 asks for at most 1.2x):

- `gitmem --version`;
- `gitmem hook pre-push REMOTE URL` (the only git hook that runs in the foreground:
  git waits for it before pushing), with nothing configured to sync;
- `gitmem capture --from-hook claude` with a host event on stdin (what Claude Code and
  Codex run when a session ends; the capture itself runs detached);
- `gitmem recall --from-hook claude` with a prompt on stdin, in a repository with no
  memory yet (the `--prompt-recall` hook, which runs before every prompt; issue 16), and
  `gitmem brief --from-hook codex` outside any repository (a user-scope session start in
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


def timed(command: list[str], cwd: Path, env: dict[str, str], stdin: str = "") -> float:
    began = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=env, input=stdin, capture_output=True, text=True)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="gitmem-startup-"))
    try:
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
        env = {**os.environ, "GITMEM_HOME": str(root / "home")}
        gitmem = [sys.executable, "-m", "gitmem"]
        event = json.dumps({"session_id": "s", "cwd": str(repo)})  # no transcript: returns
        cases = {
            "floor: python -c 'import pygit2'": ([sys.executable, "-c", "import pygit2"], ""),
            "gitmem --version": ([*gitmem, "--version"], ""),
            "gitmem hook pre-push (foreground)": (
                [*gitmem, "hook", "pre-push", "origin", str(root / "remote.git")],
                "",
            ),
            "gitmem capture --from-hook claude": (
                [*gitmem, "capture", "--from-hook", "claude"],
                event,
            ),
            "gitmem recall --from-hook claude": (
                [*gitmem, "recall", "--from-hook", "claude"],
                json.dumps({"prompt": "where does the cache live?", "cwd": str(repo)}),
            ),
            "gitmem brief --from-hook (no repository)": (
                [*gitmem, "-C", str(root), "brief", "--from-hook", "codex"],
                "",
            ),
        }
        times: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(args.runs):
            for name, (command, stdin) in cases.items():
                times[name].append(timed(command, repo, env, stdin))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    floor = statistics.median(next(iter(times.values())))
    for name, xs in times.items():
        median = statistics.median(xs)
        print(f"{name:40} {median * 1000:7.1f} ms   {median / floor:5.2f}x floor")


if __name__ == "__main__":
    main()
