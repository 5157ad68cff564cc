"""`gitmem import`: every transcript of a folder, once."""

from __future__ import annotations

import shutil
from pathlib import Path

from helpers import DATA, Gm


def folder_of_transcripts(tmp_path: Path) -> Path:
    folder = tmp_path / "sessions"
    shutil.copytree(DATA / "transcripts", folder)
    (folder / ".hidden").mkdir()
    (folder / ".hidden" / "skip.md").write_text("Decision: never imported.\n")
    (folder / "notes.bin").write_bytes(b"\x00\x01")
    return folder


def test_import_captures_each_file_once(initialised: Path, gm: Gm, tmp_path: Path) -> None:
    folder = folder_of_transcripts(tmp_path)
    first = gm("import", str(folder), "--json")
    assert first.exit_code == 0, first.stderr
    data = first.json()
    assert isinstance(data, dict)
    assert (data["captured"], data["skipped"], data["failed"]) == (5, 0, 0)
    assert not any("skip.md" in f["path"] or "notes.bin" in f["path"] for f in data["files"])
    again = gm("import", str(folder), "--json").json()
    assert isinstance(again, dict)
    assert (again["captured"], again["skipped"]) == (0, 5)
    log = gm("log", "--json").json()
    assert isinstance(log, list) and len(log) == 5
    assert gm("verify").exit_code == 0


def test_one_bad_file_does_not_stop_the_rest(initialised: Path, gm: Gm, tmp_path: Path) -> None:
    folder = folder_of_transcripts(tmp_path)
    (folder / "broken.jsonl").write_bytes(b"\xff\xfe not utf-8")
    result = gm("import", str(folder))
    assert result.exit_code == 1
    assert "broken.jsonl" in result.stdout and "5 captured" in result.stdout


def test_import_of_a_missing_folder_is_bad_input(initialised: Path, gm: Gm) -> None:
    assert gm("import", "/no/such/folder").exit_code == 2


def test_forced_format_applies_to_every_file(initialised: Path, gm: Gm, tmp_path: Path) -> None:
    folder = tmp_path / "claude"
    folder.mkdir()
    shutil.copy(DATA / "transcripts" / "claude_session.jsonl", folder / "a.jsonl")
    shutil.copy(DATA / "transcripts" / "plain.md", folder / "b.jsonl")
    data = gm("import", str(folder), "--format", "claude", "--json").json()
    assert isinstance(data, dict)
    assert (data["captured"], data["failed"]) == (1, 1)
