"""Age and branch on every brief line (issue 13.6): the age is the session's, other
branches' items are marked and ranked after, items of branches deleted unmerged are
hidden after the configured days with a notice."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from helpers import Gm, commit, git
from helpers.capturing import capture, session_file

from gitmem.brief.placement import age_label

NOW = datetime.now(UTC)


@pytest.mark.parametrize(
    ("seconds", "label"),
    [
        (0, "now"),
        (59, "now"),
        (60, "1 min"),
        (3599, "59 min"),
        (3600, "1 h"),
        (47 * 3600, "47 h"),
        (2 * 86400, "2 d"),
        (3 * 86400 + 5, "3 d"),
        (400 * 86400, "400 d"),
    ],
)
def test_age_labels(seconds: int, label: str) -> None:
    assert age_label(seconds) == label


def open_loop(gm: Gm, path: Path, text: str) -> str:
    data = capture(gm, path, [{"kind": "open_loop", "text": text, "trust": "inferred"}])
    return str(data["items"][0]["id"])


def brief(gm: Gm) -> tuple[str, dict[str, Any]]:
    text = gm("brief").stdout
    data = json.loads(gm("brief", "--format", "json").stdout)
    return text, data


def line_of(text: str, ident: str) -> str:
    return next(line for line in text.splitlines() if ident[:8] in line)


def test_every_line_shows_its_sessions_age(initialised: Path, gm: Gm, tmp_path: Path) -> None:
    old = open_loop(
        gm,
        session_file(tmp_path, "old", [("user", "hi")], NOW - timedelta(days=3, hours=1)),
        "Port A",
    )
    new = open_loop(
        gm,
        session_file(tmp_path, "new", [("user", "hi")], NOW - timedelta(hours=5, minutes=2)),
        "Port B",
    )
    text, data = brief(gm)
    assert line_of(text, old).endswith(f"({old[:8]}, 3 d)")
    assert line_of(text, new).endswith(f"({new[:8]}, 5 h)")
    ages = {i["id"]: i["age"] for i in data["items"]}
    assert ages == {old: "3 d", new: "5 h"}


def test_another_branchs_items_are_marked_and_ranked_after(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    main = git(initialised, "rev-parse", "--abbrev-ref", "HEAD").strip()
    git(initialised, "checkout", "-q", "-b", "feature/x")
    commit(initialised, "add x.txt", "x.txt", "x.txt")
    side = open_loop(
        gm,
        session_file(tmp_path, "side", [("user", "hi")], NOW - timedelta(minutes=5)),
        "Wire the flag",
    )
    git(initialised, "checkout", "-q", main)
    here = open_loop(
        gm,
        session_file(tmp_path, "here", [("user", "hi")], NOW - timedelta(hours=2)),
        "Fix the docs",
    )
    text, data = brief(gm)
    assert "[on feature/x]" in line_of(text, side)
    assert "[on " not in line_of(text, here)
    order = [i["id"] for i in data["items"]]
    assert order.index(here) < order.index(side)  # older, but on the current branch
    assert {i["id"]: i["branch"] for i in data["items"]} == {side: "feature/x", here: None}
    # On the branch itself the item is at home.
    git(initialised, "checkout", "-q", "feature/x")
    assert "[on " not in line_of(brief(gm)[0], side)
    # Merged, it is on the current branch's line.
    git(initialised, "checkout", "-q", main)
    git(initialised, "merge", "-q", "--no-ff", "-m", "merge", "feature/x")
    assert "[on " not in line_of(brief(gm)[0], side)


def test_a_branch_deleted_unmerged_ages_out_with_a_notice(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    main = git(initialised, "rev-parse", "--abbrev-ref", "HEAD").strip()
    git(initialised, "checkout", "-q", "-b", "spike")
    commit(initialised, "add spike.txt", "spike.txt", "spike.txt")
    gone = open_loop(
        gm,
        session_file(tmp_path, "a", [("user", "hi")], NOW - timedelta(days=20)),
        "Try the old cache",
    )
    young = open_loop(
        gm,
        session_file(tmp_path, "b", [("user", "hi")], NOW - timedelta(days=2)),
        "Try the new cache",
    )
    git(initialised, "checkout", "-q", main)
    git(initialised, "branch", "-q", "-D", "spike")
    text, data = brief(gm)
    shown = {i["id"] for i in data["items"]}
    assert gone not in shown and young in shown
    assert "[on spike, deleted]" in line_of(text, young)
    assert "1 item(s) captured on branches deleted without being merged are hidden" in text
    assert "spike (1)" in text and "older than 14 d" in text
    assert any(w["code"] == "unmerged-branch" for w in data["warnings"])
    # Never silently: show still has it, and a longer limit brings it back.
    assert gm("show", gone[:8]).exit_code == 0
    assert gm("config", "unmerged_branch_days", "30").exit_code == 0
    assert gone in {i["id"] for i in brief(gm)[1]["items"]}
