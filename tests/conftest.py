"""Shared fixtures: real git repositories in temp folders, a private GITMEM_HOME, teammates'
clones of one bare remote, the scripted model servers. What a test imports lives in
``tests/helpers/``.

An autouse fixture points HOME at a folder that does not exist, so a test that
touches the real home directory fails instead of changing it.

Property tests run under the Hypothesis profile ``ci`` unless ``HYPOTHESIS_PROFILE`` names
another: a fixed seed and no wall-clock deadline, so a property is checked by its
examples, never by how loaded the machine is (``dev`` explores with a fresh seed).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from fakes.ask_script import ScriptServer
from fakes.openai_server import FakeOpenAI
from helpers import GIT_ENV, Gm, Result, git, run
from helpers.clones import Clone, make_clone, make_remote
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


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


@pytest.fixture
def hooked(initialised: Path, gm: Gm) -> Path:
    """The initialised repository with gitmem's git hooks installed."""
    result = gm("hooks", "install")
    assert result.exit_code == 0, result.stderr
    return initialised


@pytest.fixture
def remote(tmp_path: Path) -> Path:
    """A bare remote whose main branch holds one commit."""
    return make_remote(tmp_path)


@pytest.fixture
def alice(tmp_path: Path, remote: Path) -> Clone:
    """Alice's clone of :func:`remote`, initialised with her own key."""
    return make_clone(tmp_path, remote, "alice")


@pytest.fixture
def bob(tmp_path: Path, remote: Path) -> Clone:
    """Bob's clone of :func:`remote`, initialised with his own key."""
    return make_clone(tmp_path, remote, "bob")


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    """An OpenAI-compatible model server on loopback, scripted per scenario."""
    fake = FakeOpenAI()
    yield fake
    fake.close()


@pytest.fixture(scope="module")
def script_server() -> Iterator[ScriptServer]:
    """The ask tests' scripted model on loopback (one per module: it serves scripts by
    name)."""
    server = ScriptServer()
    yield server
    server.close()
