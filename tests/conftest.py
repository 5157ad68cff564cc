"""Shared fixtures: real git repositories in temp folders, a private GITMEM_HOME.

An autouse fixture points HOME at a folder that does not exist, so a test that
touches the real home directory fails instead of changing it.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from gitmem.cli import main

TESTS = Path(__file__).resolve().parent
"""The test tree (it mirrors ``gitmem/``): its ``data/`` and ``fakes/`` live here."""
ROOT = TESTS.parent
"""The repository: ``gitmem/``, ``docs/``, ``hooks/``."""

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test Author",
    "GIT_AUTHOR_EMAIL": "author@example.com",
    "GIT_AUTHOR_DATE": "2026-11-01T12:00:00Z",
    "GIT_COMMITTER_NAME": "Test Committer",
    "GIT_COMMITTER_EMAIL": "committer@example.com",
    "GIT_COMMITTER_DATE": "2026-11-01T12:00:00Z",
    "GIT_CONFIG_NOSYSTEM": "1",
}


@pytest.fixture(autouse=True)
def _isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("HOME", str(tmp_path / "no-such-home"))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.setenv("GITMEM_HOME", str(tmp_path / "gitmem-home"))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "no-such-gitconfig"))
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    yield


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "gitmem-home"


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, **GIT_ENV},
    )
    return done.stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git repository with one commit and user.email alice@example.com."""
    path = tmp_path / "repo"
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "user.email", "alice@example.com")
    git(path, "config", "user.name", "Alice")
    (path / "README.md").write_text("# project\n")
    git(path, "add", "README.md")
    git(path, "commit", "-q", "-m", "initial")
    return path


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str

    def json(self) -> object:
        return json.loads(self.stdout)


def run(*args: str, input: str | None = None) -> Result:
    """Run the real CLI entry point in-process, as a user would, and capture it."""
    runner = CliRunner()
    code = 0
    with runner.isolation(input=input) as (out, err, _):
        try:
            main(list(args))
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    return Result(code, out.getvalue().decode(), err.getvalue().decode())


@pytest.fixture
def gm(repo: Path, home: Path) -> object:
    """`gm("brief")` runs gitmem inside the fixture repository."""

    def call(*args: str, input: str | None = None) -> Result:
        return run("-C", str(repo), *args, input=input)

    return call


@pytest.fixture
def initialised(gm: object, repo: Path) -> Path:
    result = gm("init")  # type: ignore[operator]
    assert result.exit_code == 0, result.stderr
    return repo
