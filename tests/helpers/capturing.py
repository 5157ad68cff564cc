"""Capturing and reading memory through the real CLI, for tests: a transcript written to
a file, items given on stdin, the JSON answer checked and returned; the brief and the
stored checkpoint read back."""

from __future__ import annotations

import json
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
