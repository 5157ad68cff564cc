"""Benchmark: where the first brief after a clone spends its time — the index's rebuild.

    python benchmarks/bench_rebuild.py [--checkpoints N] [--runs R]

Builds the store bench_scale.py builds (N checkpoints, default 1,000, packed), then
rebuilds its index in this process into a scratch file, round after round, three
ways interleaved so that machine noise hits all alike:

- **as shipped**: the record checks shared with a forked child, the collector paused;
- **one process**: no child (what one core gets);
- **collector on**: as shipped, but with Python's garbage collector left running, at the
  thresholds a ``gitmem`` command sets;
- **collector at defaults**: the same at Python's default thresholds.

For each it prints the median wall time, this process's CPU time, the child's, and the
time Python's collector spent (``gc.callbacks``), then the ratios of the other two to
"as shipped". The rebuild is the whole of what ``gitmem brief`` adds to its start-up when
``.git/gitmem/`` is missing (bench_scale.py times that command: "no local state").
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import bench_scale  # its Builder; importing it puts this tree's gitmem first on the path

from gitmem.cli import YOUNG_COLLECTION_THRESHOLD
from gitmem.lifecycle import index_build
from gitmem.lifecycle.index_file import connect, discard
from gitmem.store import parallel
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots

WAYS = ("as shipped", "one process", "collector on", "collector at defaults")
COMMAND_THRESHOLDS = (YOUNG_COLLECTION_THRESHOLD, *gc.get_threshold()[1:])
DEFAULT_THRESHOLDS = gc.get_threshold()


class Collections:
    """Time Python's collector spends while installed."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._began = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._began


@contextlib.contextmanager
def way(name: str) -> Iterator[None]:
    """The rebuild as *name* says, for the block."""
    saved = parallel.MIN_FORK, index_build.gc_paused
    if name == "one process":
        parallel.MIN_FORK = sys.maxsize
    if name.startswith("collector"):
        index_build.gc_paused = contextlib.nullcontext  # type: ignore[assignment]
    gc.set_threshold(*(DEFAULT_THRESHOLDS if name.endswith("defaults") else COMMAND_THRESHOLDS))
    try:
        yield
    finally:
        parallel.MIN_FORK, index_build.gc_paused = saved  # type: ignore[assignment]
        gc.set_threshold(*COMMAND_THRESHOLDS)


def cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def rebuild_once(rebuild: Callable[[], None]) -> tuple[float, float, float, float]:
    """(wall, this process's CPU, the child's CPU, collections) of one rebuild."""
    collections = Collections()
    gc.collect()
    gc.callbacks.append(collections)
    mine, theirs = cpu(resource.RUSAGE_SELF), cpu(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    try:
        rebuild()
    finally:
        gc.callbacks.remove(collections)
    wall = time.perf_counter() - began
    return (
        wall,
        cpu(resource.RUSAGE_SELF) - mine,
        cpu(resource.RUSAGE_CHILDREN) - theirs,
        collections.seconds,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--checkpoints", type=int, default=1000, metavar="N")
    parser.add_argument("--runs", type=int, default=7, metavar="R")
    args = parser.parse_args()
    gc.set_threshold(*COMMAND_THRESHOLDS)  # as a command
    root = Path(tempfile.mkdtemp(prefix="gitmem-bench-rebuild-"))
    print(f"building {args.checkpoints} checkpoints", file=sys.stderr)
    build = bench_scale.Builder(root)
    build.grow(args.checkpoints, lambda message: print(message, file=sys.stderr))
    build.pack()
    store = Store.discover(build.repo_dir)
    roots = load_trust_roots(build.home, store)
    path = root / "index.sqlite"

    def rebuild() -> None:
        discard(path)
        connection = connect(path)
        try:
            index_build.rebuild(connection, store, roots, "bench")
        finally:
            connection.close()

    figures: dict[str, list[tuple[float, float, float, float]]] = {w: [] for w in WAYS}
    for name in WAYS:  # warm the page cache and every code path once
        with way(name):
            rebuild_once(rebuild)
    for _ in range(args.runs):
        for name in WAYS:
            with way(name):
                figures[name].append(rebuild_once(rebuild))
    records = len(store.read().records)
    print(f"rebuild of {args.checkpoints} checkpoints ({records} records), medians of {args.runs}")
    print(f"{'':22} {'wall':>8} {'this CPU':>9} {'child CPU':>10} {'collector':>10}")
    medians = {}
    for name, rows in figures.items():
        medians[name] = [statistics.median(column) * 1000 for column in zip(*rows, strict=True)]
        print(f"{name:22} " + " ".join(f"{v:7.0f}ms" for v in medians[name]))
    shipped = medians["as shipped"][0]
    for name in WAYS[1:]:
        print(f"{name} / as shipped: {medians[name][0] / shipped:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
