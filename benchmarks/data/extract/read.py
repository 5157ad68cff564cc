"""Print what a labeller reads in one transcript, and check a labels file against it.

    python benchmarks/data/extract/read.py NAME_OR_PATH            # the messages, numbered
    python benchmarks/data/extract/read.py --check NAME_OR_PATH    # its labels: quotes found?

What is read follows ``/work/shared/LABELLING.md`` ("What is read"), straight from the host's
JSONL and independently of gitmem's own parser, so that a label never depends on what gitmem
happens to parse: every user and assistant *text* message, in order; not tool calls, tool
output, thinking, ``summary`` lines, ``isMeta`` / ``isCompactSummary`` records, nor Codex
``developer`` / ``reasoning`` / ``event_msg`` records. Inline subagent (sidechain) messages
count. The answers given to a host's question tool (``AskUserQuestion``) are shown as context
(marked ``context``), since a decision may be understood from them; a label is never quoted
from a context block.

A labels file (``labels/NAME.json``, the transcript's name without ``.jsonl``) holds::

    {"method": "LABELLING.md", "items": [
        {"kind": "decision|open_loop|question|fact", "importance": 1|2|3,
         "quote": "the message's own bytes, 20-200 characters",
         "message": 12, "text": "the item as a careful engineer would write it",
         "note": "why it is an item (optional)"}]}

``--check`` fails (exit 1) when a quote is not found byte for byte in the message it names,
is outside 20-200 characters, or a field is missing or of the wrong kind.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

HERE = Path(__file__).parent
LABELS = HERE / "labels"
KINDS = ("decision", "open_loop", "question", "fact")
QUESTION_TOOLS = ("AskUserQuestion",)


class Message(NamedTuple):
    role: str
    """``user``, ``assistant``, or ``context`` (a question tool's question and answer)."""
    text: str


def find(name: str) -> Path:
    """The transcript a name stands for: a path, or a file of the corpus by its stem."""
    path = Path(name)
    if path.is_file():
        return path
    stem = path.name.removesuffix(".jsonl")
    for folder in (HERE / "corpus", HERE, HERE / "holdout"):
        candidate = folder / f"{stem}.jsonl"
        if candidate.is_file():
            return candidate
    raise SystemExit(f"read: no transcript {name!r} (restore the corpus: see corpus/SOURCES.md)")


def messages(path: Path) -> list[Message]:
    """The messages a labeller reads, in order."""
    out: list[Message] = []
    asked: dict[str, str] = {}
    for line in path.read_bytes().split(b"\n"):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict):
            out.extend(_claude(record, asked) if "message" in record else _codex(record))
    return out


def _claude(record: dict[str, Any], asked: dict[str, str]) -> Iterator[Message]:
    kind = record.get("type")
    if kind not in ("user", "assistant") or record.get("isMeta") or record.get("isCompactSummary"):
        return
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        yield Message(str(kind), content)
        return
    if not isinstance(content, list):
        return
    for part in content:
        if not isinstance(part, dict):
            continue
        if part.get("type") == "text" and isinstance(part.get("text"), str):
            yield Message(str(kind), part["text"])
        elif part.get("type") == "tool_use" and part.get("name") in QUESTION_TOOLS:
            asked[str(part.get("id"))] = json.dumps(part.get("input"), ensure_ascii=False)
        elif part.get("type") == "tool_result" and str(part.get("tool_use_id")) in asked:
            answer = part.get("content")
            if isinstance(answer, list):
                answer = " ".join(str(p.get("text", "")) for p in answer if isinstance(p, dict))
            question = asked.pop(str(part.get("tool_use_id")))
            yield Message("context", f"asked: {question}\nanswered: {answer}")


def _codex(record: dict[str, Any]) -> Iterator[Message]:
    if record.get("type") != "response_item":
        return
    payload = record.get("payload")
    if not isinstance(payload, dict) or payload.get("type") != "message":
        return
    role = payload.get("role")
    if role not in ("user", "assistant"):
        return
    parts = payload.get("content")
    if not isinstance(parts, list):
        return
    for part in parts:
        if (
            isinstance(part, dict)
            and isinstance(part.get("text"), str)
            and part.get("type") in ("input_text", "output_text", "text")
        ):
            yield Message(str(role), part["text"])


def show(path: Path) -> None:
    sys.stdout.reconfigure(errors="replace")  # type: ignore[union-attr]
    for number, message in enumerate(messages(path), 1):
        print(f"===== message {number} · {message.role} · {len(message.text)} chars =====")
        print(message.text)
    print("===== end =====")


def check(path: Path) -> list[str]:
    """Every problem of the labels file of *path* (an empty list when it is sound)."""
    read = messages(path)
    stem = path.name.removesuffix(".jsonl")
    labels_path = LABELS / f"{stem}.json"
    if not labels_path.is_file():
        return [f"{stem}: no labels file {labels_path}"]
    data = json.loads(labels_path.read_text(encoding="utf-8"))
    problems = []
    for number, item in enumerate(data.get("items", []), 1):
        where = f"{stem} item {number}"
        if item.get("kind") not in KINDS:
            problems.append(f"{where}: kind {item.get('kind')!r}")
        if item.get("importance") not in (1, 2, 3):
            problems.append(f"{where}: importance {item.get('importance')!r}")
        quote, index = item.get("quote"), item.get("message")
        if not isinstance(quote, str) or not 20 <= len(quote) <= 200:
            problems.append(f"{where}: quote of {len(quote or '')} characters (20-200)")
        if not isinstance(item.get("text"), str) or not item["text"].strip():
            problems.append(f"{where}: no text")
        if not isinstance(index, int) or not 1 <= index <= len(read):
            problems.append(f"{where}: message {index!r} is not one of 1..{len(read)}")
        elif read[index - 1].role == "context":
            problems.append(f"{where}: message {index} is a question tool's context block")
        elif isinstance(quote, str) and quote not in read[index - 1].text:
            problems.append(f"{where}: quote not found byte for byte in message {index}")
    return problems


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    if argv[0] == "--check":
        names = argv[1:] or [p.stem for p in sorted(LABELS.glob("*.json"))]
        problems = [line for name in names for line in check(find(name))]
        for line in problems:
            print(line)
        print(f"{len(names)} file(s) checked, {len(problems)} problem(s)")
        return 1 if problems else 0
    show(find(argv[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
