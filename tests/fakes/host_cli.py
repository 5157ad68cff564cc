"""A scripted stand-in for the agent hosts' CLIs, run as ``claude`` or ``codex`` on PATH.

It follows the contract docs/extractors.md documents: ``claude -p --output-format json
[--json-schema S] …`` reads the prompt on stdin and prints one JSON result object;
``codex exec --json --output-schema FILE … -`` reads it on stdin and prints JSON Lines
events. It refuses a call that breaks the contract (exit 2, as a real CLI refuses
unknown usage), and records every call (argv, working folder, stdin, GITMEM_SKIP) as one
JSON line in ``$HOST_CLI_LOG``.

What it answers (``$HOST_CLI_MODE``): ``items`` (default) — a verbatim item for every
transcript line of the prompt that starts with ``DECISION:``, ``TODO:`` or ``FACT:``;
``fail`` — exit 1 with an error; ``fail-later`` — answer the first call, fail
the others; ``slow`` — sleep past any timeout; ``chatty`` — prose
around the JSON; ``error`` — a well-formed result that says it failed; ``hooks`` — act
as a host that runs its SessionStart and SessionEnd hooks with gitmem's commands
(``$HOST_CLI_GITMEM`` names them), printing what they printed to ``$HOST_CLI_LOG``.
"""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

HOST = sys.argv[1]
ARGS = sys.argv[2:]
KINDS = {"DECISION:": "decision", "TODO:": "open_loop", "FACT:": "fact"}


def record(**fields: object) -> None:
    with open(os.environ["HOST_CLI_LOG"], "a", encoding="utf-8") as log:
        log.write(json.dumps(fields) + "\n")


def value(flag: str) -> str | None:
    return ARGS[ARGS.index(flag) + 1] if flag in ARGS else None


def items(prompt: str) -> list[dict[str, object]]:
    found = []
    for line in prompt.splitlines():
        for marker, kind in KINDS.items():
            if line.startswith(marker):
                said = line.strip()
                text = said[len(marker) :].strip().rstrip(".")
                found.append({"kind": kind, "text": text, "trust": "verbatim", "quote": said})
    return found


def contract() -> bool:
    if HOST == "claude":
        return ARGS[:1] == ["-p"] and value("--output-format") == "json"
    return ARGS[:1] == ["exec"] and "--json" in ARGS and ARGS[-1] == "-"


def hooks() -> None:
    """What a host that ignored every switch would do: run gitmem's hook commands."""
    gitmem = json.loads(os.environ["HOST_CLI_GITMEM"])
    event = json.dumps({"session_id": "child", "transcript_path": os.environ["HOST_CLI_PATH"]})
    for args, stdin in (
        (["brief", "--from-hook", HOST], ""),
        (["capture", "--from-hook", HOST], event),
        (["recall", "--from-hook", HOST], json.dumps({"prompt": "parser"})),
    ):
        done = subprocess.run([*gitmem, *args], input=stdin, capture_output=True, text=True)
        record(hook=args[0], code=done.returncode, stdout=done.stdout)


def main() -> int:
    prompt = sys.stdin.read()
    schema = value("--output-schema")
    record(
        host=HOST,
        argv=ARGS,
        cwd=os.getcwd(),
        stdin=prompt,
        skip=os.environ.get("GITMEM_SKIP"),
        schema=json.loads(Path(schema).read_text(encoding="utf-8")) if schema else None,
    )
    if not contract():
        print(f"{HOST}: unknown usage", file=sys.stderr)
        return 2
    mode = os.environ.get("HOST_CLI_MODE", "items")
    if mode == "fail-later" and len(Path(os.environ["HOST_CLI_LOG"]).read_text().splitlines()) > 1:
        mode = "fail"  # every call after the first fails
    if mode == "fail":
        print(f"Error: {HOST} is not logged in", file=sys.stderr)
        return 1
    if mode == "slow":
        time.sleep(30)
    if mode == "hooks":
        hooks()
    answer = json.dumps({"items": items(prompt)})
    if mode == "chatty":
        answer = f"Here are the items you asked for:\n{answer}"
    usage = {"input_tokens": len(prompt) // 4, "output_tokens": len(answer) // 4}
    if HOST == "claude":
        result = {"type": "result", "subtype": "success", "is_error": mode == "error"}
        result |= {"result": answer, "usage": usage, "total_cost_usd": 0.0125}
        if value("--json-schema") and mode != "chatty":
            result["structured_output"] = json.loads(answer)
        print(json.dumps(result))
        return 0
    events = [
        {"type": "thread.started", "thread_id": "t-1"},
        {"type": "turn.started"},
        {"type": "item.completed", "item": {"id": "i-1", "type": "agent_message", "text": answer}},
        {"type": "turn.completed", "usage": {**usage, "cached_input_tokens": 0}},
    ]
    if mode == "error":
        events[-1] = {"type": "turn.failed", "error": {"message": "usage limit reached"}}
    print("\n".join(json.dumps(e) for e in events))
    return 0


sys.exit(main())
