"""The conversations of benchmarks/capture_shapes.py, built to cost the most: the
model-free extraction and the last word read each without error, keep at most the cap,
and every verbatim item they keep is a quote the verifier finds in one message."""

from __future__ import annotations

import pytest
from helpers import benchmark

from gitmem.capture.extract.heuristic import extract
from gitmem.capture.extract.lastword import last_word
from gitmem.core.items import Trust
from gitmem.core.quotes import check_quotes

SHAPES = benchmark("capture_shapes").shapes(20_000)


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_a_conversation_built_to_cost_the_most_keeps_only_verified_quotes(name: str) -> None:
    messages = SHAPES[name]()
    drafts = last_word(extract(messages), messages)
    assert len(drafts) <= 40
    texts = [m.text for m in messages]
    for draft in drafts:
        assert draft.trust == Trust.VERBATIM and draft.quote
        assert check_quotes([draft.quote], texts)[0].verbatim, draft.quote
