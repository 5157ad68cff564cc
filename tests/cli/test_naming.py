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
    assert "pip install 'gitmem-verified[mcp]'" in (ROOT / "README.md").read_text()
