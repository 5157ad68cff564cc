"""Benchmark: a rebase of N commits with gitmem's hooks on versus off, in one run.

    python benchmarks/bench_rebase.py [--commits 30] [--rounds 3]

In a scratch repository with a key, a topic branch of N commits (each a message with a
decision and a to-do, captured first) is rebased onto one new commit of main, again and
again from the same starting point: without hooks and with them, alternately. Reports the
medians of the rebase's wall time, their ratio and the time added per commit (the hook's
foreground part plus what the background work takes from the rebase on a busy machine),
the time until the background work has settled (every new commit named by a checkpoint,
the rewrite recorded, no marker left), and, sampled from ``/proc`` every few
milliseconds, the most background gitmem processes alive at once and the most captures
running at once (distinct live processes holding a commit's in-flight marker); and the
post-commit script's own foreground time (gitmem replaced by ``true``).
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
import threading
import time
from pathlib import Path

from gitmem.hooks.install import install, render_script, uninstall
from gitmem.store.keys import init_identity


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True
    ).stdout


def gitmem_log(repo: Path) -> list[dict[str, object]]:
    out = subprocess.run(
        [sys.executable, "-m", "gitmem", "-C", str(repo), "log", "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    data = json.loads(out)
    assert isinstance(data, list)
    return data


def hook_pids(repo: Path) -> set[int]:
    """Processes running ``gitmem hook …`` in *repo* (git starts hooks in the worktree)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (
                    b"gitmem\0hook\0" in (entry / "cmdline").read_bytes()
                    and (entry / "cwd").resolve() == repo
                ):
                    found.add(int(entry.name))
            except OSError:
                continue
    return found


def capturing_pids(running: Path) -> set[int]:
    """Live processes holding an in-flight marker: the captures running now."""
    pids = set()
    for marker in running.glob("post-commit-*"):
        try:
            pid = json.loads(marker.read_text() or "{}").get("pid")
        except (OSError, ValueError):
            continue
        if isinstance(pid, int) and Path(f"/proc/{pid}").exists():
            pids.add(pid)
    return pids


class Sampler(threading.Thread):
    """Samples the background processes and captures until stopped."""

    def __init__(self, repo: Path) -> None:
        super().__init__(daemon=True)
        self.repo = repo
        self.running = repo / ".git" / "gitmem" / "running"
        self.stop = threading.Event()
        self.processes = 0
        self.captures = 0

    def run(self) -> None:
        while not self.stop.is_set():
            self.processes = max(self.processes, len(hook_pids(self.repo)))
            self.captures = max(self.captures, len(capturing_pids(self.running)))
            time.sleep(0.005)


def settled(repo: Path, shas: list[str], rewrites_before: int) -> bool:
    running = repo / ".git" / "gitmem" / "running"
    if any(running.glob("post-commit-*")) or hook_pids(repo):
        return False
    log = (repo / ".git" / "gitmem" / "capture.log").read_text().splitlines()
    rewrites = sum(1 for line in log if '"rewrites"' in line)
    named = {e["commit"] for e in gitmem_log(repo) if e["type"] == "checkpoint"}
    return rewrites > rewrites_before and set(shas) <= named


def rebase_once(repo: Path, topic_tip: str, hooked: bool) -> dict[str, float]:
    git(repo, "checkout", "-q", "-B", "topic", topic_tip)
    log = repo / ".git" / "gitmem" / "capture.log"
    before = log.read_text().count('"rewrites"') if log.exists() else 0
    sampler = Sampler(repo)
    sampler.start()
    began = time.perf_counter()
    git(repo, "rebase", "-q", "main")
    wall = time.perf_counter() - began
    count = int(git(repo, "rev-list", "--count", "main..topic"))
    shas = git(repo, "rev-list", "main..topic").split()
    settle = 0.0
    if hooked:
        deadline = began + 300
        while not settled(repo, shas, before):
            if time.perf_counter() > deadline:
                raise RuntimeError("the background work never settled")
            time.sleep(0.1)
        settle = time.perf_counter() - began
    sampler.stop.set()
    sampler.join()
    assert count == len(shas)
    return {
        "wall": wall,
        "settle": settle,
        "processes": sampler.processes,
        "captures": sampler.captures,
    }


def script_alone(root: Path, count: int = 60) -> float:
    """The median time of the post-commit script alone, as git runs it, with gitmem
    replaced by ``true``: the hook's own foreground part."""
    repo = root / "script-alone"
    repo.mkdir()
    git(repo, "init", "-q")
    git(repo, "config", "user.email", "bench@example.com")
    git(repo, "config", "user.name", "bench")
    git(repo, "commit", "-q", "--allow-empty", "-m", "x")
    script = repo / ".git" / "hooks" / "post-commit"
    script.parent.mkdir(exist_ok=True)
    script.write_bytes(render_script("post-commit", [shutil.which("true") or "/bin/true"]))
    script.chmod(0o755)
    times = []
    for _ in range(count):
        began = time.perf_counter()
        subprocess.run([str(script)], cwd=repo, check=True)
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="gitmem-bench-rebase-"))
    os.environ["GITMEM_HOME"] = str(root / "home")
    off: list[dict[str, float]] = []
    on: list[dict[str, float]] = []
    try:
        repo = (root / "repo").resolve()
        repo.mkdir()
        git(repo, "init", "-q", "-b", "main")
        git(repo, "config", "user.email", "bench@example.com")
        git(repo, "config", "user.name", "bench")
        init_identity(root / "home", "bench@example.com", None)
        (repo / "base.txt").write_text("base\n")
        git(repo, "add", "base.txt")
        git(repo, "commit", "-q", "-m", "base")
        install(repo)
        git(repo, "checkout", "-q", "-b", "topic")
        for n in range(args.commits):
            (repo / f"f{n}.txt").write_text(f"{n}\n")
            git(repo, "add", f"f{n}.txt")
            message = f"Change {n}\n\nDecision: keep part {n} small\nTODO: test part {n}"
            git(repo, "commit", "-q", "-m", message)
        tip = git(repo, "rev-parse", "HEAD").strip()
        git(repo, "checkout", "-q", "main")
        (repo / "main.txt").write_text("main\n")
        git(repo, "add", "main.txt")
        git(repo, "commit", "-q", "-m", "a change on main")
        deadline = time.monotonic() + 300
        while any((repo / ".git" / "gitmem" / "running").glob("*")) or hook_pids(repo):
            if time.monotonic() > deadline:
                raise RuntimeError("the topic's captures never settled")
            time.sleep(0.2)
        for _ in range(args.rounds):
            uninstall(repo)
            off.append(rebase_once(repo, tip, hooked=False))
            install(repo)
            on.append(rebase_once(repo, tip, hooked=True))
        alone = script_alone(root)
    finally:
        shutil.rmtree(root, ignore_errors=True)

    def median(runs: list[dict[str, float]], key: str) -> float:
        return statistics.median(r[key] for r in runs)

    n = args.commits
    base, hooked = median(off, "wall"), median(on, "wall")
    print(f"rebase of {n} commits, medians of {args.rounds} rounds each")
    print(f"  without hooks                         {base * 1000:8.0f} ms")
    print(f"  with gitmem hooks                     {hooked * 1000:8.0f} ms")
    print(f"  ratio with / without                  {hooked / base:8.2f}")
    each = f"{base / n * 1000:.1f} / {hooked / n * 1000:.1f}"
    print(f"  per commit without / with             {each:>8} ms")
    print(f"  added per commit                      {(hooked - base) / n * 1000:8.1f} ms")
    print(f"  the post-commit script alone          {alone * 1000:8.1f} ms")
    print(f"  rebase start → background settled    {median(on, 'settle') * 1000:8.0f} ms")
    print(f"  most background processes at once     {max(r['processes'] for r in on):8.0f}")
    print(f"  most captures running at once         {max(r['captures'] for r in on):8.0f}")


if __name__ == "__main__":
    main()
