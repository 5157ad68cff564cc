# ruff: noqa: E402 - the test helpers are put on the path first
"""The brief's size against its budget, on a healthy store and on a flood of records by
keys no trust root knows (what a new machine or a new teammate sees).

    python benchmarks/brief_size.py

Prints the size of the default brief in each format; every one must be at most the
default budget (9,000 bytes).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

_TESTS = Path(__file__).resolve().parent.parent / "tests"
sys.path += [str(_TESTS), str(_TESTS / "brief")]

from test_budget import write_checkpoints

from gitmem.brief.budget import DEFAULT_BUDGET
from gitmem.brief.emit import emit_brief
from gitmem.core.receipts import Ed25519Signer
from gitmem.store.keys import init_identity
from gitmem.store.repo import Store


def store_of(folder: Path, untrusted_writers: int) -> tuple[Store, Path]:
    repo, home = folder / "repo", folder / "home"
    env = {**os.environ, "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@example.com"}
    env |= {"GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@example.com"}
    subprocess.run(["git", "init", "-q", str(repo)], check=True, env=env)
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "--allow-empty", "-m", "x"], env=env)
    identity = init_identity(home, "alice@example.com", None).identity
    store = Store.discover(repo)
    write_checkpoints(store, identity.signer, "alice@example.com", 300, items_each=3)
    for n in range(untrusted_writers):
        write_checkpoints(
            store, Ed25519Signer.generate(), f"w{n}@example.com", 200, text="Other {n}.{i}: x{n}"
        )
    return store, home


def main() -> None:
    largest = 0
    for name, writers in (("healthy: 300 checkpoints × 3 items", 0), ("flood: + 600 untrusted", 3)):
        with tempfile.TemporaryDirectory() as folder:
            store, home = store_of(Path(folder), writers)
            sizes = {
                fmt: len(emit_brief(store, home, fmt, None, world_check=False).encode())
                for fmt in ("text", "markdown", "json")
            }
        largest = max(largest, *sizes.values())
        print(f"{name}: " + ", ".join(f"{f} {s:,} B" for f, s in sizes.items()))
    print(f"largest {largest:,} B of a {DEFAULT_BUDGET:,} B budget: ", end="")
    print("ok" if largest <= DEFAULT_BUDGET else "OVER")


if __name__ == "__main__":
    main()
