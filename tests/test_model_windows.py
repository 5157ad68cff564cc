"""The long-session benchmark's stand-in reads gitmem's real prompt: the window's messages
and the items the earlier windows gave, and lists a claim again only when it ignores them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import benchmark

from gitmem.capture.extract.prompt import build_prompt
from gitmem.core.transcript import Message

benchmark("extract_quality")  # model_windows imports it by that name, as a script does
MW = benchmark("model_windows")

LABELS = [
    {"kind": "decision", "text": "Keep requests", "quote": "We keep requests for the HTTP client."},
    {"kind": "fact", "text": "Retry limit", "quote": "The retry limit is 3 for every call."},
]
WINDOW = [
    Message("user", "Recap: the HTTP client stays on requests, we keep requests for it."),
    Message("assistant", "Noted. The retry limit is 3 for every call."),
]


def answer(tmp_path: Path, model: str, listed: list[tuple[str, str]]) -> list[dict[str, str]]:
    script = MW.stand_in(tmp_path / "bin")
    (tmp_path / "labels.json").write_text(json.dumps(LABELS), encoding="utf-8")
    env = {
        **os.environ,
        "WINDOWS_LABELS": str(tmp_path / "labels.json"),
        "WINDOWS_CALLS": str(tmp_path / "calls.jsonl"),
        "WINDOWS_MODEL": model,
    }
    prompt = build_prompt(WINDOW, part=(2, 2), listed=listed)
    done = subprocess.run(
        [sys.executable, str(script), "-p", "--output-format", "json"],
        input=prompt,
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    items: list[dict[str, str]] = json.loads(done.stdout)["structured_output"]["items"]
    return items


@pytest.mark.parametrize("model", MW.MODELS)
def test_a_window_lists_what_it_says_and_restates(tmp_path: Path, model: str) -> None:
    items = answer(tmp_path, model, [])
    # the fact's own quote, and the decision restated in the window's words
    assert [(i["kind"], i["quote"]) for i in items] == [
        ("fact", "The retry limit is 3 for every call."),
        ("decision", "Recap: the HTTP client stays on requests, we keep requests for it."),
    ]


def test_only_a_model_that_ignores_the_list_gives_a_listed_claim_again(tmp_path: Path) -> None:
    listed = [("decision", "Keep requests")]
    assert len(answer(tmp_path, "repeats", listed)) == 2
    assert [i["kind"] for i in answer(tmp_path, "follows", listed)] == ["fact"]


def test_only_the_dev_split_is_listed_item_by_item(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        MW.main(["--split", "test", "-v"])
    assert raised.value.code == 2
    assert "only the dev split" in capsys.readouterr().err
