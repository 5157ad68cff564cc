"""Stress: kills mid-operation, concurrent writers, fuzzed input and planted secrets.

    python benchmarks/stress.py [--quick] [--seed 12]

Not part of CI (a full run takes a few minutes; ``--quick`` well under one). Every
repository, remote and home is a fresh temp folder; nothing is kept. Four runs:

1. **Kills.** SIGKILL at a random moment of a ``gitmem capture`` (a long transcript),
   of a ``gitmem sync`` (two clones, one bare remote), and of the post-commit hook's
   detached capture (real hooks, real commits; its process found by its command line).
   After each kill the store must verify; records stored before it must still be there;
   after the hook loop, one more commit must leave every commit named by a checkpoint.
2. **Concurrent writers.** N clones capture and sync against one bare remote at once,
   and one clone runs captures and syncs in parallel; afterwards one more sync round,
   and every clone and the remote must hold every checkpoint any capture reported.
3. **Fuzz.** Hostile files (tests/helpers/hostile.py) through every parser: transcripts of each
   format, snapshots, items files, allowed_signers, revocation lists, config, and the
   local state readers. Anything but an InputError (or a counted skip) is an internal
   error.
4. **Secrets.** Every fake secret of tests/data/secrets/ planted in transcripts, tool
   calls (plain and as JSON inside JSON), tool results, items (fields and keys), session
   ids and file names, captured through the CLI; then every git object and every file of
   local state is searched for it.

Prints tried / survived / lost per run, and the totals of tracebacks, internal errors,
records lost and secrets stored, which must all be 0 (the exit code says so).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import stress_fuzz  # noqa: E402  (beside this script)
import stress_secrets  # noqa: E402

GITMEM = [sys.executable, "-m", "gitmem"]
TRANSCRIPT = ROOT / "tests" / "data" / "transcripts" / "claude_session.jsonl"
BAD = re.compile(r"Traceback|internal error")


@dataclass
class Tally:
    """One run's counts."""

    name: str
    tried: int = 0
    survived: int = 0
    lost: int = 0
    notes: list[str] = field(default_factory=list)


@dataclass
class World:
    """Where one run lives and what went wrong anywhere in it."""

    root: Path
    env: dict[str, str]
    tracebacks: int = 0
    internal: int = 0

    def home(self, name: str) -> dict[str, str]:
        return {**self.env, "GITMEM_HOME": str(self.root / f"home-{name}")}

    def run(self, cwd: Path, *args: str, env: dict[str, str] | None = None) -> str:
        done = subprocess.run(
            [*GITMEM, "-C", str(cwd), *args],
            capture_output=True,
            text=True,
            env=env or self.env,
            check=False,
        )
        self.judge(done.stderr)
        if done.returncode not in (0, 1, 2, 3):
            self.internal += 1
        return done.stdout

    def judge(self, stderr: str) -> None:
        self.tracebacks += stderr.count("Traceback")
        self.internal += len(re.findall("internal error", stderr))

    def git(self, cwd: Path, *args: str) -> str:
        return subprocess.run(
            ["git", "-C", str(cwd), *args],
            capture_output=True,
            text=True,
            env=self.env,
            check=True,
        ).stdout

    def clone(self, remote: Path, name: str) -> tuple[Path, dict[str, str]]:
        path = self.root / name
        self.git(self.root, "clone", "-q", str(remote), str(path))
        self.git(path, "config", "user.email", f"{name}@example.com")
        env = self.home(name)
        self.run(path, "init", "--name", f"{name}@example.com", env=env)
        return path, env

    def log_errors(self, repo: Path) -> None:
        """Hooks report into the capture log, never on stderr."""
        log = repo / ".git" / "gitmem" / "capture.log"
        if log.is_file():
            self.internal += log.read_text(errors="replace").count("internal error")


def records(repo: Path) -> set[str]:
    """The record paths of the memory ref (nothing when it does not exist)."""
    done = subprocess.run(
        ["git", "-C", str(repo), "ls-tree", "-r", "--name-only", "refs/gitmem/memory"],
        capture_output=True,
        text=True,
        check=False,
    )
    return {p for p in done.stdout.split() if p.startswith(("checkpoints/", "events/"))}


def make_world(seed: int) -> World:
    root = Path(tempfile.mkdtemp(prefix="gitmem-stress-"))
    env = {
        **os.environ,
        "HOME": str(root / "no-home"),
        "GIT_CONFIG_GLOBAL": str(root / "no-gitconfig"),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "stress",
        "GIT_AUTHOR_EMAIL": "stress@example.com",
        "GIT_COMMITTER_NAME": "stress",
        "GIT_COMMITTER_EMAIL": "stress@example.com",
        "GITMEM_HOME": str(root / "home"),
    }
    random.seed(seed)
    return World(root, env)


def bare_remote(world: World, name: str = "remote.git") -> Path:
    remote = world.root / name
    world.git(world.root, "init", "-q", "--bare", "-b", "main", str(remote))
    seed = world.root / f"{name}-seed"
    world.git(world.root, "init", "-q", "-b", "main", str(seed))
    (seed / "README.md").write_text("# project\n")
    world.git(seed, "add", "README.md")
    world.git(seed, "commit", "-q", "-m", "initial")
    world.git(seed, "push", "-q", str(remote), "main")
    return remote


def long_transcript(path: Path, n: int) -> Path:
    lines = TRANSCRIPT.read_text().splitlines()
    out = []
    for copy in range(20):
        for line in lines:
            out.append(line.replace('"uuid":"', f'"uuid":"{n}-{copy}-'))
    path.write_text("\n".join(out) + "\n")
    return path


def kill_later(proc: subprocess.Popen[str], delay: float) -> bool:
    """SIGKILL *proc* after *delay* unless it ended; whether it was killed."""
    try:
        proc.wait(timeout=delay)
        return False
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return True


def verify_ok(world: World, repo: Path, env: dict[str, str]) -> bool:
    done = subprocess.run(
        [*GITMEM, "-C", str(repo), "verify"], capture_output=True, text=True, env=env
    )
    world.judge(done.stderr)
    return done.returncode == 0


def kill_captures(world: World, count: int) -> Tally:
    tally = Tally("kill: capture")
    remote = bare_remote(world, "capture-remote.git")
    repo, env = world.clone(remote, "capturer")
    kills = 0
    for n in range(count):
        before = records(repo)
        transcript = long_transcript(world.root / f"capture-{n}.jsonl", n)
        proc = subprocess.Popen(
            [*GITMEM, "-C", str(repo), "capture", "--transcript", str(transcript)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        killed = kill_later(proc, random.uniform(0.05, 0.6))
        world.judge("" if killed or proc.stderr is None else proc.stderr.read())
        kills += killed
        after = records(repo)
        tally.tried += 1
        if before <= after and verify_ok(world, repo, env):
            tally.survived += 1
        tally.lost += len(before - after)
    tally.notes.append(f"{kills} killed mid-capture, {count - kills} finished first")
    return tally


def kill_syncs(world: World, count: int) -> Tally:
    tally = Tally("kill: sync")
    remote = bare_remote(world, "sync-remote.git")
    clones = [world.clone(remote, name) for name in ("ann", "ben")]
    kills = 0
    for n in range(count):
        repo, env = clones[n % 2]
        transcript = world.root / f"sync-{n}.md"
        transcript.write_text(f"We decided that worker {n} owns queue {n} from now on.\n")
        world.run(repo, "capture", "--transcript", str(transcript), env=env)
        before = records(repo) | records(remote)
        proc = subprocess.Popen(
            [*GITMEM, "-C", str(repo), "sync"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        killed = kill_later(proc, random.uniform(0.05, 0.5))
        world.judge("" if killed or proc.stderr is None else proc.stderr.read())
        kills += killed
        tally.tried += 1
        intact = verify_ok(world, repo, env)
        world.run(repo, "sync", env=env)  # the next sync finishes what the killed one began
        after = records(repo) | records(remote)
        lost = len(before - after)
        tally.lost += lost
        tally.survived += intact and not lost
    for repo, env in clones:
        world.run(repo, "sync", env=env)
    everything = set().union(*(records(repo) for repo, _ in clones), records(remote))
    tally.lost += sum(len(everything - records(repo)) for repo, _ in clones)
    tally.notes.append(f"{kills} killed mid-sync, {count - kills} finished first")
    return tally


def hook_processes(sha: str) -> list[int]:
    wanted = f"\0post-commit\0{sha}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if wanted in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def kill_hooks(world: World, count: int) -> Tally:
    tally = Tally("kill: hook capture")
    if not Path("/proc").is_dir():
        tally.notes.append("skipped: needs /proc to find the detached capture")
        return tally
    remote = bare_remote(world, "hook-remote.git")
    repo, env = world.clone(remote, "hooker")
    world.run(repo, "hooks", "install", env=env)
    shas = []
    for n in range(count + 1):
        (repo / "notes.txt").write_text(f"change {n}\n")
        world.git(repo, "add", "notes.txt")
        subprocess.run(
            ["git", "-C", str(repo), "commit", "-q", "-m", f"Change {n}\n\nTODO: follow up {n}"],
            env=env,
            check=True,
        )
        sha = world.git(repo, "rev-parse", "HEAD").strip()
        if n == count:
            break  # the last commit's capture runs to the end and settles the dead ones
        shas.append(sha)
        time.sleep(random.uniform(0.0, 0.6))
        pids = hook_processes(sha)
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        tally.tried += 1
        tally.notes.append("killed" if pids else "finished")
        if n + 1 == count:
            time.sleep(2.5)  # the spawn grace of a marker nobody claimed (inflight.py)
    running = repo / ".git" / "gitmem" / "running"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (any(running.iterdir()) or hook_processes(sha)):
        time.sleep(0.2)
    named = {
        e["commit"]
        for e in json.loads(world.run(repo, "log", "--json", env=env) or "[]")
        if e["type"] == "checkpoint"
    }
    missing = [s for s in shas if s not in named]
    tally.lost = len(missing)
    tally.survived = tally.tried - tally.lost
    kills = tally.notes.count("killed")
    tally.notes = [f"{kills} killed mid-capture, {tally.tried - kills} finished first"]
    world.log_errors(repo)
    if not verify_ok(world, repo, env):
        tally.lost += 1
    return tally


def concurrent_writers(world: World, clones: int) -> Tally:
    tally = Tally("concurrent writers")
    remote = bare_remote(world, "team.git")
    team = [world.clone(remote, f"dev{n}") for n in range(clones)]
    script = (
        "import subprocess, sys\n"
        "g = [sys.executable, '-m', 'gitmem', '-C', sys.argv[1]]\n"
        "for step in ('capture', 'sync', 'capture', 'sync'):\n"
        "    args = ['capture', '--transcript', sys.argv[2], '--session', step + sys.argv[3]]\n"
        "    done = subprocess.run(g + (args if step == 'capture' else ['sync']),\n"
        "                          capture_output=True, text=True)\n"
        "    sys.stderr.write(done.stderr)\n"
        "    print(step, done.returncode, flush=True)\n"
    )
    procs = []
    for n, (repo, env) in enumerate(team):
        transcript = world.root / f"team-{n}.md"
        transcript.write_text(f"We decided that dev{n} reviews the parser changes.\n")
        for part in ("a", "b") if n == 0 else ("a",):  # one clone runs two writers at once
            procs.append(
                subprocess.Popen(
                    [sys.executable, "-c", script, str(repo), str(transcript), f"{n}{part}"],
                    env=env,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                )
            )
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        world.judge(err)
        for line in out.splitlines():
            tally.tried += 1
            tally.survived += line.endswith(" 0")
    for _ in range(2):
        for repo, env in team:
            world.run(repo, "sync", env=env)
    everything = set().union(*(records(repo) for repo, _ in team))
    tally.lost = sum(len(everything - records(repo)) for repo, _ in team)
    tally.lost += len(everything - records(remote))
    checkpoints = len([p for p in everything if p.startswith("checkpoints/")])
    tally.notes.append(
        f"{len(procs)} writers in {clones} clones, {checkpoints} checkpoints in the union"
    )
    return tally


def report(
    tallies: list[Tally], world: World, fuzz: stress_fuzz.FuzzTally, secrets: stress_secrets.Secrets
) -> int:
    """Print the table and the totals; the exit code: 0 when every total is 0."""
    print(f"{'run':24} {'tried':>7} {'survived':>9} {'lost':>5}")
    for t in tallies:
        print(f"{t.name:24} {t.tried:7} {t.survived:9} {t.lost:5}  {'; '.join(t.notes)}")
    print(
        f"{'fuzz cases':24} {fuzz.cases:7} {fuzz.cases - fuzz.internal:9} {'-':>5}  "
        f"{fuzz.refused} refused in one line, {fuzz.skipped} bad lines skipped and counted"
    )
    print(
        f"{'secret captures':24} {secrets.tried:7} {secrets.written:9} {'-':>5}  "
        f"{'; '.join(secrets.notes[:6])}"
    )
    lost = sum(t.lost for t in tallies)
    tracebacks = world.tracebacks + fuzz.tracebacks
    internal = world.internal + fuzz.internal
    stored = secrets.stored + fuzz.stored
    print(
        f"\ntracebacks {tracebacks}, internal errors {internal}, records lost {lost}, "
        f"secrets stored {stored}"
    )
    return 1 if tracebacks or internal or lost or stored else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller counts (under a minute)")
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args()
    quick = args.quick
    world = make_world(args.seed)
    steps: list[Callable[[], Tally]] = [
        lambda: kill_captures(world, 15 if quick else 80),
        lambda: kill_syncs(world, 10 if quick else 60),
        lambda: kill_hooks(world, 10 if quick else 60),
        lambda: concurrent_writers(world, 6 if quick else 24),
    ]
    tallies = []
    for step in steps:
        started = time.monotonic()
        tallies.append(step())
        print(f"  … {tallies[-1].name}: {time.monotonic() - started:.0f} s", file=sys.stderr)
    started = time.monotonic()
    fuzz = stress_fuzz.run(world.root / "fuzz", 1500 if quick else 12000, args.seed)
    print(f"  … fuzz: {time.monotonic() - started:.0f} s", file=sys.stderr)
    started = time.monotonic()
    secrets = stress_secrets.run(world, quick)
    print(f"  … secrets: {time.monotonic() - started:.0f} s", file=sys.stderr)
    code = report(tallies, world, fuzz, secrets)
    shutil.rmtree(world.root, ignore_errors=True)
    print(
        f"(reproduce: python benchmarks/stress.py{' --quick' if quick else ''} --seed {args.seed})"
    )
    return code


if __name__ == "__main__":
    sys.exit(main())
