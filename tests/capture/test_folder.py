"""`gitmem import`: every transcript of a folder, once."""

from __future__ import annotations

import json
import os
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from helpers import DATA, Gm, git

from gitmem.capture.folder import candidate_files, last_said
from gitmem.lifecycle import index, index_build
from gitmem.lifecycle.codec import encode_state
from gitmem.lifecycle.index import INDEX_FILE, memory_state
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots


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
    result = gm("import", "/no/such/folder")
    assert result.exit_code == 2
    assert result.stderr == "gitmem: no such folder or file: /no/such/folder\n"


def test_import_of_one_file_captures_that_session_once(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    # a session file named on the command line, whatever its name: as a user would
    session = tmp_path / "session-export"
    shutil.copy(DATA / "transcripts" / "claude_session.jsonl", session)
    first = gm("import", str(session), "--json").json()
    assert isinstance(first, dict)
    assert (first["captured"], first["skipped"], first["failed"]) == (1, 0, 0)
    assert [f["path"] for f in first["files"]] == [str(session)]
    again = gm("import", str(session), "--json").json()
    assert isinstance(again, dict) and (again["captured"], again["skipped"]) == (0, 1)
    log = gm("log", "--json").json()
    assert isinstance(log, list) and len(log) == 1


def test_import_of_a_pipe_is_bad_input_and_never_reads_it(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # a reader would block forever
    result = gm("import", str(fifo))
    assert result.exit_code == 2
    assert result.stderr == f"gitmem: not a folder or a regular file: {fifo}\n"


def test_forced_format_applies_to_every_file(initialised: Path, gm: Gm, tmp_path: Path) -> None:
    folder = tmp_path / "claude"
    folder.mkdir()
    shutil.copy(DATA / "transcripts" / "claude_session.jsonl", folder / "a.jsonl")
    shutil.copy(DATA / "transcripts" / "plain.md", folder / "b.jsonl")
    data = gm("import", str(folder), "--format", "claude", "--json").json()
    assert isinstance(data, dict)
    assert (data["captured"], data["failed"]) == (1, 1)


def claude_session(n: int, when: datetime, cwd: Path | str | None = None) -> str:
    """A Claude Code session said at *when*: a decision and an uncertainty; run in the
    folder *cwd*, when given (Claude Code writes it on every record)."""
    said = [
        ("user", f"Where should module_{n} live?"),
        ("assistant", f"We decided to keep module_{n} in src/module_{n}.py for now."),
        ("user", "And the cache?"),
        ("assistant", f"I am not sure whether cache {n} survives a restart."),
    ]
    return "".join(
        json.dumps(
            {
                "type": role,
                "sessionId": f"past-{n}",
                "uuid": f"{n}-{k}",
                "timestamp": (when + timedelta(seconds=k)).strftime("%Y-%m-%dT%H:%M:%S.000Z"),
                "message": {
                    "role": role,
                    "content": text if role == "user" else [{"type": "text", "text": text}],
                },
                **({} if cwd is None else {"cwd": str(cwd)}),
            }
        )
        + "\n"
        for k, (role, text) in enumerate(said)
    )


def past_sessions(folder: Path, numbers: range) -> Path:
    """Sessions of weeks ago, an hour apart, each file modified when it was said."""
    folder.mkdir()
    began = datetime.now(UTC) - timedelta(days=30)
    for n in numbers:
        when = began + timedelta(hours=n)
        path = folder / f"session-{n:03d}.jsonl"
        path.write_text(claude_session(n, when))
        os.utime(path, (when.timestamp(), when.timestamp()))
    return folder


def test_an_import_reads_and_updates_the_index_once_however_many_files(
    initialised: Path, gm: Gm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A backfill costs the same per session at its end as at its start: the index is
    brought up to date once before the files and once after them, and each later
    import's sessions (older than the events the last one wrote) are replayed onto it in
    place, never the whole history again; the index equals a rebuild throughout."""
    opened: list[str] = []
    replayed_all: list[int] = []
    real_open, real_all = index_build.brought_up_to_date, index_build._replay_all

    def counting_open(*args: Any) -> Any:
        opened.append("open")
        return real_open(*args)

    def counting_all(db: Any) -> None:
        replayed_all.append(1)
        real_all(db)

    monkeypatch.setattr(index, "brought_up_to_date", counting_open)
    monkeypatch.setattr(index_build, "_replay_all", counting_all)
    for start in (0, 6, 12):
        opened.clear()
        folder = past_sessions(tmp_path / f"past-{start}", range(start, start + 6))
        data = gm("import", str(folder), "--json").json()
        assert isinstance(data, dict) and data["captured"] == 6, data
        assert len(opened) == 2  # before the six files, and once after them
    assert not replayed_all
    store = Store.discover(initialised)
    roots = load_trust_roots(Path(os.environ["GITMEM_HOME"]), store)
    advanced = memory_state(store, roots)
    (store.local_dir / INDEX_FILE).unlink()
    rebuilt = memory_state(store, roots)
    assert {a: encode_state(s) for a, s in advanced.items.items()} == {
        a: encode_state(s) for a, s in rebuilt.items.items()
    }
    assert len(rebuilt.items) == 36


def sessions_of_many_folders(initialised: Path, tmp_path: Path) -> dict[str, Path]:
    """One session each: in this repository, in a folder of it, in another worktree of
    it, in another repository, in a folder in no repository, and in a folder that is
    not on this machine; by name."""
    other = tmp_path / "other-project"
    other.mkdir()
    git(other, "init", "-q")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    (initialised / "src").mkdir(exist_ok=True)
    worktree = tmp_path / "worktree"
    git(initialised, "worktree", "add", "-q", "--detach", str(worktree))
    folders: dict[str, Path | str] = {
        "here": initialised,
        "subfolder": initialised / "src",
        "worktree": worktree,
        "other": other,
        "scratch": scratch,
        "gone": "/no/such/checkout/of/this",
    }
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    when = datetime.now(UTC) - timedelta(days=2)
    paths = {}
    for n, (name, cwd) in enumerate(folders.items()):
        paths[name] = sessions / f"{name}.jsonl"
        paths[name].write_text(claude_session(n, when + timedelta(hours=n), cwd))
    return paths


def test_a_folder_import_skips_sessions_of_other_repositories(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    """Codex keeps every project's sessions in one folder: importing it here must not
    put another project's memory into this repository's (and push it with it)."""
    paths = sessions_of_many_folders(initialised, tmp_path)
    folder = paths["here"].parent
    result = gm("import", str(folder))
    assert result.exit_code == 0, result.stderr
    notes = [line for line in result.stdout.splitlines() if line.startswith("  - ")]
    assert notes == [
        f"  - {paths['other']}: skipped: a session of another folder, "
        f"{tmp_path / 'other-project'}, not this repository",
        f"  - {paths['scratch']}: skipped: a session of another folder, "
        f"{tmp_path / 'scratch'}, not this repository",
    ]
    assert result.stdout.splitlines()[-1] == (
        "4 captured, 2 skipped (already stored or nothing to keep; 2 of another repository, "
        "`--any-folder` imports them), 0 failed (6 files)"
    )
    data = gm("import", str(folder), "--any-folder", "--json").json()
    assert isinstance(data, dict)
    captured = sorted(Path(f["path"]).stem for f in data["files"] if f["status"] == "captured")
    assert captured == ["other", "scratch"]
    log = gm("log", "--json").json()
    assert isinstance(log, list)
    assert sum(record["type"] == "checkpoint" for record in log) == 6


def test_codex_sessions_of_every_project_in_one_folder_import_only_this_ones(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    """``~/.codex/sessions/YYYY/MM/DD/`` holds every project's rollouts, each naming its
    folder in its first line."""
    other = tmp_path / "ledger"
    other.mkdir()
    git(other, "init", "-q")
    rollout = (DATA / "transcripts" / "codex_rollout.jsonl").read_text()
    day = tmp_path / "sessions" / "2026" / "02" / "11"
    day.mkdir(parents=True)
    for name, cwd in (("ours", initialised), ("theirs", other)):
        text = rollout.replace('"cwd":"/home/dev/src/ledger"', json.dumps({"cwd": str(cwd)})[1:-1])
        assert text != rollout
        (day / f"rollout-{name}.jsonl").write_text(text.replace("0199a3c4", f"0199a3{name}"))
    data = gm("import", str(tmp_path / "sessions"), "--json").json()
    assert isinstance(data, dict)
    outcome = {Path(f["path"]).stem: (f["status"], f["reason"]) for f in data["files"]}
    assert outcome["rollout-ours"] == ("captured", None)
    assert outcome["rollout-theirs"] == (
        "skipped",
        f"a session of another folder, {other}, not this repository",
    )


def test_a_folder_of_other_repositories_sessions_only_is_bad_input(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    paths = sessions_of_many_folders(initialised, tmp_path)
    for name in ("here", "subfolder", "worktree", "gone"):
        paths[name].unlink()
    before = git(initialised, "for-each-ref", "refs/gitmem/")
    result = gm("import", str(paths["other"].parent))
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        f"gitmem: nothing to import in {paths['other'].parent}: its sessions ran in other "
        "repositories' folders (`--any-folder` imports them)"
    )
    assert git(initialised, "for-each-ref", "refs/gitmem/") == before


def test_a_session_file_named_alone_is_imported_wherever_it_ran(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    paths = sessions_of_many_folders(initialised, tmp_path)
    data = gm("import", str(paths["other"]), "--json").json()
    assert isinstance(data, dict) and data["captured"] == 1


def test_files_copied_together_are_imported_in_the_order_their_sessions_spoke(
    tmp_path: Path,
) -> None:
    # a checkout gives every file one modification time: the sessions' own times order
    # the captures (a session checkpointed at every turn is read as it grew)
    folder = tmp_path / "past"
    folder.mkdir()
    base = datetime(2026, 4, 24, 20, 0, tzinfo=UTC)
    for name, minutes in (("a.jsonl", 30), ("b.jsonl", 10), ("c.jsonl", 20)):
        stamp = (base + timedelta(minutes=minutes)).isoformat().replace("+00:00", "Z")
        line = {"type": "user", "timestamp": stamp, "message": {"role": "user", "content": "hi"}}
        (folder / name).write_text(json.dumps(line) + "\n")
    plain = folder / "d.md"
    plain.write_text("no timestamps here\n")
    moment = (base + timedelta(minutes=15)).timestamp()
    for path in folder.iterdir():
        os.utime(path, (moment + 3600, moment + 3600))
    os.utime(plain, (moment, moment))  # without a time of its own: its modification time
    assert [p.name for p in candidate_files(folder)] == ["b.jsonl", "d.md", "c.jsonl", "a.jsonl"]
    assert last_said(folder / "b.jsonl") == (base + timedelta(minutes=10)).timestamp()
    assert last_said(tmp_path / "missing.jsonl") == 0.0
