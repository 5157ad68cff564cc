"""gitmem mcp: the server runs as a real subprocess (`python -m gitmem mcp`) in a temp
repository and is driven over stdio by the MCP SDK's own client."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from helpers import git, run
from mcp import ClientSession, StdioServerParameters, stdio_client

from gitmem.capture.sessions import claude_slug
from gitmem.core.quotes import fold
from gitmem.store.ledger import Ledger
from gitmem.store.repo import Store

pytestmark = pytest.mark.slow  # the official SDK client drives a real server subprocess

SESSION = "5b2f0c1e-claude-session"
SAID = "Let's keep the fetch timeout at 37 seconds, agreed."
DONE = "Done: the timeout change is merged into main."
TOOLS = {"brief", "recall", "remember", "resolve", "verify_quote", "ask"}
READ_ONLY = {"brief", "recall", "verify_quote"}


def claude_transcript(folder: Path, repo: Path) -> Path:
    """The current session's Claude Code transcript, where Claude Code keeps it."""
    project = folder / "projects" / claude_slug(repo.resolve())
    project.mkdir(parents=True)
    lines = [
        {
            "type": "user",
            "sessionId": SESSION,
            "uuid": "u1",
            "cwd": str(repo),
            "message": {"role": "user", "content": SAID},
        },
        {
            "type": "assistant",
            "sessionId": SESSION,
            "uuid": "u2",
            "message": {"role": "assistant", "content": [{"type": "text", "text": DONE}]},
        },
    ]
    path = project / f"{SESSION}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


class Session:
    """Tool calls over one live stdio connection, replies as text."""

    def __init__(self, client: ClientSession) -> None:
        self.client = client

    async def call(self, name: str, **arguments: Any) -> tuple[bool, str]:
        result = await self.client.call_tool(name, arguments)
        content, *links = result.content
        assert all(link.type == "resource_link" for link in links)
        text = getattr(content, "text", "")
        # Every reply, errors included, is gitmem's own output for the agent.
        assert text.startswith("<gitmem-context>\n"), text
        assert text.rstrip("\n").endswith("</gitmem-context>"), text
        return result.is_error, text


def serve(repo: Path, env: dict[str, str], script: Any, args: tuple[str, ...] = ()) -> Any:
    """Run ``python -m gitmem [ARGS] mcp`` in the folder *repo* and drive it with *script*."""
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "gitmem", *args, "mcp"], env=env, cwd=str(repo)
    )
    found: dict[str, Any] = {}

    async def main() -> None:
        with open(os.devnull, "w") as quiet:
            async with (
                stdio_client(params, errlog=quiet) as (read, write),
                ClientSession(read, write) as client,
            ):
                found["init"] = await client.initialize()
                found["tools"] = (await client.list_tools()).tools
                found["result"] = await script(Session(client))

    anyio.run(main)
    return found


def test_the_sdk_client_drives_every_tool(initialised: Path, tmp_path: Path, home: Path) -> None:
    (initialised / "NOTES.md").write_text("The fetcher retries on 502 only.\n")
    git(initialised, "add", "NOTES.md")
    git(initialised, "commit", "-q", "-m", "notes")
    claude = tmp_path / "claude"
    claude_transcript(claude, initialised)
    other = initialised / "other.md"  # a transcript kept in the repository
    other.write_text("Someone else said: the cache lives in .git/gitmem/ and is never pushed.\n")
    env = {**os.environ, "CLAUDE_CONFIG_DIR": str(claude)}

    async def script(session: Session) -> dict[str, tuple[bool, str]]:
        replies = {}
        replies["said"] = await session.call(
            "remember",
            kind="decision",
            text="Fetch timeout stays at 37 s",
            trust="verbatim",
            quote="keep the fetch timeout at 37 seconds",
        )
        replies["misquoted"] = await session.call(
            "remember",
            kind="decision",
            text="Retries go to 9",
            trust="verbatim",
            quote="we agreed on nine retries",
        )
        replies["elsewhere"] = await session.call(
            "remember",
            kind="fact",
            text="Cache is local",
            trust="verbatim",
            quote="the cache lives in .git/gitmem/",
            transcript=str(other),
        )
        replies["again"] = await session.call(
            "remember",
            kind="decision",
            text="Fetch timeout stays at 37 s",
            trust="verbatim",
            quote="keep the fetch timeout at 37 seconds",
        )
        replies["recall"] = await session.call("recall", query="timeout")
        replies["brief"] = await session.call("brief")
        replies["verify"] = await session.call("verify_quote", quote="the timeout change is merged")
        replies["unverified"] = await session.call("verify_quote", quote="it was never merged")
        replies["ask"] = await session.call("ask", question="retries 502")
        replies["bad"] = await session.call("resolve", id="zzzz", evidence="x")
        return replies

    found = serve(initialised, env, script)
    assert found["init"].server_info.name == "gitmem"
    assert "context, not instructions" in (found["init"].instructions or "")
    tools = {t.name: t for t in found["tools"]}
    assert set(tools) == TOOLS
    for name, tool in tools.items():
        assert tool.annotations is not None and tool.annotations.read_only_hint is (
            name in READ_ONLY
        )
        if name not in READ_ONLY:
            assert tool.annotations.destructive_hint is False
    assert tools["recall"].input_schema["required"] == ["query"]
    replies = found["result"]
    assert all(not error for key, (error, _) in replies.items() if key != "bad")
    said = replies["said"][1]
    assert "[✓ verbatim] Fetch timeout stays at 37 s" in said and "its quote verified" in said
    assert f"session {SESSION}" in said  # the current Claude Code session was found
    misquoted = replies["misquoted"][1]
    assert "[~ inferred] Retries go to 9" in misquoted and "did NOT verify" in misquoted
    assert "[✓ verbatim] Cache is local" in replies["elsewhere"][1]
    assert "already remembered" in replies["again"][1]
    assert "Fetch timeout stays at 37 s" in replies["recall"][1]
    assert "gitmem brief" in replies["brief"][1] and "Retries go to 9" in replies["brief"][1]
    assert replies["verify"][1].startswith("<gitmem-context>\nverbatim in ")
    assert "NOT verbatim" in replies["unverified"][1]
    assert "supported_answer" in replies["ask"][1] and "no model is configured" in replies["ask"][1]
    error, bad = replies["bad"]
    assert error and "gitmem: item id 'zzzz'" in bad
    # What the replies showed is in the emission ledger (the recall showed the quote).
    emitted = Ledger(Store.discover(initialised).local_dir).load()
    assert fold("Fetch timeout stays at 37 s") in emitted
    assert fold("keep the fetch timeout at 37 seconds") in emitted
    assert fold("The fetcher retries on 502 only.") in emitted


def test_resolve_needs_evidence_that_verifies(initialised: Path, tmp_path: Path) -> None:
    claude = tmp_path / "claude"
    claude_transcript(claude, initialised)
    env = {**os.environ, "CLAUDE_CONFIG_DIR": str(claude)}

    async def script(session: Session) -> list[tuple[bool, str]]:
        stored = await session.call(
            "remember", kind="open_loop", text="Merge the timeout change", trust="inferred"
        )
        ident = stored[1].split("id ")[1][:8]
        return [
            stored,
            await session.call("resolve", id=ident, evidence="it was merged yesterday"),
            await session.call("resolve", id=ident, evidence="the timeout change is merged"),
        ]

    stored, refused, resolved = serve(initialised, env, script)["result"]
    assert not stored[0]
    assert refused[0] and "not verbatim" in refused[1]
    assert not resolved[0] and "resolved" in resolved[1]
    document = run("-C", str(initialised), "recall", "merge", "--json").json()
    assert isinstance(document, dict) and document["hits"][0]["status"] == "resolved"


def test_without_the_sdk_mcp_is_exit_2_with_a_hint(
    initialised: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "mcp.server.mcpserver", None)
    result = run("-C", str(initialised), "mcp")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        "gitmem: gitmem mcp needs the MCP SDK: pip install 'mcp>=2.3,<3' (the [mcp] extra)\n"
    )


def test_mcp_with_a_bad_dash_c_is_exit_2(tmp_path: Path) -> None:
    result = run("-C", str(tmp_path), "mcp")
    assert result.exit_code == 2 and "not a git repository" in result.stderr


def test_started_outside_the_repository_it_serves_claude_project_dir(
    initialised: Path, tmp_path: Path
) -> None:
    """Issue 16: Claude Code starts the server anywhere and names the project."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    env = {**os.environ, "CLAUDE_PROJECT_DIR": str(initialised)}

    async def script(session: Session) -> list[tuple[bool, str]]:
        stored = await session.call(
            "remember", kind="open_loop", text="Ship the parser rewrite", trust="inferred"
        )
        return [stored, await session.call("brief", format="json")]

    found = serve(outside, env, script)
    stored, brief = found["result"]
    assert not stored[0] and "remembered [~ inferred] Ship the parser rewrite" in stored[1]
    assert not brief[0]
    document = json.loads(brief[1].removeprefix("<gitmem-context>\n").rsplit("</gitmem", 1)[0])
    assert [i["text"] for i in document["items"]] == ["Ship the parser rewrite"]
    capabilities = found["init"].capabilities
    assert capabilities.tools is not None
    assert capabilities.prompts is None and capabilities.resources is not None


def test_with_no_repository_every_call_answers_one_error_and_the_server_stays_up(
    tmp_path: Path,
) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "CLAUDE_PROJECT_DIR"}

    async def script(session: Session) -> list[tuple[bool, str]]:
        return [
            await session.call("brief"),
            await session.call("recall", query="parser"),
            await session.call("ask", question="what?"),
            await session.call("brief"),  # still up
        ]

    found = serve(outside, env, script)
    assert {t.name for t in found["tools"]} == TOOLS
    replies = found["result"]
    assert all(error for error, _ in replies)
    assert len({text for _, text in replies}) == 1
    (text,) = {text for _, text in replies}
    assert text.count("\n") == 3 and "gitmem: no git repository to serve" in text
    assert str(outside) in text and "gitmem -C PATH mcp" in text


def test_schemas_name_their_allowed_values(initialised: Path) -> None:
    async def script(session: Session) -> None:
        return None

    tools = {t.name: t.input_schema for t in serve(initialised, dict(os.environ), script)["tools"]}
    brief = tools["brief"]["properties"]
    assert brief["format"]["enum"] == ["text", "markdown", "json"]
    budget = brief["budget"]
    assert 0 in [budget.get("minimum"), *(b.get("minimum") for b in budget.get("anyOf", []))]
    remember = tools["remember"]["properties"]
    assert remember["kind"]["enum"] == ["decision", "open_loop", "belief", "uncertainty", "fact"]
    assert remember["trust"]["enum"] == ["verbatim", "inferred"]
    assert tools["recall"]["properties"]["limit"]["minimum"] == 1


def test_edge_cases_through_the_in_process_client(
    initialised: Path, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mcp import Client

    from gitmem.agents.mcp import build_server

    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)  # no current session to find
    said = initialised / "said.md"  # a transcript kept in the repository
    said.write_text(f"{SAID}\n")
    server = build_server(str(initialised), home)

    async def main() -> list[tuple[bool, str]]:
        replies = []
        async with Client(server) as client:
            for name, arguments in (
                ("remember", {"kind": "fact", "text": "Timeout is 37", "quote": "at 37 seconds"}),
                (
                    "remember",
                    {
                        "kind": "fact",
                        "text": "The fetch timeout is 37 s",
                        "quote": SAID,
                        "transcript": str(said),
                    },
                ),
                ("brief", {"format": "json"}),
                ("verify_quote", {"quote": "keep the fetch timeout", "transcript": str(said)}),
                ("verify_quote", {"quote": "keep the fetch timeout"}),
            ):
                result = await client.call_tool(name, arguments)
                replies.append((result.is_error, getattr(result.content[0], "text", "")))
        return replies

    unchecked, inferred, json_brief, verified, nowhere = anyio.run(main)
    assert not unchecked[0] and "The quote was NOT checked" in unchecked[1]
    assert not inferred[0] and "its quote verified" in inferred[1]
    assert not json_brief[0]  # issue 16: the brief in JSON as well
    assert '"format": "gitmem/brief/1"' in json_brief[1]
    assert not verified[0] and "verbatim in said.md" in verified[1]
    assert nowhere[0] and "give transcript=PATH" in nowhere[1]
