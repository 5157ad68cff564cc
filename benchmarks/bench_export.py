"""Benchmark: `gitmem export --all` of 10,000 items (issue 32: ≤ 10 s here), as a ratio to
the floor measured in the same run.

    python benchmarks/bench_export.py [--items 10000] [--runs 3] [--import]

Builds one scratch store through the library's capture path, the shape
benchmarks/bench_scale.py builds (each session: a decision with a checkable file claim,
an open TODO and an uncertainty said verbatim, two inferred items; open items carried, up
to 50 a checkpoint; ageing and supersessions written), packs it, brings the read model
up to date with one untimed `gitmem brief`, then times in fresh processes, interleaved
round after round:

- floor: ``python -c "import pygit2, nacl.signing, click"``;
- ``gitmem export --all -o FILE``: every item verified as the brief verifies it (receipt,
  bytes, quote against its snapshot, world-check within its budget), its bytes read, its
  statement built and signed over DSSE's PAE;
- with ``--import``, ``gitmem import --format intoto FILE`` into a fresh clone (every
  envelope, digest and inner receipt checked, one append).

Prints a table (figure, wall seconds, ratio to the floor, CPU seconds of the process,
target) and the bundle's size; the target is judged on the wall time, and the CPU time
says how much of it was the machine's other work (two shared cores: a wall time well
above the CPU time was spent waiting). Exits non-zero only on an error, never on a
missed target. Nothing is kept.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_scale import FLOOR, Builder, gitmem

EXPORT_LIMIT_SECONDS = 10.0
ITEMS_PER_SESSION = 5


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--items", type=int, default=10_000, help="items to export")
    parser.add_argument("--runs", type=int, default=3, help="timed rounds")
    parser.add_argument(
        "--import", dest="with_import", action="store_true", help="also time the import"
    )
    args = parser.parse_args()

    def say(message: str) -> None:
        print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)

    root = Path(tempfile.mkdtemp(prefix="gitmem-bench-export-"))
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str(root / "pycache")  # as an installed Python keeps
    os.environ["GITMEM_HOME"] = str(root / "home")
    try:
        return measure(root, args.items, args.runs, args.with_import, say)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def measure(root: Path, items: int, runs: int, with_import: bool, say) -> int:  # type: ignore[no-untyped-def]
    builder = Builder(root)
    sessions = -(-items // ITEMS_PER_SESSION)
    say(f"building {sessions} checkpoints ({sessions * ITEMS_PER_SESSION} items)")
    builder.grow(sessions, say)
    builder.pack()
    repo = builder.repo_dir
    env = {**os.environ, "GITMEM_HOME": str(builder.home)}
    subprocess.run(gitmem(repo, "brief"), env=env, check=True, capture_output=True)
    bundle = root / "memory.intoto.jsonl"
    times: dict[str, list[tuple[float, float]]] = {"floor": [], "export": [], "import": []}
    for round_ in range(runs):
        say(f"round {round_ + 1} of {runs}")
        times["floor"].append(timed(FLOOR, repo, env))
        export = gitmem(repo, "export", "--all", "-o", str(bundle))
        times["export"].append(timed(export, repo, env))
        if with_import:
            clone = root / f"clone-{round_}"
            subprocess.run(["git", "clone", "-q", str(repo), str(clone)], check=True)
            command = gitmem(clone, "import", "--format", "intoto", str(bundle))
            times["import"].append(timed(command, clone, env))
            shutil.rmtree(clone)
    lines = bundle.read_bytes().count(b"\n")
    if lines != sessions * ITEMS_PER_SESSION:
        raise RuntimeError(
            f"the bundle holds {lines} envelopes, not {sessions * ITEMS_PER_SESSION}"
        )
    floor = statistics.median(wall for wall, _ in times["floor"])
    print(f"{'figure':40} {'seconds':>8} {'× floor':>8} {'CPU s':>7} {'target':>9}  result")
    print(f"{'floor (import pygit2, nacl, click)':40} {floor:8.3f} {1:8.2f}")
    for name, label in (
        ("export", f"export --all, {lines:,} items"),
        ("import", "import --format intoto, fresh clone"),
    ):
        if not times[name]:
            continue
        wall = statistics.median(w for w, _ in times[name])
        cpu = statistics.median(c for _, c in times[name])
        target, verdict = "", ""
        if name == "export":
            target = f"≤ {EXPORT_LIMIT_SECONDS:.0f} s"
            verdict = "pass" if wall <= EXPORT_LIMIT_SECONDS else "MISSED"
        print(f"{label:40} {wall:8.2f} {wall / floor:8.1f} {cpu:7.2f} {target:>9}  {verdict}")
    size = bundle.stat().st_size
    print(f"bundle: {size / 1e6:.1f} MB, {size / lines / 1e3:.1f} KB an item")
    return 0


def timed(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds: user and system) of *command* run to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, check=False)
    elapsed = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(
            f"{' '.join(command)} exited {done.returncode}: {done.stderr.decode()[-2000:]}"
        )
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return elapsed, cpu


if __name__ == "__main__":
    sys.exit(main())
