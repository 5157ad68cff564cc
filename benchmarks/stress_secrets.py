"""The secrets run of benchmarks/stress.py: plant every fake secret everywhere, then look
for it in every byte gitmem stored.

    python benchmarks/stress_secrets.py [--quick]     # this run alone, with its matrix

The secrets are the corpus of tests/data/secrets/secrets.json (fake, each in a realistic
surrounding). Each is planted in up to 17 places: as said in a plain transcript, a Claude
message, a Claude tool call (a command, a file written, a JSON file written), a tool
result, a Codex message, a Codex function call (a command, and a JSON document passed as
a string), a Codex tool output, a generic JSON transcript, an item's text, an item's
field; and, for a secret whose shape gives it away on one line, an item's key, a session
id, a transcript's file name and a ``--session`` given on the command line. Each is one
``gitmem capture`` through the CLI (in-process, for speed), one repository per place.
Then every git object and every file of ``.git/gitmem/`` is searched for each secret:
its distinctive runs of characters, so an escaped copy is found too.

Then **the escaping matrix** (tests/helpers/escaping.py): every secret behind each escaping level
(as written; in a JSON file; that file written by a double-quoted ``echo``; …) in each
placement (message text, tool input, tool output, Codex function call arguments, Codex
local shell call, Claude tool call input): one capture per placement and level, one
message per secret, one repository each. The matrix printed is kinds × placements ×
levels, each cell the secrets of that kind found stored; every cell must be 0.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from gitmem.cli import main as gitmem

TESTS = Path(__file__).resolve().parent.parent / "tests"
sys.path.insert(0, str(TESTS))

from helpers import escaping  # noqa: E402  (the matrix's levels and placements)

CONTEXT_KINDS = {"secret-assignment", "url-password", "bearer-token", "aws-secret-access-key"}
"""Kinds known only by their surroundings: planted with them, never alone."""


class WorldLike(Protocol):
    root: Path
    env: dict[str, str]
    tracebacks: int
    internal: int

    def judge(self, stderr: str) -> None: ...


@dataclass
class Secrets:
    """Captures tried and written, secrets found stored, and what to say about them."""

    tried: int = 0
    written: int = 0
    stored: int = 0
    notes: list[str] = field(default_factory=list)
    matrix: dict[tuple[str, str, str], tuple[int, int]] = field(default_factory=dict)
    """(level, placement, kind) → (secrets planted, secrets found stored)."""

    def render_matrix(self) -> str:
        """Per escaping level, a table of kinds × placements: stored/planted per cell."""
        places = list(escaping.PLACEMENTS)
        kinds = sorted({kind for _, _, kind in self.matrix})
        lines = []
        for level in escaping.LEVELS:
            lines.append(f"escaping level {level}")
            lines.append(f"  {'kind':24}" + "".join(f"{p[:14]:>15}" for p in places))
            for kind in kinds:
                cells = [self.matrix.get((level, p, kind), (0, 0)) for p in places]
                lines.append(f"  {kind:24}" + "".join(f"{f'{s}/{n}':>15}" for n, s in cells))
        planted = sum(n for n, _ in self.matrix.values())
        stored = sum(s for _, s in self.matrix.values())
        cells = len(self.matrix)
        lines.append(
            f"{len(kinds)} kinds × {len(places)} placements × {len(escaping.LEVELS)} levels "
            f"= {cells} cells, {planted} secrets planted, {stored} stored"
        )
        return "\n".join(lines)


def _claude(content: object, role: str = "user", session: str = "s-1") -> str:
    record = {
        "type": role,
        "uuid": "u-1",
        "sessionId": session,
        "message": {"role": role, "content": content},
    }
    return json.dumps(record) + "\n"


def _tool(name: str, tool_input: dict[str, Any]) -> str:
    return _claude(
        [{"type": "tool_use", "id": "t1", "name": name, "input": tool_input}], "assistant"
    )


def _codex(payload: dict[str, Any]) -> str:
    return (
        json.dumps(
            {"timestamp": "2026-02-11T08:01:12Z", "type": "response_item", "payload": payload}
        )
        + "\n"
    )


def _call(arguments: dict[str, Any]) -> str:
    return _codex({"type": "function_call", "name": "shell", "arguments": json.dumps(arguments)})


Plant = Callable[[str, str], tuple[str, str, list[str], str | None]]
"""(secret, its text) → (transcript, file name, extra capture args, items file or None)."""

IN_TEXT: dict[str, Plant] = {
    "plain transcript": lambda s, t: (t, "notes.md", [], None),
    "claude message": lambda s, t: (_claude(t), "c.jsonl", [], None),
    "claude tool command": lambda s, t: (_tool("Bash", {"command": t}), "c.jsonl", [], None),
    "claude file written": lambda s, t: (
        _tool("Write", {"file_path": "notes.txt", "content": t}),
        "c.jsonl",
        [],
        None,
    ),
    "claude JSON file written": lambda s, t: (
        _tool("Write", {"file_path": "c.json", "content": json.dumps({"v": t}, indent=2)}),
        "c.jsonl",
        [],
        None,
    ),
    "claude tool result": lambda s, t: (
        _claude([{"type": "tool_result", "tool_use_id": "t1", "content": t}]),
        "c.jsonl",
        [],
        None,
    ),
    "codex message": lambda s, t: (
        _codex({"type": "message", "role": "user", "content": [{"type": "input_text", "text": t}]}),
        "x.jsonl",
        [],
        None,
    ),
    "codex function call": lambda s, t: (
        _call({"command": ["bash", "-lc", t]}),
        "x.jsonl",
        [],
        None,
    ),
    "codex JSON in arguments": lambda s, t: (
        _call({"input": json.dumps({"path": "c.json", "content": t})}),
        "x.jsonl",
        [],
        None,
    ),
    "codex tool output": lambda s, t: (
        _codex({"type": "function_call_output", "call_id": "c", "output": t}),
        "x.jsonl",
        [],
        None,
    ),
    "generic JSON": lambda s, t: (json.dumps([{"role": "user", "content": t}]), "g.json", [], None),
    "item text": lambda s, t: (
        "We talked.\n",
        "n.md",
        [],
        json.dumps([{"kind": "fact", "text": t}]),
    ),
    "item field": lambda s, t: (
        "We talked.\n",
        "n.md",
        [],
        json.dumps([{"kind": "fact", "text": "Deploy notes", "evidence": {"note": t}}]),
    ),
}
ALONE: dict[str, Plant] = {
    "item key": lambda s, t: (
        "We talked.\n",
        "n.md",
        [],
        json.dumps([{"kind": "fact", "text": "Deploy notes", "evidence": {s: "seen"}}]),
    ),
    "session id": lambda s, t: (
        _claude("We pinned pygit2.", session=f"s-{s}"),
        "c.jsonl",
        [],
        None,
    ),
    "file name": lambda s, t: ("We pinned pygit2.\n", f"{s}.md", [], None),
    "--session": lambda s, t: ("We pinned pygit2.\n", "n.md", ["--session", f"run {s}"], None),
}


fragments = escaping.fragments


def _cli(*args: str) -> tuple[int, str]:
    err = io.StringIO()
    code = 0
    with redirect_stdout(io.StringIO()), redirect_stderr(err):
        try:
            gitmem(list(args))
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 0
    return code, err.getvalue()


def stored_bytes(repo: Path) -> bytes:
    objects = subprocess.run(
        ["git", "-C", str(repo), "cat-file", "--batch-all-objects", "--batch"],
        capture_output=True,
        check=True,
    ).stdout
    local = repo / ".git" / "gitmem"
    return b"\n".join([objects, *(p.read_bytes() for p in local.rglob("*") if p.is_file())])


def run(world: WorldLike, quick: bool) -> Secrets:
    """Plant, capture, search. Raises nothing but a setup failure."""
    corpus = json.loads((TESTS / "data" / "secrets" / "secrets.json").read_text())
    if quick:  # one of each kind
        corpus = list({e["kind"]: e for e in corpus}.values())
    tally = Secrets()
    os.environ.update(world.env)
    os.environ["GITMEM_HOME"] = str(world.root / "home-secrets")
    places = {**IN_TEXT, **ALONE}
    for number, (place, plant) in enumerate(places.items()):
        repo = world.root / f"secrets-{number}"
        subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
        subprocess.run(
            ["git", "-C", str(repo), "commit", "-q", "--allow-empty", "-m", "i"],
            check=True,
            env=world.env,
        )
        _cli("-C", str(repo), "init", "--name", "stress@example.com")
        planted: list[str] = []
        for index, entry in enumerate(corpus):
            secret, text = entry["secret"], entry["text"]
            one_line = secret.isprintable() and "/" not in secret and len(secret) <= 150
            if place in ALONE and (entry["kind"] in CONTEXT_KINDS or not one_line):
                continue
            body, name, extra, items = plant(secret, text)
            folder = world.root / f"plant-{number}-{index}"
            folder.mkdir()
            path = folder / name
            path.write_text(body, encoding="utf-8")
            args = ["-C", str(repo), "capture", "--transcript", str(path), *extra]
            if items is not None:
                (folder / "items.json").write_text(items, encoding="utf-8")
                args += ["--items", str(folder / "items.json")]
            code, err = _cli(*args)
            world.judge(err)
            tally.tried += 1
            tally.written += code == 0
            if code != 0:
                tally.notes.append(f"{place}/{entry['kind']}: exit {code}: {err.strip()[:120]}")
            planted.append(secret)
        data = stored_bytes(repo)
        leaked = [s for s in planted if any(f.encode() in data for f in fragments(s))]
        tally.stored += len(leaked)
        tally.notes += [f"LEAK {place}: {s[:24]}…" for s in leaked]
    kinds = len({e["kind"] for e in corpus})
    tally.notes.insert(0, f"{len(corpus)} secrets of {kinds} kinds in {len(places)} places")
    _escaping_matrix(world, corpus, tally)
    return tally


def _new_repo(world: WorldLike, name: str) -> Path:
    repo = world.root / name
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    subprocess.run(
        ["git", "-C", str(repo), "commit", "-q", "--allow-empty", "-m", "i"],
        check=True,
        env=world.env,
    )
    _cli("-C", str(repo), "init", "--name", "stress@example.com")
    return repo


def _escaping_matrix(world: WorldLike, corpus: list[dict[str, str]], tally: Secrets) -> None:
    """Every secret behind every escaping level in every placement (module docstring)."""
    for number, (level, place) in enumerate(
        (level, place) for level in escaping.LEVELS for place in escaping.PLACEMENTS
    ):
        repo = _new_repo(world, f"escaping-{number}")
        path = world.root / f"escaping-{number}.jsonl"
        lines = [escaping.PLACEMENTS[place](escaping.escaped(e["text"], level)) for e in corpus]
        path.write_text("".join(lines), encoding="utf-8")
        code, err = _cli("-C", str(repo), "capture", "--transcript", str(path))
        world.judge(err)
        tally.tried += 1
        tally.written += code == 0
        if code != 0:
            tally.notes.append(f"{place}/{level}: exit {code}: {err.strip()[:120]}")
        data = stored_bytes(repo)
        for entry in corpus:
            leaked = any(f.encode() in data for f in fragments(entry["secret"]))
            planted, stored = tally.matrix.get((level, place, entry["kind"]), (0, 0))
            tally.matrix[level, place, entry["kind"]] = (planted + 1, stored + leaked)
            tally.stored += leaked
            if leaked:
                tally.notes.append(f"LEAK {place}/{level}: {entry['secret'][:24]}…")


def main() -> int:
    """This run alone: prints the notes and the matrix; exit 1 when a secret was stored."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one secret of each kind")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="gitmem-secrets-"))
    world = _World(root, {**os.environ, **_ENV, "HOME": str(root / "no-home")})
    try:
        tally = run(world, args.quick)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(tally.render_matrix())
    print(f"captures {tally.tried}, written {tally.written}, secrets stored {tally.stored}")
    print("\n".join(tally.notes[:12]))
    print(f"tracebacks {world.tracebacks}, internal errors {world.internal}")
    print(f"(reproduce: python benchmarks/stress_secrets.py{' --quick' if args.quick else ''})")
    return 1 if tally.stored or world.tracebacks or world.internal else 0


_ENV = {
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_AUTHOR_NAME": "stress",
    "GIT_AUTHOR_EMAIL": "stress@example.com",
    "GIT_COMMITTER_NAME": "stress",
    "GIT_COMMITTER_EMAIL": "stress@example.com",
}


@dataclass
class _World:
    root: Path
    env: dict[str, str]
    tracebacks: int = 0
    internal: int = 0

    def judge(self, stderr: str) -> None:
        self.tracebacks += stderr.count("Traceback")
        self.internal += stderr.count("internal error")


if __name__ == "__main__":
    sys.exit(main())
