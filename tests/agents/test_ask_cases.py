"""The ask gate cases (tests/helpers/ask_cases.py) through the real CLI: a scripted model behind
the command backend (a real subprocess per call) and behind the openai backend (a real
HTTP server on loopback). Every case must give the prototype's outcome, its exit code
and a reason naming the gate that decided."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes.ask_script import ScriptServer
from helpers.ask_cases import CASES, EXIT, Case
from helpers.asking import BACKENDS, FILES, Model, make_repo, run_case

from gitmem.agents.ask import Outcome

pytestmark = (
    pytest.mark.slow
)  # every case runs the real CLI against a scripted model subprocess or loopback server


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return make_repo(tmp_path_factory.mktemp("cases"), FILES)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_case_gives_the_prototypes_outcome(
    case: Case,
    backend: str,
    sources: tuple[Path, Path],
    script_server: ScriptServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    repo, home = sources
    monkeypatch.setenv("GITMEM_HOME", str(home))
    model = Model(backend, tmp_path, script_server)
    code, document = run_case(case, model, repo, monkeypatch)
    assert (document["outcome"], code) == (case.prototype, EXIT[case.prototype])
    assert case.reason.lower() in document["reason"].lower()
    if case.roles is not None:
        assert model.roles() == list(case.roles)
    if case.prototype != Outcome.SUPPORTED_ANSWER:
        assert document["answer"] is None
    else:
        assert document["answer"] == case.script["solver"]["answer"]
        (citation,) = document["citations"]
        assert citation["quote"] == case.script["solver"]["quote"]


def test_the_cases_cover_every_outcome_and_gate() -> None:
    assert {c.prototype for c in CASES} == {o.value for o in Outcome}
    gates = {c.gate for c in CASES}
    assert gates >= {"row", "rule", "exception", "anchor", "agree", "quote", "absence", "schema"}
    assert len({c.name for c in CASES}) == len(CASES)
