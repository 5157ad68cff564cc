"""Benchmark: `gitmem import-chat` of a 5,000-message Telegram export, then approval.

    python benchmarks/bench_import_chat.py [--messages 5000] [--audit-items 50]

Writes a Telegram Desktop-shaped export (two people; entity lists, service messages,
photos and stickers, forwarded messages, a few secrets; about one message in twelve
carries a marker the heuristic reads: "TODO:", "Decision:", "not sure"), then, each as a
fresh process the way a user runs it, in a fresh repository:

1. `gitmem import-chat` with the heuristic (masking, proposals, quote checks, staging);
2. `gitmem pending approve --all` (one signed checkpoint holding every proposal);
3. `gitmem import-chat` again (already imported: nothing proposed);
4. a smaller export with `--audit-command` (a scripted auditor, one process per item),
   for the audit's cost per item.

Each time is also given as a multiple of the floor: `python -m gitmem --version` in the
same run (interpreter start and imports). Nothing is kept.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from gitmem.store.keys import init_identity

T0 = 1767261600  # 2026-01-01T10:00:00Z
ME = ("Bob Jones", "user222")
THEM = ("Alice Smith", "user111")
AUDITOR = """\
import json, sys
prompt = sys.stdin.read()
verdict = "keep" if "TODO" in prompt or "deposit" in prompt else "unsure"
print(json.dumps({"verdict": verdict, "reason": "scripted"}))
"""


def message(n: int) -> dict[str, Any]:
    who = ME if n % 2 else THEM
    base: dict[str, Any] = {
        "id": n,
        "type": "message",
        "date": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(T0 + 97 * n)),
        "date_unixtime": str(T0 + 97 * n),
        "from": who[0],
        "from_id": who[1],
        "text_entities": [],
    }
    if n % 50 == 7:
        return {**base, "type": "service", "action": "pin_message", "text": ""}
    if n % 40 == 3:
        return {**base, "photo": f"photos/photo_{n}.jpg", "text": ""}
    if n % 90 == 11:
        return {**base, "forwarded_from": "News", "text": f"Headline number {n} of the day."}
    if n % 36 == 0:
        text: Any = f"TODO: send the deposit receipt number {n} to the landlord by Friday."
    elif n % 36 == 12:
        text = [
            {"type": "bold", "text": "Decision:"},
            f" we book the removal van for weekend {n}. Details: ",
            {"type": "link", "text": f"https://example.com/van/{n}"},
        ]
    elif n % 36 == 24:
        text = f"I'm not sure whether parcel {n} fits through the door of the new flat."
    elif n % 500 == 5:
        text = f"the cloud key is AKIAIOSFODNN7EXAMPL{n % 10} keep it safe"
    else:
        text = f"Message {n}: sounds good, see you at the station around {n % 24}:00 then."
    return {**base, "text": text}


def write_export(path: Path, count: int) -> None:
    export = {
        "name": THEM[0],
        "type": "personal_chat",
        "id": 4242,
        "messages": [message(n) for n in range(1, count + 1)],
    }
    path.write_text(json.dumps(export, ensure_ascii=False))


def gitmem(repo: Path, *args: str) -> tuple[float, Any]:
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "gitmem", "-C", str(repo), *args],
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - began
    if done.returncode != 0:
        raise SystemExit(f"gitmem {' '.join(args)} failed: {done.stderr.strip()}")
    return elapsed, json.loads(done.stdout) if "--json" in args else None


def floor(runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        subprocess.run([sys.executable, "-m", "gitmem", "--version"], capture_output=True)
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def fresh_repo(root: Path, name: str) -> Path:
    repo = root / name
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    return repo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=5000)
    parser.add_argument("--audit-items", type=int, default=50)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="gitmem-bench-chat-"))
    os.environ["GITMEM_HOME"] = str(root / "home")
    try:
        init_identity(root / "home", "bench@example.com", None)
        export = root / "result.json"
        write_export(export, args.messages)
        size = export.stat().st_size
        base = floor()
        repo = fresh_repo(root, "repo")
        t_import, imported = gitmem(repo, "import-chat", str(export), "--json")
        t_approve, approved = gitmem(repo, "pending", "approve", "--all", "--json")
        t_again, again = gitmem(repo, "import-chat", str(export), "--json")
        # The audit: one process per item, so a smaller export with about N items.
        small = root / "small.json"
        write_export(small, args.audit_items * 12)
        auditor = root / "auditor.py"
        auditor.write_text(AUDITOR)
        audit_cmd = f"{sys.executable} {auditor}"
        audited_repo = fresh_repo(root, "audited")
        t_audit, audited = gitmem(
            audited_repo, "import-chat", str(small), "--audit-command", audit_cmd, "--json"
        )
    finally:
        shutil.rmtree(root, ignore_errors=True)
    proposed = len(imported["proposed"])
    stored = sum(len(c["items"]) for c in approved["checkpoints"])
    print(f"export: {args.messages} messages, {size / 1e6:.1f} MB")
    print(f"floor (python -m gitmem --version):   {base * 1000:7.0f} ms")
    print(
        f"import-chat (heuristic):              {t_import * 1000:7.0f} ms  "
        f"{t_import / base:5.1f}x floor  {imported['messages']} messages read, "
        f"skipped {imported['skipped']}, {imported['masked']} masked, {proposed} proposed"
    )
    print(
        f"pending approve --all:                {t_approve * 1000:7.0f} ms  "
        f"{t_approve / base:5.1f}x floor  {stored} approved in "
        f"{len(approved['checkpoints'])} checkpoint(s)"
    )
    print(
        f"import-chat again:                    {t_again * 1000:7.0f} ms  "
        f"{t_again / base:5.1f}x floor  already imported: {again['already_imported']}, "
        f"{len(again['proposed'])} proposed"
    )
    n_audited = len(audited["proposed"])
    per_item = (t_audit - base) / max(n_audited, 1)
    print(
        f"import-chat --audit-command:          {t_audit * 1000:7.0f} ms  "
        f"{n_audited} items audited ({audited['audit']}), ~{per_item * 1000:.0f} ms per item"
    )


if __name__ == "__main__":
    main()
