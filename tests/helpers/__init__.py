"""What the tests share: the test tree's paths, pinned git identities, git and the CLI
run as a user would. The modules beside this one hold the larger helpers, each written once.

Fixtures live in ``tests/conftest.py`` (pytest finds them there); everything a test
imports lives here.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner

from gitmem.cli import main

TESTS = Path(__file__).resolve().parent.parent
"""The test tree (it mirrors ``gitmem/``): its ``data/`` and ``fakes/`` live here."""
ROOT = TESTS.parent
"""The repository: ``gitmem/``, ``docs/``, ``hooks/``."""
DATA = TESTS / "data"
"""The test data: transcripts, items files, fixtures."""
FAKES = TESTS / "fakes"
"""Scripted stand-ins run as real subprocesses (model CLIs, servers)."""

needs_ssh_keygen = pytest.mark.skipif(
    shutil.which("ssh-keygen") is None, reason="ssh-keygen (OpenSSH) is not installed here"
)
"""For the tests that prove interop with stock OpenSSH."""

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test Author",
    "GIT_AUTHOR_EMAIL": "author@example.com",
    "GIT_AUTHOR_DATE": "2026-11-01T12:00:00Z",
    "GIT_COMMITTER_NAME": "Test Committer",
    "GIT_COMMITTER_EMAIL": "committer@example.com",
    "GIT_COMMITTER_DATE": "2026-11-01T12:00:00Z",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def benchmark(name: str) -> ModuleType:
    """The script ``benchmarks/<name>.py`` imported as a module (once: a second import
    gives the first)."""
    import importlib.util
    import sys

    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, **GIT_ENV},
    )
    return done.stdout


def commit(repo: Path, message: str, path: str = "file.txt", text: str | None = None) -> str:
    """Commit *repo*'s *path* with *message*: *text* written to it (its folders made), or
    when *text* is None *message* appended to it; the new HEAD."""
    target = repo / path
    target.parent.mkdir(parents=True, exist_ok=True)
    if text is None:
        with target.open("a") as handle:
            handle.write(message)
    else:
        target.write_text(text)
    git(repo, "add", path)
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD").strip()


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


Gm = Callable[..., Result]
"""The ``gm`` fixture's type: ``gm("brief")`` runs gitmem in the fixture repository."""
