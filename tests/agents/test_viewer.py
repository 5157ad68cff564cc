"""gitmem serve: the real command serving a real repository, read over HTTP on loopback —
hostile item text, the headers, the binding, read-only, degraded rendering, bad input —
and the pages in a real headless browser (Debian's chromium) where one is installed."""

from __future__ import annotations

import http.client
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from helpers import git, tamper
from helpers.capturing import capture_text

from gitmem.agents.viewer.server import CSP, is_loopback
from gitmem.store.layout import content_path
from gitmem.store.repo import Store

HOSTILE = (
    "<script>alert(1)</script><img src=https://evil.example/x.png onerror=alert(2)> "
    '"double\' single <a href="javascript:alert(3)">click</a> javascript:alert(4) '
    "<style>body{display:none}</style> &amp; </li></ul><h1>fake</h1> "
    "**markdown** `code <b>` [link](javascript:alert(5))"
)
QUOTE = "the cache lives in .git/gitmem and is never pushed"
SAID = f"We agreed: {QUOTE}.\nAlso: {HOSTILE}\n"


@dataclass
class Served:
    process: subprocess.Popen[str]
    host: str
    port: int

    def get(
        self, path: str, method: str = "GET", headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], str]:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            connection.request(method, path, headers=headers or {})
            response = connection.getresponse()
            body = response.read().decode("utf-8")
            return response.status, {k.lower(): v for k, v in response.getheaders()}, body
        finally:
            connection.close()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"


def start(repo: Path, *args: str) -> Served:
    """`gitmem serve --port 0` as a real process; waits for the address it prints."""
    process = subprocess.Popen(
        [sys.executable, "-m", "gitmem", "-C", str(repo), "serve", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    found = re.search(r"http://\[?([^\]/]+?)\]?:(\d+)/", line)
    if found is None:
        process.kill()
        raise AssertionError(f"no address from gitmem serve: {line!r} {process.stderr}")
    return Served(process, found.group(1), int(found.group(2)))


def stop(served: Served) -> str:
    """Stop the process; what it wrote on stderr."""
    served.process.terminate()
    try:
        _, err = served.process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        served.process.kill()
        _, err = served.process.communicate()
    return err


@pytest.fixture
def memory(gm: Any, initialised: Path) -> dict[str, Any]:
    """A verbatim decision and a hostile inferred item."""
    return capture_text(
        gm,
        initialised.parent / "t.md",
        SAID,
        [
            {"kind": "decision", "text": "Cache lives in .git/gitmem", "quote": QUOTE},
            {"kind": "fact", "text": HOSTILE, "trust": "inferred"},
        ],
    )


@pytest.fixture
def served(memory: dict[str, Any], initialised: Path) -> Iterator[Served]:
    server = start(initialised)
    yield server
    stop(server)


def hostile_id(memory: dict[str, Any]) -> str:
    return next(i["id"] for i in memory["items"] if "alert" in i["text"])


def assert_inert(body: str) -> None:
    """No markup of the hostile text survives: no script, image, style or link from it,
    and the only links are the viewer's own paths."""
    assert "<script" not in body and "<img" not in body and "<style" not in body
    assert "<h1>fake" not in body and "onerror=alert" not in body.replace(
        "onerror=alert(2)&gt;", ""
    )
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    for target in re.findall(r'(?:href|src|action)="([^"]*)"', body):
        assert target.startswith("/"), target
    assert "javascript:" not in "".join(re.findall(r"<a [^>]*>", body))


def test_hostile_text_is_escaped_on_every_page(served: Served, memory: dict[str, Any]) -> None:
    item = hostile_id(memory)
    for path in ("/", "/search?q=alert", f"/item/{item}", f"/item/{item[:10]}"):
        status, _, body = served.get(path)
        assert status == 200, (path, body)
        assert_inert(body)
        assert "&quot;double&#x27; single" in body
    # a hostile query is escaped where the page repeats it
    q = quote('"><script>alert(5)</script>', safe="")
    status, _, body = served.get(f"/search?q={q}")
    assert status == 200 and "<script" not in body and "&quot;&gt;&lt;script&gt;" in body


def test_every_answer_carries_the_strict_headers(served: Served) -> None:
    for path, method, expected in [
        ("/", "GET", 200),
        ("/style.css", "GET", 200),
        ("/nowhere", "GET", 404),
        ("/item/zz", "GET", 404),
        ("/", "POST", 405),
        ("/", "HEAD", 200),
    ]:
        status, headers, _ = served.get(path, method)
        assert status == expected, (path, method)
        assert headers["content-security-policy"] == CSP
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
    assert "script-src 'none'" in CSP and "default-src 'none'" in CSP
    assert "connect-src 'none'" in CSP and "img-src 'none'" in CSP


def test_no_page_asks_for_anything_elsewhere(served: Served, memory: dict[str, Any]) -> None:
    for path in ("/", f"/item/{hostile_id(memory)}", "/search?q=cache"):
        _, _, body = served.get(path)
        assert "http://" not in re.sub(r">[^<]*<", "><", body)  # no URL outside text
        assert "https://" not in re.sub(r">[^<]*<", "><", body)
    _, _, css = served.get("/style.css")
    assert "url(" not in css and "@import" not in css


def test_it_listens_on_loopback_and_answers_only_loopback_names(served: Served) -> None:
    assert served.host == "127.0.0.1"
    assert served.get("/", headers={"Host": "evil.example"})[0] == 421
    assert served.get("/", headers={"Host": "evil.example:8765"})[0] == 421
    assert served.get("/", headers={"Host": "localhost:1"})[0] == 200
    for name in ("127.0.0.1", "::1", "[::1]", "localhost", "127.8.9.1"):
        assert is_loopback(name)
    for name in ("0.0.0.0", "::", "192.168.1.4", "example.com", ""):
        assert not is_loopback(name)


def test_another_address_only_when_asked_and_with_a_warning(
    memory: dict[str, Any], initialised: Path
) -> None:
    server = start(initialised, "--host", "0.0.0.0")
    try:
        assert server.host == "0.0.0.0"
        # not a loopback address: the Host check is off, the page is served
        status, _, _ = served_get(server, "127.0.0.1")
        assert status == 200
    finally:
        err = stop(server)
    assert "warning: serving memory on 0.0.0.0, beyond this machine" in err


def served_get(server: Served, host: str) -> tuple[int, dict[str, str], str]:
    return Served(server.process, host, server.port).get("/")


def test_it_is_read_only(served: Served, memory: dict[str, Any], initialised: Path) -> None:
    before = git(initialised, "for-each-ref")
    for path in ("/", "/search?q=cache", f"/item/{hostile_id(memory)}", "/?as_of=2020-01-01"):
        assert served.get(path)[0] == 200
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        assert served.get("/", method)[0] == 405
    assert git(initialised, "for-each-ref") == before


def test_a_tampered_record_shows_degraded_as_in_the_brief(
    served: Served, memory: dict[str, Any], gm: Any, initialised: Path
) -> None:
    store = Store.discover(initialised)
    decision = next(i["id"] for i in memory["items"] if i["text"].startswith("Cache"))
    _, _, body = served.get("/")
    assert "✓ verbatim" in body and "never pushed" in body
    tamper.overwrite_object(
        store, content_path("items", decision), b"never pushed", b"always pushed"
    )
    brief = gm("brief").stdout
    line = next(line for line in brief.splitlines() if "item missing" in line or "Cache" in line)
    label = re.search(r"\[⚠ ([^\]]+)\]", line)
    assert label is not None
    for path in ("/", f"/item/{decision}"):
        status, _, body = served.get(path)
        assert status == 200
        assert "never pushed" not in body and "always pushed" not in body
        assert f"⚠ {label.group(1)}" in body
        assert "✓ verbatim</span>" not in body


def test_bad_input_is_one_line_not_a_traceback(served: Served) -> None:
    for path, expected in [
        ("/?as_of=no-such-rev", 400),
        ("/search?q=x&as_of=2026-13-01", 400),
        ("/item/" + "f" * 64, 404),
        ("/" + "x" * 5000, 414),
    ]:
        status, _, body = served.get(path)
        assert status == expected, (path, body[:300])
        assert "Traceback" not in body and "internal error" not in body
    # what a request says is repeated escaped, on the error page as on the others
    hostile = quote('"><script>alert(6)</script>', safe="")
    for path in (f"/?as_of={hostile}", f"/search?q=x&as_of={hostile}", f"/{hostile}"):
        status, _, body = served.get(path)
        assert status in (400, 404) and "<script" not in body, (path, body)
        assert "&lt;script&gt;" in body or "%3Cscript" in body
    assert served.process.poll() is None  # still serving


def test_a_nul_in_a_search_separates_words(served: Served) -> None:
    # A NUL ends a string inside SQLite's full-text query: the search was a 500 telling
    # the user to remove an index that was fine, after rebuilding it.
    status, _, body = served.get("/search?q=cache%00lives")
    assert status == 200, body[:300]
    assert "Cache lives in .git/gitmem" in body and "remove it" not in body


@pytest.mark.parametrize(
    "args",
    [("--port", "70000"), ("--port", "-1"), ("--port", "x")],
)
def test_a_bad_port_is_one_line_and_exit_2(gm: Any, initialised: Path, args: tuple[str]) -> None:
    result = gm("serve", *args)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") <= 3 and "Traceback" not in result.stderr


def browser() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def dump_dom(url: str) -> str:
    """The DOM a real headless chromium builds from *url* (scripts would have run)."""
    executable = browser()
    if executable is None:
        pytest.skip("no chromium on PATH: install Debian's `chromium` (the CI does)")
    done = subprocess.run(
        [
            executable,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-extensions",
            "--virtual-time-budget=3000",
            "--dump-dom",
            url,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_the_viewer_in_a_real_browser(
    served: Served, memory: dict[str, Any], initialised: Path
) -> None:
    dom = dump_dom(served.url + "/")
    assert "<h1>Memory brief</h1>" in dom
    assert "Cache lives in .git/gitmem" in dom and "✓ verbatim" in dom
    # the hostile text is text in the DOM: no element of it exists, no script ran
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in dom
    assert "<script" not in dom and "<img" not in dom and "<h1>fake" not in dom
    assert dom.count("<h1>") == 1
    # its markdown is rendered, safely: emphasis and code, a link as text
    assert "<strong>markdown</strong>" in dom and "<code>code &lt;b&gt;</code>" in dom
    assert "link (javascript:alert(5))" in dom
    item = dump_dom(f"{served.url}/item/{hostile_id(memory)}")
    assert "&lt;img src=https://evil.example/x.png" in item and "<img" not in item
    store = Store.discover(initialised)
    decision = next(i["id"] for i in memory["items"] if i["text"].startswith("Cache"))
    tamper.overwrite_object(
        store, content_path("items", decision), b"never pushed", b"always pushed"
    )
    degraded = dump_dom(served.url + "/")
    assert "never pushed" not in degraded and "⚠" in degraded
