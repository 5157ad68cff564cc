"""Capture end to end through the CLI: formats, extractors, masking, the ledger, the log."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from fakes.openai_server import FakeOpenAI
from helpers import DATA, FAKES, Gm, git
from helpers.capturing import SAMPLE, capture, capture_sample, claude_line, stored_checkpoint

from gitmem.store.repo import Store

AWS_ID = "AKIAIOSFODNN7EXAMPLE"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
GH_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def reachable_bytes(repo: Path) -> bytes:
    """Every blob reachable from refs/gitmem/memory, concatenated."""
    objects = subprocess.run(
        ["git", "-C", str(repo), "rev-list", "--objects", "refs/gitmem/memory"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split("\n")
    blobs = []
    for line in objects:
        oid = line.split(" ")[0]
        if not oid:
            continue
        kind = subprocess.run(
            ["git", "-C", str(repo), "cat-file", "-t", oid],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        if kind == "blob":
            blobs.append(
                subprocess.run(
                    ["git", "-C", str(repo), "cat-file", "blob", oid],
                    capture_output=True,
                    check=True,
                ).stdout
            )
        else:
            blobs.append(
                subprocess.run(
                    ["git", "-C", str(repo), "cat-file", "-p", oid], capture_output=True, check=True
                ).stdout
            )
    return b"\n".join(blobs)


def model(script: str) -> str:
    return f"{sys.executable} {FAKES / script}"


# -- formats and the default extractor ------------------------------------------------


@pytest.mark.parametrize(
    ("fixture", "found"),
    [("claude_session.jsonl", 1), ("codex_rollout.jsonl", 1), ("generic.json", 1), ("plain.md", 1)],
)
def test_each_format_captures_with_the_heuristic_by_default(
    initialised: Path, gm: Gm, fixture: str, found: int
) -> None:
    items = capture(gm, DATA / "transcripts" / fixture)["items"]
    assert len(items) == found
    assert all(i["trust"] == "verbatim" and i["quote_verified"] for i in items)
    assert gm("verify").exit_code == 0  # every quote re-verifies from the stored snapshot


def test_session_id_comes_from_the_transcript(initialised: Path, gm: Gm) -> None:
    path = DATA / "transcripts" / "claude_session.jsonl"
    named = {json.loads(line).get("sessionId") for line in path.read_text().splitlines()}
    data = gm("capture", "--transcript", str(path), "--json").json()
    assert isinstance(data, dict) and data["session"] in named - {None}


PARENT = "4c2ddfdc-b619-4525-8d03-1950fb1b0257"
SUBAGENTS = DATA / "subagents"
SUBAGENT = SUBAGENTS / PARENT / "subagents" / "agent-50243ee8.jsonl"


@pytest.mark.parametrize("named", [(), ("--session", PARENT)])
def test_a_subagent_file_is_its_own_session(
    initialised: Path, gm: Gm, named: tuple[str, ...]
) -> None:
    main = gm("capture", "--transcript", str(SUBAGENTS / f"{PARENT}.jsonl"), "--json").json()
    # The subagent's report holds no item: a new commit gives its capture something to say.
    git(initialised, "commit", "-q", "--allow-empty", "-m", "later")
    side = gm("capture", "--transcript", str(SUBAGENT), *named, "--json").json()
    assert isinstance(main, dict) and isinstance(side, dict)
    assert main["session"] == PARENT
    assert side["session"] == f"{PARENT}/agent-50243ee8"  # even when a host names the parent
    assert "parent_session" not in stored_checkpoint(initialised, main["checkpoint"])
    assert stored_checkpoint(initialised, side["checkpoint"])["parent_session"] == PARENT
    assert gm("verify").exit_code == 0


def test_a_subagent_corroborates_its_parent(initialised: Path, gm: Gm, tmp_path: Path) -> None:
    said = "We will keep the cache local to each worker."
    item = {"kind": "decision", "text": "Keep the cache local to each worker", "trust": "verbatim"}
    item["quote"] = "keep the cache local to each worker"
    parent = tmp_path / "p-1.jsonl"
    parent.write_text(claude_line(said, "assistant", "p-1", isSidechain=False, uuid=said))
    side = tmp_path / "agent-a7.jsonl"
    checked = f"Checked: {said}"
    side.write_text(
        claude_line(checked, "assistant", "p-1", isSidechain=True, uuid=checked, agentId="a7")
    )
    for path in (parent, side):
        capture(gm, path, [item])
    brief = json.loads(gm("brief", "--format", "json").stdout)
    (only,) = brief["items"]
    assert only["corroboration"] == 2  # one session each, not one merged session


def test_extractor_none_stores_only_the_snapshot(initialised: Path, gm: Gm) -> None:
    data = gm("capture", "--transcript", str(SAMPLE), "--extractor", "none", "--json").json()
    assert isinstance(data, dict) and data["items"] == []


def test_forced_wrong_format_is_bad_input(initialised: Path, gm: Gm) -> None:
    result = gm("capture", "--transcript", str(SAMPLE), "--format", "claude")
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert Store.discover(initialised).tip() is None


# -- secrets ----------------------------------------------------------------------


def test_no_secret_byte_reaches_the_memory_ref(initialised: Path, gm: Gm, tmp_path: Path) -> None:
    transcript = tmp_path / "leaky.md"
    transcript.write_text(
        "Decision: deploy with the new credentials.\n"
        f"export AWS_ACCESS_KEY_ID={AWS_ID}\n"
        f"export AWS_SECRET_ACCESS_KEY={AWS_SECRET}\n"
        f"The token is {GH_TOKEN} for the bot.\n"
    )
    items = [
        {
            "kind": "fact",
            "text": f"Bot token {GH_TOKEN}",
            "trust": "verbatim",
            "quote": f"The token is {GH_TOKEN} for the bot.",
        },
        {
            "kind": "decision",
            "text": "Deploy with the new credentials",
            "trust": "verbatim",
            "quote": "deploy with the new credentials",
        },
    ]
    data = capture(gm, transcript, items)
    by_kind = {i["kind"]: i for i in data["items"]}
    assert by_kind["fact"]["trust"] == "inferred"  # a quote overlapping a secret never is
    assert by_kind["fact"]["quote"] is None
    assert "[redacted:" in by_kind["fact"]["text"]
    assert by_kind["decision"]["trust"] == "verbatim"
    stored = reachable_bytes(initialised)
    for secret in (AWS_ID, AWS_SECRET, GH_TOKEN, GH_TOKEN[4:]):
        assert secret.encode() not in stored


# -- model extractors ---------------------------------------------------------------


def test_command_extractor(initialised: Path, gm: Gm) -> None:
    data = capture(gm, SAMPLE, None, "--extractor", "command", "--command", model("model_ok.py"))
    texts = {i["text"]: i for i in data["items"]}
    assert texts["Keep the cache in .git/gitmem."]["trust"] == "verbatim"
    assert texts["PR 60 waits for review."]["trust"] == "inferred"


@pytest.mark.parametrize(
    ("script", "kind"),
    [
        ("model_chatty.py", "unsupported_output"),
        ("model_truncated.py", "unsupported_output"),
        ("model_fails.py", "backend_failed"),
    ],
)
def test_malformed_model_output_writes_nothing_and_shows_in_status(
    initialised: Path, gm: Gm, script: str, kind: str
) -> None:
    result = gm(
        "capture",
        "--transcript",
        str(SAMPLE),
        "--extractor",
        "command",
        "--command",
        model(script),
    )
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert Store.discover(initialised).tip() is None
    status = gm("status", "--json").json()
    assert isinstance(status, dict)
    (failure,) = status["recent_failures"]
    assert failure["error"] == result.stderr.removeprefix("gitmem: ").strip()
    log = (initialised / ".git" / "gitmem" / "capture.log").read_text().splitlines()
    entry = json.loads(log[-1])
    assert entry["kind"] == kind
    if kind == "unsupported_output":  # the raw bytes were kept before parsing
        raw = initialised / ".git" / "gitmem" / "raw" / entry["raw"]
        assert raw.read_bytes()
    assert failure["error"] in gm("status").stdout


def test_command_extractor_timeout_is_enforced(
    initialised: Path, gm: Gm, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITMEM_TIMEOUT", "1")
    result = gm(
        "capture",
        "--transcript",
        str(SAMPLE),
        "--extractor",
        "command",
        "--command",
        model("model_slow.py"),
    )
    assert result.exit_code == 1 and "timed out" in result.stderr


def test_openai_extractor_against_a_loopback_server(
    initialised: Path, gm: Gm, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITMEM_OPENAI_API_KEY", "sk-test")
    url = fake_openai.url("ok")
    data = capture(gm, SAMPLE, None, "--extractor", "openai", "--base-url", url, "--model", "tiny")
    assert data["items"][0]["trust"] == "verbatim"
    (request,) = fake_openai.requests
    assert request.json()["model"] == "tiny"
    assert request.headers["Authorization"] == "Bearer sk-test"


def test_openai_wrong_schema_is_rejected(
    initialised: Path, gm: Gm, fake_openai: FakeOpenAI
) -> None:
    result = gm(
        "capture",
        "--transcript",
        str(SAMPLE),
        "--extractor",
        "openai",
        "--base-url",
        fake_openai.url("extra-key"),
        "--model",
        "tiny",
    )
    assert result.exit_code == 1 and "rejected" in result.stderr
    assert Store.discover(initialised).tip() is None


def test_missing_model_settings_are_bad_input(initialised: Path, gm: Gm) -> None:
    result = gm("capture", "--transcript", str(SAMPLE), "--extractor", "openai")
    assert result.exit_code == 2


# -- the emission ledger ----------------------------------------------------------------


def test_an_untagged_echo_of_a_brief_is_not_evidence(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    capture_sample(gm)
    brief = gm("brief").stdout
    echoed = "\n".join(line for line in brief.splitlines() if "gitmem-context" not in line)
    later = tmp_path / "later.md"
    later.write_text(f"The agent pasted its notes:\n{echoed}\n")
    quote = "review requested 2026-07-01"
    items = [{"kind": "fact", "text": "PR review", "trust": "verbatim", "quote": quote}]
    data = capture(gm, later, items)
    assert data["items"][0]["trust"] == "inferred"
    assert gm("verify-quote", "--transcript", str(later), quote).exit_code == 1


def test_a_secret_named_only_in_the_transcript_is_masked_in_items_too(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    transcript = tmp_path / "env.md"
    transcript.write_text("Set it up with:\nDB_PASSWORD=swordfish-4711\nDecision: rotate it.\n")
    items = [
        {
            "kind": "fact",
            "text": "The db password is swordfish-4711",
            "trust": "inferred",
            "evidence": {"said": "swordfish-4711"},
        }
    ]
    data = capture(gm, transcript, items)
    assert "swordfish" not in data["items"][0]["text"]
    assert b"swordfish" not in reachable_bytes(initialised)


def test_the_stored_quote_is_the_transcripts_own_bytes(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    transcript = tmp_path / "said.md"
    transcript.write_text("Alice: We drop the REGEX fallback; the state machine stays.\n")
    items = [
        {
            "kind": "decision",
            "text": "Drop the regex fallback",
            "trust": "verbatim",
            "quote": "we drop the “regex” fallback",  # the extractor's spelling
        }
    ]
    data = capture(gm, transcript, [{**items[0], "quote": "we drop the regex fallback"}])
    (item,) = data["items"]
    assert item["trust"] == "verbatim" and item["quote"] == "We drop the REGEX fallback"
    assert gm("verify").exit_code == 0  # the stored bytes verify against the snapshot


def test_an_item_that_reverses_its_quote_never_shows_its_text_as_said(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    """Issue 27: a text that cannot be matched to its genuine quote keeps the evidence —
    the quote itself (the transcript's bytes) is the verbatim item, the text is never
    shown — while a quote whose elision skips the negation stays unverified."""
    transcript = tmp_path / "fridays.md"
    transcript.write_text("We will not deploy on Fridays, ever.\n")
    reversed_item = {
        "kind": "decision",
        "text": "We deploy on Fridays",
        "trust": "verbatim",
        "quote": "We will not deploy on Fridays, ever.",
    }
    elided = {
        **reversed_item,
        "text": "No deploys on Fridays",
        "quote": "WE WILL… DEPLOY ON FRIDAYS, EVER.",
    }
    data = capture(gm, transcript, [reversed_item, elided])
    first, second = data["items"]
    said = "We will not deploy on Fridays, ever."
    assert first["trust"] == "verbatim" and first["text"] == first["quote"] == said
    assert second["trust"] == "inferred" and second["quote"] is None
    items = [line for line in gm("brief").stdout.splitlines() if line.startswith("- [")]
    assert len(items) == 2 and not [line for line in items if "We deploy on Fridays" in line]
    assert [line for line in items if "✓" in line] == [
        line for line in items if said in line and "No deploys" not in line
    ]
    assert first["quote_verified"] is True and second["quote_verified"] is False


def test_verify_quote_json_reports_the_matched_span(gm: Gm, tmp_path: Path) -> None:
    transcript = tmp_path / "plan.md"
    transcript.write_text("Plan:\n- migrate the schema\n- then deploy to staging\n")
    result = gm(
        "verify-quote",
        "--transcript",
        str(transcript),
        "--json",
        "Plan: - migrate the schema - then deploy to staging",
    )
    assert result.exit_code == 0, result.stderr
    data = result.json()
    assert data["verbatim"] is True  # type: ignore[index]
    assert data["span"] == "Plan:\n- migrate the schema\n- then deploy to staging"  # type: ignore[index]
