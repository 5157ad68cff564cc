"""A scripted model for ``gitmem ask``, shared by a real subprocess and a real HTTP server.

``ask_script.py SCRIPT.json [--log FILE]`` reads the prompt on stdin and answers as the
script says; :class:`ScriptServer` serves the same scripts over the OpenAI chat API on
loopback. A script maps a **role** to a reply:

- ``solver``: the prompt opens with ``You are the solver of gitmem ask.``;
- ``support``: it opens with ``You are the support checker of gitmem ask.`` and holds a
  ``=== passage …`` block (the quote the support call checks);
- ``absence``: the support checker's opening without a passage block (the absence check).

A reply is a JSON object sent as JSON, except for these keys: ``$raw`` (send these exact
characters instead), ``$fail`` (fail the call: exit status 1 with this on stderr, or HTTP
500 with this message), ``$finish`` (the OpenAI ``finish_reason``, default ``stop``; the
command has none). An ``excerpt`` of the form ``@TEXT`` names whichever excerpt of the
prompt holds TEXT, as a real model reading the prompt would. A role the script does not
name gets prose, which breaks the schema. ``--log FILE`` appends ``{"role", "prompt"}``.
"""

from __future__ import annotations

import json
import re
import sys
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SOLVER = "You are the solver of gitmem ask."
SUPPORT = "You are the support checker of gitmem ask."


def role(prompt: str) -> str:
    if prompt.startswith(SOLVER):
        return "solver"
    if prompt.startswith(SUPPORT):
        return "support" if re.search(r"^=== passage \w+ ===$", prompt, re.M) else "absence"
    return "unknown"


@dataclass(frozen=True)
class Answer:
    text: str
    finish: str = "stop"
    fail: str | None = None


def answer(script: dict[str, Any], prompt: str) -> Answer:
    """What *script* replies to *prompt*."""
    spec = script.get(role(prompt))
    if spec is None:
        return Answer("I am not sure what you want me to do here.")
    spec = dict(spec)
    finish = spec.pop("$finish", "stop")
    if "$fail" in spec:
        return Answer("", finish, spec["$fail"])
    if "$raw" in spec:
        return Answer(spec["$raw"], finish)
    excerpt = spec.get("excerpt")
    if isinstance(excerpt, str) and excerpt.startswith("@"):
        spec["excerpt"] = excerpt_holding(prompt, excerpt[1:])
    return Answer(json.dumps(spec), finish)


def excerpt_holding(prompt: str, text: str) -> str:
    """The id of the first excerpt block in *prompt* whose body holds *text*."""
    for found in re.finditer(
        r"^=== excerpt (E\d+):[^\n]*===\n(.*?)\n=== end of excerpt \1 ", prompt, re.M | re.S
    ):
        if text in found.group(2):
            return found.group(1)
    return "E99"


def envelope(content: str, finish: str) -> bytes:
    return json.dumps(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "model": "tiny",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": finish,
                }
            ],
        }
    ).encode()


class ScriptServer:
    """``url(name)`` is a base URL whose chat completions answer as ``scripts[name]``."""

    def __init__(self) -> None:
        self.scripts: dict[str, dict[str, Any]] = {}
        self.prompts: dict[str, list[tuple[str, str]]] = {}
        """Each script's (role, prompt) calls, in order."""
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                name = self.path.split("/")[1]
                prompt = json.loads(body)["messages"][-1]["content"]
                server.prompts.setdefault(name, []).append((role(prompt), prompt))
                said = answer(server.scripts[name], prompt)
                if said.fail is not None:
                    status, data = 500, json.dumps({"error": {"message": said.fail}}).encode()
                else:
                    status, data = 200, envelope(said.text, said.finish)
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )
        self._thread.start()

    def url(self, name: str) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/{name}/v1"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


def main() -> None:
    args = sys.argv[1:]
    with open(args[0], encoding="utf-8") as handle:
        script = json.load(handle)
    prompt = sys.stdin.buffer.read().decode("utf-8")
    if len(args) == 3 and args[1] == "--log":
        with open(args[2], "a", encoding="utf-8") as handle:
            handle.write(json.dumps({"role": role(prompt), "prompt": prompt}) + "\n")
    said = answer(script, prompt)
    if said.fail is not None:
        sys.stderr.write(said.fail + "\n")
        sys.exit(1)
    sys.stdout.write(said.text)


if __name__ == "__main__":
    main()
