"""The import contract of docs/architecture.md, enforced for the whole tree.

Folders are layers. A module may import its own folder and any folder of a lower level,
never a folder of its own level or above; the pure lifecycle modules import only the
core (and each other); the core imports nothing else of gitmem and no I/O at all; and no
two modules import each other, directly or through others. Every import counts, the
lazy ones inside functions and the ``TYPE_CHECKING`` ones too: each is a dependency.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "gitmem"

LEVELS = {
    "core": 0,
    "store": 1,
    "llm": 1,
    "lifecycle": 2,
    "capture": 3,
    "brief": 3,
    "team": 4,
    "hooks": 5,
    "agents": 6,
    "setup": 7,
    "cli": 8,
}
"""A folder may import the folders of a lower level only."""

PURE_LIFECYCLE = ("replay", "late", "carry", "sameclaim", "governance")
"""The lifecycle modules that are pure: records and values in, state out."""

MAX_LOOSE_MODULES = 6
MAX_MODULE_LINES = 500

CORE_STDLIB = frozenset(
    {
        "__future__",
        "array",
        "base64",
        "binascii",
        "bisect",
        "collections",
        "collections.abc",
        "dataclasses",
        "datetime",
        "enum",
        "functools",
        "itertools",
        "hashlib",
        "json",
        "math",
        "re",
        "secrets",  # key generation needs randomness; it reads no file and no clock
        "string",
        "struct",
        "types",
        "typing",
        "unicodedata",
        "urllib.parse",
        "nacl.bindings",
        "nacl.exceptions",
        "orjson",  # the canonical encoder's fast path: bytes from values, nothing else
    }
)
"""What the core may import besides itself: computation only (no git, disk, clock,
subprocess, sockets, HTTP, threads, sqlite or click)."""

CLOCK_CALLS = frozenset({"now", "today", "utcnow"})  # the `time` module cannot be imported
FILE_CALLS = frozenset({"open", "read_text", "read_bytes", "write_text", "write_bytes"})


@dataclass(frozen=True)
class Import:
    source: str
    """The importing module, dotted."""
    target: str
    """The imported gitmem module (the longest existing module of the dotted name)."""
    line: int


def modules(root: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    found: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _resolve(name: str, known: Mapping[str, Path]) -> str | None:
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def imports(known: Mapping[str, Path]) -> Iterator[Import]:
    """Every gitmem import of every module (lazy and type-only ones included)."""
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, *([base] if base else [])])
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names
                ]
            resolved = {_resolve(t, known) for t in targets if t.startswith("gitmem")}
            for target in sorted(r for r in resolved if r is not None and r != name):
                yield Import(name, target, node.lineno)


def folder(module: str) -> str | None:
    """The layer folder of a dotted module name (None for the loose top modules)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LEVELS else None


def layer_violations(edges: list[Import]) -> list[str]:
    """Imports of a folder of the same or a higher level, and impure lifecycle imports."""
    found = []
    for edge in edges:
        a, b = folder(edge.source), folder(edge.target)
        if a is None or b is None or a == b:
            if a == "lifecycle" and b == "lifecycle":
                found += _pure_lifecycle(edge)
            continue
        if LEVELS[b] >= LEVELS[a]:
            found.append(f"{edge.source}:{edge.line} imports {edge.target} ({a} → {b})")
        elif a == "lifecycle":
            found += _pure_lifecycle(edge)
    return found


def _pure_lifecycle(edge: Import) -> list[str]:
    parts = edge.source.split(".")
    if parts[2] not in PURE_LIFECYCLE or folder(edge.target) == "core":
        return []
    target = edge.target.split(".")
    if folder(edge.target) == "lifecycle" and target[2] in PURE_LIFECYCLE:
        return []
    return [f"{edge.source}:{edge.line} is pure but imports {edge.target}"]


def cycles(edges: list[Import]) -> list[list[str]]:
    """Every strongly connected group of modules larger than one (Tarjan)."""
    graph: dict[str, set[str]] = {}
    for edge in edges:
        graph.setdefault(edge.source, set()).add(edge.target)
        graph.setdefault(edge.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


KNOWN = modules()
EDGES = list(imports(KNOWN))


def test_no_folder_imports_its_own_level_or_above() -> None:
    assert layer_violations(EDGES) == []


def test_no_import_cycles() -> None:
    assert cycles(EDGES) == []


def is_pure(name: str) -> bool:
    """The core, and the pure modules of the lifecycle."""
    parts = name.split(".")
    return folder(name) == "core" or (
        folder(name) == "lifecycle" and len(parts) > 2 and parts[2] in PURE_LIFECYCLE
    )


@pytest.mark.parametrize("name", sorted(n for n in KNOWN if is_pure(n)))
def test_pure_modules_touch_no_io(name: str) -> None:
    """No I/O module, no clock, no file, no environment: in the core and in replay, carry,
    sameclaim and governance (which may import only the core and each other)."""
    tree = ast.parse(KNOWN[name].read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
            )
            for module in names:
                if module.startswith("gitmem"):
                    assert is_pure(module), f"{name} imports {module}"
                else:
                    assert module in CORE_STDLIB, f"{name} imports {module}"
        elif isinstance(node, ast.Attribute):
            assert node.attr not in CLOCK_CALLS | FILE_CALLS | {"environ", "getenv"}, (
                f"{name}:{node.lineno}: {ast.unparse(node)}"
            )
        elif isinstance(node, ast.Name):
            assert node.id not in ("open", "input", "print"), f"{name}:{node.lineno}: {node.id}"


def test_at_most_six_loose_modules_at_the_top() -> None:
    loose = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(loose) <= MAX_LOOSE_MODULES, loose


def test_every_python_file_is_in_a_layer_folder() -> None:
    """A new top-level folder must be given a level here (and in docs/architecture.md)."""
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders <= set(LEVELS), folders - set(LEVELS)


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_no_module_over_500_lines(name: str) -> None:
    lines = KNOWN[name].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_MODULE_LINES, f"{name} has {lines} lines"


# --- the checker itself ------------------------------------------------------------


def test_an_upward_import_is_found() -> None:
    edges = [Import("gitmem.store.repo", "gitmem.brief.render", 3)]
    assert layer_violations(edges) == [
        "gitmem.store.repo:3 imports gitmem.brief.render (store → brief)"
    ]


def test_a_sibling_import_is_found() -> None:
    edges = [Import("gitmem.capture.run", "gitmem.brief.emit", 9)]
    assert layer_violations(edges) == [
        "gitmem.capture.run:9 imports gitmem.brief.emit (capture → brief)"
    ]


def test_a_pure_lifecycle_module_may_not_read_the_store() -> None:
    edges = [
        Import("gitmem.lifecycle.replay", "gitmem.store.repo", 1),
        Import("gitmem.lifecycle.index", "gitmem.store.repo", 1),
        Import("gitmem.lifecycle.carry", "gitmem.lifecycle.sameclaim", 1),
        Import("gitmem.lifecycle.carry", "gitmem.lifecycle.index", 2),
    ]
    assert layer_violations(edges) == [
        "gitmem.lifecycle.replay:1 is pure but imports gitmem.store.repo",
        "gitmem.lifecycle.carry:2 is pure but imports gitmem.lifecycle.index",
    ]


def test_a_cycle_is_found() -> None:
    edges = [
        Import("gitmem.core.a", "gitmem.core.b", 1),
        Import("gitmem.core.b", "gitmem.core.c", 1),
        Import("gitmem.core.c", "gitmem.core.a", 1),
        Import("gitmem.core.c", "gitmem.core.d", 1),
    ]
    assert cycles(edges) == [["gitmem.core.a", "gitmem.core.b", "gitmem.core.c"]]


# --- the vocabulary is spelled once ------------------------------------------------

SPELLED_ELSEWHERE = {
    ("gitmem/capture/extract/heuristic/markers.py", "decision"): "a trigger word in text",
    ("gitmem/capture/extract/heuristic/markers.py", "confirmed"): "a trigger word in text",
    ("gitmem/agents/ask/verbatim.py", "verbatim"): "ask's mode, not a trust class",
    ("gitmem/llm/backend.py", "unsupported_output"): "the capture log's kind of a rejected reply",
}
"""Strings that happen to equal a class name but mean something else, and why."""


def _vocabulary() -> set[str]:
    from gitmem.agents.ask import Outcome
    from gitmem.core.claims import WorldStatus
    from gitmem.core.items import Kind, Trust
    from gitmem.lifecycle.governance.decisions import Decision
    from gitmem.lifecycle.governance.status import Status

    return {m.value for enum in (Status, Trust, Kind, Decision, WorldStatus, Outcome) for m in enum}


def spelled(path: Path, vocabulary: set[str], root: Path = PACKAGE.parent) -> list[str]:
    """String constants of *path* that spell a status, trust class, kind, gate decision,
    world-check result or ask outcome outside the StrEnum that defines it (dict keys,
    which name JSON fields, and docstrings are not spellings)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any(
            isinstance(b, ast.Name) and b.id == "StrEnum" for b in node.bases
        ):
            skip |= {id(n) for n in ast.walk(node)}
        elif isinstance(node, ast.Dict):
            skip |= {id(k) for k in node.keys if k is not None}
        if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr):
                skip.add(id(first.value))
    where = str(path.relative_to(root))
    return [
        f"{where}:{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skip
        and node.value in vocabulary
        and (where, node.value) not in SPELLED_ELSEWHERE
    ]


def test_statuses_trust_classes_kinds_and_outcomes_are_never_spelled_outside_their_type() -> None:
    vocabulary = _vocabulary()
    found = [s for path in sorted(PACKAGE.rglob("*.py")) for s in spelled(path, vocabulary)]
    assert found == []


def test_a_spelled_status_is_found(tmp_path: Path) -> None:
    module = tmp_path / "probe.py"
    module.write_text(
        'class S(StrEnum):\n    STALE = "STALE"\n\n\ndef f(s: str) -> bool:\n'
        '    return {"STALE": 1}.get(s) == 1 or s == "STALE"\n'
    )
    assert spelled(module, {"STALE"}, tmp_path) == ["probe.py:6: 'STALE'"]
