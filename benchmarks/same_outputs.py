"""Check: two source trees print the same thing over the same store, byte for byte.

    python benchmarks/same_outputs.py TREE_A TREE_B [--checkpoints N] [--store DIR]

A refactor keeps every CLI output, JSON field, exit code and stored byte the same; this
is how to see it. TREE_A and TREE_B are two gitmem source trees (for instance
``git worktree add /tmp/base main`` and the tree being changed). One store of N
checkpoints (default 1,000) is built with benchmarks/bench_scale.py's ``Builder``,
through this tree's library (the store builder lives there only), or reused from
``--store DIR`` (built there and kept when DIR holds none yet); its last three sessions
are said again at the end, so that corroboration shows. Then, for each tree in
turn, the store is copied afresh to one and the same scratch path and these run there
in fresh processes (``PYTHONPATH=TREE``, the same ``GITMEM_HOME``, ``HOME``, ``TZ``):

- ``brief --format json --budget 0``, ``brief``, ``recall TERM… --json`` (a few terms),
  ``status --json``, ``show ID`` and ``show ID --json`` (a corroborated item of the
  first brief), ``verify``,
  ``log --json``;
- then, with ``.git/gitmem/`` deleted (the index rebuilt from the ref), the first brief
  again, and the bytes of the index file left behind.

Each command's exit code, stdout and stderr are compared; ``OK`` per command, else a
unified diff. Nothing is normalised: both trees run over the same paths at the same
store state, so absolute paths agree, and no command compared prints a timing. Ages in
a brief are counted in whole days from now, so the two runs agree unless a day begins
between them (run again). Exits 1 on any difference, 2 on bad usage.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_scale  # noqa: E402  (puts this tree's gitmem first on sys.path)

from gitmem.capture.prepare import prepare  # noqa: E402
from gitmem.capture.run import write_checkpoint  # noqa: E402
from gitmem.capture.transcripts import parse_transcript  # noqa: E402
from gitmem.lifecycle.replay import replay  # noqa: E402

RECALL_TERMS = (("parser",), ("cache", "restart"), ("module_7",))
INDEX_FILE = Path(".git") / "gitmem" / "memory.sqlite"
AGAIN = 3
"""Sessions said again at the end of the store, so that corroboration shows."""


@dataclass(frozen=True)
class Output:
    """What one command left: its exit code, stdout and stderr."""

    code: int
    stdout: bytes
    stderr: bytes

    def text(self) -> list[str]:
        return [
            f"exit {self.code}\n",
            "--- stdout\n",
            *self.stdout.decode(errors="replace").splitlines(keepends=True),
            "--- stderr\n",
            *self.stderr.decode(errors="replace").splitlines(keepends=True),
        ]


def build_store(where: Path, checkpoints: int) -> None:
    """A store of *checkpoints* under *where* (``repo/`` and ``home/``), packed."""
    where.mkdir(parents=True, exist_ok=True)
    say(f"building {checkpoints} checkpoints in {where}")
    builder = bench_scale.Builder(where)
    builder.grow(checkpoints, say)
    corroborate(builder, AGAIN)
    builder.pack()
    say(f"built {checkpoints}: {builder.seconds:.0f} s")


def corroborate(builder: bench_scale.Builder, sessions: int) -> None:
    """Say the last *sessions* sessions' items again, each in a session and transcript of
    its own: their open items are corroborated (``[≈ corroborated ×2]``)."""
    for n in range(builder.count - sessions, builder.count):
        text = bench_scale.transcript_text(n) + "said again\n"
        transcript = parse_transcript(text.encode(), f"again-{n}.md")
        result = write_checkpoint(
            builder.store,
            builder.identity,
            prepare(transcript, {}, None),
            bench_scale.drafts_of(n),
            f"again-{n}",
            builder.start + timedelta(minutes=n + sessions),
            None,
            builder.state,
        )
        replay(result.records, onto=builder.state)


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def environment(tree: Path, scratch: Path) -> dict[str, str]:
    """The one environment every command runs in, bar ``PYTHONPATH``: nothing of the
    caller's git, gitmem or Python settings leaks in."""
    keep = {"PATH", "LANG", "LC_ALL", "TMPDIR"}
    env = {k: v for k, v in os.environ.items() if k in keep}
    return {
        **env,
        "PYTHONPATH": str(tree),
        "PYTHONPYCACHEPREFIX": str(scratch / "pycache" / hashlib.sha256(bytes(tree)).hexdigest()),
        "GITMEM_HOME": str(scratch / "home"),
        "HOME": str(scratch / "user"),
        "TZ": "UTC",
        "GIT_CONFIG_NOSYSTEM": "1",
    }


def check_tree(tree: Path, env: dict[str, str], cwd: Path) -> None:
    """Fail unless ``import gitmem`` in *env* at *cwd* loads *tree*'s copy (an editable
    install could otherwise win over ``PYTHONPATH``)."""
    where = subprocess.run(
        [sys.executable, "-c", "import gitmem; print(gitmem.__file__)"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if not Path(where).resolve().is_relative_to(tree):
        raise SystemExit(f"same_outputs: PYTHONPATH={tree} still imports {where}")


def run_tree(tree: Path, store: Path, scratch: Path, item: str | None) -> dict[str, Output]:
    """Every command's output under *tree*, over a fresh copy of *store* at *scratch*."""
    for name in ("repo", "home", "user"):
        shutil.rmtree(scratch / name, ignore_errors=True)
    shutil.copytree(store / "repo", scratch / "repo", symlinks=True)
    shutil.copytree(store / "home", scratch / "home", symlinks=True)
    (scratch / "user").mkdir()
    repo = scratch / "repo"
    env = environment(tree, scratch)
    check_tree(tree, env, repo)

    def gitmem(*args: str) -> Output:
        done = subprocess.run(
            [sys.executable, "-m", "gitmem", "-C", str(repo), *args],
            cwd=repo,
            env=env,
            capture_output=True,
        )
        return Output(done.returncode, done.stdout, done.stderr)

    outputs: dict[str, Output] = {}
    first = ("brief", "--format", "json", "--budget", "0")
    outputs[" ".join(first)] = gitmem(*first)
    item = item or first_item(outputs[" ".join(first)])
    commands: list[tuple[str, ...]] = [
        ("brief",),
        *(("recall", *terms, "--json") for terms in RECALL_TERMS),
        ("status", "--json"),
        ("show", item),
        ("show", item, "--json"),
        ("verify",),
        ("log", "--json"),
    ]
    for command in commands:
        outputs[" ".join(command)] = gitmem(*command)
    shutil.rmtree(repo / ".git" / "gitmem")
    outputs["(no local state) " + " ".join(first)] = gitmem(*first)
    index = repo / INDEX_FILE
    digest = hashlib.sha256(index.read_bytes()).hexdigest() if index.exists() else "absent"
    outputs[f"(bytes of {INDEX_FILE})"] = Output(0, f"sha256 {digest}\n".encode(), b"")
    return outputs


def first_item(brief: Output) -> str:
    """The id of the first corroborated item of a JSON brief, else of its first item
    (the ``show`` compared)."""
    try:
        items = json.loads(brief.stdout)["items"]
        said_again = [i for i in items if i.get("corroboration", 0) >= 2]
        return str((said_again or items)[0]["id"])
    except (ValueError, KeyError, IndexError, TypeError) as e:
        raise SystemExit(f"same_outputs: no item id in the first brief ({e})") from e


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("trees", type=Path, nargs=2, metavar="TREE", help="two source trees")
    parser.add_argument("--checkpoints", type=int, default=1000, metavar="N")
    parser.add_argument(
        "--store", type=Path, metavar="DIR", help="build the store here, or reuse it"
    )
    args = parser.parse_args()
    trees = [t.resolve() for t in args.trees]
    for tree in trees:
        if not (tree / "gitmem" / "__init__.py").is_file():
            parser.error(f"{tree} is not a gitmem source tree")
    root = Path(tempfile.mkdtemp(prefix="gitmem-same-outputs-"))
    try:
        store = args.store.resolve() if args.store else root / "store"
        if not (store / "repo").is_dir():
            build_store(store, args.checkpoints)
        else:
            say(f"reusing the store in {store}")
        scratch = root / "run"
        scratch.mkdir()
        say(f"running {trees[0]}")
        a = run_tree(trees[0], store, scratch, None)
        item = first_item(a["brief --format json --budget 0"])
        say(f"running {trees[1]}")
        b = run_tree(trees[1], store, scratch, item)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    differ = 0
    for name in a:
        if a[name] == b[name]:
            print(f"OK    {name}  (exit {a[name].code}, {len(a[name].stdout)} bytes)")
            continue
        differ += 1
        print(f"DIFF  {name}")
        sys.stdout.writelines(
            difflib.unified_diff(a[name].text(), b[name].text(), str(trees[0]), str(trees[1]))
        )
    print("all equal" if not differ else f"{differ} of {len(a)} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
