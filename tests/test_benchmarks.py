"""Every benchmark still imports what today's code has: each ``from gitmem… import …``
in benchmarks/ names a module and a name that exist (the benchmarks are run by hand,
with their figures in the closing notes; nothing is timed in the suite)."""

from __future__ import annotations

import ast
import importlib
import importlib.util
from pathlib import Path

import pytest
from helpers import ROOT

SCRIPTS = sorted((ROOT / "benchmarks").glob("*.py"))


def gitmem_imports(script: Path) -> list[tuple[str, str | None]]:
    """(module, name) for every gitmem import of *script* (name None: ``import m``)."""
    found: list[tuple[str, str | None]] = []
    for node in ast.walk(ast.parse(script.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("gitmem"):
            found += [(str(node.module), alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(a.name, None) for a in node.names if a.name.startswith("gitmem")]
    return found


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
def test_the_benchmark_imports_what_exists(script: Path) -> None:
    for module, name in gitmem_imports(script):
        loaded = importlib.import_module(module)
        if name is not None:
            assert hasattr(loaded, name) or submodule(module, name), (
                f"{script.name}: {module} has no {name}"
            )


def submodule(package: str, name: str) -> bool:
    try:
        return importlib.util.find_spec(f"{package}.{name}") is not None
    except ModuleNotFoundError:  # *package* is a module, not a package
        return False


def test_the_check_sees_a_missing_name(tmp_path: Path) -> None:
    script = tmp_path / "old.py"
    script.write_text("from gitmem.lifecycle.index import NO_SUCH_NAME\n")
    with pytest.raises(AssertionError, match="NO_SUCH_NAME"):
        test_the_benchmark_imports_what_exists(script)
