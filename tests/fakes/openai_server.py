"""A real OpenAI-compatible HTTP server on loopback, for the ``openai`` backend's tests.

The first path segment picks the answer: ``{url}/ok/v1`` is a base URL whose
``/chat/completions`` answers well, ``{url}/error-500/v1`` one that fails, and so on
(see :data:`SCENARIOS`). ``{url}/ask-PLAN/v1`` answers each ``gitmem ask`` prompt as
plan PLAN of :mod:`fakes.ask_plans` says. Every request is recorded.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from .ask_plans import PLANS, reply

GOOD_ITEMS: dict[str, Any] = {
    "items": [
        {
            "kind": "decision",
            "text": "Keep the cache in .git/gitmem.",
            "trust": "verbatim",
            "quote": "the cache lives in .git/gitmem/",
        }
    ]
}
SECRET_IN_ERROR = "sk-fake-key-123"


def envelope(content: Any, **message: Any) -> bytes:
    """A chat completion answer shaped like OpenAI's (and Ollama's)."""
    return json.dumps(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1_700_000_000,
            "model": "tiny",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content, **message},
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        }
    ).encode()


SCENARIOS: dict[str, tuple[int, bytes]] = {
    "ok": (200, envelope(json.dumps(GOOD_ITEMS))),
    "extra-key": (
        200,
        envelope(json.dumps({"items": [{**GOOD_ITEMS["items"][0], "confidence": 3}]})),
    ),
    "prose": (200, envelope("I found no items worth keeping.")),
    "html": (200, b"<html><body>Bad gateway</body></html>"),
    "no-content": (200, envelope(None)),
    "no-choices": (200, b'{"choices": []}'),
    "refusal": (200, envelope(None, refusal="I cannot help with that.")),
    "error-500": (
        500,
        json.dumps({"error": {"message": f"model crashed (key {SECRET_IN_ERROR})"}}).encode(),
    ),
    "ollama-404": (404, b'{"error":"model \\"tiny\\" not found, try pulling it first"}'),
}


@dataclass(frozen=True)
class Recorded:
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class FakeOpenAI:
    """Serves :data:`SCENARIOS` plus ``slow`` (waits for :attr:`release`) and ``redirect``."""

    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self.release = threading.Event()
        self._server = _Server(("127.0.0.1", 0), _handler(self))
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
        )
        self._thread.start()

    def url(self, scenario: str) -> str:
        return f"http://127.0.0.1:{self.port}/{scenario}/v1"

    def close(self) -> None:
        self.release.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that gave up (the timeout test) breaks the pipe; that is expected.
        pass


def _handler(fake: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            fake.requests.append(Recorded(self.path, dict(self.headers.items()), body))
            scenario = self.path.split("/")[1]
            if scenario == "slow":
                fake.release.wait(10)
                scenario = "ok"
            if scenario == "redirect":
                self.send_response(302)
                self.send_header("Location", fake.url("ok") + "/chat/completions")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if scenario.startswith("ask-") and scenario[4:] in PLANS:
                prompt = json.loads(body)["messages"][-1]["content"]
                status, answer = 200, envelope(reply(scenario[4:], prompt))
            else:
                status, answer = SCENARIOS[scenario]
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler
