"""The fuzz run of benchmarks/stress.py: hostile input through every parser, counted.

    python benchmarks/stress_fuzz.py [--cases 12000] [--seed 29]    # this run alone

Each case builds one hostile file from the templates and values of tests/helpers/hostile.py (the
fuzz suite's, at a scale CI does not run) and hands it to one parser, exactly as gitmem
reads it. An InputError (or any GitmemError) is a refusal in one line; a line skipped
and counted is fine; any other exception is an internal error, and its traceback is
printed (the first few). benchmarks/stress_shapes.py adds JSON of the wrong shape (records,
items, chat exports, settings, local state, model replies), a damaged index file, and
secrets behind random escaping (a fragment left in the snapshot is a secret stored).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import stress_shapes
from helpers import hostile

from gitmem.capture.checkpoint import build_items, mask_draft
from gitmem.capture.items import parse_items
from gitmem.capture.prepare import prepare
from gitmem.capture.sessions import Cursors
from gitmem.capture.transcripts import parse_transcript
from gitmem.core import canonical
from gitmem.core.allowed_signers import parse_allowed_signers
from gitmem.core.errors import GitmemError
from gitmem.core.receipts import Ed25519Signer
from gitmem.core.revocation import parse_revoked_keys
from gitmem.core.transcript import parse_snapshot
from gitmem.hooks import inflight
from gitmem.store.capturelog import CaptureLog
from gitmem.store.config import load_settings
from gitmem.store.ledger import Ledger
from gitmem.team.sync import Watermarks

TESTS = Path(__file__).resolve().parent.parent / "tests"
KEY = Ed25519Signer(bytes(range(32))).public_key.openssh()
TOKENS = (
    "alice@example.com",
    '"',
    "*",
    'namespaces="gitmem"',
    'valid-after="2025"',
    "cert-authority",
    KEY,
    KEY.split()[1],
    "ssh-ed25519",
    "AAAA",
    "\x00",
    "#",
    "a" * 3000,
)
GOOD = {
    "claude": (TESTS / "data/transcripts/claude_session.jsonl").read_text().splitlines(),
    "codex": (TESTS / "data/transcripts/codex_rollout.jsonl").read_text().splitlines(),
}
TEMPLATES = {"claude": hostile.CLAUDE, "codex": hostile.CODEX, "messages": hostile.MESSAGES}
SHOWN = 3


@dataclass
class FuzzTally:
    cases: int = 0
    refused: int = 0
    skipped: int = 0
    internal: int = 0
    tracebacks: int = 0
    stored: int = 0
    """Secrets left in a snapshot (the escaping kind)."""
    kinds: Counter[str] = field(default_factory=Counter)
    failures: Counter[str] = field(default_factory=Counter)
    """Each internal error's type and where in gitmem it was raised."""


def _value(rng: random.Random) -> str:
    if rng.random() < 0.7:
        return rng.choice(hostile.HOSTILE_VALUES)
    text = "".join(
        chr(rng.choice((rng.randrange(32, 127), rng.randrange(0x80, 0x3000))))
        for _ in range(rng.randrange(0, 20))
    )
    return json.dumps(text, ensure_ascii=False)


def _line(rng: random.Random, templates: tuple[str, ...]) -> str:
    if rng.random() < 0.1:
        return rng.choice(hostile.BROKEN_LINES)
    return hostile.fill(rng.choice(templates), [_value(rng) for _ in range(4)])


def _bytes(rng: random.Random, text: str) -> bytes:
    return hostile.to_bytes(text, rng.choice((0, 0, 1, 2)))


def _transcript(rng: random.Random, tally: FuzzTally) -> None:
    fmt = rng.choice(("claude", "codex", "messages", "json", "text", None))
    if fmt == "json":
        body = "[" + ",".join(_line(rng, hostile.GENERIC) for _ in range(rng.randrange(4))) + "]"
    else:
        kind = fmt if fmt in TEMPLATES else rng.choice(tuple(TEMPLATES))
        lines = rng.sample(GOOD.get(kind, []), k=min(len(GOOD.get(kind, [])), rng.randrange(6)))
        lines += [_line(rng, TEMPLATES[kind]) for _ in range(rng.randrange(1, 4))]
        rng.shuffle(lines)
        body = "\n".join(lines)
    transcript = parse_transcript(_bytes(rng, body), "session.jsonl", fmt)
    tally.skipped += len(transcript.skipped)
    prepared = prepare(transcript, {}, None)
    parse_snapshot(prepared.snapshot, transcript.name, transcript.format)


def _items(rng: random.Random, tally: FuzzTally) -> None:
    entries = [_line(rng, hostile.ITEM_TEMPLATES) for _ in range(rng.randrange(4))]
    drafts = parse_items("[" + ",".join(entries) + "]", "items.json")
    messages = parse_transcript(b"we pin pygit2 to 1.19", "t.md", "text")
    snapshot = canonical.sha256_hex(messages.snapshot.encode())
    for item in build_items([mask_draft(d) for d in drafts], messages, "s", snapshot):
        canonical.encode(item.to_dict())


def _trust_files(rng: random.Random, tally: FuzzTally) -> None:
    lines = [" ".join(rng.choices(TOKENS, k=rng.randrange(1, 6))) for _ in range(4)]
    text = "\n".join(lines)
    root = parse_allowed_signers(text, "allowed_signers")
    tally.skipped += len(root.problems)
    tally.skipped += len(parse_revoked_keys(text, "revoked_keys").problems)


def _local_state(rng: random.Random, tally: FuzzTally, folder: Path) -> None:
    data = _bytes(rng, "\n".join(_value(rng) for _ in range(rng.randrange(1, 4))))
    name = rng.choice(
        (
            "emitted.jsonl",
            "capture.log",
            "cursors.json",
            "watermarks.json",
            "config.json",
            f"running/post-commit-{'a' * 40}",
        )
    )
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    Ledger(folder).load()
    CaptureLog(folder).entries()
    Cursors(folder)
    Watermarks(folder)
    inflight.dead(folder)
    load_settings(folder, folder, environ={})


def run(folder: Path, cases: int, seed: int) -> FuzzTally:
    """*cases* hostile inputs, spread over the parsers. Raises nothing."""
    rng = random.Random(seed)
    tally = FuzzTally()
    world = stress_shapes.make_world()

    def secrets(r: random.Random, t: FuzzTally) -> None:
        t.stored += not stress_shapes.secrets(r)

    kinds: dict[str, Callable[[random.Random, FuzzTally], object]] = {
        "transcript": _transcript,
        "transcript ": _transcript,
        "items": _items,
        "trust files": _trust_files,
        "local state": lambda r, t: _local_state(r, t, folder),
        "wrong shapes": lambda r, t: stress_shapes.shapes(world, r),
        "wrong shapes ": lambda r, t: stress_shapes.shapes(world, r),
        "index file": lambda r, t: stress_shapes.index(world, r),
        "escaped secrets": secrets,
    }
    folder.mkdir(parents=True, exist_ok=True)
    try:
        for _ in range(cases):
            _case(rng, tally, kinds)
    finally:
        shutil.rmtree(world.root, ignore_errors=True)
    return tally


def _case(
    rng: random.Random,
    tally: FuzzTally,
    kinds: dict[str, Callable[[random.Random, FuzzTally], object]],
) -> None:
    name = rng.choice(list(kinds))
    tally.kinds[name.strip()] += 1
    tally.cases += 1
    try:
        kinds[name](rng, tally)
    except GitmemError as e:
        tally.refused += 1
        if "\n" in str(e):
            tally.internal += 1  # more than one line
    except Exception as e:
        tally.internal += 1
        tally.tracebacks += 1
        frames = [f for f in traceback.extract_tb(e.__traceback__) if "/gitmem/" in f.filename]
        where = (
            f"{frames[-1].filename.split('/gitmem/')[-1]}:{frames[-1].lineno}" if frames else "?"
        )
        tally.failures[f"{type(e).__name__} at {where} ({name.strip()})"] += 1
        if tally.tracebacks <= SHOWN:
            traceback.print_exc()


def main() -> int:
    """This run alone: the counts per kind; exit 1 on an internal error or a secret stored."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=12000)
    parser.add_argument("--seed", type=int, default=29)
    args = parser.parse_args()
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="gitmem-fuzz-state-"))
    try:
        tally = run(folder, args.cases, args.seed)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    kinds = ", ".join(f"{k} {n}" for k, n in sorted(tally.kinds.items()))
    print(f"cases {tally.cases} ({kinds})")
    print(f"refused in one line {tally.refused}, bad lines skipped and counted {tally.skipped}")
    print(f"internal errors {tally.internal}, tracebacks {tally.tracebacks}")
    for failure, count in tally.failures.most_common():
        print(f"  {count:5}  {failure}")
    print(f"secrets stored {tally.stored}")
    print(f"(reproduce: python benchmarks/stress_fuzz.py --cases {args.cases} --seed {args.seed})")
    return 1 if tally.internal or tally.stored else 0


if __name__ == "__main__":
    sys.exit(main())
