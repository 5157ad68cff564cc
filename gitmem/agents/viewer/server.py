"""The viewer's HTTP server: the standard library's, one request at a time, GET only.

- **Loopback only** unless told: it listens on 127.0.0.1 by default; any other address
  must be given with ``--host`` and earns a warning. On a loopback address, a request
  whose ``Host`` is not a loopback name is refused (421), so a web page that rebinds its
  own domain name to 127.0.0.1 cannot read memory through the user's browser.
- **Read-only**: GET and HEAD only (anything else is 405); no handler writes memory or
  moves a ref. The index and the emission ledger in ``.git/gitmem/`` are kept as
  the brief keeps them.
- **Strict headers** on every answer: a Content-Security-Policy that allows this
  viewer's own stylesheet and nothing else (no script, no image, no frame, no other
  origin; forms post only to itself), ``nosniff``, no referrer, no framing, no caching.
- A request that cannot be answered is one line on a page (400 for bad input, 404 for
  nothing there, 500 for anything else, with no traceback).
"""

from __future__ import annotations

import ipaddress
import socket
import sys
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from gitmem.agents.recall import recall
from gitmem.agents.viewer.content import brief_of, item_of, roots_of
from gitmem.agents.viewer.markup import CSS
from gitmem.agents.viewer.pages import brief_page, error_page, item_page, search_page
from gitmem.core.errors import GitmemError, InputError
from gitmem.store.repo import Store

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
SEARCH_LIMIT = 50
MAX_TARGET = 4096
CSP = (
    "default-src 'none'; style-src 'self'; img-src 'none'; script-src 'none'; "
    "connect-src 'none'; font-src 'none'; object-src 'none'; frame-src 'none'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cache-Control": "no-store",
}
_HTML = "text/html; charset=utf-8"
_LOOPBACK_NAMES = frozenset({"localhost", "localhost.", "ip6-localhost"})


def is_loopback(host: str) -> bool:
    """Is *host* (a name or an address, IPv6 with or without brackets) this machine's
    loopback? Raises nothing."""
    name = host.strip().strip("[]").lower()
    if name in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def host_name(header: str) -> str:
    """The name in a ``Host`` header, without its port (``[::1]:8765`` → ``::1``)."""
    header = header.strip()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else ""
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class Viewer:
    """What every request reads: the repository folder and the gitmem home."""

    def __init__(self, repo: str, home: Path, loopback: bool) -> None:
        self.repo = repo
        self.home = home
        self.loopback = loopback
        """Whether it listens on a loopback address (then only loopback Host names)."""

    def store(self) -> Store:
        """A fresh store for one request (a pygit2 repository is not shared across them)."""
        return Store.discover(self.repo)

    def answer(self, target: str) -> tuple[int, str, str]:
        """(status, content type, body) for a GET of *target*. Raises nothing."""
        store: Store | None = None
        try:
            store = self.store()
            return self._route(store, target)
        except InputError as e:
            return _error(HTTPStatus.BAD_REQUEST, str(e), self._name(store))
        except GitmemError as e:
            return _error(HTTPStatus.INTERNAL_SERVER_ERROR, str(e), self._name(store))
        except Exception as e:
            print(f"gitmem serve: internal error: {type(e).__name__}: {e}", file=sys.stderr)
            message = "internal error (see the terminal running gitmem serve)"
            return _error(HTTPStatus.INTERNAL_SERVER_ERROR, message, self._name(store))

    def _route(self, store: Store, target: str) -> tuple[int, str, str]:
        parts = urlsplit(target)
        query = {k: v[-1] for k, v in parse_qs(parts.query, max_num_fields=8).items()}
        as_of = query.get("as_of", "").strip() or None
        name = self._name(store)
        path = parts.path
        if path == "/":
            brief = brief_of(store, self.home, as_of)
            return 200, _HTML, brief_page(brief, roots_of(store, self.home), name, as_of or "")
        if path == "/style.css":
            return 200, "text/css; charset=utf-8", CSS
        if path == "/search":
            words = query.get("q", "").strip()
            result = recall(store, self.home, [words], SEARCH_LIMIT, as_of) if words else None
            return 200, _HTML, search_page(result, words, name, as_of or "")
        if path.startswith("/item/"):
            prefix = path.removeprefix("/item/")
            if not prefix or any(c not in "0123456789abcdef" for c in prefix):
                return _error(HTTPStatus.NOT_FOUND, "no such item", name)
            try:
                view = item_of(store, self.home, prefix)
            except InputError as e:
                return _error(HTTPStatus.NOT_FOUND, str(e), name)
            return 200, _HTML, item_page(view, name)
        return _error(HTTPStatus.NOT_FOUND, f"nothing at {path[:200]}", name)

    def _name(self, store: Store | None) -> str:
        if store is None:
            return Path(self.repo).resolve().name
        workdir = store.repo.workdir
        return Path(workdir).name if workdir else store.common_dir.name


def _error(status: HTTPStatus, message: str, repo: str) -> tuple[int, str, str]:
    return int(status), _HTML, error_page(int(status), message, repo)


class _Handler(BaseHTTPRequestHandler):
    server_version = "gitmem-serve"
    sys_version = ""
    viewer: Viewer  # set on the class made for each server

    def do_GET(self) -> None:
        self._respond(send_body=True)

    def do_HEAD(self) -> None:
        self._respond(send_body=False)

    def _not_allowed(self) -> None:
        self._send(int(HTTPStatus.METHOD_NOT_ALLOWED), _HTML, "", True, {"Allow": "GET, HEAD"})

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _not_allowed

    def _respond(self, send_body: bool) -> None:
        if self.viewer.loopback and not is_loopback(host_name(self.headers.get("Host") or "")):
            message = "this viewer answers only to loopback names (127.0.0.1, localhost)"
            page = error_page(421, message, "gitmem")
            self._send(421, _HTML, page, send_body)
            return
        if len(self.path) > MAX_TARGET:
            self._send(414, _HTML, error_page(414, "request target too long", "gitmem"), send_body)
            return
        status, kind, body = self.viewer.answer(self.path)
        self._send(status, kind, body, send_body)

    def _send(
        self,
        status: int,
        kind: str,
        body: str,
        send_body: bool,
        extra: dict[str, str] | None = None,
    ) -> None:
        data = body.encode("utf-8")
        self.send_response(status)
        for name, value in {**HEADERS, **(extra or {})}.items():
            self.send_header(name, value)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if send_body:
            self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the terminal shows where the viewer is, not every request."""


def make_server(viewer: Viewer, host: str, port: int) -> HTTPServer:
    """A server for *viewer* listening on *host*:*port* (port 0: any free one).

    Raises:
        OSError: the address cannot be listened on.
    """
    handler: Callable[..., _Handler] = type("Handler", (_Handler,), {"viewer": viewer})
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET

    class Server(HTTPServer):
        address_family = family
        allow_reuse_address = True

    return Server((host.strip("[]"), port), handler)
