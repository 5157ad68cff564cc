"""Check: two source trees print the same thing over the same store, byte for byte.

    python benchmarks/same_outputs.py TREE_A TREE_B [--checkpoints N] [--store DIR]
    python benchmarks/same_outputs.py TREE_A TREE_B --writes

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

With ``--writes`` the two trees *write* instead, each from scratch for the same inputs:
one key (made once, copied), one pinned clock (``datetime.now`` fixed by a
``sitecustomize`` on ``PYTHONPATH``), the same paths, and a different hash seed for each
tree (what is stored must not depend on set iteration order). Every writer runs
once through the command line or its library entry: ``capture`` (the heuristic,
``--items``, a scripted ``--extractor command``, and the same transcript again),
``import``, ``import-chat`` then ``pending approve --all``, the MCP tools' ``remember``,
and the hooks' ``capture-session``, ``post-commit`` and ``post-rewrite``. Compared: each
command's output, then the tree and subject of every commit of the memory ref (commit
ids hold libgit2's own clock), and the capture log (``.git/gitmem/capture.log``).

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
from datetime import datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_scale  # noqa: E402  (puts this tree's gitmem first on sys.path)

from gitmem.capture.transcripts import parse_transcript  # noqa: E402

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
        when = builder.start + timedelta(minutes=n + sessions)
        builder.capture(transcript, bench_scale.drafts_of(n), f"again-{n}", when)


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


CLOCK = "2026-03-01T12:00:00+00:00"
"""The one time every write of ``--writes`` sees."""
PIN_CLOCK = f"""\
import datetime as _datetime

_FIXED = _datetime.datetime.fromisoformat({CLOCK!r})


class _Pinned(_datetime.datetime):
    @classmethod
    def now(cls, tz=None):
        return _FIXED if tz is not None else _FIXED.replace(tzinfo=None)

    @classmethod
    def utcnow(cls):
        return _FIXED.replace(tzinfo=None)


_datetime.datetime = _Pinned
"""
SCRIPTED_MODEL = """\
import json, sys
sys.stdin.read()
print(json.dumps({"items": [
    {"kind": "decision", "text": "Pin pygit2 before the release", "trust": "verbatim",
     "quote": "pin pygit2"},
    {"kind": "open_loop", "text": "Check the wheels", "trust": "inferred", "quote": None},
]}))
"""
REMEMBER = """\
import sys
from pathlib import Path
from gitmem.capture.run import remember
from gitmem.core.items import Draft
from gitmem.store.repo import Store
store = Store.discover(sys.argv[1])
draft = Draft(
    "decision", "Keep the cache local", "verbatim", "the cache lives in .git/gitmem/", {}
)
done = remember(store, Path(sys.argv[2]), draft, Path(sys.argv[3]), "mcp-session", "mcp remember")
print(type(done).__name__, getattr(done, "checkpoint", None) or done.id)
"""


def write_inputs(where: Path) -> None:
    """What every tree writes from, made once: a key, transcripts, items, a chat export,
    a scripted model, the clock pin; every file's time fixed."""
    from gitmem.store.keys import init_identity

    data = HERE.parent / "tests" / "data"
    init_identity(where / "home", "alice@example.com", None)
    inputs = where / "inputs"
    (inputs / "folder").mkdir(parents=True)
    shutil.copy(data / "session.md", inputs / "session.md")
    shutil.copy(data / "items.json", inputs / "items.json")
    shutil.copy(data / "chat" / "telegram_export.json", inputs / "chat.json")
    shutil.copy(data / "transcripts" / "claude_session.jsonl", inputs / "claude.jsonl")
    for name in ("codex_rollout.jsonl", "plain.md", "generic.json"):
        shutil.copy(data / "transcripts" / name, inputs / "folder" / name)
    (inputs / "model.py").write_text(SCRIPTED_MODEL)
    (inputs / "remember.py").write_text(REMEMBER)
    (where / "pin").mkdir()
    (where / "pin" / "sitecustomize.py").write_text(PIN_CLOCK)
    fixed = datetime.fromisoformat(CLOCK).timestamp() - 3600
    for path in inputs.rglob("*"):
        os.utime(path, (fixed, fixed))


def write_tree(tree: Path, inputs: Path, scratch: Path, seed: int) -> dict[str, Output]:
    """Every writer's output under *tree*, from scratch at *scratch*, then what it wrote."""
    for name in ("repo", "home", "user"):
        shutil.rmtree(scratch / name, ignore_errors=True)
    shutil.copytree(inputs / "home", scratch / "home")
    (scratch / "user").mkdir()
    repo = scratch / "repo"
    env = environment(tree, scratch)
    env["PYTHONPATH"] = f"{tree}{os.pathsep}{inputs / 'pin'}"
    env.update({"GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@example.com"})
    env.update({"GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@example.com"})
    env.update({"GIT_AUTHOR_DATE": CLOCK, "GIT_COMMITTER_DATE": CLOCK})
    # A different hash seed for each tree: what a tree stores must not depend on set
    # iteration order (it once did, for items carried with equal rank).
    env["PYTHONHASHSEED"] = str(seed)
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True, env=env)
    git = ["git", "-C", str(repo)]
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "start"], check=True, env=env)
    check_tree(tree, env, repo)
    given = inputs / "inputs"

    def run(*argv: str | Path) -> Output:
        done = subprocess.run([str(a) for a in argv], cwd=repo, env=env, capture_output=True)
        return Output(done.returncode, done.stdout, done.stderr)

    gitmem = (sys.executable, "-m", "gitmem", "-C", repo)
    model = f"{sys.executable} {given / 'model.py'}"
    session, items, claude = given / "session.md", given / "items.json", given / "claude.jsonl"
    steps: list[tuple[str, list[str | Path]]] = [
        ("capture (heuristic)", [*gitmem, "capture", "--transcript", session]),
        ("capture (same again)", [*gitmem, "capture", "--transcript", session]),
        ("capture --items", [*gitmem, "capture", "--transcript", session, "--items", items]),
        ("capture --extractor command", [*gitmem, "capture", "--transcript", claude]),
        ("import", [*gitmem, "import", given / "folder", "--json"]),
        ("import-chat", [*gitmem, "import-chat", given / "chat.json", "--json"]),
        ("pending approve --all", [*gitmem, "pending", "approve", "--all", "--json"]),
        ("remember", [sys.executable, given / "remember.py", repo, scratch / "home", session]),
        ("hook capture-session", [*gitmem, "hook", "capture-session", claude]),
        ("git commit", [*git, "commit", "-q", "--allow-empty", "-m", "Decision: keep it small"]),
    ]
    steps[2][1].extend(["--session", "told", "--json"])
    steps[3][1].extend(["--extractor", "command", "--command", model])
    outputs = {name: run(*argv) for name, argv in steps}
    head = run(*git, "rev-parse", "HEAD").stdout.decode().strip()
    outputs["hook post-commit"] = run(*gitmem, "hook", "post-commit", head)
    outputs["git commit --amend"] = run(
        *git, "commit", "-q", "--amend", "--allow-empty", "-m", "Decision: keep it"
    )
    amended = run(*git, "rev-parse", "HEAD").stdout.decode().strip()
    pairs = scratch / "rewritten"
    pairs.write_text(f"{head} {amended}\n")
    outputs["hook post-rewrite"] = run(*gitmem, "hook", "post-rewrite", "amend", pairs)
    log = ("log", "--format=%T %s", "refs/gitmem/memory")
    outputs["(trees of refs/gitmem/memory)"] = run(*git, *log)
    captured = repo / ".git" / "gitmem" / "capture.log"
    outputs["(capture log)"] = Output(0, captured.read_bytes() if captured.exists() else b"", b"")
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
    parser.add_argument("--writes", action="store_true", help="compare what the trees write")
    args = parser.parse_args()
    trees = [t.resolve() for t in args.trees]
    for tree in trees:
        if not (tree / "gitmem" / "__init__.py").is_file():
            parser.error(f"{tree} is not a gitmem source tree")
    root = Path(tempfile.mkdtemp(prefix="gitmem-same-outputs-"))
    try:
        if args.writes:
            say("writing the inputs")
            write_inputs(root / "given")
            (root / "run").mkdir()
            a, b = (
                write_tree(t, root / "given", root / "run", seed) for seed, t in enumerate(trees, 1)
            )
        else:
            a, b = read_trees(trees, args.store, args.checkpoints, root)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return compare(trees, a, b)


def read_trees(
    trees: list[Path], given: Path | None, checkpoints: int, root: Path
) -> tuple[dict[str, Output], dict[str, Output]]:
    """Each tree's outputs over one store (built with this tree's library, or reused)."""
    store = given.resolve() if given else root / "store"
    if not (store / "repo").is_dir():
        build_store(store, checkpoints)
    else:
        say(f"reusing the store in {store}")
    scratch = root / "run"
    scratch.mkdir()
    say(f"running {trees[0]}")
    a = run_tree(trees[0], store, scratch, None)
    item = first_item(a["brief --format json --budget 0"])
    say(f"running {trees[1]}")
    return a, run_tree(trees[1], store, scratch, item)


def compare(trees: list[Path], a: dict[str, Output], b: dict[str, Output]) -> int:
    """Print OK or a diff per output; 1 when any differs."""
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
