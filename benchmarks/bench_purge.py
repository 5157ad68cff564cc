"""Benchmark: `gitmem purge` on a store of N checkpoints, as ratios to `gitmem verify`.

    python benchmarks/bench_purge.py [--records 1000] [--runs 3]

Builds a repository with N signed checkpoints (one item, one snapshot, one receipt
each; one of them, in the middle of the history, holds a secret), then for each run
copies it and times, as a user runs them (a fresh process each):

- `gitmem verify` — the floor: it reads and checks every record, as a purge must read
  the whole store;
- `gitmem purge ID --yes` — one item, captured a quarter into the history, removed from
  every commit;
- `gitmem purge --text SECRET --yes` — every item, record and snapshot searched, one
  snapshot redacted, its item removed, every commit rewritten.

Prints each median and its ratio to the floor of the same run; nothing is kept.
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
from datetime import UTC, datetime, timedelta
from pathlib import Path

from gitmem.capture.run import Context, capture_transcript
from gitmem.capture.transcripts import parse_transcript
from gitmem.core.items import Draft
from gitmem.store.keys import init_identity
from gitmem.store.repo import Store

SECRET = "hunter2-zebra-quartz"
GIT_ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(cwd), *args],
        check=True,
        capture_output=True,
        env={**os.environ, **GIT_ENV},
    )


def build(repo: Path, home: Path, count: int) -> None:
    context = Context.open(Store.discover(repo), home)
    began = datetime(2026, 1, 1, tzinfo=UTC)
    for n in range(count):
        said = f" The staging password is {SECRET} today." if n == count // 2 else ""
        text = f"Session {n}. We decided to keep module_{n} in src/module_{n}.py for now.{said}\n"
        quote = f"keep module_{n} in src/module_{n}.py for now"
        capture_transcript(
            context,
            parse_transcript(text.encode(), f"session-{n}.md"),
            None,
            source=f"bench s-{n}",
            drafts=[Draft("decision", f"Keep module_{n} where it is{said}", "verbatim", quote, {})],
            session=f"s-{n}",
            again=True,  # every session is new: nothing to skip
            now=began + timedelta(minutes=n),
        )


def gitmem(repo: Path, home: Path, *args: str) -> tuple[float, str]:
    env = {**os.environ, **GIT_ENV, "GITMEM_HOME": str(home)}
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "gitmem", "-C", str(repo), *args],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return time.perf_counter() - began, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="gitmem-bench-purge-"))
    floors, by_id, by_text = [], [], []
    try:
        home, original = root / "home", root / "original"
        git(root, "init", "-q", "-b", "main", str(original))
        (original / "README.md").write_text("bench\n")
        git(original, "add", "README.md")
        git(original, "commit", "-q", "-m", "init")
        init_identity(home, "bench@example.com", None)
        build(original, home, args.records)
        git(original, "gc", "-q")
        _, brief = gitmem(original, home, "brief", "--format", "json", "--budget", "0")
        wanted = f"Keep module_{args.records // 4} where it is"  # a quarter into the history
        target = next(i["id"] for i in json.loads(brief)["items"] if i["text"] == wanted)
        for n in range(args.runs):
            repo = root / f"run-{n}"
            shutil.copytree(original, repo)
            floors.append(gitmem(repo, home, "verify")[0])
            by_id.append(gitmem(repo, home, "purge", target[:12], "--yes")[0])
            by_text.append(gitmem(repo, home, "purge", "--text", SECRET, "--yes")[0])
            shutil.rmtree(repo)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    floor = statistics.median(floors)
    print(f"store: {args.records} checkpoints, median of {args.runs} runs")
    print(f"gitmem verify (floor)          {floor * 1000:8.1f} ms")
    for name, times in (("gitmem purge ID", by_id), ("gitmem purge --text", by_text)):
        median = statistics.median(times)
        print(f"{name:<30} {median * 1000:8.1f} ms  {median / floor:5.2f}× the floor")


if __name__ == "__main__":
    main()
