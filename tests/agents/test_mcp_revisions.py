"""The MCP server at both protocol revisions the SDK speaks: the ``initialize`` handshake
(2025-11-25) and the stateless ``server/discover`` (2026-07-28), driven by the SDK's own
client over stdio against a real ``python -m gitmem mcp``.

At each: discovery, the tools and their output schemas, structured content validated
against each schema (jsonschema), every item carrying trust, verified and
degraded_reason, each item a resource read back through its ``resource_link``, and the
refusals: a transcript outside the repository and the hosts' folders, a text over the
item limit, an unknown id before any transcript.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
import jsonschema
import pytest
from helpers import Result
from mcp import ClientSession, StdioServerParameters, stdio_client

from gitmem.capture.sessions import claude_slug

pytestmark = pytest.mark.slow  # a real server subprocess per revision

SESSION = "7c3e9a10-mcp-revisions"
SAID = "We settled it: the fetch timeout stays at 37 seconds."
SECRET = "-----BEGIN OPENSSH PRIVATE KEY----- not-a-real-key"
ITEM_FIELDS = {"trust", "verified", "degraded_reason", "uri", "id"}


@pytest.fixture
def served(initialised: Path, gm: Any, tmp_path: Path) -> tuple[Path, dict[str, str]]:
    items = tmp_path / "items.json"
    items.write_text(json.dumps([{"kind": "decision", "text": "Ship the parser rewrite"}]))
    notes = tmp_path / "t.md"
    notes.write_text("notes\n")
    done: Result = gm("capture", "--transcript", str(notes), "--items", str(items))
    assert done.exit_code == 0, done.stderr
    claude = tmp_path / "claude"
    project = claude / "projects" / claude_slug(initialised.resolve())
    project.mkdir(parents=True)
    line = {
        "type": "user",
        "sessionId": SESSION,
        "uuid": "u1",
        "cwd": str(initialised),
        "message": {"role": "user", "content": SAID},
    }
    (project / f"{SESSION}.jsonl").write_text(json.dumps(line) + "\n")
    ssh = tmp_path / "home" / ".ssh"
    ssh.mkdir(parents=True)
    (ssh / "id_ed25519").write_text(SECRET + "\n")
    env = {**os.environ, "CLAUDE_CONFIG_DIR": str(claude), "HOME": str(tmp_path / "home")}
    env.pop("CLAUDE_PROJECT_DIR", None)
    return initialised, env


def drive(repo: Path, env: dict[str, str], how: str) -> dict[str, Any]:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "gitmem", "mcp"], env=env, cwd=str(repo)
    )
    found: dict[str, Any] = {"calls": {}}

    async def main() -> None:
        with open(os.devnull, "w") as quiet:
            async with (
                stdio_client(params, errlog=quiet) as (read, write),
                ClientSession(read, write) as client,
            ):
                if how == "initialize":
                    found["init"] = await client.initialize()
                else:
                    found["init"] = await client.discover()
                found["version"] = client.protocol_version
                found["tools"] = {t.name: t for t in (await client.list_tools()).tools}
                found["templates"] = (await client.list_resource_templates()).resource_templates
                calls = found["calls"]

                async def call(label: str, name: str, **arguments: Any) -> Any:
                    calls[label] = await client.call_tool(name, arguments)
                    return calls[label]

                await call("brief", "brief")
                await call("brief_json", "brief", format="json")
                await call("recall", "recall", query="parser rewrite")
                await call(
                    "remember",
                    "remember",
                    kind="decision",
                    text="Fetch timeout stays at 37 s",
                    trust="verbatim",
                    quote="the fetch timeout stays at 37 seconds",
                )
                await call("verify", "verify_quote", quote="fetch timeout stays at 37 seconds")
                await call(
                    "ssh",
                    "verify_quote",
                    quote="PRIVATE KEY",
                    transcript=str(Path(env["HOME"]) / ".ssh" / "id_ed25519"),
                )
                await call(
                    "relative_escape",
                    "verify_quote",
                    quote="PRIVATE KEY",
                    transcript="../home/.ssh/id_ed25519",
                )
                await call("too_long", "remember", kind="fact", text="x" * 501)
                await call(
                    "unknown_id", "resolve", id="ffffffff", evidence="x", transcript="/etc/passwd"
                )
                links = [c for c in calls["brief"].content if c.type == "resource_link"]
                found["read"] = [await client.read_resource(link.uri) for link in links]

    anyio.run(main)
    return found


def text_of(result: Any) -> str:
    return str(result.content[0].text)


@pytest.mark.parametrize(
    ("how", "revision"), [("initialize", "2025-11-25"), ("discover", "2026-07-28")]
)
def test_the_server_speaks_both_revisions_with_structured_items_and_resources(
    served: tuple[Path, dict[str, str]], how: str, revision: str
) -> None:
    repo, env = served
    found = drive(repo, env, how)
    assert found["version"] == revision
    tools, calls = found["tools"], found["calls"]
    assert set(tools) == {"brief", "recall", "remember", "resolve", "verify_quote", "ask"}
    assert tools["ask"].output_schema is None
    for name in ("brief", "recall", "remember", "resolve", "verify_quote"):
        assert tools[name].output_schema is not None, name
    for label in ("brief", "brief_json", "recall", "remember", "verify"):
        result = calls[label]
        assert not result.is_error, text_of(result)
        name = {"brief_json": "brief", "verify": "verify_quote"}.get(label, label)
        jsonschema.validate(result.structured_content, tools[name].output_schema)
    items = [
        *calls["brief"].structured_content["items"],
        *calls["recall"].structured_content["items"],
        calls["remember"].structured_content["item"],
    ]
    assert items and all(item.keys() >= ITEM_FIELDS for item in items)
    shipped = calls["brief"].structured_content["items"][0]
    assert shipped["text"] == "Ship the parser rewrite" and shipped["verified"] is True
    assert shipped["trust"] == "inferred" and shipped["degraded_reason"] is None
    assert shipped["uri"] == f"gitmem://item/{shipped['id']}"
    assert calls["remember"].structured_content["quote_verified"] is True
    assert calls["remember"].structured_content["item"]["trust"] == "verbatim"
    assert calls["verify"].structured_content["verbatim"] is True
    # the items are resources: listed as a template, read back through the links
    (template,) = found["templates"]
    assert template.uri_template == "gitmem://item/{id}"
    (read,) = found["read"]
    document = json.loads(read.contents[0].text)
    assert document["id"] == shipped["id"] and document["verified"] is True
    assert document["history"]["id"] == shipped["id"]


@pytest.mark.parametrize("how", ["initialize", "discover"])
def test_what_the_server_refuses_it_refuses_at_both_revisions(
    served: tuple[Path, dict[str, str]], how: str
) -> None:
    repo, env = served
    calls = drive(repo, env, how)["calls"]
    for label in ("ssh", "relative_escape"):
        refused = calls[label]
        assert refused.is_error and "outside the folders gitmem reads transcripts from" in (
            text_of(refused)
        )
        assert "not-a-real-key" not in text_of(refused)
    too_long = calls["too_long"]
    assert too_long.is_error and "501 characters" in text_of(too_long)
    assert "at most 500" in text_of(too_long)
    unknown = calls["unknown_id"]
    # the id is checked first: the answer is about the id, not about /etc/passwd
    assert unknown.is_error and "ffffffff" in text_of(unknown)
    assert "outside the folders" not in text_of(unknown)


def test_remembers_item_limit_is_a_model_extractors() -> None:
    from gitmem.agents.mcp_tools import MAX_TEXT_CHARS
    from gitmem.capture.extract.schema import MAX_TEXT_CHARS as EXTRACTOR_LIMIT

    assert MAX_TEXT_CHARS == EXTRACTOR_LIMIT
