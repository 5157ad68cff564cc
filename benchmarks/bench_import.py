"""Benchmark: `gitmem import` throughput with the heuristic extractor.

    python benchmarks/bench_import.py [--transcripts 200]

Writes N Claude Code-shaped session files (about 40 messages each, with decisions,
TODOs and questions among ordinary chatter), imports the folder once in a fresh
repository, then again (everything skipped), and reports transcripts per second.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gitmem.store.keys import init_identity


def session_file(path: Path, n: int) -> None:
    lines = []
    for turn in range(20):
        lines.append(
            {
                "type": "user",
                "sessionId": f"s-{n}",
                "cwd": "/work/project",
                "uuid": f"{n}-{turn}-u",
                "message": {
                    "role": "user",
                    "content": f"Turn {turn} of session {n}: can you look at module_{turn}.py?",
                },
            }
        )
        said = [f"I read module_{turn}.py and traced the bug to the cache key {n}."]
        if turn % 5 == 0:
            said.append(f"Decision: we keep the cache key per tenant for session {n}.")
        if turn % 7 == 0:
            said.append(f"TODO: add a regression test for tenant {n} turn {turn}.")
        lines.append(
            {
                "type": "assistant",
                "sessionId": f"s-{n}",
                "uuid": f"{n}-{turn}-a",
                "message": {
                    "role": "assistant",
                    "content": [{"type": "text", "text": " ".join(said)}],
                },
            }
        )
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def run_import(repo: Path, folder: Path) -> tuple[float, dict[str, int]]:
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "gitmem", "-C", str(repo), "import", str(folder), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    elapsed = time.perf_counter() - began
    data = json.loads(done.stdout)
    return elapsed, {k: data[k] for k in ("captured", "skipped", "failed")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--transcripts", type=int, default=200)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="gitmem-bench-import-"))
    os.environ["GITMEM_HOME"] = str(root / "home")
    try:
        folder = root / "sessions"
        folder.mkdir()
        for n in range(args.transcripts):
            session_file(folder / f"session-{n:04d}.jsonl", n)
        repo = root / "repo"
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        init_identity(root / "home", "bench@example.com", None)
        first, counts = run_import(repo, folder)
        second, again = run_import(repo, folder)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    n = args.transcripts
    print(f"first import:  {counts}  {first:6.2f} s  {n / first:6.1f} transcripts/s")
    print(f"second import: {again}  {second:6.2f} s  {n / second:6.1f} transcripts/s (skips)")


if __name__ == "__main__":
    main()
