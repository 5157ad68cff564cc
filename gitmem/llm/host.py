"""The agent host's own CLI as a model backend: Claude Code's print mode, Codex's exec mode.

The user already runs (and pays for) one of these; asking it needs no key and no endpoint
from gitmem. Each call is one non-interactive run of the CLI (docs/extractors.md cites
the hosts' pages for every flag):

- ``claude -p --output-format json --json-schema SCHEMA --system-prompt SYSTEM --tools ""
  --strict-mcp-config --no-session-persistence --settings {"disableAllHooks": true}
  [--model M]``: the prompt on stdin, one JSON result object on stdout, whose
  ``structured_output`` (or, without one, ``result`` text) is the model's reply;
- ``codex exec --json --ephemeral --skip-git-repo-check --sandbox read-only
  --output-schema FILE -c features.hooks=false [--model M] -``: the prompt on stdin, JSON
  Lines events on stdout, whose last ``agent_message`` is the reply.

Neither gets a tool, a file to write or an MCP server; each runs in an empty temporary
folder (so no project settings, hooks or instructions of the repository load), keeps no
session on disk (gitmem would otherwise find it as an agent transcript), and has gitmem's
own hooks off twice: the host's switch above, and ``GITMEM_SKIP=1`` in its environment,
which every gitmem hook entry honours. What the CLI reports a call cost (tokens,
dollars) is kept in :attr:`HostBackend.reported`.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gitmem.core import boundedjson
from gitmem.llm.backend import BackendFailed, Reported
from gitmem.llm.command import run_program

SKIP_ENV = "GITMEM_SKIP"
"""Set in the CLI's environment: gitmem's hooks, should the host run any, do nothing."""
NO_HOOKS = json.dumps({"disableAllHooks": True})


class HostBackend:
    """One CLI run per prompt: ``claude`` or ``codex`` (see the module)."""

    def __init__(
        self, name: str, model: str | None, timeout: float, schema: Mapping[str, Any] | None
    ) -> None:
        self.name = name
        self.model = model
        self.timeout = timeout
        self.schema = schema
        self.label = f"{name}: {model}" if model else name
        self.reported: Reported | None = None

    def complete(self, prompt: str, *, system: str) -> bytes:
        """The model's reply to *prompt*: the JSON the CLI's envelope holds.

        Raises:
            BackendFailed: the CLI is missing, fails, times out, or prints no envelope
                holding a reply (its stdout is kept as the raw bytes).
        """
        self.reported = None
        with tempfile.TemporaryDirectory(prefix="gitmem-extract-") as where:
            if self.name == "claude":
                argv = self._claude(system)
            else:
                argv = self._codex(Path(where))
                prompt = f"{system}\n\n{prompt}"  # exec mode takes no system prompt
            env = {**os.environ, SKIP_ENV: "1"}
            out = run_program(argv, prompt, self.timeout, cwd=where, env=env)
        reply = _claude_reply if self.name == "claude" else _codex_reply
        text, self.reported = reply(out)
        return text

    def _claude(self, system: str) -> list[str]:
        argv = ["claude", "-p", "--output-format", "json", "--system-prompt", system]
        argv += ["--tools", "", "--strict-mcp-config", "--no-session-persistence"]
        argv += ["--settings", NO_HOOKS]
        if self.schema is not None:
            argv += ["--json-schema", json.dumps(self.schema)]
        return argv + (["--model", self.model] if self.model else [])

    def _codex(self, where: Path) -> list[str]:
        argv = ["codex", "exec", "--json", "--ephemeral", "--skip-git-repo-check"]
        argv += ["--sandbox", "read-only", "-c", "features.hooks=false"]
        if self.schema is not None:
            schema = where / "schema.json"
            schema.write_text(json.dumps(_strict(self.schema)), encoding="utf-8")
            argv += ["--output-schema", str(schema)]
        return argv + (["--model", self.model] if self.model else []) + ["-"]


def _claude_reply(out: bytes) -> tuple[bytes, Reported | None]:
    """The reply inside Claude Code's one JSON result object, and what it cost."""
    try:
        result = boundedjson.loads(out.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        result = None
    if not isinstance(result, dict):
        raise BackendFailed("claude did not print one JSON result object", out)
    if result.get("is_error") or result.get("subtype", "success") != "success":
        said = str(result.get("result") or result.get("subtype") or "no detail")[:200]
        raise BackendFailed(f"claude answered with an error: {said}", out)
    reported = _reported(result.get("usage"), result.get("total_cost_usd"))
    structured = result.get("structured_output")
    if isinstance(structured, dict):
        return json.dumps(structured, ensure_ascii=False).encode("utf-8"), reported
    if isinstance(structured, str) or isinstance(result.get("result"), str):
        text = structured if isinstance(structured, str) else str(result["result"])
        return text.encode("utf-8"), reported
    raise BackendFailed("claude's result object holds no reply", out)


def _codex_reply(out: bytes) -> tuple[bytes, Reported | None]:
    """The last agent message of Codex's JSON Lines events, and the turns' usage."""
    message: str | None = None
    tokens = [0, 0]
    for line in out.decode("utf-8", "replace").splitlines():
        try:
            event = boundedjson.loads(line) if line.strip() else None
        except ValueError:
            continue  # not an event: progress the CLI printed
        if not isinstance(event, dict):
            continue
        kind, item = event.get("type"), event.get("item")
        if kind == "item.completed" and isinstance(item, dict):
            if item.get("type") == "agent_message" and isinstance(item.get("text"), str):
                message = item["text"]
        elif kind == "turn.completed":
            found = _reported(event.get("usage"), None)
            if found is not None:
                tokens = [tokens[0] + found.input_tokens, tokens[1] + found.output_tokens]
        elif kind in ("turn.failed", "error"):
            error = event.get("error") if kind == "turn.failed" else event
            said = error.get("message") if isinstance(error, dict) else None
            raise BackendFailed(f"codex failed: {str(said or 'no detail')[:200]}", out)
    if message is None:
        raise BackendFailed("codex printed no final agent message", out)
    return message.encode("utf-8"), Reported(tokens[0], tokens[1])


def _reported(usage: object, usd: object) -> Reported | None:
    if not isinstance(usage, dict):
        return None

    def count(*keys: str) -> int:
        return sum(v for k in keys if isinstance(v := usage.get(k), int))

    cost = float(usd) if isinstance(usd, int | float) and not isinstance(usd, bool) else None
    prompt = count("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
    return Reported(prompt, count("output_tokens"), cost)


def _strict(schema: Mapping[str, Any]) -> dict[str, Any]:
    """*schema* as a strict structured-output schema, which OpenAI's models require: every
    property of an object required, nothing else allowed, each enum typed, and none of
    the keywords strict mode leaves out (lengths, ranges; gitmem's parser checks those).
    An optional property is dropped: the reply simply never has it."""
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in ("minLength", "maxLength", "minimum", "maximum", "maxItems", "minItems"):
            continue
        if key == "properties":
            required = set(schema.get("required", ()))
            out[key] = {k: _strict(v) for k, v in value.items() if k in required}
        elif key == "items" and isinstance(value, dict):
            out[key] = _strict(value)
        else:
            out[key] = value
    if "enum" in out and "type" not in out:
        out["type"] = "string"
    return out
