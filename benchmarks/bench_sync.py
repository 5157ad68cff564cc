"""Benchmark: `gitmem sync` of N records between two clones through a bare remote.

    python benchmarks/bench_sync.py [--records 1000] [--runs 5]

Builds clone A with N signed checkpoints (each with its snapshot and receipt), then, for
each run, a fresh bare remote and a fresh clone B, and times, as a user runs them (a
fresh process each):

- `gitmem sync` in A: a push of all N records to the empty remote (the very first one
  also packs the N records' loose objects, which git then keeps packed);
- `gitmem sync` in B: fetch all N, check every record, receipt, snapshot and quote and
  the history before accepting any of it, create the local ref;
- an incremental round: A and B each capture one record; A syncs, then B syncs (fetch
  one record, check it, union-merge, push) — B's sync is timed.

Prints a table; nothing is kept.
"""

from __future__ import annotations

import argparse
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

GIT_ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(cwd), *args],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, **GIT_ENV},
    )
    return done.stdout


def add_records(repo: Path, home: Path, count: int, start: int) -> None:
    context = Context.open(Store.discover(repo), home)
    began = datetime(2026, 1, 1, tzinfo=UTC)
    for n in range(start, start + count):
        text = f"Session {n}. We decided to keep module_{n} in src/module_{n}.py for now.\n"
        quote = f"keep module_{n} in src/module_{n}.py for now"
        capture_transcript(
            context,
            parse_transcript(text.encode(), f"session-{n}.md"),
            None,
            source=f"bench s-{n}",
            drafts=[Draft("decision", f"Keep module_{n} where it is", "verbatim", quote, {})],
            session=f"s-{n}",
            again=True,  # every session is new: nothing to skip
            now=began + timedelta(minutes=n),
        )


def gitmem(repo: Path, home: Path, *args: str) -> float:
    env = {**os.environ, **GIT_ENV, "GITMEM_HOME": str(home)}
    began = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "gitmem", "-C", str(repo), *args],
        env=env,
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - began


def one_run(root: Path, a: Path, home: Path, n: int) -> tuple[float, float, float]:
    remote = root / f"remote-{n}.git"
    git(root, "init", "-q", "--bare", "-b", "main", str(remote))
    git(a, "remote", "set-url", "origin", str(remote))
    git(a, "push", "-q", "origin", "main")
    (a / ".git" / "gitmem" / "watermarks.json").unlink(missing_ok=True)
    push = gitmem(a, home, "sync")
    b = root / f"b-{n}"
    git(root, "clone", "-q", str(remote), str(b))
    fetch = gitmem(b, home, "sync")
    add_records(a, home, 1, 10_000 + 2 * n)
    add_records(b, home, 1, 10_001 + 2 * n)
    gitmem(a, home, "sync")
    incremental = gitmem(b, home, "sync")
    shutil.rmtree(b)
    return push, fetch, incremental


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5, help="at least 2")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="gitmem-bench-sync-"))
    try:
        home, a = root / "home", root / "a"
        git(root, "init", "-q", "-b", "main", str(a))
        (a / "README.md").write_text("bench\n")
        git(a, "add", "README.md")
        git(a, "commit", "-q", "-m", "init")
        git(a, "remote", "add", "origin", str(root / "none.git"))
        init_identity(home, "bench@example.com", None)
        began = time.perf_counter()
        add_records(a, home, args.records, 0)
        built = time.perf_counter() - began
        times = [one_run(root, a, home, n) for n in range(max(args.runs, 2))]
    finally:
        shutil.rmtree(root, ignore_errors=True)

    def ms(xs: list[float]) -> str:
        low, high = min(xs) * 1000, max(xs) * 1000
        return f"{statistics.median(xs) * 1000:8.1f} ms (min {low:.1f}, max {high:.1f})"

    print(f"store: {args.records} checkpoints with snapshots and receipts (built in {built:.1f} s)")
    print(f"gitmem sync, A's first push (loose objects)     {times[0][0] * 1000:8.1f} ms")
    print(f"gitmem sync, A pushes all {args.records} (packed)      {ms([t[0] for t in times[1:]])}")
    print(f"gitmem sync, B fetches + verifies + merges all  {ms([t[1] for t in times])}")
    print(f"gitmem sync, incremental union merge (1 + 1)    {ms([t[2] for t in times])}")


if __name__ == "__main__":
    main()
