"""The test suite's own rules: what tests share lives in ``tests/helpers/``, and a property
is checked by its examples, never by the machine's speed."""

from __future__ import annotations

import re
from pathlib import Path

from helpers import TESTS
from hypothesis import settings

DEADLINE = re.compile(r"\bdeadline=(?!None\b)")
"""A deadline given as a keyword (an assignment such as a polling deadline is spaced)."""


def test_no_helper_module_sits_loose_at_the_top() -> None:
    loose = {p.name for p in TESTS.glob("*.py")} - {"conftest.py"}
    assert {name for name in loose if not name.startswith("test_")} == set()


def deadlines(root: Path) -> list[str]:
    """Each place under *root* where a Python file sets a Hypothesis deadline."""
    return [
        f"{path.relative_to(root)}:{number}"
        for path in sorted(root.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if DEADLINE.search(line)
    ]


def test_no_property_test_has_a_wall_clock_deadline() -> None:
    assert settings.default.deadline is None  # the profiles of tests/conftest.py
    assert deadlines(TESTS) == []


def test_a_deadline_is_found(tmp_path: Path) -> None:
    (tmp_path / "test_x.py").write_text("@settings(max_examples=5, dead" + "line=200)\n")
    assert deadlines(tmp_path) == ["test_x.py:1"]
