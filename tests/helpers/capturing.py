"""Capturing and reading memory through the real CLI, for tests: a transcript written to
a file, items given on stdin, the JSON answer checked and returned; the brief, the stored
checkpoint and a release verdict read back."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from gitmem.store.layout import content_path
from gitmem.store.repo import Store
from helpers import DATA, Gm

SAMPLE = DATA / "session.md"
"""A short session (plain text) whose decisions :data:`SAMPLE_ITEMS` quote."""
SAMPLE_ITEMS = DATA / "items.json"


def capture(
    gm: Gm,
    transcript: Path | str,
    items: list[dict[str, Any]] | None = None,
    *extra: str,
    session: str | None = None,
) -> Any:
    """``gitmem capture --transcript TRANSCRIPT --json`` (with *items* on stdin as
    ``--items -``, in *session*, and *extra* options); its JSON (the capture must succeed)."""
    args = ["capture", "--transcript", str(transcript), "--json", *extra]
    if session is not None:
        args += ["--session", session]
    if items is not None:
        args += ["--items", "-"]
    done = gm(*args, input=None if items is None else json.dumps(items))
    assert done.exit_code == 0, done.stderr
    data = done.json()
    assert isinstance(data, dict)
    return data


def capture_text(
    gm: Gm,
    transcript: Path,
    text: str,
    items: list[dict[str, Any]] | None = None,
    *extra: str,
    session: str | None = None,
) -> Any:
    """:func:`capture` of *text* written to the file *transcript*."""
    transcript.write_text(text)
    return capture(gm, transcript, items, *extra, session=session)


def capture_sample(gm: Gm) -> Any:
    """:func:`capture` of :data:`SAMPLE` with the items of :data:`SAMPLE_ITEMS`."""
    return capture(gm, SAMPLE, None, "--items", str(SAMPLE_ITEMS))


def decision(text: str, quote: str) -> dict[str, Any]:
    """A verbatim decision item saying *text*, quoting *quote*."""
    return {"kind": "decision", "text": text, "trust": "verbatim", "quote": quote}


def brief_json(gm: Gm, *extra: str) -> Any:
    """``gitmem brief --format json`` (with *extra* options); its JSON (it must succeed)."""
    done = gm("brief", "--format", "json", *extra)
    assert done.exit_code == 0, done.stderr
    data = json.loads(done.stdout)
    assert isinstance(data, dict)
    return data


def brief_items(gm: Gm, key: str = "id", *extra: str) -> dict[str, dict[str, Any]]:
    """The brief's items by their *key* field (``id`` or ``text``)."""
    return {item[key]: item for item in brief_json(gm, *extra)["items"]}


def stored_checkpoint(repo: Path, address: str) -> dict[str, Any]:
    """The checkpoint stored at *address*, as JSON."""
    data = Store.discover(repo).read_path(content_path("checkpoints", address))
    assert data is not None
    loaded = json.loads(data)
    assert isinstance(loaded, dict)
    return loaded


def release_verdict(gm: Gm, rev: str = "HEAD") -> dict[str, Any]:
    """``gitmem release verify REV --json``: its verdict, whose exit code must be 0 when
    approved and 1 when not."""
    result = gm("release", "verify", rev, "--json")
    data = result.json()
    assert isinstance(data, dict) and result.exit_code == (0 if data["approved"] else 1)
    return data


def claude_line(
    text: str, role: str = "user", session: str = "s", when: datetime | None = None, **fields: Any
) -> str:
    """One line of a Claude Code transcript: *role* saying *text* in *session* (at *when*),
    with *fields* added."""
    record: dict[str, Any] = {"type": role, "sessionId": session}
    if when is not None:
        record["timestamp"] = when.isoformat().replace("+00:00", "Z")
    record["message"] = {"role": role, "content": [{"type": "text", "text": text}]}
    return json.dumps({**record, **fields}) + "\n"


def session_file(folder: Path, session: str, lines: list[tuple[str, str]], when: datetime) -> Path:
    """A Claude Code transcript *folder*/*session*.jsonl of (role, text) *lines*, stamped a
    minute apart from *when* on."""
    path = folder / f"{session}.jsonl"
    path.write_text(
        "".join(
            claude_line(text, role, session, when + timedelta(minutes=n), uuid=f"{session}-{n}")
            for n, (role, text) in enumerate(lines)
        )
    )
    return path
