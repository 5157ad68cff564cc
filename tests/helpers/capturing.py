"""Capturing through the real CLI, for tests: a transcript written to a file, items
given on stdin, the JSON answer checked and returned."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from helpers import Result

Gm = Callable[..., Result]


def capture_items(gm: Gm, transcript: Path, items: list[dict[str, Any]], *extra: str) -> Any:
    """``gitmem capture --transcript TRANSCRIPT --items - --json`` with *items*; its JSON
    (the capture must succeed)."""
    done = gm(
        "capture",
        "--transcript",
        str(transcript),
        "--items",
        "-",
        "--json",
        *extra,
        input=json.dumps(items),
    )
    assert done.exit_code == 0, done.stderr
    data = done.json()
    assert isinstance(data, dict)
    return data


def capture_text(gm: Gm, folder: Path, name: str, text: str, items: list[dict[str, Any]]) -> Any:
    """:func:`capture_items` of *text* written to *folder*/*name*."""
    transcript = folder / name
    transcript.write_text(text)
    return capture_items(gm, transcript, items)


def decision(text: str, quote: str) -> dict[str, Any]:
    """A verbatim decision item saying *text*, quoting *quote*."""
    return {"kind": "decision", "text": text, "trust": "verbatim", "quote": quote}
