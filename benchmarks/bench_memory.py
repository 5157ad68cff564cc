"""Benchmark: issue 29's memory figures, each measured in child processes of one run.

    python benchmarks/bench_memory.py [--megabytes 50] [--checkpoints 1000] [--runs 3]
                                      [--skip-capture] [--skip-log]

- **capture**: the peak memory (resident set, ``resource.getrusage`` of the child) of
  ``gitmem capture --transcript T`` with the default extractor, T a plain-text
  transcript of ``--megabytes`` MB (prose, code, decisions, TODOs and a few fake secrets,
  repeated with variations), against the floor ``python -c "import pygit2, nacl.signing,
  click"``. Target: at most 400 MB at 50 MB.
- **log**: ``gitmem log --json`` at ``--checkpoints`` checkpoints (a store built through
  the library's capture path, benchmarks/bench_scale.py's builder), its median wall time
  against the floor measured in the same rounds (each timed on its own), and its peak
  memory (in a run of its own). Target: at most
  3× the floor at 1,000.

Prints one line per figure and the commands; exits non-zero only on an error. Nothing
is kept.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

FLOOR = [sys.executable, "-c", "import pygit2, nacl.signing, click"]
GITMEM = [sys.executable, "-m", "gitmem"]
_MEASURE = (
    "import resource, subprocess, sys\n"
    "done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)\n"
    "sys.stderr.buffer.write(done.stderr[-2000:])\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, done.returncode)\n"
)
LINES = (
    "We decided to keep the parser in src/parser_{n}.py because the old one leaked memory.",
    "TODO: benchmark module {n} against the corpus before the release.",
    "I am not sure whether cache {n} survives a restart; we should check it.",
    "    def handle_{n}(self, event: Event) -> None:  # called once per message",
    "The build on branch feature-{n} failed twice; the flaky test is test_sync_{n}.",
    "export DB_PASSWORD=sw0rdf1sh{n}x and never commit it",
    "Ran `pytest -q tests/test_{n}.py`: 42 passed, 1 skipped in 3.1 s.",
    "Let's not ship the migration {n} until the backup is verified.",
)


def transcript(path: Path, megabytes: int) -> Path:
    """A plain-text transcript of about *megabytes* MB: turns of one to six lines, each
    opened by its speaker, a blank line between turns."""
    rng = random.Random(29)
    target = megabytes * 1_000_000
    with path.open("w", encoding="utf-8") as out:
        written = n = 0
        while written < target:
            speaker = rng.choice(("User", "Assistant"))
            lines = [rng.choice(LINES).format(n=n + i) for i in range(rng.randrange(1, 7))]
            turn = f"{speaker}: " + "\n".join(lines) + "\n\n"
            out.write(turn)
            written += len(turn)
            n += len(lines)
    return path


def peak(command: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, float]:
    """The peak resident memory of *command* (in MB) and its wall time."""
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, *command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
    )
    elapsed = time.perf_counter() - began
    kilobytes, code = done.stdout.split()
    if code != "0":
        raise RuntimeError(f"{' '.join(command)} exited {code}: {done.stderr}")
    return int(kilobytes) // 1024, elapsed


def new_repo(root: Path, env: dict[str, str]) -> Path:
    repo = root / "repo"
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True, env=env)
    subprocess.run(
        ["git", "-C", str(repo), "commit", "-q", "--allow-empty", "-m", "i"], check=True, env=env
    )
    subprocess.run([*GITMEM, "-C", str(repo), "init"], check=True, env=env, capture_output=True)
    return repo


def capture_figure(root: Path, env: dict[str, str], megabytes: int) -> None:
    repo = new_repo(root / "capture", env)
    path = transcript(root / "big.md", megabytes)
    size = path.stat().st_size / 1e6
    floor, _ = peak(FLOOR, repo, env)
    command = [*GITMEM, "-C", str(repo), "capture", "--transcript", str(path)]
    used, seconds = peak(command, repo, env)
    print(
        f"capture of a {size:.0f} MB plain-text transcript: peak {used} MB "
        f"(floor {floor} MB; target <= 400 MB), {seconds:.1f} s"
    )
    print(f"  command: gitmem capture --transcript <{size:.0f} MB>   (peak RSS of the child)")


def log_figure(root: Path, env: dict[str, str], checkpoints: int, runs: int) -> None:
    from bench_scale import Builder

    builder = Builder(root / "log")
    builder.grow(checkpoints, lambda line: print(f"  … {line}", file=sys.stderr))
    builder.pack()
    repo = builder.repo_dir
    log_env = {**env, "GITMEM_HOME": str(builder.home)}
    command = [*GITMEM, "-C", str(repo), "log", "--json"]
    subprocess.run(command, env=log_env, check=True, capture_output=True)  # a warm index
    floors, logs, peaks = [], [], []
    for _ in range(runs):
        began = time.perf_counter()
        subprocess.run(FLOOR, env=log_env, check=True)
        floors.append(time.perf_counter() - began)
        # Timed as the floor is, on its own: the process measuring the peak is one more
        # interpreter to start.
        began = time.perf_counter()
        subprocess.run(command, cwd=repo, env=log_env, check=True, stdout=subprocess.DEVNULL)
        logs.append(time.perf_counter() - began)
        peaks.append(peak(command, repo, log_env)[0])
    floor, log = statistics.median(floors), statistics.median(logs)
    print(
        f"log --json at {checkpoints} checkpoints: {log:.2f} s = {log / floor:.1f}x the floor "
        f"({floor:.2f} s; target <= 3x), peak {max(peaks)} MB"
    )
    print("  command: gitmem log --json   (median of the rounds, floor in the same rounds)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=50)
    parser.add_argument("--checkpoints", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--skip-capture", action="store_true")
    parser.add_argument("--skip-log", action="store_true")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="gitmem-memory-"))
    env = {
        **os.environ,
        "HOME": str(root / "no-home"),
        "GITMEM_HOME": str(root / "home"),
        "GIT_CONFIG_GLOBAL": str(root / "no-gitconfig"),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "bench",
        "GIT_AUTHOR_EMAIL": "bench@example.com",
        "GIT_COMMITTER_NAME": "bench",
        "GIT_COMMITTER_EMAIL": "bench@example.com",
        "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]),
    }
    try:
        if not args.skip_capture:
            capture_figure(root, env, args.megabytes)
        if not args.skip_log:
            log_figure(root, env, args.checkpoints, args.runs)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
