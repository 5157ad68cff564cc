"""Benchmark: `gitmem recall` over a memory of N items (default 10,000).

    python benchmarks/bench_recall.py [--items 10000] [--per-checkpoint 20] [--runs 7]

Builds a scratch repository whose memory holds N distinct items, written through the
real capture path (signed checkpoints, quotes verified, open items carried, ageing
decided), then times recall three ways, in-process and as a user runs it (a fresh
`python -m gitmem` process):

- cold: no index and no verification cache yet (a fresh clone's first query);
- after a ref move: one more capture moved `refs/gitmem/memory`, so the first query
  rebuilds the index (records verified through the local cache);
- warm: the index matches the tip and is only queried.

Prints a table; nothing is kept.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pygit2

from gitmem.agents.recall import recall
from gitmem.capture.run import Context, capture_transcript
from gitmem.capture.transcripts import parse_transcript
from gitmem.core.items import Draft
from gitmem.lifecycle.index import INDEX_FILE
from gitmem.store.keys import init_identity
from gitmem.store.repo import Store

_WORD_TEXT = """
    parser cache index branch deploy review timeout retry socket schema quote receipt
    signature ledger snapshot budget carry restate corroborate merge rebase hook agent
    session transcript extractor model prompt backend server client token secret mask
    release backup restore mirror remote fetch push commit tree blob ref watermark policy
"""
WORDS = tuple(_WORD_TEXT.split())
QUERY = ["parser", "timeout"]
KINDS = ("decision", "open_loop", "belief", "uncertainty", "fact")


def build_store(root: Path, items: int, per_checkpoint: int) -> tuple[Context, Path, float]:
    repo_dir, home = root / "repo", root / "home"
    repo = pygit2.init_repository(str(repo_dir))
    who = pygit2.Signature("bench", "bench@example.com")
    repo.create_commit("HEAD", who, who, "init", repo.TreeBuilder().write(), [])
    init_identity(home, "bench@example.com", None)
    context = Context.open(Store(repo), home)
    rng = random.Random(7)
    began = time.perf_counter()
    for n in range(items // per_checkpoint):
        capture(context, n, per_checkpoint, rng)
    return context, home, time.perf_counter() - began


def capture(context: Context, n: int, count: int, rng: random.Random) -> None:
    """One checkpoint of *count* new items (every third one verbatim, quoted)."""
    lines, drafts = [], []
    for k in range(count):
        words = " ".join(rng.sample(WORDS, 4))
        sentence = f"item {n}-{k}: we settle {words} for step {n * count + k}"
        lines.append(sentence)
        verbatim = k % 3 == 0
        drafts.append(
            Draft(
                KINDS[k % len(KINDS)],
                f"Step {n * count + k} settles {words}",
                "verbatim" if verbatim else "inferred",
                sentence if verbatim else None,
                {},
            )
        )
    transcript = parse_transcript("\n".join(lines).encode(), f"session-{n}.md")
    when = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=n)
    capture_transcript(
        context,
        transcript,
        None,
        source=f"bench s-{n}",
        drafts=drafts,
        session=f"s-{n}",
        again=True,  # every session is new: nothing to skip
        now=when,
    )


def timed(action: Callable[[], object], before: Callable[[], object], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        before()
        began = time.perf_counter()
        action()
        times.append(time.perf_counter() - began)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--per-checkpoint", type=int, default=20)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="gitmem-bench-recall-"))
    try:
        context, home, build_seconds = build_store(root, args.items, args.per_checkpoint)
        store = context.store
        rng = random.Random(11)
        local = store.local_dir
        extra = iter(range(10**6, 10**7))
        env = {**os.environ, "GITMEM_HOME": str(home)}
        command = [sys.executable, "-m", "gitmem", "-C", str(store.repo.workdir), "recall", *QUERY]

        def forget_everything() -> None:
            for suffix in ("", "-wal", "-shm"):
                (local / f"{INDEX_FILE}{suffix}").unlink(missing_ok=True)

        def move_ref() -> None:
            capture(context, next(extra), 1, rng)

        def in_process() -> object:
            return recall(store, home, QUERY)

        def cli() -> object:
            return subprocess.run(command, env=env, check=True, capture_output=True)

        first = in_process()
        indexed = getattr(first, "index").items  # noqa: B009 - a plain attribute read
        rows = [
            (
                "cold (no index, no cache)",
                timed(in_process, forget_everything, 3),
                timed(cli, forget_everything, 3),
            ),
            (
                "first query after a ref move",
                timed(in_process, move_ref, args.runs),
                timed(cli, move_ref, args.runs),
            ),
            (
                "warm query",
                timed(in_process, lambda: None, args.runs),
                timed(cli, lambda: None, args.runs),
            ),
        ]
        records = len(store.read().records)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(
        f"recall over {indexed} indexed items ({records} signed records; "
        f"built in {build_seconds:.1f} s), query {' '.join(QUERY)!r}"
    )
    print(f"{'':32} {'in-process (median, min)':>26} {'gitmem recall CLI (median, min)':>34}")
    for label, inproc, by_cli in rows:
        print(f"{label:32} {_ms(inproc):>26} {_ms(by_cli):>34}")


def _ms(times: list[float]) -> str:
    return f"{statistics.median(times) * 1000:7.1f} ms ({min(times) * 1000:.1f})"


if __name__ == "__main__":
    main()
