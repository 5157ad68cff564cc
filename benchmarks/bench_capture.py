"""Benchmark: what the background worker pays to capture one large session with the heuristic.

    python benchmarks/bench_capture.py [--megabytes 3] [--runs 3]

Builds one Claude Code session of about ``--megabytes`` MB from the real development
sessions of the labelled corpus (``benchmarks/data/extract/``: their lines in order, under
one session id, repeated until the size is reached), then times, best of ``--runs``:

* the floor: ``python -m gitmem --version`` (interpreter and imports);
* ``gitmem capture --transcript FILE`` in a fresh repository, as the background worker runs
  it after a session (parse, echo tagging, masking, heuristic extraction, quote checks,
  checkpoint, signature, append); each run captures a copy under a new session id, so none
  is skipped as already captured;
* inside that, the heuristic extraction alone (in this process).

The issue 27 budget is 2 s for a 3 MB session; the ratio to the floor is printed too.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gitmem.capture.extract.heuristic import extract
from gitmem.capture.prepare import prepare
from gitmem.capture.transcripts import load_transcript
from gitmem.store.keys import init_identity

CORPUS = Path(__file__).parent / "data" / "extract"


def dev_sessions() -> list[Path]:
    """The Claude Code development sessions of the corpus (tests never read test files)."""
    manifest = json.loads((CORPUS / "corpus" / "MANIFEST.json").read_text(encoding="utf-8"))
    dev = [
        CORPUS / "corpus" / e["name"]
        for e in manifest["files"]
        if e["split"] == "dev" and e["host"] == "claude"
    ]
    found = [p for p in dev if p.is_file()]
    return found or sorted(CORPUS.glob("claude-*.jsonl"))


def big_session(path: Path, megabytes: float, session: str) -> int:
    """Write a session of about *megabytes* MB at *path*; returns its size in bytes."""
    lines: list[bytes] = []
    for source in dev_sessions():
        for line in source.read_bytes().splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict) and "sessionId" in record:
                record["sessionId"] = session
            lines.append(json.dumps(record, ensure_ascii=False).encode("utf-8"))
    target = int(megabytes * 1_000_000)
    out: list[bytes] = []
    size = 0
    while size < target:
        for line in lines:
            out.append(line)
            size += len(line) + 1
            if size >= target:
                break
    path.write_bytes(b"\n".join(out) + b"\n")
    return size


def timed(command: list[str]) -> float:
    began = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, default=3.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="gitmem-bench-capture-"))
    os.environ["GITMEM_HOME"] = str(root / "home")
    try:
        repo = root / "repo"
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        init_identity(root / "home", "bench@example.com", None)
        gitmem = [sys.executable, "-m", "gitmem"]
        floor = min(timed([*gitmem, "--version"]) for _ in range(args.runs))
        captures, extracts = [], []
        size = 0
        for run in range(args.runs):
            path = root / f"session-{run}.jsonl"
            size = big_session(path, args.megabytes, f"bench-session-{run}")
            command = [*gitmem, "-C", str(repo), "capture", "--transcript", str(path)]
            captures.append(timed([*command, "--extractor", "heuristic"]))
            messages = prepare(load_transcript(path), {}, None).clean_messages()
            began = time.perf_counter()
            extract(messages)
            extracts.append(time.perf_counter() - began)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    capture, extraction = min(captures), min(extracts)
    print(f"session:            {size / 1e6:.2f} MB (Claude Code JSONL, real dev sessions)")
    print(f"floor:              {floor:6.3f} s  (python -m gitmem --version)")
    print(f"capture, heuristic: {capture:6.3f} s  ({capture / floor:.1f}x the floor; budget 2 s)")
    print(f"  of it extraction: {extraction:6.3f} s")


if __name__ == "__main__":
    main()
