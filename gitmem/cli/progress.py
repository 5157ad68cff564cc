"""A line on standard error that says how a long check goes (``gitmem verify`` of a
large store runs for minutes), rewritten in place, at most a few times a second, and only
when standard error is a terminal: a pipe, a file or CI's log never gets it."""

from __future__ import annotations

import sys
import time
from typing import TextIO

_SAID = {
    "content": "{done:,} records and item blobs checked",
    "quotes": "{done:,} snapshots read, their quotes checked",
    "history": "checking that the history only ever added (git log)",
}
"""What each stage of :data:`gitmem.store.checking.Progress` says."""

EVERY = 0.2
"""Seconds between two rewrites of the line within one stage."""


class ProgressLine:
    """``progress(stage, done)`` shown as one line on *stream*; :meth:`close` clears it."""

    def __init__(self, command: str, stream: TextIO) -> None:
        self._command, self._stream = command, stream
        self._stage = ""
        self._shown = 0.0
        self._width = 0

    def __call__(self, stage: str, done: int) -> None:
        now = time.monotonic()
        if stage == self._stage and now - self._shown < EVERY:
            return
        self._stage, self._shown = stage, now
        text = f"{self._command}: {_SAID.get(stage, stage).format(done=done)}…"
        self._write("\r" + text.ljust(self._width))
        self._width = len(text)

    def close(self) -> None:
        """The line cleared, if one was shown. Raises nothing."""
        if self._width:
            self._write("\r" + " " * self._width + "\r")
            self._width = 0

    def _write(self, text: str) -> None:
        try:
            self._stream.write(text)
            self._stream.flush()
        except (OSError, ValueError):  # the terminal went away: the check goes on
            self._width = 0


def progress_line(command: str, shown: bool, stream: TextIO | None = None) -> ProgressLine | None:
    """A :class:`ProgressLine` for *command* when *shown* and the stream (standard error)
    is a terminal; None otherwise (standard error closed too: Python has none then).
    Raises nothing."""
    stream = sys.stderr if stream is None else stream
    if stream is None or not shown:
        return None
    try:
        terminal = stream.isatty()
    except (OSError, ValueError):
        terminal = False
    return ProgressLine(command, stream) if terminal else None
