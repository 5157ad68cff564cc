"""The distribution is ``gitmem-verified`` (``gitmem`` on the package index is someone
else's project); the command and the import package stay ``gitmem``."""

from __future__ import annotations

import re
import tomllib

from helpers import ROOT


def test_distribution_name_is_gitmem_verified_and_the_command_is_gitmem() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == "gitmem-verified"
    assert project["scripts"] == {"gitmem": "gitmem.cli:main"}


def test_no_doc_or_message_installs_the_other_projects_gitmem() -> None:
    # `pip install [options] gitmem`, `… 'gitmem[mcp]'`: options before the name too
    wrong = re.compile(r"pip install(\s+-\S+)*\s+['\"]?gitmem(\[|['\"\s]|$)", re.MULTILINE)
    files = [ROOT / "README.md", *(ROOT / "docs").rglob("*.md"), *(ROOT / "gitmem").rglob("*.py")]
    offenders = [str(f.relative_to(ROOT)) for f in files if wrong.search(f.read_text())]
    assert offenders == []


def test_until_it_is_published_every_install_is_from_a_checkout() -> None:
    """`gitmem-verified` is not on the package index yet: no doc may tell anyone to
    install it from there, and the README opens with the install from the checkout."""
    from_index = re.compile(r"pip install(\s+-\S+)*\s+['\"]?gitmem-verified", re.MULTILINE)
    files = [ROOT / "README.md", *(ROOT / "docs").rglob("*.md"), *(ROOT / "gitmem").rglob("*.py")]
    assert [str(f.relative_to(ROOT)) for f in files if from_index.search(f.read_text())] == []
    head = (ROOT / "README.md").read_text().split("\n## ")[0]
    assert "not on the package index yet" in head and "pip install '.[mcp]'" in head
