"""Benchmark: what memory adds to `git push` and `git pull` (issue 14), on 1,000 records.

    python benchmarks/bench_travel.py [--checkpoints 1000] [--runs 7]

Builds clone A with N signed checkpoints (bench_brief's real write path) and a bare
remote holding them, then clone B of it. Each round adds one code commit and one new
checkpoint to A (untimed), then times, as real subprocesses:

- push: `git push origin main` from A with the pre-push hook (memory on: it starts the
  push of the new checkpoint detached, waited for untimed before the pull) against the
  same push with hooks off (`-c core.hooksPath=…` empty folder: memory off),
  alternating, each pushing one new commit;
- pull: `git pull` in B with the memory fetch refspec (memory on) against the same pull
  in B' without it (memory off), each pulling the round's new commit;
- the first `gitmem brief` in B after the pull (which checks the fetched checkpoint
  before reading it) against B's brief when nothing new was fetched.

Prints medians and the ratios on/off of the same run; nothing is kept.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_brief import build_store

from gitmem.capture.run import Context, capture_transcript
from gitmem.capture.transcripts import parse_transcript
from gitmem.core.items import Draft
from gitmem.hooks.install import install
from gitmem.hooks.push import carries_in_flight
from gitmem.store.refspecs import add_fetch_refspecs
from gitmem.store.repo import Store

ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def carried(repo: Path) -> None:
    """Wait (untimed) until the pre-push hook's detached carries in *repo* have ended."""
    while carries_in_flight(repo / ".git" / "gitmem"):
        time.sleep(0.02)


def git(cwd: Path, *args: str, home: Path | None = None) -> float:
    env = {**os.environ, **ENV}
    if home is not None:
        env["GITMEM_HOME"] = str(home)
    began = time.perf_counter()
    done = subprocess.run(["git", "-C", str(cwd), *args], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"git {args} failed: {done.stderr}")
    return time.perf_counter() - began


def code_commit(repo: Path, n: int) -> None:
    (repo / "work.txt").write_text(f"round {n}\n")
    git(repo, "add", "work.txt")
    git(repo, "commit", "-q", "-m", f"round {n}")


def add_checkpoint(repo: Path, home: Path, n: int) -> None:
    transcript = parse_transcript(f"Round {n}: we decided to keep r{n}.\n".encode(), "r.md")
    drafts = [Draft("decision", f"Keep r{n}", "verbatim", f"we decided to keep r{n}", {})]
    capture_transcript(
        Context.open(Store.discover(repo), home),
        transcript,
        None,
        source=f"bench round-{n}",
        drafts=drafts,
        session=f"round-{n}",
    )


def brief(repo: Path, home: Path) -> float:
    env = {**os.environ, "GITMEM_HOME": str(home)}
    command = [sys.executable, "-m", "gitmem", "-C", str(repo), "brief"]
    began = time.perf_counter()
    subprocess.run(command, env=env, check=True, capture_output=True)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoints", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="gitmem-bench-travel-"))
    try:
        a, home, _ = build_store(root / "a-build", args.checkpoints)
        remote, no_hooks = root / "remote.git", root / "no-hooks"
        no_hooks.mkdir()
        git(root, "init", "-q", "--bare", "-b", "main", str(remote))
        git(a, "remote", "add", "origin", str(remote))
        git(a, "checkout", "-q", "-B", "main")
        code_commit(a, 0)
        git(a, "push", "-q", "origin", "main", "refs/gitmem/memory:refs/gitmem/memory")
        store = Store.discover(a)
        add_fetch_refspecs(store)
        git(a, "fetch", "-q", "origin")
        install(a, names=("pre-push",))
        b, plain = root / "b", root / "b-plain"
        for clone in (b, plain):
            git(root, "clone", "-q", str(remote), str(clone))
        add_fetch_refspecs(Store.discover(b))
        git(b, "fetch", "-q", "origin")
        home_b = root / "home-b"
        shutil.copytree(home, home_b)  # B trusts A's key, as a committed team root would
        # B's own memory holds A's (as after B's first write); then only what each pull
        # brings is unmerged.
        subprocess.run(
            [sys.executable, "-m", "gitmem", "-C", str(b), "sync"],
            env={**os.environ, "GITMEM_HOME": str(home_b)},
            check=True,
            capture_output=True,
        )
        brief(b, home_b)  # warm the index

        push_on, push_off, pull_on, pull_off, brief_new, brief_same = [], [], [], [], [], []
        for n in range(1, args.runs + 1):
            code_commit(a, 2 * n)
            add_checkpoint(a, home, 2 * n)
            push_on.append(git(a, "push", "-q", "origin", "main", home=home))
            carried(a)  # the hook carries memory detached: the pull must find it
            pull_on.append(git(b, "pull", "-q", "--ff-only", home=home_b))
            pull_off.append(git(plain, "pull", "-q", "--ff-only"))
            brief_new.append(brief(b, home_b))
            brief_same.append(brief(b, home_b))
            code_commit(a, 2 * n + 1)
            push_off.append(
                git(a, "-c", f"core.hooksPath={no_hooks}", "push", "-q", "origin", "main")
            )
        carried(a)
        remote_has = subprocess.run(
            ["git", "--git-dir", str(remote), "rev-parse", "refs/gitmem/memory"],
            capture_output=True,
            text=True,
        ).stdout.strip()
        assert remote_has == Store.discover(a).tip(), "memory did not travel"

        def ms(values: list[float]) -> str:
            return f"{statistics.median(values) * 1000:7.1f} ms"

        print(f"{args.checkpoints} checkpoints, {args.runs} rounds, medians")
        print(
            f"git push  memory on  {ms(push_on)}   off {ms(push_off)}   "
            f"ratio {statistics.median(push_on) / statistics.median(push_off):.2f}x   "
            f"extra {ms([statistics.median(push_on) - statistics.median(push_off)])}"
        )
        print(
            f"git pull  memory on  {ms(pull_on)}   off {ms(pull_off)}   "
            f"ratio {statistics.median(pull_on) / statistics.median(pull_off):.2f}x   "
            f"extra {ms([statistics.median(pull_on) - statistics.median(pull_off)])}"
        )
        print(
            f"brief     after pull {ms(brief_new)}   nothing new {ms(brief_same)}   "
            f"ratio {statistics.median(brief_new) / statistics.median(brief_same):.2f}x"
        )
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
