"""Benchmark: brief on a store of N checkpoints, every receipt verified; Ed25519 rate.

    python benchmarks/bench_brief.py [--checkpoints 1000] [--runs 7]

Builds a scratch repository with N signed checkpoints (5 items each, 3 verbatim), then
times `gitmem brief` (and `gitmem verify`) end to end as a user runs it (a fresh
process: interpreter start, imports, reading the ref, verifying all N receipts,
rendering), the same work in-process, and SSHSIG verifications per second. Prints a
table; nothing is kept.
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
from pathlib import Path

from bench_scale import Builder  # its store builder; it puts this tree's gitmem first

from gitmem.brief.emit import make_brief
from gitmem.brief.render import render_text
from gitmem.core.receipts import sign, verify
from gitmem.core.records import NAMESPACE
from gitmem.store.repo import Store


def build_store(root: Path, checkpoints: int) -> tuple[Path, Path, float]:
    """N captures through the real write path (bench_scale's ``Builder``): quotes verified,
    open items carried (up to the carry limit), corroborations and ageing decided, all
    signed; with the seconds each took."""
    builder = Builder(root)
    builder.grow(checkpoints, lambda _: None)
    return builder.repo_dir, builder.home, builder.seconds / checkpoints


def time_cli(repo_dir: Path, home: Path, runs: int, *args: str) -> list[float]:
    env = {**os.environ, "GITMEM_HOME": str(home)}
    command = [sys.executable, "-m", "gitmem", "-C", str(repo_dir), *args]
    subprocess.run(command, env=env, check=True, capture_output=True)  # warm the page cache
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        subprocess.run(command, env=env, check=True, capture_output=True)
        times.append(time.perf_counter() - began)
    return times


def time_in_process(repo_dir: Path, home: Path, runs: int) -> tuple[list[float], int]:
    times, verified = [], 0
    for _ in range(runs):
        began = time.perf_counter()
        brief = make_brief(Store.discover(repo_dir), home)
        render_text(brief)
        times.append(time.perf_counter() - began)
        verified = brief.verified
    return times, verified


def verifications_per_second(seconds: float = 1.0) -> float:
    from gitmem.core.receipts import Ed25519Signer

    signer = Ed25519Signer(bytes(32))
    message = b"x" * 2048  # about the size of a checkpoint record
    receipt = sign(message, signer, NAMESPACE)
    count, began = 0, time.perf_counter()
    while time.perf_counter() - began < seconds:
        verify(message, receipt, NAMESPACE)
        count += 1
    return count / (time.perf_counter() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoints", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="gitmem-bench-"))
    try:
        repo_dir, home, per_capture = build_store(root, args.checkpoints)
        records = len(Store.discover(repo_dir).read().records)
        cli_text = time_cli(repo_dir, home, args.runs, "brief")
        cli_json = time_cli(repo_dir, home, args.runs, "brief", "--format", "json")
        cli_verify = time_cli(repo_dir, home, 3, "verify")
        inproc, verified = time_in_process(repo_dir, home, args.runs)
        rate = verifications_per_second()
    finally:
        shutil.rmtree(root, ignore_errors=True)
    ms = lambda xs: f"{statistics.median(xs) * 1000:7.1f} ms (min {min(xs) * 1000:.1f})"  # noqa: E731
    print(
        f"store: {args.checkpoints} checkpoints ({args.checkpoints * 5} items captured, open "
        f"ones carried forward, up to 50 a checkpoint), {records} records in all, every "
        f"one verified on every brief ({verified} checkpoints verified)"
    )
    print(f"capture (in-process, per checkpoint)  {per_capture * 1000:7.1f} ms")
    print(f"gitmem brief (process, text)          {ms(cli_text)}")
    print(f"gitmem brief (process, json)          {ms(cli_json)}")
    print(f"brief in-process (read+verify+render) {ms(inproc)}")
    print(f"gitmem verify (process, whole store)  {ms(cli_verify)}")
    print(f"SSHSIG Ed25519 verify, 2 KB record    {rate:7.0f} /s")


if __name__ == "__main__":
    main()
