"""Outcome records of ``gitmem ask``: a signed event by default (a withheld answer
included), reused by an identical ask within the window, one local record with
``--no-record``; and the framing of each call's prompt, which scripted backends key on.
Real CLI, real git, the scripted model as a real subprocess and over loopback HTTP."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from fakes.ask_script import ScriptServer
from helpers.ask_cases import CASES
from helpers.asking import BACKENDS, FILES, Model, ask, ask_event, make_repo, run_case

pytestmark = pytest.mark.slow  # every ask runs a scripted model as a real subprocess

QUESTION = "What is the measured reservoir capacity?"
RIGHT = next(c for c in CASES if c.name == "prose-decimal")
WITHHELD = next(c for c in CASES if c.name == "anchor-decimal")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo, home = make_repo(tmp_path, FILES)
    monkeypatch.setenv("GITMEM_HOME", str(home))
    return repo


def tip(repo: Path) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "-q", "--verify", "refs/gitmem/memory"],
        capture_output=True,
        text=True,
    )
    return done.stdout.strip()


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_identical_ask_reuses_the_signed_record(
    backend: str,
    project: Path,
    script_server: ScriptServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    model = Model(backend, tmp_path, script_server)
    model.use(monkeypatch, RIGHT.script, f"reuse-{backend}")
    code, first = ask(project, QUESTION)
    after_first = tip(project)
    assert (code, first["outcome"], first["record"]["reused"]) == (0, "supported_answer", False)
    calls = len(model.roles())
    code, second = ask(project, QUESTION)
    assert code == 0 and second["record"]["reused"] is True
    assert second["event"] == first["event"] and second["answer"] == "37.5 litres"
    assert tip(project) == after_first  # nothing written
    assert len(model.roles()) == calls  # nobody asked again
    code, third = ask(project, QUESTION, "--reuse-window", "0")
    assert third["record"]["reused"] is False and third["event"] != first["event"]
    assert tip(project) != after_first


def test_an_edited_source_or_another_model_is_a_new_ask(
    project: Path, script_server: ScriptServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = Model("command", tmp_path, script_server)
    model.use(monkeypatch, RIGHT.script, "one")
    _, first = ask(project, QUESTION)
    model.use(monkeypatch, RIGHT.script, "two")  # another command line: another model
    _, other = ask(project, QUESTION)
    assert other["record"]["reused"] is False and other["event"] != first["event"]
    model.use(monkeypatch, RIGHT.script, "one")
    tank = project / "docs" / "tank.md"
    tank.write_text(tank.read_text() + "\n")
    code, edited = ask(project, QUESTION)
    assert (code, edited["outcome"], edited["record"]["reused"]) == (13, "stale_source", False)


def test_a_withheld_answer_is_signed_by_default(
    project: Path, script_server: ScriptServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, document = run_case(
        WITHHELD, Model("command", tmp_path, script_server), project, monkeypatch
    )
    assert (code, document["outcome"], document["answer"]) == (11, "needs_review", None)
    recorded = ask_event(project, document["event"])
    assert recorded["withheld"]["answer"] == "37"
    assert recorded["outcome"] == "needs_review"


def test_no_record_keeps_one_local_record_and_reuses_it(
    project: Path, script_server: ScriptServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Model("command", tmp_path, script_server).use(monkeypatch, RIGHT.script, "local")
    before = tip(project)
    code, document = ask(project, QUESTION, "--no-record")
    assert code == 0 and document["event"] is None
    assert document["record"]["kind"] == "local"
    assert tip(project) == before  # nothing in shared memory
    local = project / ".git" / "gitmem" / "ask" / f"{document['record']['address']}.json"
    assert json.loads(local.read_bytes())["outcome"] == "supported_answer"
    _, again = ask(project, QUESTION, "--no-record")
    assert again["record"] == {**document["record"], "reused": True}
    # A signed ask does not reuse a local record: it writes its event.
    _, signed = ask(project, QUESTION)
    assert signed["record"]["kind"] == "signed" and signed["record"]["reused"] is False
    assert tip(project) != before


@pytest.mark.parametrize("damage", [b"{not json", b'{"x": 1}', b"[]", b"\xff\xfe"])
def test_a_damaged_reuse_index_means_no_reuse_and_no_traceback(
    damage: bytes,
    project: Path,
    script_server: ScriptServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    Model("command", tmp_path, script_server).use(monkeypatch, RIGHT.script, "damaged")
    _, first = ask(project, QUESTION)
    (project / ".git" / "gitmem" / "ask" / "index.json").write_bytes(damage)
    code, second = ask(project, QUESTION)
    assert code == 0 and second["record"]["reused"] is False
    assert second["event"] != first["event"]


def test_a_forged_local_record_is_not_reused(
    project: Path, script_server: ScriptServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    Model("command", tmp_path, script_server).use(monkeypatch, WITHHELD.script, "forged")
    _, first = ask(project, QUESTION, "--no-record")
    local = project / ".git" / "gitmem" / "ask" / f"{first['record']['address']}.json"
    forged = json.loads(local.read_bytes())
    forged["outcome"], forged["answer"] = "supported_answer", "37"
    local.write_text(json.dumps(forged))
    code, second = ask(project, QUESTION, "--no-record")
    assert (code, second["outcome"], second["answer"]) == (11, "needs_review", None)
    assert second["record"]["reused"] is False


# -- the framing of each call ----------------------------------------------------------

BLOCK = r"=== {name} (?P<token>[0-9a-f]{{16}}) ===\n"


@pytest.mark.parametrize("backend", BACKENDS)
def test_each_call_is_framed_as_documented(
    backend: str,
    project: Path,
    script_server: ScriptServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cases = {c.name: c for c in CASES}
    model = Model(backend, tmp_path, script_server)
    run_case(cases["prose-decimal"], model, project, monkeypatch)
    (solver, first), (support, second) = model.prompts()
    assert (solver, support) == ("solver", "support")
    assert first.startswith("You are the solver of gitmem ask.")
    assert second.startswith("You are the support checker of gitmem ask.")
    for prompt in (first, second):
        token = re.search(BLOCK.format(name="question"), prompt)
        assert token is not None
        assert f"=== end of question {token['token']} ===" in prompt
    assert re.search(r"^=== excerpt E1: file docs/tank\.md, lines? [\d-]+ \w{16} ===$", first, re.M)
    assert "=== passage " not in first and "=== excerpt" not in second
    assert "The measured reservoir capacity is 37.5 litres.\n=== end of passage" in second
    assert '37.5 litres"' not in second.split("=== passage")[0]  # the answer is not shown

    model = Model(backend, tmp_path / "absence", script_server)
    (tmp_path / "absence").mkdir()
    run_case(cases["absence-widened-confirmed"], model, project, monkeypatch)
    ((role, prompt),) = model.prompts()
    assert role == "absence"
    assert prompt.startswith("You are the support checker of gitmem ask.")
    assert re.search(BLOCK.format(name="question"), prompt)
    assert "=== passage " not in prompt
    assert re.search(
        r"^=== excerpt E\d+: file docs/tank\.md, lines? [\d-]+ \w{16} ===$", prompt, re.M
    )
