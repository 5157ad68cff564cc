"""Trim a public Claude Code or Codex session to the lines the extractor reads.

    python benchmarks/data/extract/trim.py SOURCE.jsonl TARGET.jsonl

How every file of this corpus was made from its source (see README.md). The target is a
subset of the source's lines, each kept byte for byte, in order:

* Claude Code: ``user`` and ``assistant`` records holding a text block, or a tool call to
  (or the result of) a question or plan tool (``AskUserQuestion``, ``ExitPlanMode``).
  Dropped: thinking-only and other tool-only records (file contents, command output),
  Claude Code's own ``isMeta``/``isCompactSummary`` notes, progress, snapshots, summaries.
* Codex: the ``session_meta`` line and every ``message`` response item of the user or
  the assistant. Dropped: developer/system messages (the standing instructions), tool
  calls and their output, reasoning, ``event_msg`` copies, turn contexts.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ASKING_TOOLS = ("AskUserQuestion", "ExitPlanMode")


def trim(lines: list[str]) -> list[str]:
    records = [_record(line) for line in lines]
    asked = {
        block["id"]
        for record in records
        for block in _blocks(record)
        if block.get("type") == "tool_use" and block.get("name") in ASKING_TOOLS
    }
    return [line for line, record in zip(lines, records, strict=True) if _keep(record, asked)]


def _record(line: str) -> dict[str, Any]:
    try:
        value = json.loads(line)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _blocks(record: dict[str, Any]) -> list[dict[str, Any]]:
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _keep(record: dict[str, Any], asked: set[str]) -> bool:
    kind = record.get("type")
    payload = record.get("payload")
    if isinstance(payload, dict):  # Codex
        if kind == "session_meta":
            return True
        return (
            kind == "response_item"
            and payload.get("type") == "message"
            and payload.get("role") in ("user", "assistant")
        )
    if kind not in ("user", "assistant") or record.get("isMeta") or record.get("isCompactSummary"):
        return False
    for block in _blocks(record):
        if block.get("type") == "text" and str(block.get("text", "")).strip():
            return True
        if block.get("type") == "tool_use" and block.get("id") in asked:
            return True
        if block.get("type") == "tool_result" and block.get("tool_use_id") in asked:
            return True
    return False


def main() -> None:
    source, target = Path(sys.argv[1]), Path(sys.argv[2])
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = trim(lines)
    target.write_text("".join(kept), encoding="utf-8")
    print(f"{target.name}: {len(kept)} of {len(lines)} lines kept")


if __name__ == "__main__":
    main()
