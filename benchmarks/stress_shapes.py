"""More fuzz for benchmarks/stress_fuzz.py: JSON of the wrong shape, a damaged index file,
and secrets behind random escaping.

- **Shapes.** A good sample of each JSON a file, a teammate's push or a model server can
  hand gitmem (a checkpoint, an event, an item, an items file, a chat export, the
  settings, the local state files, a model's reply and a server's envelope) with one
  value anywhere in it replaced by a value of another shape (a list, an object, a
  number, null, …), handed to the code that reads it exactly as gitmem does: parse,
  check, replay. Only a GitmemError (a refusal in one line) may come out.
- **Index.** The index's file (.git/gitmem/memory.sqlite) of a small store, spoilt
  (tests/helpers/hostile.py: bit flips, cuts, zeroed runs, a schema byte), opened and
  read through every query the commands make.
- **Secrets.** A secret of the corpus behind a random chain of up to five escapings (a
  JSON string, shell double or single quotes) in a random placement, prepared as
  capture prepares it: no fragment of it may be left in the snapshot.
"""

from __future__ import annotations

import contextlib
import json
import random
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from helpers import escaping, hostile

from gitmem.agents.ask.schema import parse_solver, parse_support
from gitmem.capture.chat.export import parse_export
from gitmem.capture.items import parse_items
from gitmem.capture.prepare import prepare
from gitmem.capture.sessions import Cursors
from gitmem.capture.transcripts import parse_transcript
from gitmem.cli import main as gitmem
from gitmem.core import canonical
from gitmem.core.integrity import check_item
from gitmem.core.items import parse_item
from gitmem.core.purge import purge_of
from gitmem.core.records import Checkpoint, Event, parse_record
from gitmem.hooks import inflight
from gitmem.lifecycle.index import INDEX_FILE, Index
from gitmem.lifecycle.replay import Replayable, replay
from gitmem.llm.openai import OpenAIBackend
from gitmem.store.capturelog import CaptureLog
from gitmem.store.config import load_settings
from gitmem.store.ledger import Ledger
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots
from gitmem.team.sync import Watermarks

TESTS = Path(__file__).resolve().parent.parent / "tests"
WRONG: tuple[Any, ...] = (
    [],
    {},
    0,
    -1,
    10**30,
    None,
    True,
    "",
    "x",
    ["x", 1],
    {"a": [None]},
    [[[]]],
    "\udc80",
)
"""Values of every shape, put where a value of another shape belongs."""


def mutated(value: Any, rng: random.Random) -> Any:
    """*value* with one node anywhere in it (itself included) replaced by a wrong one."""
    nodes: list[tuple[Any, Any]] = []  # (container, key) of every node

    def walk(node: Any) -> None:
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, child in list(items):
            nodes.append((node, key))
            if isinstance(child, dict | list):
                walk(child)

    copy = json.loads(json.dumps(value))
    if not isinstance(copy, dict | list) or rng.random() < 0.05:
        return rng.choice(WRONG)
    walk(copy)
    if not nodes:
        return rng.choice(WRONG)
    for _ in range(rng.randrange(1, 3)):
        container, key = rng.choice(nodes)
        container[key] = rng.choice(WRONG)
    if isinstance(copy, dict) and rng.random() < 0.2:
        copy[rng.choice(("extra", "items", "type", "schema", "event"))] = rng.choice(WRONG)
    return copy


def _bytes(value: Any) -> bytes:
    """Canonical-looking JSON bytes (keys sorted, compact), lone surrogates escaped."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8", "surrogatepass")


class World:
    """A small store (three captures, one resolve), its records, item blobs and index,
    and a folder for local state files; made once per fuzz run."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.repo = root / "repo"
        self.home = root / "home"
        env = {"GITMEM_HOME": str(self.home)}
        subprocess.run(["git", "init", "-q", "-b", "main", str(self.repo)], check=True)
        subprocess.run(
            [
                "git",
                "-C",
                str(self.repo),
                "-c",
                "user.name=f",
                "-c",
                "user.email=f@x",
                "commit",
                "-q",
                "--allow-empty",
                "-m",
                "i",
            ],
            check=True,
        )
        self._cli(env, "init", "--name", "fuzz@example.com")
        for n in range(3):
            path = root / f"t{n}.md"
            path.write_text(f"We decided: the parser keeps module {n}.\nTODO: check port 13{n}.\n")
            self._cli(env, "capture", "--transcript", str(path))
        self.store = Store.discover(self.repo)
        self.roots = load_trust_roots(self.home, self.store)
        index = Index.open(self.store, self.roots)
        first = next(iter(index.state(current_only=True).items.values()))
        index.close()
        self._cli(env, "resolve", first.id[:12])  # an event among the samples
        contents, read_items = self.store.read_deferred()
        self.records = [(r.address, r.data, r.receipt) for r in contents.records]
        self.items = read_items()
        Index.open(self.store, self.roots).close()
        self.index = (self.store.local_dir / INDEX_FILE).read_bytes()
        self.local = root / "local"
        self.local.mkdir()
        export = (TESTS / "data" / "chat" / "telegram_export.json").read_text()
        self.samples: list[tuple[str, Any, Callable[[Any], object]]] = [
            ("record", json.loads(data), self._record) for _, data, _ in self.records
        ]
        assert any(b'"type":"event"' in data for _, data, _ in self.records), "no event sampled"
        self.samples += [("item", json.loads(data), self._item) for data in self.items.values()]
        self.samples += [
            (
                "items file",
                [
                    {
                        "kind": "decision",
                        "text": "t",
                        "trust": "verbatim",
                        "quote": "the parser keeps module 1",
                        "evidence": {"a": "b"},
                    }
                ],
                lambda v: parse_items(json.dumps(v), "items.json"),
            ),
            ("chat export", json.loads(export), lambda v: parse_export(_bytes(v), "result.json")),
            (
                "solver reply",
                {"status": "answer", "answer": "37", "excerpt": "E1", "quote": "TIMEOUT = 37"},
                lambda v: parse_solver(_bytes(v)),
            ),
            (
                "support reply",
                {"status": "answer", "answer": "37"},
                lambda v: parse_support(_bytes(v)),
            ),
            (
                "server reply",
                {
                    "choices": [
                        {"message": {"content": "{}", "refusal": None}, "finish_reason": "stop"}
                    ]
                },
                self._server,
            ),
            (
                "config",
                {
                    "extractor": "command",
                    "command": "x",
                    "budget": 9000,
                    "openai": {"base_url": "http://127.0.0.1:1", "model": "m"},
                },
                lambda v: self._file(
                    "config.json", v, lambda: load_settings(self.local, self.local, environ={})
                ),
            ),
            (
                "cursors",
                {"a.jsonl": {"offset": 10, "hash": "ab"}},
                lambda v: self._file("cursors.json", v, lambda: Cursors(self.local)),
            ),
            (
                "watermarks",
                {"origin": "a" * 40},
                lambda v: self._file("watermarks.json", v, lambda: Watermarks(self.local)),
            ),
            (
                "capture log",
                {"when": "2026-01-01T00:00:00Z", "outcome": "written"},
                lambda v: self._file("capture.log", v, lambda: CaptureLog(self.local).entries()),
            ),
            (
                "ledger",
                {"hash": "ab", "at": 1.5},
                lambda v: self._file("emitted.jsonl", v, lambda: Ledger(self.local).load()),
            ),
            (
                "marker",
                {"pid": 1, "started": 1.5},
                lambda v: self._file(
                    f"running/post-commit-{'a' * 40}", v, lambda: inflight.dead(self.local)
                ),
            ),
        ]

    def _cli(self, env: dict[str, str], *args: str) -> None:
        import os
        from contextlib import redirect_stderr, redirect_stdout
        from io import StringIO

        saved = {k: os.environ.get(k) for k in env}
        os.environ.update(env)
        try:
            with (
                redirect_stdout(StringIO()),
                redirect_stderr(StringIO()),
                contextlib.suppress(SystemExit),
            ):
                gitmem(["-C", str(self.repo), *args])
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value

    def _record(self, value: Any) -> None:
        data = _bytes(value)
        address = canonical.sha256_hex(data)
        check = self.roots.check(address, data, None)
        record = check.record
        if record is None:
            return
        checkpoints = [parse_record(d) for _, d, _ in self.records]
        events = [r for r in (*checkpoints, record) if isinstance(r, Checkpoint | Event)]
        items = {a: parse_item(d) for a, d in self.items.items()}
        replay([Replayable(canonical.sha256_hex(_bytes(r.to_dict())), r) for r in events], items)
        if isinstance(record, Event):
            purge_of(record)

    def _item(self, value: Any) -> None:
        data = _bytes(value)
        check_item(canonical.sha256_hex(data), data)
        parse_item(data)

    def _server(self, value: Any) -> None:
        backend = OpenAIBackend("http://127.0.0.1:1/v1", "m", None, 1.0)
        backend._content(_bytes(value))

    def _file(self, name: str, value: Any, read: Callable[[], object]) -> None:
        path = self.local / name
        path.parent.mkdir(parents=True, exist_ok=True)
        line = _bytes(value)
        path.write_bytes(line + b"\n" if name.endswith((".log", ".jsonl")) else line)
        read()
        path.unlink()


def shapes(world: World, rng: random.Random) -> str:
    name, sample, read = rng.choice(world.samples)
    read(mutated(sample, rng))
    return name


def index(world: World, rng: random.Random) -> str:
    kind, data = hostile.damaged(world.index, rng)
    path = world.store.local_dir / INDEX_FILE
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    path.write_bytes(data)
    found = Index.open(world.store, world.roots)
    try:
        state = found.state(current_only=True)
        found.counts()
        found.totals()
        found.failed()
        found.failed_items()
        found.search("parser", 5)
        found.readable(list(state.items))
    finally:
        found.close()
    return kind


CORPUS = json.loads((TESTS / "data" / "secrets" / "secrets.json").read_text(encoding="utf-8"))
WRAPS = (escaping.in_json, escaping.in_double_quotes, escaping.in_single_quotes)


def secrets(rng: random.Random) -> bool:
    """Whether the secret planted behind random escaping was masked (no fragment left)."""
    entry = rng.choice(CORPUS)
    text = entry["text"]
    for _ in range(rng.randrange(0, 6)):
        text = rng.choice(WRAPS)(text)
    place = rng.choice(list(escaping.PLACEMENTS))
    data = escaping.PLACEMENTS[place](text).encode()
    snapshot = prepare(parse_transcript(data, "session.jsonl"), {}, None).transcript.snapshot
    return not any(f in snapshot for f in escaping.fragments(entry["secret"]))


def make_world() -> World:
    return World(Path(tempfile.mkdtemp(prefix="gitmem-fuzz-")))
