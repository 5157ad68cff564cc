"""Issue 31's figures for benchmarks/bench_scale.py: a team-year of memory.

A store of N checkpoints (10,000 with ``--big``, 50,000 with ``--huge``) is built as a
user builds one: ``gitmem import`` of N small Claude Code sessions (each with a
decision naming a file, an open TODO and an uncertainty, a few minutes apart), in
slices of a tenth, each a real process; the first 100 are copied aside for the small
pair. Each store is pushed to a bare remote and cloned (memory fetched into
``refs/gitmem/*`` as ``git fetch origin 'refs/gitmem/*:refs/gitmem/*'`` does), and the
clone is measured, every command a fresh ``gitmem`` process timed with its peak memory
(the largest resident set of the process and the children it waited for, from
``wait4``), each round beside the floor ``python -c "import pygit2, nacl.signing,
click"``:

- import: sessions a second end to end, and the last slice's rate against the first's;
- the first brief after a clone (``.git/gitmem/`` removed before each), its peak memory,
  and how long until the index is whole again (what it leaves to finish);
- the index built whole on demand after a clone (``gitmem recall``), its peak memory;
- the warm brief;
- ``gitmem sync`` of one new checkpoint a teammate pushed, at N against the same at 100;
- ``gitmem verify``, its peak memory, and ``gitmem verify --since`` the tip before it;
- ``gitmem hook pre-push`` with nothing to push, against ``python -c "import pygit2"``.

With ``--build library`` the store is grown through the library's capture path instead
(bench_scale's builder: the bytes ``gitmem capture`` writes, without a process each), and
the import is timed on ``--import-sample`` sessions into an empty store: how a code whose
import cost grows with the store is measured at all.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench_sync import git

FLOOR = [sys.executable, "-c", "import pygit2, nacl.signing, click"]
PYGIT2 = [sys.executable, "-c", "import pygit2"]
SMALL = 100
SPACING = timedelta(minutes=10)
"""Session time between two sessions: 10,000 span ten weeks, 50,000 a year."""


@dataclass(frozen=True)
class Row:
    figure: str
    value: float
    unit: str
    limit: float | None

    def line(self) -> str:
        verdict = "-" if self.limit is None else ("pass" if self.value <= self.limit else "FAIL")
        if self.unit == " /s":  # a rate: the more the better
            verdict = (
                "-" if self.limit is None else ("pass" if self.value >= self.limit else "FAIL")
            )
            target = "" if self.limit is None else f">= {self.limit:g}{self.unit}"
        else:
            target = "" if self.limit is None else f"<= {self.limit:g}{self.unit}"
        value = f"{self.value:.2f}{self.unit}" if self.unit != " B" else f"{self.value:.0f} B"
        return f"{self.figure:58} {value:>10} {target:>12}  {verdict}"


def session_jsonl(n: int, when: datetime) -> str:
    """Session *n*, said at *when*: a Claude Code transcript of three exchanges."""
    said = [
        ("user", f"Session {n}: where should module_{n} live?"),
        ("assistant", f"We decided to keep module_{n} in src/module_{n}.py for now."),
        ("user", "What is left before the release?"),
        ("assistant", f"TODO: benchmark the parser on corpus {n} before the release."),
        ("user", "And the cache?"),
        ("assistant", f"I am not sure whether cache {n} survives a restart."),
    ]
    lines = []
    for k, (role, text) in enumerate(said):
        stamp = (when + timedelta(seconds=20 * k)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        content: object = text if role == "user" else [{"type": "text", "text": text}]
        lines.append(
            {
                "type": role,
                "sessionId": f"bench-{n}",
                "cwd": "/work/project",
                "uuid": f"{n}-{k}",
                "timestamp": stamp,
                "message": {"role": role, "content": content},
            }
        )
    return "".join(json.dumps(line) + "\n" for line in lines)


def write_sessions(folder: Path, numbers: range, base: datetime) -> None:
    """Session files for *numbers* under *folder*, each modified when it was said (the
    order ``gitmem import`` takes them in)."""
    folder.mkdir(parents=True)
    for n in numbers:
        when = base + SPACING * n
        path = folder / f"session-{n:06d}.jsonl"
        path.write_text(session_jsonl(n, when))
        stamp = when.timestamp() + 120
        os.utime(path, (stamp, stamp))


TIME = shutil.which("time", path="/usr/bin:/bin") or ""
"""GNU time, which reports the peak memory of the command it runs. A process forked from
this one (large, after a build in-process) would count this one's pages as its own, so
``wait4`` alone overstates every command's peak; GNU time is small when it forks."""


class Runner:
    """Named wall times (s) and peak memories (bytes) of fresh processes."""

    def __init__(self) -> None:
        self.times: dict[str, list[float]] = {}
        self.peaks: dict[str, list[int]] = {}

    def run(
        self,
        name: str | None,
        command: list[str],
        cwd: Path,
        env: dict[str, str],
        stdin: str = "",
    ) -> str:
        """Run *command* to its end and record it under *name* (None: not recorded); its
        stdout. Raises RuntimeError when it fails."""
        import tempfile

        with (
            tempfile.TemporaryFile() as out,
            tempfile.TemporaryFile() as err,
            tempfile.NamedTemporaryFile() as peak,
        ):
            timed = [TIME, "-q", "-f", "%M", "-o", peak.name, *command] if TIME else command
            began = time.perf_counter()
            process = subprocess.Popen(
                timed, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=out, stderr=err
            )
            assert process.stdin is not None
            process.stdin.write(stdin.encode())
            process.stdin.close()
            _, status, usage = os.wait4(process.pid, 0)
            elapsed = time.perf_counter() - began
            process.returncode = code = os.waitstatus_to_exitcode(status)
            out.seek(0)
            err.seek(0)
            text, error = out.read().decode(errors="replace"), err.read().decode(errors="replace")
            kilobytes = usage.ru_maxrss
            if TIME:
                written = Path(peak.name).read_text().split()
                kilobytes = int(written[-1]) if written and written[-1].isdigit() else 0
        if code != 0:
            shown = " ".join(map(str, command))
            raise RuntimeError(f"{shown} exited {code}: {error[-2000:]}")
        if name is not None:
            self.times.setdefault(name, []).append(elapsed)
            self.peaks.setdefault(name, []).append(kilobytes * 1024)
        return text

    def median(self, name: str) -> float:
        return statistics.median(self.times[name])

    def peak(self, name: str) -> float:
        """The largest peak of every run of *name*, in MB."""
        return max(self.peaks.get(name, [0])) / 1e6


def gitmem(repo: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "gitmem", "-C", str(repo), *args]


def index_tip(repo: Path) -> str | None:
    """The commit the index file of *repo* was last brought up to (None: no index, or
    none SQLite can read)."""
    import contextlib
    import sqlite3

    path = repo / ".git" / "gitmem" / "memory.sqlite"
    if not path.is_file():
        return None
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'tip'").fetchone()
    except sqlite3.Error:
        return None
    return None if row is None else str(row[0])


def wait_whole(repo: Path, limit: float = 3600.0) -> float:
    """Wait until the index of *repo* is whole at its memory ref's tip and no build
    holds its lock (the detached build a first brief starts has ended); seconds waited.
    Waiting for the lock alone returned before a detached build had started on a loaded
    machine, and the next timed command then shared the cores with it. The index is
    read only under its writers' lock: a reader beside a build slows it (each change of
    its journal mode waits for readers to let go)."""
    import fcntl

    tip = git(repo, "rev-parse", "refs/gitmem/memory").strip()
    lock = repo / ".git" / "gitmem" / "memory.lock"
    began = time.perf_counter()
    while time.perf_counter() - began < limit:
        time.sleep(0.1)
        if not lock.exists():
            continue
        with open(lock, "a") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue  # a build runs
            try:
                if index_tip(repo) == tip:
                    break
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)
    return time.perf_counter() - began


@dataclass
class Pair:
    """A writer's repository, its bare remote, and a teammate's clone of it."""

    writer: Path
    remote: Path
    clone: Path


def share(writer: Path, root: Path, name: str, env: dict[str, str], t: Runner) -> Pair:
    """Push *writer*'s branch and memory to a new bare remote and clone it, memory
    fetched into ``refs/gitmem/*``; one sync on each side sets its watermarks."""
    remote = root / f"{name}.git"
    git(root, "init", "-q", "--bare", str(remote))
    git(writer, "remote", "add", "origin", str(remote))
    git(writer, "push", "-q", "origin", "HEAD:refs/heads/main", "refs/gitmem/*:refs/gitmem/*")
    clone = root / f"{name}-clone"
    git(root, "clone", "-q", "-b", "main", str(remote), str(clone))
    git(clone, "fetch", "-q", "origin", "+refs/gitmem/*:refs/gitmem/*")
    t.run(None, gitmem(writer, "sync"), writer, env)
    t.run(None, gitmem(clone, "sync"), clone, env)
    return Pair(writer, remote, clone)


def import_store(
    repo: Path,
    sessions: Path,
    size: int,
    env: dict[str, str],
    t: Runner,
    say: Callable[[str], None],
) -> tuple[list[tuple[int, float]], Path]:
    """Build *repo* by ``gitmem import`` of *size* sessions in slices (the first
    :data:`SMALL`, then tenths); (sessions, seconds) of each slice, and a copy of the
    repository at :data:`SMALL`."""
    base = datetime.now(UTC).replace(microsecond=0) - SPACING * (size + 6)
    bounds = [0, SMALL, *range(SMALL + (size - SMALL) // 10, size, (size - SMALL) // 10)]
    bounds = sorted({*bounds, size})
    slices: list[tuple[int, float]] = []
    small = repo.parent / f"{repo.name}-{SMALL}"
    for start, end in itertools.pairwise(bounds):
        folder = sessions / f"{start:06d}"
        write_sessions(folder, range(start, end), base)
        t.run("import", gitmem(repo, "import", str(folder)), repo, env)
        slices.append((end - start, t.times["import"][-1]))
        say(f"imported {end} sessions ({(end - start) / slices[-1][1]:.1f} a second lately)")
        shutil.rmtree(folder)
        if end == SMALL:
            shutil.copytree(repo, small, symlinks=True)
    return slices, small


def sample_import(
    root: Path, count: int, env: dict[str, str], t: Runner, say: Callable[[str], None]
) -> list[tuple[int, float]]:
    """``gitmem import`` of *count* sessions into an empty store, in five slices."""
    repo = root / "import-sample"
    git(root, "init", "-q", str(repo))
    slices = []
    step = max(1, count // 5)
    base = datetime.now(UTC).replace(microsecond=0) - SPACING * (count + 6)
    for start in range(0, count, step):
        folder = root / f"sample-{start}"
        write_sessions(folder, range(start, min(start + step, count)), base)
        t.run("import", gitmem(repo, "import", str(folder)), repo, env)
        slices.append((min(step, count - start), t.times["import"][-1]))
        say(f"sample: imported {start + slices[-1][0]} sessions")
        shutil.rmtree(folder)
    return slices


def new_session(folder: Path, n: int) -> Path:
    path = folder / f"teammate-{n}.jsonl"
    path.write_text(session_jsonl(n, datetime.now(UTC) - timedelta(seconds=150)))
    return path


def measure(
    root: Path,
    size: int,
    writer: Path,
    small: Path,
    env: dict[str, str],
    t: Runner,
    runs: int,
    few: int,
    say: Callable[[str], None],
) -> None:
    """Every timed figure of the clone of *writer* (and of *small*, for sync)."""
    big_pair = share(writer, root, "big", env, t)
    small_pair = share(small, root, "small", env, t)
    clone = big_pair.clone
    scratch = root / "teammate"
    scratch.mkdir()
    say(f"{few} syncs of one new checkpoint at {SMALL} and at {size}")
    for pair in (small_pair, big_pair):  # bring both indexes up before timing
        t.run(None, gitmem(pair.clone, "brief"), pair.clone, env)
        # a large clone's first brief reads the head and leaves the index to a detached
        # build: timed while it runs, a sync shares the cores with it and the brief after
        # the sync reads the head again (what the first brief after a clone measures)
        wait_whole(pair.clone)
    for k in range(few):
        for label, pair in ((f"sync@{SMALL}", small_pair), (f"sync@{size}", big_pair)):
            session = new_session(scratch, 900_000 + 2 * k + (label == f"sync@{size}"))
            t.run(
                None, gitmem(pair.writer, "capture", "--transcript", str(session)), pair.writer, env
            )
            t.run(None, gitmem(pair.writer, "sync"), pair.writer, env)
            t.run(label, gitmem(pair.clone, "sync"), pair.clone, env)
            t.run(f"brief after {label}", gitmem(pair.clone, "brief"), pair.clone, env)
        t.run("floor", FLOOR, root, env)
    say(f"{runs} warm briefs at {size}")
    for _ in range(runs):
        t.run(f"brief@{size}", gitmem(clone, "brief"), clone, env)
        t.run("floor", FLOOR, root, env)
    say(f"{few} first briefs after a clone at {size}")
    for _ in range(few):
        shutil.rmtree(clone / ".git" / "gitmem", ignore_errors=True)
        began = time.perf_counter()
        t.run("cold", gitmem(clone, "brief"), clone, env)
        wait_whole(clone)
        t.times.setdefault("whole", []).append(time.perf_counter() - began)
        t.run("floor", FLOOR, root, env)
    say(f"the index built on demand after a clone at {size}")
    for _ in range(max(1, few // 2)):
        shutil.rmtree(clone / ".git" / "gitmem", ignore_errors=True)
        t.run("on demand", gitmem(clone, "recall", "parser"), clone, env)
        t.run("floor", FLOOR, root, env)
    say(f"verify at {size}")
    tip = git(clone, "rev-parse", "refs/gitmem/memory").strip()
    since = git(clone, "rev-parse", "refs/gitmem/memory~1").strip()
    has_since = "--since" in t.run(None, gitmem(clone, "verify", "--help"), clone, env)
    for _ in range(few):  # a median of two moved by a quarter between runs of the benchmark
        t.run("verify", gitmem(clone, "verify"), clone, env)
        t.run("floor", FLOOR, root, env)
        if has_since:
            t.run("verify --since", gitmem(clone, "verify", "--since", since), clone, env)
    assert tip
    say("pre-push with nothing to push")
    hook = gitmem(clone, "hook", "pre-push", "origin", str(big_pair.remote))
    t.run(None, hook, clone, env)
    for _ in range(runs):
        t.run("pre-push", hook, clone, env)
        t.run("import pygit2", PYGIT2, root, env)


def rows(t: Runner, size: int, slices: list[tuple[int, float]], sampled: bool) -> list[Row]:
    floor = t.median("floor")
    sessions = sum(n for n, _ in slices)
    seconds = sum(s for _, s in slices)
    first, last = slices[1] if len(slices) > 2 else slices[0], slices[-1]
    what = f"import of {sessions} sessions" + (" (sample, empty store)" if sampled else "")
    out = [
        Row("floor: python -c 'import pygit2, nacl.signing, click'", floor, " s", None),
        Row(f"{what}, sessions a second", sessions / seconds, " /s", 20.0),
        Row(
            "  last slice's cost a session / first's",
            (last[1] / last[0]) / (first[1] / first[0]),
            "x",
            None,
        ),
        Row("  import peak memory", t.peak("import"), " MB", None),
        Row(f"first brief after a clone @{size} / floor", t.median("cold") / floor, "x", 10.0),
        Row(f"  its peak memory @{size}", t.peak("cold"), " MB", 250.0),
        Row(f"  index whole again after it (s) @{size}", t.median("whole"), " s", None),
        Row(
            f"index built on demand after a clone @{size} / floor",
            t.median("on demand") / floor,
            "x",
            None,
        ),
        Row(f"  its peak memory @{size}", t.peak("on demand"), " MB", 250.0),
        Row(f"brief@{size} warm / floor", t.median(f"brief@{size}") / floor, "x", 2.0),
        Row(
            f"sync of one new checkpoint @{size} / @{SMALL}",
            t.median(f"sync@{size}") / t.median(f"sync@{SMALL}"),
            "x",
            1.5,
        ),
        Row(f"  sync@{SMALL} / floor", t.median(f"sync@{SMALL}") / floor, "x", None),
        Row(
            f"  brief after it @{size} / @{SMALL}",
            t.median(f"brief after sync@{size}") / t.median(f"brief after sync@{SMALL}"),
            "x",
            None,
        ),
        Row(f"verify@{size} / floor", t.median("verify") / floor, "x", 30.0),
        Row(f"  its peak memory @{size}", t.peak("verify"), " MB", None),
    ]
    if "verify --since" in t.times:
        out.append(
            Row(
                "  verify --since the tip's parent / floor",
                t.median("verify --since") / floor,
                "x",
                None,
            )
        )
    out.append(
        Row(
            f"pre-push, nothing to push @{size} / import pygit2",
            t.median("pre-push") / t.median("import pygit2"),
            "x",
            1.2,
        )
    )
    return out
