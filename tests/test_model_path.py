"""The noisy-model benchmark's "markdown" mutation is a change of formatting only: what it
takes out is markdown, never a word of the quote."""

from __future__ import annotations

import pytest
from helpers import benchmark

benchmark("extract_quality")  # model_path imports it by that name, as a script does
MP = benchmark("model_path")


@pytest.mark.parametrize(
    ("quote", "plain"),
    [
        # a code span's text stands as it is: no emphasis is read inside one
        ("the `mcp__kubernetes__*` tools", "the mcp__kubernetes__* tools"),
        ("keep `__init__.py` small", "keep __init__.py small"),
        ("run `a * b` then `c*d*e`", "run a * b then c*d*e"),
        # outside one, emphasis, list and heading markers go
        ("- **Drive-by fix** — use _only_ `git`", "Drive-by fix — use only git"),
        ("## Not *applied*", "Not applied"),
    ],
)
def test_markdown_is_taken_out_and_nothing_else(quote: str, plain: str) -> None:
    assert MP.plain(quote) == plain
