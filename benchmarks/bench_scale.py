"""Benchmark: issue 11's speed and size figures (and issue 31's), each a ratio measured
in one run.

    python benchmarks/bench_scale.py [--quick] [--runs R] [--daimon-wheel WHEEL] [--cache DIR]
    python benchmarks/bench_scale.py --big | --huge | --checkpoints N
                                     [--build import|library] [--import-sample N]

Without ``--big``, ``--huge`` or ``--checkpoints``: issue 11's figures. Builds one
scratch store through the library's capture path (signed checkpoints of the shape
bench_brief.py writes: a decision with a checkable file claim, an open TODO and an
uncertainty said verbatim, two inferred items; open items carried, up to 50 a
checkpoint), copying the repository when it holds 40 checkpoints, then times the real
``gitmem`` commands in fresh processes, world-check on (the default):

- floor: ``python -c "import pygit2, nacl.signing, click"``, median of every round;
- ``gitmem brief`` at 40 and 1,000 checkpoints, warm (index up to date);
- ``gitmem brief`` at 1,000 with no local state (``.git/gitmem/`` deleted before each
  run: the first brief after a clone);
- ``gitmem brief`` at 1,000, warm, by a reader whose roots trust none of the store's
  keys (every record fails; a brief that must stay bounded all the same; reported);
- ``gitmem capture --transcript T --items I`` at 1,000 against the same at 40, and the
  loose object bytes each capture adds;
- ``gitmem verify`` at 1,000 (an absolute limit: 2 s);
- ``gitmem recall parser`` at 1,000, warm;
- daimon-briefing 0.61's ``daimon brief --auto --label`` on 3 sessions (see
  benchmarks/daimon_ref.py; installed into a venv of its own under ``--cache``);
- the median checkpoint blob among those carrying 50 open items (its bytes, and the
  zlib-compressed loose object git keeps of it);
- benchmarks/startup.py's entry points (``gitmem --version``, the hooks) against its
  own floor, ``python -c "import pygit2"``.

With ``--big`` (10,000 checkpoints), ``--huge`` (50,000) or ``--checkpoints N``: issue
31's figures instead, a team-year of memory built with ``gitmem import`` as a user builds
it (benchmarks/teamyear.py says what each is), every figure with its peak memory.

Timed commands run interleaved, round after round, so machine noise hits all alike.
Prints a table (figure, value, target, pass/fail); exits non-zero only on an error,
never on a missed target. The stores are packed after building (``git repack -ad``,
as ``git gc --auto`` leaves a repository where a user works; ``--loose`` keeps every
object loose, which costs the readers one file per object). ``--quick`` builds 300
checkpoints instead of 1,000 and runs fewer rounds (its figures are not the issue's).
Nothing is kept.
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
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this tree's gitmem, in-process and in every subprocess
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
)

import daimon_ref  # noqa: E402
import pygit2  # noqa: E402
import startup  # noqa: E402
import teamyear  # noqa: E402
from teamyear import Row  # noqa: E402

from gitmem.capture.run import CaptureResult, Context, capture_transcript  # noqa: E402
from gitmem.capture.transcripts import parse_transcript  # noqa: E402
from gitmem.core.items import Draft, Kind, Trust  # noqa: E402
from gitmem.core.transcript import Transcript  # noqa: E402
from gitmem.store.keys import init_identity  # noqa: E402
from gitmem.store.repo import Store  # noqa: E402

FLOOR = [sys.executable, "-c", "import pygit2, nacl.signing, click"]
SMALL = 40
CARRY_LIMIT = 50
VERIFY_LIMIT_SECONDS = 2.0
DAIMON_WORDS = ["alpha", "beta", "gamma"]


def transcript_text(n: int) -> str:
    """Session *n*'s transcript: three statements worth keeping, then filler."""
    return (
        f"Session {n}. We decided to keep module_{n} in src/module_{n}.py for now.\n"
        f"TODO: benchmark the parser on corpus {n} before the release.\n"
        f"I am not sure whether cache {n} survives a restart.\n" + "filler line\n" * 100
    )


def items_of(n: int) -> list[dict[str, object]]:
    """Session *n*'s items, as an items file holds them (and as :func:`drafts_of` builds)."""
    return [
        {
            "kind": Kind.DECISION,
            "text": f"Keep module_{n} in src/module_{n}.py",
            "trust": Trust.VERBATIM,
            "quote": f"keep module_{n} in src/module_{n}.py for now",
            # A checkable claim, so the brief's world-check has work to do.
            "claims": [{"type": "file-exists", "path": f"src/module_{n}.py"}],
        },
        {
            "kind": Kind.OPEN_LOOP,
            "text": f"Benchmark the parser on corpus {n}",
            "trust": Trust.VERBATIM,
            "quote": f"TODO: benchmark the parser on corpus {n}",
        },
        {
            "kind": Kind.UNCERTAINTY,
            "text": f"Cache {n} may not survive a restart",
            "trust": Trust.VERBATIM,
            "quote": f"not sure whether cache {n} survives a restart",
        },
        {"kind": Kind.BELIEF, "text": f"Module {n} is stable", "trust": Trust.INFERRED},
        {"kind": Kind.FACT, "text": f"Session {n} happened", "trust": Trust.INFERRED},
    ]


def drafts_of(n: int) -> list[Draft]:
    extra = lambda i: {"claims": i["claims"]} if "claims" in i else {}  # noqa: E731
    return [
        Draft(str(i["kind"]), str(i["text"]), str(i["trust"]), i.get("quote"), extra(i))  # type: ignore[arg-type]
        for i in items_of(n)
    ]


class Builder:
    """One scratch store grown through the library's write path (quotes verified, open
    items carried, corroborations and ageing decided, all signed), one commit a capture:
    the same bytes ``gitmem capture`` writes, without a process per checkpoint."""

    def __init__(self, root: Path) -> None:
        self.repo_dir, self.home = root / "repo", root / "home"
        repo = pygit2.init_repository(str(self.repo_dir))
        who = pygit2.Signature("bench", "bench@example.com")
        repo.create_commit("HEAD", who, who, "init", repo.TreeBuilder().write(), [])
        self.store = Store(repo)
        init_identity(self.home, "bench@example.com", None)
        self.context = Context.open(self.store, self.home)
        self.count = 0
        self.seconds = 0.0
        self.start = datetime(2026, 1, 1, tzinfo=UTC)

    def grow(self, to: int, progress: Callable[[str], None]) -> None:
        began = lap = time.perf_counter()
        while self.count < to:
            n = self.count
            transcript = parse_transcript(transcript_text(n).encode(), f"session-{n}.md")
            self.capture(transcript, drafts_of(n), f"s-{n}", self.start + timedelta(minutes=n))
            self.count += 1
            if self.count % 500 == 0:
                each, lap = (time.perf_counter() - lap) / 500, time.perf_counter()
                progress(f"built {self.count} checkpoints ({each * 1000:.0f} ms each lately)")
        self.seconds += time.perf_counter() - began

    def capture(
        self, transcript: Transcript, drafts: list[Draft], session: str, when: datetime
    ) -> CaptureResult:
        """One capture at *when*, through the one write path every writer uses. Every
        session is new, so nothing is skipped: asking the index would only slow the build."""
        return capture_transcript(
            self.context,
            transcript,
            None,
            source=f"bench {session}",
            drafts=drafts,
            session=session,
            again=True,
            now=when,
        )

    def pack(self) -> None:
        """Pack the objects as ``git gc --auto`` would have by now: git runs it after
        commits, merges and fetches once 6,700 objects are loose, and a capture leaves
        well over a hundred (a clone has none)."""
        subprocess.run(["git", "-C", str(self.repo_dir), "repack", "-adq"], check=True)

    def copy(self, where: Path) -> Path:
        shutil.copytree(self.repo_dir, where, symlinks=True)
        return where


@dataclass
class Timings:
    """Named wall times of fresh processes, in seconds."""

    env: dict[str, str]
    times: dict[str, list[float]] = field(default_factory=dict)

    def run(self, name: str, command: list[str], cwd: Path, env: dict[str, str] | None = None):
        began = time.perf_counter()
        done = subprocess.run(command, cwd=cwd, env=env or self.env, capture_output=True)
        elapsed = time.perf_counter() - began
        if done.returncode != 0:
            raise RuntimeError(
                f"{name}: {' '.join(command)} exited {done.returncode}: "
                f"{done.stderr.decode(errors='replace')[-2000:]}"
            )
        self.times.setdefault(name, []).append(elapsed)
        return done

    def median(self, name: str) -> float:
        return statistics.median(self.times[name])


def gitmem(repo: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "gitmem", "-C", str(repo), *args]


def capture_command(repo: Path, scratch: Path, n: int) -> list[str]:
    """``gitmem capture`` of session *n* (files written under *scratch*)."""
    transcript = scratch / f"session-{n}.md"
    transcript.write_text(transcript_text(n))
    items = scratch / f"items-{n}.json"
    items.write_text(json.dumps(items_of(n)))
    args = ("capture", "--transcript", str(transcript), "--items", str(items))
    return gitmem(repo, *args, "--session", f"cli-{n}")


def loose_bytes(repo: Path) -> int:
    objects = repo / ".git" / "objects"
    return sum(
        f.stat().st_size
        for d in objects.iterdir()
        if len(d.name) == 2 and d.is_dir()
        for f in d.iterdir()
    )


def checkpoint_sizes(repo: Path, carried: int) -> list[tuple[int, int]]:
    """Sizes of the checkpoint blobs at the tip that carry at least *carried* items:
    their bytes, and what git stores of them (the zlib-compressed loose object)."""
    git = pygit2.Repository(str(repo))
    tip = git.references["refs/gitmem/memory"].peel(pygit2.Commit)

    def blobs(tree: pygit2.Tree) -> Iterator[pygit2.Blob]:
        for entry in tree:
            if isinstance(entry, pygit2.Tree):
                yield from blobs(entry)
            elif isinstance(entry, pygit2.Blob):
                yield entry

    checkpoints = tip.tree["checkpoints"]
    assert isinstance(checkpoints, pygit2.Tree)
    return [
        (blob.size, len(zlib.compress(b"blob %d\0" % blob.size + blob.data)))
        for blob in blobs(checkpoints)
        if len(json.loads(blob.data).get("carried", [])) >= carried
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="300 checkpoints, fewer rounds")
    parser.add_argument(
        "--big", action="store_true", help="issue 31's figures at 10,000 checkpoints instead"
    )
    parser.add_argument(
        "--huge", action="store_true", help="issue 31's figures at 50,000 checkpoints instead"
    )
    parser.add_argument(
        "--checkpoints", type=int, metavar="N", help="issue 31's figures at N checkpoints"
    )
    parser.add_argument(
        "--build",
        choices=("import", "library"),
        default="import",
        help="how issue 31's store is built: `gitmem import` (default) or the library's "
        "capture path, the import then timed on --import-sample sessions",
    )
    parser.add_argument("--import-sample", type=int, default=500, metavar="N")
    parser.add_argument("--runs", type=int, help="rounds of the warm figures (default 9; 3)")
    parser.add_argument(
        "--loose", action="store_true", help="leave every object loose (git gc never ran)"
    )
    parser.add_argument("--daimon-wheel", type=Path, help="install daimon from this wheel")
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path(tempfile.gettempdir()) / "gitmem-bench-cache",
        help="where daimon's venv is kept between runs",
    )
    args = parser.parse_args()
    large = 300 if args.quick else 1000
    runs = args.runs or (3 if args.quick else 9)
    few = 2 if args.quick else 5  # a median of three moved by a whole figure here
    team = args.checkpoints or (50_000 if args.huge else 10_000 if args.big else None)
    if team is not None and team <= 2 * teamyear.SMALL:
        parser.error(f"--checkpoints must be more than {2 * teamyear.SMALL}")

    def say(message: str) -> None:
        print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)

    root = Path(tempfile.mkdtemp(prefix="gitmem-bench-scale-"))
    # Processes keep compiled bytecode, as every installed Python does: a
    # PYTHONDONTWRITEBYTECODE in the caller's environment would make each gitmem
    # process compile its ~150 modules again (and not the floor's, which ship .pyc),
    # about 0.1 s a process. The cache lives in the scratch folder, not in the tree.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str(root / "pycache")
    try:
        if team is not None:
            rows = team_year(root, args, team, runs, few, say)
        else:
            rows = measure(root, args, large, runs, few, say)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"{'figure':58} {'value':>10} {'target':>12}  result")
    for row in rows:
        print(row.line())
    return 0


def measure(
    root: Path,
    args: argparse.Namespace,
    large: int,
    runs: int,
    few: int,
    say: Callable[[str], None],
) -> list[Row]:
    say("installing daimon-briefing and serializing its 3 sessions")
    daimon_bin = daimon_ref.install(args.cache, args.daimon_wheel)
    daimon = daimon_ref.prepare(root / "daimon", daimon_bin, DAIMON_WORDS)
    build = Builder(root / "build")
    build.grow(SMALL, say)
    if not args.loose:
        build.pack()
    small_repo = build.copy(root / f"repo-{SMALL}")
    say(f"building {large} checkpoints")
    build.grow(large, say)
    if not args.loose:
        say("packing the objects")
        build.pack()
    large_repo = build.repo_dir
    say(f"built {large} checkpoints, {build.seconds / large * 1000:.0f} ms each in-process")
    env = {**os.environ, "GITMEM_HOME": str(build.home)}
    t = Timings(env)
    warm = {
        "floor": (FLOOR, root),
        f"brief@{SMALL}": (gitmem(small_repo, "brief"), small_repo),
        f"brief@{large}": (gitmem(large_repo, "brief"), large_repo),
        f"recall@{large}": (gitmem(large_repo, "recall", "parser"), large_repo),
        "daimon": (daimon.command, daimon.cwd),
    }
    for name, (command, cwd) in warm.items():  # bring indexes and page cache up
        t.run(name, command, cwd, daimon.env if name == "daimon" else None)
    t.times.clear()
    say(f"{runs} rounds of floor, briefs, recall and daimon's brief")
    for _ in range(runs):
        for name, (command, cwd) in warm.items():
            t.run(name, command, cwd, daimon.env if name == "daimon" else None)
    say(f"{few} cold briefs at {large}")
    for _ in range(few):
        shutil.rmtree(large_repo / ".git" / "gitmem", ignore_errors=True)
        t.run("cold", gitmem(large_repo, "brief"), large_repo)
        t.run("floor", FLOOR, root)
    say(f"verify at {large}")
    for _ in range(few):  # once only when far beyond its limit: it is what it is
        t.run("verify", gitmem(large_repo, "verify"), large_repo)
        if t.median("verify") > 5 * VERIFY_LIMIT_SECONDS:
            break
    say(f"{few} captures at {SMALL} and at {large}")
    scratch = root / "inputs"
    scratch.mkdir()
    t.run("warm-up", capture_command(small_repo, scratch, 899_999), small_repo)
    before = loose_bytes(large_repo)
    for k in range(few):
        n = 900_000 + k  # sessions the stores have never seen
        t.run(f"capture@{SMALL}", capture_command(small_repo, scratch, n), small_repo)
        t.run(f"capture@{large}", capture_command(large_repo, scratch, n), large_repo)
    per_capture = (loose_bytes(large_repo) - before) / few
    sizes = checkpoint_sizes(large_repo, CARRY_LIMIT)
    say(f"{few} briefs at {large} by a reader who trusts none of its keys")
    stranger = root / "stranger-home"  # no allowed_signers: every record fails on trust
    stranger.mkdir()
    untrusted = {**env, "GITMEM_HOME": str(stranger)}
    t.run("untrusted-warm-up", gitmem(large_repo, "brief"), large_repo, untrusted)
    for _ in range(few):
        t.run("untrusted", gitmem(large_repo, "brief"), large_repo, untrusted)
        t.run("floor", FLOOR, root)
    say("start-up entry points (benchmarks/startup.py)")
    starts = startup.measure(runs)
    return rows(t, starts, large, per_capture, sizes, daimon)


def rows(
    t: Timings,
    starts: dict[str, list[float]],
    large: int,
    per_capture: float,
    sizes: list[tuple[int, int]],
    daimon: daimon_ref.Daimon,
) -> list[Row]:
    floor = t.median("floor")
    brief = t.median(f"brief@{large}")
    untrusted = t.median("untrusted")
    out = [
        Row("floor: python -c 'import pygit2, nacl.signing, click'", floor, " s", None),
        Row(f"brief@{SMALL} warm / floor", t.median(f"brief@{SMALL}") / floor, "x", None),
        Row(f"brief@{large} warm / floor", brief / floor, "x", 2.0),
        Row(f"brief@{large} / brief@{SMALL}", brief / t.median(f"brief@{SMALL}"), "x", 1.2),
        Row(f"brief@{large} warm, no key trusted / floor", untrusted / floor, "x", None),
    ]
    capture_ratio = t.median(f"capture@{large}") / t.median(f"capture@{SMALL}")
    out += [
        Row(f"brief@{large} no local state / floor", t.median("cold") / floor, "x", 8.0),
        Row(f"capture@{large} / capture@{SMALL}", capture_ratio, "x", 1.5),
        Row(f"capture@{SMALL} (absolute)", t.median(f"capture@{SMALL}"), " s", None),
        Row(f"verify@{large} (absolute)", t.median("verify"), " s", VERIFY_LIMIT_SECONDS),
        Row(f"recall@{large} warm / floor", t.median(f"recall@{large}") / floor, "x", 1.5),
        Row(f"brief@{large} / daimon brief (3 sessions)", brief / t.median("daimon"), "x", 0.8),
        Row("daimon brief / floor", t.median("daimon") / floor, "x", None),
        Row(
            f"median checkpoint, {CARRY_LIMIT} carried ({len(sizes)} of them)",
            statistics.median(s for s, _ in sizes) if sizes else float("nan"),
            " B",
            4096,
        ),
        Row(
            "the same, as git stores it (zlib)",
            statistics.median(z for _, z in sizes) if sizes else float("nan"),
            " B",
            None,
        ),
        Row("loose object bytes added per capture", per_capture, " B", None),
    ]
    base = statistics.median(starts[startup.FLOOR])
    for name, xs in starts.items():
        if name != startup.FLOOR:
            out.append(Row(f"{name} / import pygit2", statistics.median(xs) / base, "x", 1.2))
    assert daimon.verbatim > 0, "daimon's scripted quotes did not verify"
    return out


def team_year(
    root: Path,
    args: argparse.Namespace,
    size: int,
    runs: int,
    few: int,
    say: Callable[[str], None],
) -> list[Row]:
    """Issue 31's figures at *size* checkpoints (benchmarks/teamyear.py)."""
    t = teamyear.Runner()
    if args.build == "import":
        home = root / "home"
        init_identity(home, "bench@example.com", None)
        env = {**os.environ, "GITMEM_HOME": str(home)}
        writer = root / "writer"
        teamyear.git(root, "init", "-q", "-b", "main", str(writer))
        (writer / "README.md").write_text("bench\n")
        teamyear.git(writer, "add", "README.md")
        teamyear.git(writer, "commit", "-q", "-m", "init")
        say(f"importing {size} sessions with `gitmem import`")
        slices, small = teamyear.import_store(writer, root / "sessions", size, env, t, say)
    else:
        build = Builder(root / "build")
        env = {**os.environ, "GITMEM_HOME": str(build.home)}
        build.grow(teamyear.SMALL, say)
        small = build.copy(root / f"repo-{teamyear.SMALL}")
        say(f"building {size} checkpoints through the library")
        build.grow(size, say)
        writer = build.repo_dir
        say(f"importing {args.import_sample} sessions into an empty store")
        slices = teamyear.sample_import(root, args.import_sample, env, t, say)
    if not args.loose:
        say("packing the objects")
        for repo in (writer, small):
            subprocess.run(["git", "-C", str(repo), "repack", "-adq"], check=True)
    teamyear.measure(root, size, writer, small, env, t, runs, few, say)
    return teamyear.rows(t, size, slices, sampled=args.build != "import")


if __name__ == "__main__":
    sys.exit(main())
