"""docs/architecture.md against the code: every module of gitmem/ is placed on the page, and
every function a flow names (`` `capture/run:capture_transcript` ``) is defined where it
says, so the page cannot fall behind a new module or a renamed function unnoticed."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "gitmem"
PAGE = PACKAGE.parent / "docs" / "architecture.md"

_NAMED = re.compile(r"`([^`\s]+)`")
_FLOW_STEP = re.compile(r"`([a-z_/]+):([A-Za-z_][\w.]*)`")


def page_name(path: Path, root: Path = PACKAGE) -> str:
    """How the page names the module at *path*: its path under gitmem/ without ``.py``
    (``store/files``); a package by its folder (``capture/transcripts/``), the package
    itself as ``gitmem/``."""
    relative = path.relative_to(root)
    if relative.name == "__init__.py":
        return f"{relative.parent.as_posix()}/" if relative.parent.parts else "gitmem/"
    return relative.with_suffix("").as_posix()


def unplaced(page: str, paths: Iterable[Path], root: Path = PACKAGE) -> list[str]:
    """The modules among *paths* that *page* never names in backticks."""
    named = set(_NAMED.findall(page))
    return sorted(n for n in (page_name(p, root) for p in paths) if n not in named)


def defined(module: Path) -> set[str]:
    """The top-level functions and classes of *module*, and each class's methods as
    ``Class.method``."""
    names: set[str] = set()
    for node in ast.parse(module.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names.add(node.name)
            for inner in node.body:
                if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef):
                    names.add(f"{node.name}.{inner.name}")
    return names


def unknown_steps(page: str, root: Path = PACKAGE) -> list[str]:
    """Each ``module:function`` the page names that is not defined there."""
    missing = []
    for module, name in _FLOW_STEP.findall(page):
        path = root / f"{module}.py"
        if not path.exists():
            path = root / module / "__init__.py"
        if not path.exists() or name not in defined(path):
            missing.append(f"{module}:{name}")
    return missing


def test_every_module_is_placed_on_the_architecture_page() -> None:
    page = PAGE.read_text(encoding="utf-8")
    missing = unplaced(page, sorted(PACKAGE.rglob("*.py")))
    assert not missing, f"docs/architecture.md does not place: {', '.join(missing)}"


def test_every_function_a_flow_names_is_defined_where_it_says() -> None:
    page = PAGE.read_text(encoding="utf-8")
    assert len(_FLOW_STEP.findall(page)) >= 40  # the four flows name their functions
    assert unknown_steps(page) == []


def test_a_module_the_page_does_not_name_is_found(tmp_path: Path) -> None:
    (tmp_path / "store").mkdir()
    for name in ("__init__.py", "store/__init__.py", "store/files.py", "store/repo.py"):
        (tmp_path / name).write_text('"""A module."""\n', encoding="utf-8")
    page = "`gitmem/` and `store/` hold `store/files`; store/repo is not in backticks."
    assert unplaced(page, sorted(tmp_path.rglob("*.py")), tmp_path) == ["store/repo"]


def test_a_flow_step_that_names_a_missing_function_is_found(tmp_path: Path) -> None:
    (tmp_path / "capture").mkdir()
    (tmp_path / "capture" / "run.py").write_text(
        "class Context:\n    def open(self): ...\ndef capture_transcript(): ...\n",
        encoding="utf-8",
    )
    page = (
        "`capture/run:capture_transcript`, `capture/run:Context.open`, "
        "`capture/run:write_checkpoint`, `capture/gone:anything`"
    )
    assert unknown_steps(page, tmp_path) == [
        "capture/run:write_checkpoint",
        "capture/gone:anything",
    ]
