"""What a user reads after importing a repository's sessions: the brief across sessions.

    python benchmarks/brief_across.py [--cap N] [REPOSITORY ...]

For each repository of the labelled corpus's **development** split (never a test-split
file), its sessions are copied into a temporary folder, each file dated by its last
message, imported in that order (``gitmem import``) into a fresh repository with a fresh
``GITMEM_HOME``, and the brief read as its user would (``gitmem brief --json --budget 0``).
Printed per repository: the session files, the captures, the brief's lines, the lines of
an earlier session than the last, the lines that match a label of importance 2 or 3 of
their own session (LABELLING.md's matching) and those that match none, and the items that
aged out by reason (an offer the next session answered, the carry cap, anything else).
``--cap N`` carries at most N open items instead of 50, to see what the cap keeps on
repositories too small to reach it. docs/heuristic.md, "Across sessions", quotes its
figures.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from datetime import datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from extract_quality import (  # noqa: E402
    DEV,
    Label,
    corpus_files,
    load_labels,
    matches,
    repositories,
)

from gitmem.core.offers import LAPSED  # noqa: E402


def _last_time(path: Path) -> tuple[str, str | None]:
    """The file's last timestamp and its session id (Claude Code ``sessionId``, Codex
    ``session_meta``)."""
    last, session = "", None
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if not isinstance(record, dict):
            continue
        last = str(record.get("timestamp") or last)
        payload = record.get("payload")
        if session is None and record.get("sessionId"):
            session = str(record["sessionId"])
        elif session is None and record.get("type") == "session_meta" and isinstance(payload, dict):
            session = str(payload.get("id") or "") or None
    return last, session


_LAUNCH = (
    "import sys; from gitmem.lifecycle import carry; "
    "carry.plan.__defaults__ = (carry.CarryPolicy(max_carried=int(sys.argv.pop(1))),"
    " *carry.plan.__defaults__[1:]); "
    "from gitmem.cli import main; sys.argv[0] = 'gitmem'; main()"
)
"""gitmem run with another carry cap (the first argument)."""


def _gitmem(args: list[str], cwd: Path, home: Path, cap: int | None = None) -> str:
    env = {**os.environ, "GITMEM_HOME": str(home)}
    head = ["-m", "gitmem"] if cap is None else ["-c", _LAUNCH, str(cap)]
    done = subprocess.run(
        [sys.executable, *head, *args], cwd=cwd, env=env, capture_output=True, text=True
    )
    return done.stdout


def _reasons(repo: Path) -> Counter[str]:
    """How many items aged out, by reason, from the status events of the memory ref."""
    names = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", "refs/gitmem/memory", "events/"],
        cwd=repo,
        capture_output=True,
        text=True,
    ).stdout.split()
    found: Counter[str] = Counter()
    for name in names:
        blob = subprocess.run(
            ["git", "show", f"refs/gitmem/memory:{name}"], cwd=repo, capture_output=True
        ).stdout
        try:
            event = json.loads(blob)
        except ValueError:
            continue
        if not isinstance(event, dict) or event.get("to") != "STALE":
            continue
        parts = event.get("items") or {event.get("item"): event}
        for part in parts.values() if isinstance(parts, dict) else ():
            reason = str(part.get("reason", "")) if isinstance(part, dict) else ""
            found[
                "offer" if reason == LAPSED else "cap" if "open items" in reason else "other"
            ] += 1
    return found


def measure(files: list[Path], cap: int | None = None) -> dict[str, object]:
    """Import *files* in their order and read the brief (see the module)."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        sessions, home, repo = root / "sessions", root / "home", root / "repo"
        sessions.mkdir()
        times: dict[str | None, str] = {}
        labels: dict[str | None, list[Label]] = defaultdict(list)
        for path in files:
            copy = sessions / path.name
            copy.write_bytes(path.read_bytes())
            last, session = _last_time(path)
            times[session] = max(times.get(session, ""), last)
            labels[session] += load_labels(path)
            if last:
                stamp = datetime.fromisoformat(last.replace("Z", "+00:00")).timestamp()
                os.utime(copy, (stamp, stamp))
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        who = ["-c", "user.name=b", "-c", "user.email=b@example.invalid"]
        subprocess.run(["git", *who, "commit", "-q", "--allow-empty", "-m", "init"], cwd=repo)
        _gitmem(["init"], repo, home)
        captured = _gitmem(["import", str(sessions)], repo, home, cap).strip().splitlines()
        brief = json.loads(_gitmem(["brief", "--json", "--budget", "0"], repo, home) or "{}")
        latest = max(times, key=lambda s: times[s]) if times else None
        items = brief.get("items", [])
        roots = [str(i.get("origin_session", "")).split("/agent-")[0] for i in items]
        earlier = sum(1 for root in roots if root != latest)
        said = [[s for s in (i.get("quote"), i.get("text")) if isinstance(s, str)] for i in items]
        found = [
            [lab for lab in labels.get(r, []) if matches(s, lab)]
            for r, s in zip(roots, said, strict=True)
        ]
        return {
            "in force": sum(1 for f in found if any(lab.importance >= 2 for lab in f)),
            "no label": sum(1 for f in found if not f),
            "files": len(files),
            "captured": captured[-1].split(" captured")[0] if captured else "?",
            "lines": len(items),
            "earlier": earlier,
            "aged": _reasons(repo),
        }


def main(argv: list[str]) -> None:
    cap = None
    if argv[:1] == ["--cap"]:
        cap, argv = int(argv[1]), argv[2:]
    only = argv
    names = repositories()
    by_repo: dict[str, list[Path]] = defaultdict(list)
    for path in corpus_files()[DEV]:
        by_repo[names.get(path.name.removesuffix(".jsonl"), "?")].append(path)
    print(
        f"{'repository':32} {'files':>5} {'capt':>5} {'lines':>5} {'earlier':>7} {'≥2':>4}"
        f" {'none':>4}  aged out"
    )
    total: Counter[str] = Counter()
    for repository, files in sorted(by_repo.items()):
        if only and repository not in only and repository.split("/")[-1] not in only:
            continue
        got = measure(sorted(files), cap)
        aged = got["aged"]
        assert isinstance(aged, Counter)
        total.update(aged)
        for column in ("lines", "in force", "no label"):
            total[column] += int(str(got[column]))
        shown = ", ".join(f"{k} {v}" for k, v in sorted(aged.items())) or "-"
        print(
            f"{repository:32} {got['files']:>5} {got['captured']:>5} {got['lines']:>5}"
            f" {got['earlier']:>7} {got['in force']:>4} {got['no label']:>4}  {shown}"
        )
    lines, kept, none = total.pop("lines"), total.pop("in force"), total.pop("no label")
    rest = ", ".join(f"{k} {v}" for k, v in sorted(total.items())) or "-"
    print(f"{'total':32} {'':>5} {'':>5} {lines:>5} {'':>7} {kept:>4} {none:>4}  {rest}")


if __name__ == "__main__":
    main(sys.argv[1:])
