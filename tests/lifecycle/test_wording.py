"""What a verbatim item shows beside its badge: checked by every reader, each verdict
remembered by item address under the rules that reached it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import Gm
from pytest import MonkeyPatch

from gitmem.core import support
from gitmem.lifecycle import wording
from gitmem.lifecycle.wording import FILE, refused, remember_verdicts, rules

QUOTE = "we will not deploy on Fridays"
REVERSED = ("a" * 64, "We deploy on Fridays", QUOTE)
SUMMARY = ("b" * 64, "No deploys on Fridays", QUOTE)


def test_a_text_its_quote_does_not_support_is_refused(tmp_path: Path) -> None:
    got = refused(tmp_path, [REVERSED, SUMMARY, ("c" * 64, QUOTE, QUOTE)])
    assert got == {
        REVERSED[0]: (QUOTE, 'the quote says "not" but the item\'s text has no negation')
    }


def test_a_verdict_is_remembered_and_not_reached_again(
    tmp_path: Path, monkeypatch: MonkeyPatch
) -> None:
    first = refused(tmp_path, [REVERSED, SUMMARY])
    stored = json.loads((tmp_path / FILE).read_text())
    assert stored["rules"] == rules() and set(stored["verdicts"]) == {REVERSED[0], SUMMARY[0]}

    def unreachable(text: str, quote: str | None) -> tuple[str, str | None]:
        raise AssertionError("a remembered verdict was reached again")

    monkeypatch.setattr(support, "shown_text", unreachable)
    assert refused(tmp_path, [REVERSED, SUMMARY]) == first


def test_verdicts_of_other_rules_are_reached_again(tmp_path: Path) -> None:
    """A cache written by another gitmem (other core sources) is not believed."""
    claim = {"rules": "someone-else", "verdicts": {REVERSED[0]: ""}}
    (tmp_path / FILE).write_text(json.dumps(claim))
    assert REVERSED[0] in refused(tmp_path, [REVERSED])


@pytest.mark.parametrize(
    "bad",
    [b"\xff not json", b"[]", b'{"rules": 1}', b"{}", b"[" * 100_000, b'{"rules": ' + b"9" * 5000],
)
def test_an_unreadable_cache_is_read_as_empty(tmp_path: Path, bad: bytes) -> None:
    (tmp_path / FILE).write_bytes(bad)
    assert REVERSED[0] in refused(tmp_path, [REVERSED])


def test_an_unwritable_folder_still_answers(tmp_path: Path) -> None:
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("")
    assert REVERSED[0] in refused(blocked, [REVERSED])


def test_what_capture_remembers_is_shown(tmp_path: Path, monkeypatch: MonkeyPatch) -> None:
    remember_verdicts(tmp_path, {SUMMARY[0]: None})
    monkeypatch.setattr(support, "shown_text", lambda *_: (_ for _ in ()).throw(AssertionError))
    assert refused(tmp_path, [SUMMARY]) == {}


def test_the_cache_stays_bounded(tmp_path: Path, monkeypatch: MonkeyPatch) -> None:
    monkeypatch.setattr(wording, "MOST", 3)
    remember_verdicts(tmp_path, {f"{n:064x}": None for n in range(3)})
    remember_verdicts(tmp_path, {f"{n:064x}": None for n in range(3, 5)})
    kept = json.loads((tmp_path / FILE).read_text())["verdicts"]
    assert len(kept) <= 3 and f"{4:064x}" in kept


def test_a_capture_remembers_what_its_items_show(gm: Gm, initialised: Path, tmp_path: Path) -> None:
    """The next brief, at the next session's start, reaches no verdict of its own."""
    transcript = tmp_path / "t.md"
    transcript.write_text(f"User: {QUOTE}, the release freeze is on.\n")
    items = [
        {"kind": "decision", "text": "No deploys on Fridays", "trust": "verbatim", "quote": QUOTE},
        {"kind": "decision", "text": "We deploy on Fridays", "trust": "verbatim", "quote": QUOTE},
    ]
    result = gm(
        "capture", "--transcript", str(transcript), "--items", "-", "--json",
        input=json.dumps(items),
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    stored = {i["text"]: i["id"] for i in result.json()["items"]}
    # the reversed text gave way to its quote at capture: nothing to remember for it
    assert set(stored) == {"No deploys on Fridays", QUOTE}
    verdicts = json.loads((initialised / ".git" / "gitmem" / FILE).read_text())["verdicts"]
    assert verdicts == {stored["No deploys on Fridays"]: ""}
