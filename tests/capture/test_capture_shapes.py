"""The conversations of benchmarks/capture_shapes.py, built to cost the most: the
model-free extraction and the last word read each without error, keep at most the cap,
and every verbatim item they keep is a quote the verifier finds in one message."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

import pytest
from helpers import ROOT

from gitmem.capture.extract.heuristic import extract
from gitmem.capture.extract.lastword import last_word
from gitmem.core.items import Trust
from gitmem.core.quotes import check_quotes


def shapes_module() -> ModuleType:
    path = ROOT / "benchmarks" / "capture_shapes.py"
    spec = importlib.util.spec_from_file_location("capture_shapes", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("capture_shapes", module)
    spec.loader.exec_module(module)
    return module


SHAPES = shapes_module().shapes(20_000)


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_a_conversation_built_to_cost_the_most_keeps_only_verified_quotes(name: str) -> None:
    messages = SHAPES[name]()
    drafts = last_word(extract(messages), messages)
    assert len(drafts) <= 40
    texts = [m.text for m in messages]
    for draft in drafts:
        assert draft.trust == Trust.VERBATIM and draft.quote
        assert check_quotes([draft.quote], texts)[0].verbatim, draft.quote
