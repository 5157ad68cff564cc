"""Fuzz: the CLI over hostile input files and corrupt local state.

Whatever a user or a file hands it, a command answers with its result or one line and an
exit code of 1, 2 or 3; never an internal error (exit 70) or a traceback. Local state in
``.git/gitmem/`` is a cache: when it cannot be read it is rebuilt, so the commands that
read it still work (docs/user-guide.md, "Local state").
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers import TESTS, Result, git, run
from helpers.hostile import BROKEN_LINES, FUZZ_SLOW, HOSTILE_VALUES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gitmem.core.errors import INTERNAL_EXIT

pytestmark = pytest.mark.slow  # each example runs the CLI in a real repository

SLOW = settings(
    FUZZ_SLOW, max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

LOCAL_STATE = (
    "emitted.jsonl",
    "emitted.last",
    "capture.log",
    "cursors.json",
    "memory.sqlite",
    "watermarks.json",
    "config.json",
)
HOME_FILES = ("config.json", "allowed_signers", "revoked_keys")

hostile_bytes = st.one_of(
    st.sampled_from(HOSTILE_VALUES).map(str.encode),
    st.sampled_from(BROKEN_LINES).map(str.encode),
    st.lists(st.sampled_from(HOSTILE_VALUES + BROKEN_LINES), max_size=4).map(
        lambda lines: "\n".join(lines).encode()
    ),
    st.sampled_from(
        (
            b"",
            b"\xff\xfe\x00garbage",
            b"SQLite format 3\x00" + b"\x00" * 200,
            b'["echoed text of three words", ' + b"9" * 400 + b"]\n",
            b'["echoed text of three words", 1e999]\n',
            b'{"remotes": ["origin"]}',
            b'{"remotes": {"origin": {"refs/gitmem/memory": ' + b"[" * 5000 + b"]" * 5000 + b"}}}",
            b'{"time": {}, "outcome": "ok", "source": [], "items": "x"}\n',
            b'{"/x": "y", "/z": ' + b"9" * 30 + b"}",
            b'{"principal": "", "signing_key": "keys/x"}',
            b'{"principal": "alice", "signing_key": "keys/\\u0000"}',
            b'{"timeout": ' + b"9" * 400 + b"}",
            b'{"extractor": "\\ud800"}',
            b"alice@example.com ssh-ed25519 AAAA\n* " + b'namespaces="' * 50,
        )
    ),
)


@pytest.fixture
def world(initialised: Path, tmp_path: Path) -> Path:
    """The fixture repository with a capture, a brief, a recall and a sync behind it, so
    every local state file exists."""
    transcript = tmp_path / "session.md"
    transcript.write_text(
        "We decided to pin pygit2 to 1.19 because 1.20 broke the arm64 wheels.\n",
        encoding="utf-8",
    )
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    git(initialised, "remote", "add", "origin", str(remote))
    for args in (
        ("capture", "--transcript", str(transcript)),
        ("brief",),
        ("recall", "pygit2"),
        ("sync", "origin"),
    ):
        result = run("-C", str(initialised), *args)
        assert result.exit_code == 0, (args, result.stderr)
    return initialised


def commands(repo: Path, tmp_path: Path) -> dict[str, Callable[[], Result]]:
    transcript = tmp_path / "session.md"
    in_repo = ("-C", str(repo))
    return {
        "brief": lambda: run(*in_repo, "brief"),
        "brief-json": lambda: run(*in_repo, "brief", "--format", "json"),
        "capture": lambda: run(*in_repo, "capture", "--transcript", str(transcript)),
        "recall": lambda: run(*in_repo, "recall", "pygit2"),
        "status": lambda: run(*in_repo, "status"),
        "status-json": lambda: run(*in_repo, "status", "--json"),
        "verify": lambda: run(*in_repo, "verify"),
        "sync": lambda: run(*in_repo, "sync", "origin"),
        "log": lambda: run(*in_repo, "log"),
        "config": lambda: run(*in_repo, "config"),
    }


def assert_no_internal_error(result: Result, what: str) -> None:
    assert result.exit_code in (0, 1, 2, 3), (what, result.exit_code, result.stderr)
    assert result.exit_code != INTERNAL_EXIT
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr, (
        what,
        result.stderr,
    )
    if result.exit_code:
        assert result.stderr.count("\n") <= 3, (what, result.stderr)


@pytest.fixture
def swap() -> Iterator[Callable[[Path, bytes], None]]:
    """Put bytes in a file for one example, and put the file back after it."""
    saved: list[tuple[Path, bytes | None]] = []

    def put(path: Path, data: bytes) -> None:
        saved.append((path, path.read_bytes() if path.is_file() else None))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)

    def restore() -> None:
        while saved:
            path, data = saved.pop()
            if data is None:
                path.unlink(missing_ok=True)
            else:
                path.write_bytes(data)

    put.restore = restore  # type: ignore[attr-defined]
    yield put
    restore()


@SLOW
@given(
    st.sampled_from(LOCAL_STATE), hostile_bytes, st.sampled_from(sorted(commands(Path(), Path())))
)
def test_corrupt_local_state_never_breaks_a_command(
    world: Path,
    tmp_path: Path,
    swap: Callable[[Path, bytes], None],
    name: str,
    data: bytes,
    command: str,
) -> None:
    swap(world / ".git" / "gitmem" / name, data)
    try:
        assert_no_internal_error(commands(world, tmp_path)[command](), f"{name} {command}")
    finally:
        swap.restore()  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", LOCAL_STATE)
def test_unreadable_local_state_is_rebuilt(world: Path, tmp_path: Path, name: str) -> None:
    """A cache that is garbage is rebuilt or ignored: the commands still succeed (only a
    repository config, which is not a cache, makes capture refuse with one line, and
    status, which still reports everything else, exit 2: issue 16)."""
    path = world / ".git" / "gitmem" / name
    for command in ("brief", "capture", "recall", "status"):
        path.write_bytes(b"\xff\xfe" + b"[" * 5000 + b"\n{\n")
        result = commands(world, tmp_path)[command]()
        assert_no_internal_error(result, f"{name} {command}")
        refused = name == "config.json" and command in ("capture", "status")
        assert result.exit_code == (2 if refused else 0), (command, result.stderr)
        if refused:
            assert result.stderr.startswith("gitmem: ") and result.stderr.count("\n") == 1


@SLOW
@given(
    st.sampled_from(HOME_FILES),
    hostile_bytes,
    st.sampled_from(["brief", "capture", "status", "verify"]),
)
def test_corrupt_personal_files_never_break_a_command(
    world: Path,
    home: Path,
    tmp_path: Path,
    swap: Callable[[Path, bytes], None],
    name: str,
    data: bytes,
    command: str,
) -> None:
    swap(home / name, data)
    try:
        assert_no_internal_error(commands(world, tmp_path)[command](), f"{name} {command}")
    finally:
        swap.restore()  # type: ignore[attr-defined]


TRANSCRIPTS = TESTS / "data" / "transcripts"


@SLOW
@given(
    st.sampled_from(sorted(p.name for p in TRANSCRIPTS.iterdir())),
    st.lists(st.sampled_from(HOSTILE_VALUES + BROKEN_LINES), min_size=1, max_size=3),
    st.sampled_from([None, "claude", "codex", "json", "messages", "text"]),
)
def test_hostile_transcripts_and_items_files(
    initialised: Path, tmp_path: Path, fixture: str, lines: list[str], format: str | None
) -> None:
    path = tmp_path / fixture
    shutil.copy(TRANSCRIPTS / fixture, path)
    with path.open("a", encoding="utf-8", errors="surrogatepass") as handle:
        handle.write("\n" + "\n".join(lines) + "\n")
    args = ["-C", str(initialised), "capture", "--transcript", str(path)]
    args += [] if format is None else ["--format", format]
    assert_no_internal_error(run(*args), f"{fixture} {format}")
    items = tmp_path / "items.json"
    items.write_text("[" + ",".join(lines) + "]", encoding="utf-8", errors="surrogatepass")
    result = run(*args, "--items", str(items))
    assert_no_internal_error(result, "items")
