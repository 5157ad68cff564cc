"""Shared fixtures: real git repositories in temp folders, a private GITMEM_HOME.

An autouse fixture points HOME at a folder that does not exist, so a test that
touches the real home directory fails instead of changing it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import GIT_ENV, Result, git, run


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
