"""The queue file of hook work, its worker lock, and how the worker groups its lines
(docs/hooks.md, "One capture at a time")."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gitmem.hooks import queue
from gitmem.hooks.queue import QueuedHook, parse_line
from gitmem.hooks.worker import batches

SHA = "a" * 40


def commit_entry(sha: str, series: str = "-", tree: str = "/repo") -> QueuedHook:
    return QueuedHook("post-commit", (series, sha), tree)


def test_lines_round_trip_and_junk_is_no_entry(tmp_path: Path) -> None:
    odd = QueuedHook("capture-session", ("s 1%", "/tmp/a b/t.jsonl"), "/work/my tree")
    for entry in (commit_entry(SHA, "rebase", "/a dir/with  spaces"), odd):
        assert parse_line(entry.line().rstrip(b"\n")) == entry
    assert parse_line(b"post-commit rebase " + SHA.encode() + b" /repo") == commit_entry(
        SHA, "rebase"
    )
    for junk in (b"", b"post-commit", b"post-commit - abc", b"rm -rf / now", b"pre-push a b c"):
        assert parse_line(junk) is None


def test_take_returns_complete_lines_in_order_and_taken_moves_past_them(tmp_path: Path) -> None:
    shas = [f"{n:040x}" for n in range(3)]
    for sha in shas[:2]:
        queue.append(tmp_path, commit_entry(sha))
    with (tmp_path / queue.QUEUE_FILE).open("ab") as handle:
        handle.write(b"garbage line\n" + commit_entry(shas[2]).line()[:20])  # being written
    entries, offset = queue.take(tmp_path)
    assert [e.fields[1] for e in entries] == shas[:2]
    queue.taken(tmp_path, offset)
    assert queue.take(tmp_path) == ([], offset)
    with (tmp_path / queue.QUEUE_FILE).open("ab") as handle:
        handle.write(commit_entry(shas[2]).line()[20:])
    assert queue.pending(tmp_path)
    entries, offset = queue.take(tmp_path)
    assert [e.fields[1] for e in entries] == shas[2:]
    queue.taken(tmp_path, offset)
    assert not queue.pending(tmp_path)


def test_a_queue_all_taken_and_large_is_truncated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(queue, "ROTATE_BYTES", 100)
    for n in range(3):
        queue.append(tmp_path, commit_entry(f"{n:040x}"))
    entries, offset = queue.take(tmp_path)
    assert len(entries) == 3
    queue.taken(tmp_path, offset)
    assert (tmp_path / queue.QUEUE_FILE).stat().st_size == 0
    queue.append(tmp_path, commit_entry(SHA))
    assert [e.fields[1] for e in queue.take(tmp_path)[0]] == [SHA]


def test_an_offset_past_the_end_starts_again_at_the_top(tmp_path: Path) -> None:
    queue.append(tmp_path, commit_entry(SHA))
    (tmp_path / queue.OFFSET_FILE).write_text("99999\n")  # the queue was truncated since
    assert queue.pending(tmp_path)
    assert [e.fields[1] for e in queue.take(tmp_path)[0]] == [SHA]


TRY_LOCK = """
import sys
from pathlib import Path
from gitmem.hooks import queue
with queue.worker_lock(Path(sys.argv[1])) as held:
    print(held)
"""


def try_lock_elsewhere(local: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", TRY_LOCK, str(local)], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_one_worker_holds_the_lock_and_names_itself_in_it(tmp_path: Path) -> None:
    with queue.worker_lock(tmp_path) as held:
        assert held
        assert queue.worker_pid(tmp_path) is not None
        assert try_lock_elsewhere(tmp_path) == "False"
        if shutil.which("flock"):  # what the hook scripts ask before starting a worker
            lock = str(tmp_path / queue.WORKER_LOCK)
            assert subprocess.run(["flock", "-n", "-E", "75", lock, "true"]).returncode == 75
    assert queue.worker_pid(tmp_path) is None
    assert try_lock_elsewhere(tmp_path) == "True"


def test_consecutive_commits_of_one_series_are_one_batch() -> None:
    a, b, c, d, e = (f"{n:040x}" for n in range(5))
    rewrite = QueuedHook("post-rewrite", ("rebase", "post-rewrite.x1"), "/repo")
    entries = [
        commit_entry(a),
        commit_entry(b),  # two ordinary commits: one capture each
        commit_entry(c, "rebase"),
        commit_entry(d, "rebase"),
        commit_entry(e, "rebase", "/other-worktree"),
        rewrite,
        commit_entry(a, "am"),
        commit_entry(b, "am"),
    ]
    grouped = [
        [x.fields[-1] if x.hook == "post-commit" else x.hook for x in g] for g in batches(entries)
    ]
    assert grouped == [[a], [b], [c, d], [e], ["post-rewrite"], [a, b]]
