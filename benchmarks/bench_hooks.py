"""Benchmark: what the post-commit hook adds to `git commit` (foreground only).

    python benchmarks/bench_hooks.py [--commits 40]

In a scratch repository with a key, times `git commit` N times without gitmem's
hooks and N times with them installed (the hook's capture runs detached and is not
waited for), then reports the medians and their difference, and how long the
detached capture took to land (commit → checkpoint visible in `gitmem log`).
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

from gitmem.hooks.install import install
from gitmem.store.keys import init_identity


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True
    ).stdout


def time_commits(repo: Path, count: int, tag: str, pause: float) -> list[float]:
    """Time each `git commit`; *pause* between commits lets the previous commit's
    detached capture finish, so it does not compete for the CPU (as when a person
    commits; back-to-back commits are measured separately)."""
    times = []
    for n in range(count):
        time.sleep(pause)
        (repo / "file.txt").write_text(f"{tag} {n}\n")
        git(repo, "add", "file.txt")
        began = time.perf_counter()
        git(repo, "commit", "-q", "-m", f"{tag} {n}\n\nTODO: follow up on change {n}")
        times.append(time.perf_counter() - began)
    return times


def landing_time(repo: Path, env: dict[str, str]) -> float:
    """Commit once more and wait for its checkpoint to appear."""
    (repo / "file.txt").write_text("landing\n")
    git(repo, "add", "file.txt")
    git(repo, "commit", "-q", "-m", "landing\n\nDecision: measure the landing time")
    sha = git(repo, "rev-parse", "HEAD").strip()
    began = time.perf_counter()
    while time.perf_counter() - began < 30:
        log = subprocess.run(
            [sys.executable, "-m", "gitmem", "-C", str(repo), "log", "--json"],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        ).stdout
        if any(e["commit"] == sha for e in json.loads(log)):
            return time.perf_counter() - began
        time.sleep(0.05)
    raise RuntimeError("the checkpoint never landed")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=40)
    parser.add_argument(
        "--pause", type=float, default=0.6, help="seconds between commits (0: back to back)"
    )
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="gitmem-bench-hooks-"))
    os.environ["GITMEM_HOME"] = str(root / "home")
    try:
        repo = root / "repo"
        repo.mkdir()
        git(repo, "init", "-q")
        git(repo, "config", "user.email", "bench@example.com")
        git(repo, "config", "user.name", "bench")
        init_identity(root / "home", "bench@example.com", None)
        time_commits(repo, 3, "warm-up", 0)
        bare = time_commits(repo, args.commits, "without", args.pause)
        install(repo)
        hooked = time_commits(repo, args.commits, "with", args.pause)
        burst = time_commits(repo, 10, "burst", 0)
        time.sleep(3)  # let the detached captures of the timed commits finish
        landed = landing_time(repo, dict(os.environ))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    base, with_hooks = statistics.median(bare), statistics.median(hooked)
    print(f"git commit without hooks (median of {args.commits})  {base * 1000:6.1f} ms")
    print(f"git commit with gitmem hooks (median)             {with_hooks * 1000:6.1f} ms")
    print(f"added by the hook, foreground (median difference) {(with_hooks - base) * 1000:6.1f} ms")
    print(
        f"back-to-back commits with hooks (median of 10)    "
        f"{statistics.median(burst) * 1000:6.1f} ms (captures compete for the CPU)"
    )
    print(f"commit → checkpoint visible in `gitmem log`       {landed * 1000:6.1f} ms")


if __name__ == "__main__":
    main()
