"""File claims in a sentence (gitmem/core/claims.py): only paths, never project names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import Result

from gitmem.core.claims import forge_numbers, references


def file_claims(sentence: str) -> list[str]:
    return [c["path"] for c in references(sentence)[0] if c["type"] == "file-exists"]


@pytest.mark.parametrize(
    "sentence",
    [
        "We created the landing page with Next.js.",
        "I added Node.js and Vue.js support to the build.",
        "We wrote the charts with D3.js and Three.js",
    ],
)
def test_a_project_named_like_a_js_file_is_not_a_file(sentence: str) -> None:
    assert file_claims(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "paths"),
    [
        ("We added src/next.js for the router.", ["src/next.js"]),
        ("We created `Next.js` at the root.", ["Next.js"]),
        ("We wrote App.js for the demo.", ["App.js"]),
    ],
)
def test_a_js_path_is_still_a_file(sentence: str, paths: list[str]) -> None:
    assert file_claims(sentence) == paths


def test_the_brief_never_warns_that_next_js_is_missing(
    initialised: Path, gm: Any, tmp_path: Path
) -> None:
    transcript = tmp_path / "session.md"
    transcript.write_text("We decided: we created the landing page with Next.js.\n")
    result: Result = gm("capture", "--transcript", str(transcript))
    assert result.exit_code == 0, result.stderr
    brief = gm("brief").stdout
    assert "landing page with Next.js" in brief
    assert "not in HEAD" not in brief


def test_every_link_names_its_own_repository() -> None:
    # Each of several links is read on its own: the second link of another repository is
    # that repository's, not a bare number of the project.
    upstream = (
        "The crash is tracked upstream ([#17](https://github.com/other/tool/issues/17), "
        "[#18](https://github.com/other/tool/pull/18))."
    )
    assert forge_numbers(upstream, "acme/exporter") == frozenset()
    assert forge_numbers(upstream) == {17, 18}
    mixed = (
        "See https://github.com/other/tool/issues/17 and https://github.com/acme/exporter/pull/4"
    )
    assert forge_numbers(mixed, "acme/exporter") == {4}
