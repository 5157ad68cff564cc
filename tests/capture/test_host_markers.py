"""A host's interruption marker is not the user's words (gitmem.core.transcript.said_text).

Claude Code writes "[Request interrupted by user]" ("… for tool use]") and Codex a
``<turn_aborted>`` block into the user's turn when the user stops a reply. Wherever it
stands — its own "user" message in a host's file, or a line of a markdown transcript
written by hand — no quote of it is verbatim, and a file that holds nothing else from
the user or the assistant is no conversation. The heuristic's reading of a stopped
request (tests/capture/test_heuristic_outcome.py) is unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import Gm

from gitmem.capture.extract.heuristic import extract
from gitmem.capture.transcripts import parse_transcript
from gitmem.core.transcript import Message, said_text, speaks

CLAUDE_MARKERS = ("[Request interrupted by user]", "[Request interrupted by user for tool use]")
CODEX_MARKER = "<turn_aborted>\nThe user interrupted the previous turn on purpose.\n</turn_aborted>"
REQUEST = "Open a ticket so we remove the pin once the wheels exist."
REPLY = "Let me check the wheel status first."


def claude_line(n: int, role: str, text: str) -> str:
    content: Any = text if role == "user" else [{"type": "text", "text": text}]
    record = {
        "type": role,
        "uuid": f"u{n}",
        "sessionId": "s-1",
        "message": {"role": role, "content": content},
    }
    return json.dumps(record) + "\n"


def codex_line(role: str, text: str) -> str:
    kind = "input_text" if role == "user" else "output_text"
    payload = {"type": "message", "role": role, "content": [{"type": kind, "text": text}]}
    return (
        json.dumps(
            {"timestamp": "2026-02-11T08:01:20Z", "type": "response_item", "payload": payload}
        )
        + "\n"
    )


def sessions(marker: str) -> dict[str, tuple[str, str]]:
    """The same stopped turn as each format writes it: (file name, contents)."""
    said = [("user", REQUEST), ("assistant", REPLY), ("user", marker)]
    return {
        "claude": ("s.jsonl", "".join(claude_line(n, r, t) for n, (r, t) in enumerate(said))),
        "codex": ("rollout.jsonl", "".join(codex_line(r, t) for r, t in said)),
        "markdown": ("s.md", f"**user:** {REQUEST}\n\n**assistant:** {REPLY}\n\n{marker}\n"),
        "markdown, labelled": ("s.md", f"User: {REQUEST}\nAssistant: {REPLY}\nUser: {marker}\n"),
    }


CASES = [
    (shape, marker)
    for marker in (*CLAUDE_MARKERS, CODEX_MARKER)
    for shape in sessions(marker)
    if not (shape == "claude" and marker == CODEX_MARKER)
    and not (shape == "codex" and marker != CODEX_MARKER)
]


def quoted(marker: str) -> str:
    """What an extractor would quote of *marker*."""
    return marker.strip("[]") if marker.startswith("[") else marker.splitlines()[1]


@pytest.mark.parametrize(("shape", "marker"), CASES)
def test_a_quote_of_a_marker_is_not_verbatim(
    gm: Gm, tmp_path: Path, shape: str, marker: str
) -> None:
    name, text = sessions(marker)[shape]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    for quote in {marker, quoted(marker)}:
        result = gm("verify-quote", "--transcript", str(path), "--json", quote)
        assert result.exit_code == 1, (shape, quote, result.stdout, result.stderr)
        data = result.json()
        assert isinstance(data, dict) and "interruption markers" in data["reason"]
    said = gm("verify-quote", "--transcript", str(path), REQUEST)
    assert said.exit_code == 0, said.stdout  # the user's own words still are


@pytest.mark.parametrize(("shape", "marker"), CASES)
def test_an_item_quoting_a_marker_is_stored_inferred(
    initialised: Path, gm: Gm, tmp_path: Path, shape: str, marker: str
) -> None:
    name, text = sessions(marker)[shape]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    items = [
        {
            "kind": "open_loop",
            "text": "The user stopped the reply",
            "trust": "verbatim",
            "quote": quoted(marker),
        },
        {
            "kind": "open_loop",
            "text": "Remove the pin once wheels exist",
            "trust": "verbatim",
            "quote": REQUEST,
        },
    ]
    result = gm(
        "capture", "--transcript", str(path), "--items", "-", "--json", input=json.dumps(items)
    )
    assert result.exit_code == 0, result.stderr
    data = result.json()
    assert isinstance(data, dict)
    trust = {i["text"]: (i["trust"], i["quote"]) for i in data["items"]}
    assert trust["The user stopped the reply"] == ("inferred", None)
    assert trust["Remove the pin once wheels exist"] == ("verbatim", REQUEST)


def test_a_quote_never_bridges_a_marker(gm: Gm, tmp_path: Path) -> None:
    """A quote across the marker line would join words the marker stands between."""
    path = tmp_path / "s.md"
    path.write_text(f"{REPLY}\n[Request interrupted by user]\nno, keep requests\n")
    result = gm("verify-quote", "--transcript", str(path), f"{REPLY} no, keep requests")
    assert result.exit_code == 1


@pytest.mark.parametrize("marker", [*CLAUDE_MARKERS, CODEX_MARKER])
def test_a_file_whose_user_only_stopped_a_tool_is_no_conversation(
    initialised: Path, gm: Gm, tmp_path: Path, marker: str
) -> None:
    tool = {"type": "tool_use", "id": "t", "name": "Bash", "input": {"command": "ls"}}
    call = {
        "type": "assistant",
        "uuid": "a",
        "sessionId": "s",
        "message": {"role": "assistant", "content": [tool]},
    }
    stopped = {
        "type": "user",
        "uuid": "b",
        "sessionId": "s",
        "message": {"role": "user", "content": [{"type": "text", "text": marker}]},
    }
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps(call) + "\n" + json.dumps(stopped) + "\n")
    result = gm("capture", "--transcript", str(path))
    assert result.exit_code == 2
    assert "is not a conversation" in result.stderr and "interruption markers" in result.stderr


def test_said_text_keeps_offsets_and_the_users_words() -> None:
    text = f"{REQUEST}\n[Request interrupted by user]\nno, keep requests"
    kept = said_text(Message("user", text))
    assert len(kept) == len(text) and kept.startswith(REQUEST) and kept.endswith("keep requests")
    assert "Request interrupted" not in kept
    assert said_text(Message("user", REQUEST)) == REQUEST
    assert said_text(Message("tool_result", REQUEST)) == ""
    assert not speaks(Message("user", "  [Request interrupted by user for tool use]\n"))
    assert not speaks(Message(None, CODEX_MARKER))
    assert speaks(Message("user", f"{CODEX_MARKER}\nplease go on"))


@pytest.mark.parametrize("marker", CLAUDE_MARKERS)
def test_the_heuristic_still_leaves_a_stopped_request_open(marker: str) -> None:
    name, text = sessions(marker)["claude"]
    messages = list(parse_transcript(text.encode(), name).messages)
    assert [(d.kind, d.text) for d in extract(messages)] == [("open_loop", REQUEST)]
