"""gitmem ask: evidence-gated answers, through the real CLI, real git, a fake model
command run as a real subprocess (tests/fakes/ask_model.py) and a real HTTP server on
loopback (tests/fakes/openai_server.py)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from fakes.ask_plans import SOLVER_OPENING, SUPPORT_OPENING
from fakes.openai_server import FakeOpenAI
from helpers import FAKES, git
from helpers.asking import ask, ask_event

from gitmem.agents.ask import EXIT_CODES, OUTCOMES
from gitmem.agents.ask.gates import agree, anchored, locate_quote, quote_problem
from gitmem.agents.ask.prompts import support_prompt
from gitmem.agents.ask.retrieve import question_terms, retrieve, term_matches
from gitmem.agents.ask.schema import parse_solver, parse_support
from gitmem.agents.ask.sources import Document, file_change
from gitmem.llm import OutputRejected
from gitmem.store.repo import Store

QUESTION = "What is the timeout in seconds?"
TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
CONFIG = f'''"""Settings of the fetcher."""

TIMEOUT_SECONDS = 37
RETRIES = 137
GITHUB_TOKEN = "{TOKEN}"
'''


@pytest.fixture
def project(initialised: Path) -> Path:
    (initialised / "src").mkdir()
    (initialised / "src" / "config.py").write_text(CONFIG)
    (initialised / "NOTES.md").write_text("The fetcher retries on 502 only.\n")
    git(initialised, "add", "src", "NOTES.md")
    git(initialised, "commit", "-q", "-m", "config")
    return initialised


def use_plan(monkeypatch: pytest.MonkeyPatch, plan: str, *extra: str) -> None:
    script = FAKES / "ask_model.py"
    command = shlex.join([sys.executable, str(script), plan, *extra])
    monkeypatch.setenv("GITMEM_COMMAND", command)


# -- the outcome table -----------------------------------------------------------------

TABLE = [
    ("right", "supported_answer"),
    ("wrong-quote", "needs_review"),
    ("disagree", "needs_review"),
    ("unanchored", "needs_review"),
    ("support-abstains", "needs_review"),
    ("malformed", "unsupported_output"),
    ("fenced", "unsupported_output"),
    ("support-malformed", "unsupported_output"),
    ("not-found", "not_found_in_source"),
    ("contested-absence", "needs_review"),
]


@pytest.mark.parametrize(("plan", "outcome"), TABLE)
def test_outcome_exit_code_and_signed_event(
    project: Path, monkeypatch: pytest.MonkeyPatch, plan: str, outcome: str
) -> None:
    use_plan(monkeypatch, plan)
    code, document = ask(project, QUESTION)
    assert (document["outcome"], code) == (outcome, EXIT_CODES[outcome])
    assert (
        document["mode"] == "model" and document["model"] == f"command: {Path(sys.executable).name}"
    )
    released = outcome == "supported_answer"
    assert (document["answer"] == "37") is released
    assert (document["answer"] is None) is not released
    recorded = ask_event(project, document["event"])
    assert recorded["event"] == "ask" and recorded["outcome"] == outcome
    assert recorded["raw"] == document["raw"] and recorded["raw"]["solver"]
    raw_dir = Store.discover(project).local_dir / "raw"
    for digest in filter(None, recorded["raw"].values()):
        assert (raw_dir / digest).is_file()  # the bytes behind every hash are kept
    if outcome in ("needs_review",) and plan != "contested-absence":
        assert recorded["withheld"]["answer"] and recorded["withheld"]["quote"]


def test_outcomes_have_distinct_exit_codes() -> None:
    assert set(EXIT_CODES) == set(OUTCOMES)
    codes = list(EXIT_CODES.values())
    assert len(set(codes)) == len(codes) and not set(codes) & {1, 2, 3}


def test_supported_answer_cites_path_blob_and_lines_at_head(
    gm: Any, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_plan(monkeypatch, "right")
    _, document = ask(project, QUESTION)
    (citation,) = document["citations"]
    blob = git(project, "rev-parse", "HEAD:src/config.py").strip()
    assert citation == {
        "kind": "file",
        "path": "src/config.py",
        "blob": blob,
        "lines": [3, 3],
        "quote": "TIMEOUT_SECONDS = 37",
    }
    assert document["head"] == git(project, "rev-parse", "HEAD").strip()
    assert all(g["ok"] for g in document["gates"])
    text = gm("ask", QUESTION)
    lines = text.stdout.splitlines()
    assert lines[0] == "<gitmem-context>" and lines[-1] == "</gitmem-context>"
    assert "Answer: 37" in text.stdout and f"blob {blob[:12]}" in text.stdout
    assert gm("verify").exit_code == 0  # every event is signed and verifies


def test_withheld_answers_are_never_shown(
    gm: Any, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_plan(monkeypatch, "wrong-quote")
    result = gm("ask", QUESTION)
    assert result.exit_code == EXIT_CODES["needs_review"]
    assert "TIMEOUT_SECONDS = 30" not in result.stdout and "Answer withheld" in result.stdout
    assert "does not occur exactly" in result.stdout


def test_the_support_call_sees_only_the_question_and_the_quote(
    project: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    log = tmp_path / "calls.jsonl"
    use_plan(monkeypatch, "right", "--log", str(log))
    ask(project, QUESTION)
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    assert [c["role"] for c in calls] == ["solver", "support"]
    solver, support = (c["prompt"] for c in calls)
    assert solver.startswith(SOLVER_OPENING) and "RETRIES = 137" in solver
    assert support.startswith(SUPPORT_OPENING)
    assert QUESTION in support and "TIMEOUT_SECONDS = 37" in support
    for unseen in ("RETRIES", "src/config.py", "excerpt", '"answer": "37"', "E1"):
        assert unseen not in support
    # Secrets are masked before any model sees a line.
    assert TOKEN not in solver and "[redacted:github-token]" in solver


def test_a_source_edited_between_the_calls_is_stale(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_plan(monkeypatch, "right", "--edit", str(project / "src" / "config.py"))
    code, document = ask(project, QUESTION)
    assert (document["outcome"], code) == ("stale_source", EXIT_CODES["stale_source"])
    assert "differs in the working tree" in document["reason"] and document["answer"] is None
    assert ask_event(project, document["event"])["withheld"]["answer"] == "37"


def test_a_source_dirty_before_the_calls_is_stale_too(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / "src" / "config.py").write_text(CONFIG.replace("37", "38", 1))
    use_plan(monkeypatch, "right")
    _, document = ask(project, QUESTION)
    assert document["outcome"] == "stale_source"


def test_head_moving_is_seen(project: Path) -> None:
    store = Store.discover(project)
    blob = git(project, "rev-parse", "HEAD:src/config.py").strip()
    assert file_change(store, "src/config.py", blob) is None
    (project / "src" / "config.py").write_text("TIMEOUT_SECONDS = 5\n")
    git(project, "commit", "-q", "-am", "faster")
    assert "changed in HEAD" in (file_change(store, "src/config.py", blob) or "")
    git(project, "rm", "-q", "src/config.py")
    git(project, "commit", "-q", "-m", "gone")
    assert "no longer in HEAD" in (file_change(store, "src/config.py", blob) or "")


def test_a_backend_that_fails_is_unsupported_output(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(
        "GITMEM_COMMAND", shlex.join([sys.executable, str(FAKES / "model_fails.py")])
    )
    code, document = ask(project, QUESTION)
    assert (document["outcome"], code) == ("unsupported_output", 12)
    assert "exited with status 1" in document["reason"]
    assert document["raw"]["solver"]  # the partial stdout is kept and named


@pytest.mark.parametrize(
    ("plan", "outcome"),
    [
        ("right", "supported_answer"),
        ("malformed", "unsupported_output"),
        ("disagree", "needs_review"),
    ],
)
def test_the_openai_backend_over_http(
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    fake_openai: FakeOpenAI,
    plan: str,
    outcome: str,
) -> None:
    monkeypatch.setenv("GITMEM_EXTRACTOR", "openai")
    monkeypatch.setenv("GITMEM_OPENAI_BASE_URL", fake_openai.url(f"ask-{plan}"))
    monkeypatch.setenv("GITMEM_OPENAI_MODEL", "tiny")
    code, document = ask(project, QUESTION)
    assert (document["outcome"], code) == (outcome, EXIT_CODES[outcome])
    first = fake_openai.requests[0].json()
    assert first["messages"][0]["content"].startswith("You answer questions for gitmem ask")
    assert first["messages"][1]["content"].startswith(SOLVER_OPENING)


# -- without a model ---------------------------------------------------------------------


def test_without_a_model_answers_from_verbatim_memory_and_exact_matches(
    gm: Any, project: Path
) -> None:
    transcript = project.parent / "s.md"
    transcript.write_text("We agreed the fetcher timeout stays at 37 seconds for now.\n")
    items = [
        {
            "kind": "decision",
            "text": "Fetcher timeout stays at 37 s",
            "trust": "verbatim",
            "quote": "the fetcher timeout stays at 37 seconds",
        }
    ]
    assert (
        gm(
            "capture", "--transcript", str(transcript), "--items", "-", input=json.dumps(items)
        ).exit_code
        == 0
    )
    code, document = ask(project, "fetcher timeout")
    assert (document["outcome"], code, document["mode"]) == ("supported_answer", 0, "verbatim")
    assert document["model"] is None and "no model is configured" in document["reason"]
    assert [c["kind"] for c in document["citations"]] == ["memory"]
    assert document["citations"][0]["quote"] == "the fetcher timeout stays at 37 seconds"
    code, document = ask(project, "retries")
    cited = {(c["path"], c["quote"], tuple(c["lines"])) for c in document["citations"]}
    assert code == 0 and ("src/config.py", "RETRIES = 137", (4, 4)) in cited
    assert ("NOTES.md", "The fetcher retries on 502 only.", (1, 1)) in cited
    text = gm("ask", "retries").stdout
    assert "no model is configured" in text and "Matches (verbatim" in text
    code, document = ask(project, "flux capacitor")
    assert (document["outcome"], code) == ("not_found_in_source", 10)
    assert ask(project, "retries 137")[0] == 0
    (project / "src" / "config.py").write_text("RETRIES = 4\n")  # uncommitted
    code, document = ask(project, "retries 137")
    assert (document["outcome"], code) == ("stale_source", 13)
    assert "differs in the working tree" in document["reason"]


def test_without_a_model_a_question_may_ask_for_a_kind_of_item_in_its_own_words(
    gm: Any, project: Path
) -> None:
    # "what did we decide about X?" is how people ask: the decision about X answers it,
    # though its own words never say "decide"
    transcript = project.parent / "s.md"
    transcript.write_text(
        "We agreed the fetcher timeout stays at 37 seconds for now.\n"
        "Still to do: retry the upload on 503.\n"
    )
    items = [
        {
            "kind": "decision",
            "text": "Fetcher timeout stays at 37 s",
            "trust": "verbatim",
            "quote": "the fetcher timeout stays at 37 seconds",
        },
        {
            "kind": "open_loop",
            "text": "Retry the upload on 503",
            "trust": "verbatim",
            "quote": "retry the upload on 503",
        },
    ]
    done = gm("capture", "--transcript", str(transcript), "--items", "-", input=json.dumps(items))
    assert done.exit_code == 0, done.stderr
    for question in ("What did we decide about the fetcher timeout?", "decisions on timeout"):
        code, document = ask(project, question)
        assert (document["outcome"], code) == ("supported_answer", 0), question
        quotes = [c["quote"] for c in document["citations"]]
        assert quotes == ["the fetcher timeout stays at 37 seconds"], question
    code, document = ask(project, "What is left to do on the upload?")
    assert code == 0
    assert [c["quote"] for c in document["citations"]] == ["retry the upload on 503"]
    # the kind words ask for that kind only, and the item must still hold the rest
    assert ask(project, "What did we decide about the upload?")[0] == 10
    assert ask(project, "What did we decide about the database?")[0] == 10
    assert ask(project, "What is left to do on the fetcher timeout?")[0] == 10


@pytest.mark.parametrize("question", ["", "   ", "x" * 2001, "tab\x00null"])
def test_a_bad_question_is_exit_2_and_nothing_is_asked_or_written(
    gm: Any, project: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, question: str
) -> None:
    log = tmp_path / "calls.jsonl"
    use_plan(monkeypatch, "right", "--log", str(log))
    tip = Store.discover(project).tip()
    result = gm("ask", question)
    assert result.exit_code == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert Store.discover(project).tip() == tip and not log.exists()


def test_without_a_key_nothing_is_asked(
    gm: Any, repo: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    log = tmp_path / "calls.jsonl"
    use_plan(monkeypatch, "right", "--log", str(log))
    result = gm("ask", QUESTION)
    assert result.exit_code == 2 and "gitmem init" in result.stderr and not log.exists()


# -- the pure parts ----------------------------------------------------------------------


def test_the_answer_must_be_a_bounded_span_of_the_quote() -> None:
    assert anchored("37", "TIMEOUT_SECONDS = 37")
    assert not anchored("37", "RETRIES = 137")
    assert not anchored("37", "port 375")
    assert anchored("37.", "the timeout is 37 seconds")
    assert anchored("Main Branch", "we merge into the main branch")
    assert not anchored("", "anything at all")


def test_agreement_is_deterministic() -> None:
    assert agree("37", "37 seconds") and agree("port 37", "37")
    assert not agree("37", "137") and not agree("37", "3.7")
    assert not agree("cached", "not cached") and not agree("yes", "no")
    assert agree("The main branch.", "main branch")


def test_a_quote_must_occur_exactly_on_word_boundaries() -> None:
    source = "def f():\n    TIMEOUT_SECONDS = 37\n    return 17 seconds"
    assert locate_quote("TIMEOUT_SECONDS = 37", source) is not None
    assert locate_quote("f():   TIMEOUT_SECONDS = 37", source) is not None  # whitespace runs
    assert locate_quote("timeout_seconds = 37", source) is None  # case matters in code
    assert locate_quote("7 seconds", source) is None  # not from "17 seconds"
    assert locate_quote("TIMEOUT_SECONDS = 3", source) is None
    assert "ellipsis" in (quote_problem("def f(): ... return 17", source) or "")
    assert "fewer than" in (quote_problem("= 37", source) or "")


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"Sure!",
        b'{"status": "answer"}',
        b'{"status": "maybe"}',
        b'{"status": "not_found", "why": "x"}',
        b'{"status": "answer", "answer": "37", "excerpt": "E1", "quote": "q", "extra": 1}',
        b'{"status": "answer", "answer": "37", "excerpt": "file.py", "quote": "q"}',
        b'{"status": "answer", "answer": " ", "excerpt": "E1", "quote": "q"}',
        b'{"status": "answer", "answer": 37, "excerpt": "E1", "quote": "q"}',
        b'{"status": "not_found", "status": "not_found"}',
        b'{"status": "not_found"} {"status": "not_found"}',
        b'{"status": "not_found", "score": 1.5}',
        b"\xef\xbb\xbf{}",
        b'["not_found"]',
    ],
)
def test_the_solver_schema_is_strict(raw: bytes) -> None:
    with pytest.raises(OutputRejected):
        parse_solver(raw)


def test_well_formed_replies_parse() -> None:
    reply = parse_solver(b' {"status":"answer","answer":"37","excerpt":"E2","quote":"q = 37"}\n')
    assert (reply.found, reply.answer, reply.excerpt, reply.quote) == (True, "37", "E2", "q = 37")
    assert not parse_solver(b'{"status": "not_found"}').found
    assert parse_support(b'{"status": "answer", "answer": "37"}').answer == "37"
    assert not parse_support(b'{"status": "abstain"}').answered
    with pytest.raises(OutputRejected):
        parse_support(b'{"status": "abstain", "answer": "37"}')


def test_retrieval_finds_the_lines_and_numbers_the_excerpts() -> None:
    assert question_terms("What is the timeout in seconds?") == ("timeout", "seconds")
    assert term_matches("live", {"lives"}) and not term_matches("37", {"137"})
    documents = [
        Document("file", "src/config.py", "b1", tuple(CONFIG.splitlines())),
        Document("file", "NOTES.md", "b2", ("The fetcher retries on 502 only.",)),
    ]
    excerpts = retrieve(QUESTION, documents)
    assert [(e.id, e.path) for e in excerpts] == [("E1", "src/config.py")]
    assert "TIMEOUT_SECONDS = 37" in excerpts[0].text and excerpts[0].start == 1


def test_the_support_prompt_has_no_room_for_the_answer() -> None:
    prompt = support_prompt("What is the timeout?", "TIMEOUT_SECONDS = 37")
    assert prompt.startswith(SUPPORT_OPENING) and "excerpt" not in prompt
