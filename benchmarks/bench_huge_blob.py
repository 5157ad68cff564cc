"""Benchmark: peak memory of each reader after a teammate pushes one huge blob.

    python benchmarks/bench_huge_blob.py [--mb 300] [--path snapshot|checkpoint|item|receipt]

A bare remote and three clones in a temporary folder: Alice and Bob trust each other
through the committed team root, Alice captures one item, everyone syncs. Mallory then
pushes a memory commit adding one blob of ``--mb`` MB at a layout path (a snapshot, a
checkpoint, an item or a receipt addressed by the blob's own hash), with real ``git
push``. Each reader then runs in a process of its own, as a user runs it, and its peak
resident memory is printed (``/usr/bin/time``-style, from the kernel's accounting of the
child): Bob's ``sync``, ``verify``, ``brief`` and ``status``, and a fourth clone's
``brief`` after a plain ``git fetch`` (the fetched memory it reads without syncing).
Bob's own ``git fetch`` of the blob runs first, alone: what git itself holds to index a
pack (a sync that fetches includes it).
Nothing is kept; no figure is asserted.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

GIT_ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}
FOLDERS = {
    "snapshot": "snapshots",
    "checkpoint": "checkpoints",
    "item": "items",
    "receipt": "receipts",
}
SUFFIX = {"snapshots": ".txt", "receipts": ".sig"}


def git(cwd: Path, *args: str, stdin: bytes | None = None) -> str:
    done = subprocess.run(
        ["git", "-C", str(cwd), *args],
        input=stdin,
        check=True,
        capture_output=True,
        env={**os.environ, **GIT_ENV},
    )
    return done.stdout.decode().strip()


def gitmem(clone: Path, home: Path, *args: str, stdin: str | None = None) -> tuple[int, int, str]:
    """(exit code, peak RSS of gitmem's process or any it ran, in MB, its last output
    line)."""
    return measured([sys.executable, "-m", "gitmem", "-C", str(clone), *args], home, stdin)


def measured(command: list[str], home: Path, stdin: str | None = None) -> tuple[int, int, str]:
    """(exit code, peak RSS of *command*'s process or any it ran, in MB, its last output
    line)."""
    script = (
        "import resource, subprocess, sys\n"
        "done = subprocess.run(\n"
        "    sys.argv[1:], capture_output=True, text=True, input=sys.stdin.read()\n"
        ")\n"
        "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
        "lines = (done.stdout + done.stderr).strip().splitlines() or ['']\n"
        "print(done.returncode, peak, lines[-1][:100], sep='\\t')\n"
    )
    command = [sys.executable, "-c", script, *command]
    env = {**os.environ, **GIT_ENV, "GITMEM_HOME": str(home)}
    done = subprocess.run(command, input=stdin or "", capture_output=True, text=True, env=env)
    code, peak, last = done.stdout.rstrip("\n").split("\t", 2)
    return int(code), int(peak) // 1024, last


def clone(root: Path, remote: Path, name: str) -> tuple[Path, Path]:
    path, home = root / name, root / f"home-{name}"
    git(root, "clone", "-q", str(remote), str(path))
    git(path, "config", "user.email", f"{name}@example.com")
    git(path, "config", "user.name", name)
    code, _, last = gitmem(path, home, "init", "--name", f"{name}@example.com")
    assert code == 0, last
    return path, home


def key(path: Path, home: Path) -> str:
    env = {**os.environ, "GITMEM_HOME": str(home)}
    done = subprocess.run(
        [sys.executable, "-m", "gitmem", "-C", str(path), "keys", "export"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return done.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=300)
    parser.add_argument("--path", choices=sorted(FOLDERS), default="snapshot")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        remote = root / "remote.git"
        git(root, "init", "-q", "--bare", "-b", "main", str(remote))
        seed = root / "seed"
        git(root, "init", "-q", "-b", "main", str(seed))
        (seed / "README.md").write_text("# project\n")
        git(seed, "add", "README.md")
        git(seed, "commit", "-q", "-m", "initial")
        git(seed, "push", "-q", str(remote), "main")
        (alice, ahome), (bob, bhome), (mallory, mhome) = (
            clone(root, remote, n) for n in ("alice", "bob", "mallory")
        )
        (alice / ".gitmem").mkdir()
        signers = f"{key(alice, ahome)}\n{key(bob, bhome)}\n"
        (alice / ".gitmem" / "allowed_signers").write_text(signers)
        git(alice, "add", ".gitmem/allowed_signers")
        git(alice, "commit", "-q", "-m", "team root")
        git(alice, "push", "-q", "origin", "HEAD:main")
        for path in (bob, mallory):
            git(path, "pull", "-q")
        transcript = root / "session.md"
        transcript.write_text("We talked. Then alice said: we keep the cache local.\n")
        items = (
            '[{"kind":"decision","text":"We keep the cache local","trust":"verbatim",'
            '"quote":"we keep the cache local"}]'
        )
        capture = ("capture", "--transcript", str(transcript), "--items", "-")
        code, _, last = gitmem(alice, ahome, *capture, stdin=items)
        assert code == 0, last
        for path, home in ((alice, ahome), (bob, bhome), (mallory, mhome)):
            assert gitmem(path, home, "sync")[0] == 0

        # Mallory's blob: compressible text, so the push is quick and only the readers pay.
        line = b"x" * 1023 + b"\n"
        blob_file = root / "huge"
        with blob_file.open("wb") as handle:
            for _ in range(args.mb * 1024):
                handle.write(line)
        digest = hashlib.sha256()
        with blob_file.open("rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
        h = digest.hexdigest()
        folder_name = FOLDERS[args.path]
        at = f"{folder_name}/{h[:2]}/{h[2:]}{SUFFIX.get(folder_name, '.json')}"
        oid = git(mallory, "hash-object", "-w", str(blob_file))
        blob_file.unlink()
        index = root / "forge-index"
        env_index = {"GIT_INDEX_FILE": str(index)}
        os.environ.update(env_index)
        try:
            git(mallory, "read-tree", "refs/gitmem/memory")
            git(mallory, "update-index", "--add", "--cacheinfo", f"100644,{oid},{at}")
            tree = git(mallory, "write-tree")
        finally:
            os.environ.pop("GIT_INDEX_FILE")
        commit = git(mallory, "commit-tree", tree, "-p", "refs/gitmem/memory", "-m", "more memory")
        git(mallory, "push", "-q", "origin", f"{commit}:refs/gitmem/memory")

        fresh, fhome = clone(root, remote, "carol")
        git(fresh, "fetch", "-q")
        floor = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        print(f"one {args.mb} MB blob at {folder_name}/…  (this script's own peak: {floor} MB)")
        print(f"{'reader':<28} {'exit':>4} {'peak MB':>8}  last line")
        code, peak, last = measured(["git", "-C", str(bob), "fetch", "-q"], bhome)
        print(f"{'bob: git fetch (git alone)':<28} {code:>4} {peak:>8}  {last}")
        for label, path, home, command in (
            ("bob: sync", bob, bhome, ("sync",)),
            ("bob: verify", bob, bhome, ("verify",)),
            ("bob: brief", bob, bhome, ("brief",)),
            ("bob: status", bob, bhome, ("status",)),
            ("carol: brief after fetch", fresh, fhome, ("brief",)),
        ):
            code, peak, last = gitmem(path, home, *command)
            print(f"{label:<28} {code:>4} {peak:>8}  {last}")


if __name__ == "__main__":
    main()
