"""The index's changes of journal mode (a build writes a fresh file without a journal,
then goes back to the write-ahead log) wait for a reader that takes no lock (a brief's
quick look at the index's tip): SQLite refuses them at once, and a background build
refused there fell back to an index in memory, leaving the file empty."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from gitmem.lifecycle import index_file
from gitmem.lifecycle.index_file import connect, journal_mode


def reading(path: Path) -> sqlite3.Connection:
    """A read-only connection in the middle of a read transaction on *path*."""
    reader = sqlite3.connect(
        f"file:{path}?mode=ro", uri=True, isolation_level=None, check_same_thread=False
    )
    reader.execute("BEGIN")
    reader.execute("SELECT COUNT(*) FROM meta").fetchall()
    return reader


def test_a_journal_switch_waits_for_a_reader_to_close(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite"
    writer = connect(path)
    reader = reading(path)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        writer.execute("PRAGMA journal_mode=OFF")  # what SQLite does on its own
    threading.Timer(0.3, reader.close).start()  # in WAL mode, an open reader holds it
    journal_mode(writer, "OFF")
    assert writer.execute("PRAGMA journal_mode").fetchone()[0] == "off"
    journal_mode(writer, "WAL")
    assert writer.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_reader_that_never_lets_go_fails_the_switch_in_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(index_file, "JOURNAL_PATIENCE", 0.2)
    path = tmp_path / "memory.sqlite"
    writer = connect(path)
    reader = reading(path)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        journal_mode(writer, "OFF")
    reader.close()
    assert writer.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
