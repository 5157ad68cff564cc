"""The model-backend layer: the caller's system prompt, and what the layer may import.

The backends' own behaviour (timeouts, process groups, HTTP errors) is tested with the
extraction that uses them, in test_extract_models.py.
"""

from __future__ import annotations

from fakes.openai_server import FakeOpenAI
from helpers import ROOT

from gitmem.core.errors import NegativeResult
from gitmem.llm import BackendFailed, ModelError, ModelSettings, OutputRejected, backend_for

LLM = ROOT / "gitmem" / "llm"


def test_openai_sends_the_system_prompt_its_caller_gives(fake_openai: FakeOpenAI) -> None:
    settings = ModelSettings(base_url=fake_openai.url("ok"), model="tiny", timeout=5.0)
    backend = backend_for("openai", settings)
    backend.complete("the prompt", system="Only a test: answer {}.")
    backend.complete("the prompt", system="Another caller's rules.")
    assert [r.json()["messages"] for r in fake_openai.requests] == [
        [
            {"role": "system", "content": "Only a test: answer {}."},
            {"role": "user", "content": "the prompt"},
        ],
        [
            {"role": "system", "content": "Another caller's rules."},
            {"role": "user", "content": "the prompt"},
        ],
    ]


def test_model_errors_are_one_family_of_expected_negatives_with_their_prefix() -> None:
    failed = BackendFailed("llm timed out after 1 s", b"partial")
    rejected = OutputRejected("the output is empty", b"")
    assert str(failed) == "model backend failed: llm timed out after 1 s"
    assert str(rejected) == "model output rejected: the output is empty"
    assert (failed.raw, rejected.raw) == (b"partial", b"")
    for error in (failed, rejected):
        assert isinstance(error, ModelError) and isinstance(error, NegativeResult)
        assert error.exit_code == 1
