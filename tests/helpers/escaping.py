"""The masking matrix: every fake secret, behind each escaping level, in each placement.

Shared by tests/capture/test_masking_escapes.py (one secret of each kind, checked in the
prepared snapshot) and benchmarks/stress_secrets.py (the whole corpus, captured through
the CLI and searched for in every stored byte).

An **escaping level** is what a shell or a JSON encoder did to the text before the host
logged it: written into a JSON file (``json``), that file written by a double-quoted
``echo`` (``sh``), the command kept in a JSON config (``json``) … each level wraps the
one before. A **placement** is where a host's transcript holds the result: the text of a
message, a tool's input or output, a Codex function call's arguments or local shell
call, a Claude tool call's input; each adds the host's own JSON encoding.

Every secret here is fake (tests/data/secrets/README.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any


def in_json(text: str) -> str:
    """*text* as a JSON file holding it would spell it."""
    return json.dumps({"path": "notes.txt", "content": text}, indent=2)


def in_double_quotes(text: str) -> str:
    """*text* written to a file by ``echo "…"``."""
    quoted = re.sub(r'([\\"$`])', r"\\\1", text)
    return f'echo "{quoted}" > notes.txt'


def in_single_quotes(text: str) -> str:
    """*text* written to a file by ``printf '%s' '…'``."""
    return "printf '%s' '" + text.replace("'", "'\\''") + "' > notes.txt"


Wrap = Callable[[str], str]
LEVELS: dict[str, tuple[Wrap, ...]] = {
    "0 as written": (),
    "1 json": (in_json,),
    "1 sh": (in_double_quotes,),
    "1 sh'": (in_single_quotes,),
    "2 json>sh": (in_json, in_double_quotes),
    "2 sh>json": (in_double_quotes, in_json),
    "2 sh'>sh'": (in_single_quotes, in_single_quotes),
    "3 json>sh>json": (in_json, in_double_quotes, in_json),
    "3 sh>json>sh": (in_double_quotes, in_json, in_double_quotes),
    "3 sh>json>sh'": (in_double_quotes, in_json, in_single_quotes),
    "4 json>sh>json>sh": (in_json, in_double_quotes, in_json, in_double_quotes),
}
"""Escaping levels, innermost wrapping first."""


def escaped(text: str, level: str) -> str:
    for wrap in LEVELS[level]:
        text = wrap(text)
    return text


def _line(record: dict[str, Any]) -> str:
    return json.dumps(record) + "\n"


def _claude(content: object, role: str = "user") -> str:
    message = {"role": role, "content": content}
    return _line({"type": role, "uuid": "u-1", "sessionId": "s-1", "message": message})


def _codex(payload: dict[str, Any]) -> str:
    return _line({"timestamp": "2026-02-11T08:01:12Z", "type": "response_item", "payload": payload})


PLACEMENTS: dict[str, Callable[[str], str]] = {
    "message text": lambda t: _claude(t),
    "tool input": lambda t: _codex(
        {"type": "custom_tool_call", "call_id": "c1", "name": "apply_patch", "input": t}
    ),
    "tool output": lambda t: _claude([{"type": "tool_result", "tool_use_id": "t1", "content": t}]),
    "codex function_call": lambda t: _codex(
        {
            "type": "function_call",
            "call_id": "c1",
            "name": "shell",
            "arguments": json.dumps({"command": ["bash", "-lc", t], "workdir": "/src"}),
        }
    ),
    "codex local_shell_call": lambda t: _codex(
        {
            "type": "local_shell_call",
            "call_id": "c1",
            "status": "completed",
            "action": {"type": "exec", "command": ["bash", "-lc", t]},
        }
    ),
    "claude tool_use": lambda t: _claude(
        [
            {
                "type": "tool_use",
                "id": "t1",
                "name": "Write",
                "input": {"file_path": "n", "content": t},
            }
        ],
        "assistant",
    ),
}
"""Where a transcript line holds the (escaped) text; each makes one JSONL line."""


def fragments(secret: str) -> list[str]:
    """What would give a stored copy of *secret* away, escaped or not: its runs of 10+
    token characters that are not plain words, else the whole secret."""
    runs = [r for r in re.findall(r"[A-Za-z0-9+/_]{10,}", secret) if not r.isalpha()]
    return runs or [secret]
