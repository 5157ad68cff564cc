"""Benchmark: the time `gitmem serve` takes to render its main page at N checkpoints, as a
ratio against the brief it renders (the floor: the same verified brief, as text), and
the size of a review comment for a branch of C commits with a capture at each.

    python benchmarks/bench_viewer.py [--checkpoints 1000] [--runs 5] [--commits 30]

The store is bench_brief's (N signed checkpoints, 5 items each, through the real write
path); the page is fetched over loopback HTTP from the real server in this process.
Prints a table; nothing is kept.
"""

from __future__ import annotations

import argparse
import http.client
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

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_brief import build_store

from gitmem.agents.viewer.server import Viewer, make_server
from gitmem.brief.emit import make_brief
from gitmem.brief.render import render_text
from gitmem.store.repo import Store


def time_page(repo_dir: Path, home: Path, runs: int) -> tuple[list[float], int]:
    server = make_server(Viewer(str(repo_dir), home, True), "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    port = int(server.server_address[1])
    times, size = [], 0
    try:
        for n in range(runs + 1):
            began = time.perf_counter()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
            connection.request("GET", "/")
            response = connection.getresponse()
            body = response.read()
            connection.close()
            assert response.status == 200, body[:300]
            if n:  # the first one warms the index and the page cache
                times.append(time.perf_counter() - began)
            size = len(body)
    finally:
        server.shutdown()
        server.server_close()
    return times, size


def time_brief(repo_dir: Path, home: Path, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        render_text(make_brief(Store.discover(repo_dir), home, world_check=False), 0)
        times.append(time.perf_counter() - began)
    return times


def review_size(root: Path, commits: int) -> tuple[int, int]:
    """A branch of *commits* commits with one capture of 2 items at each (1 verbatim
    every 6th): the characters of its review comment and its items."""
    repo, home = root / "review", root / "review-home"
    env = {
        **os.environ,
        "GITMEM_HOME": str(home),
        "GIT_AUTHOR_NAME": "a",
        "GIT_AUTHOR_EMAIL": "a@example.com",
        "GIT_COMMITTER_NAME": "a",
        "GIT_COMMITTER_EMAIL": "a@example.com",
    }

    def run(*args: str, input: str | None = None) -> str:
        return subprocess.run(
            args, cwd=repo, env=env, check=True, capture_output=True, text=True, input=input
        ).stdout

    repo.mkdir()
    run("git", "init", "-q", "-b", "main")
    (repo / "README.md").write_text("x\n")
    run("git", "add", ".")
    run("git", "commit", "-q", "-m", "init")
    gitmem = [sys.executable, "-m", "gitmem"]
    run(*gitmem, "init")
    run("git", "checkout", "-q", "-b", "feature")
    for n in range(commits):
        (repo / f"src/module_{n}.py").parent.mkdir(exist_ok=True)
        (repo / f"src/module_{n}.py").write_text(f"value = {n}\n")
        run("git", "add", ".")
        run("git", "commit", "-q", "-m", f"module {n}")
        said = f"We decided module_{n} keeps its value at {n} until the parser is rewritten."
        transcript = root / f"t{n}.md"
        transcript.write_text(said + "\n")
        items = [
            {
                "kind": "decision",
                "text": f"module_{n} keeps value {n} until the rewrite",
                "trust": "verbatim" if n % 6 == 0 else "inferred",
                **({"quote": f"module_{n} keeps its value at {n}"} if n % 6 == 0 else {}),
            },
            {
                "kind": "open_loop",
                "text": f"Check src/module_{n}.py against the new parser",
                "trust": "inferred",
            },
        ]
        run(
            *gitmem,
            "capture",
            "--transcript",
            str(transcript),
            "--session",
            f"s{n}",
            "--items",
            "-",
            input=json.dumps(items),
        )
    comment = run(*gitmem, "review", "main..feature")
    document = json.loads(run(*gitmem, "review", "main..feature", "--format", "json"))
    return len(comment), len(document["items"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoints", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--commits", type=int, default=30)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="gitmem-bench-"))
    try:
        chars, items = review_size(root, args.commits)
        print(f"review comment, {args.commits} commits, {items} items: {chars:,} characters")
        repo_dir, home, _ = build_store(root, args.checkpoints)
        page, size = time_page(repo_dir, home, args.runs)
        floor = time_brief(repo_dir, home, args.runs)
        p, f = statistics.median(page), statistics.median(floor)
        print(f"checkpoints: {args.checkpoints}")
        print(f"serve GET / (median of {args.runs}): {p * 1000:.0f} ms, {size:,} bytes")
        print(f"floor, the verified brief as text:  {f * 1000:.0f} ms")
        print(f"ratio page / floor: {p / f:.2f}")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
