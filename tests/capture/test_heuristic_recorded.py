"""A sentence that only records the commit or push ("Committed and pushed.", "コミット完了し
ました。") or gives its diffstat ("10 files changed, +233 / -408") is routine status
(status.RECORDED_RE): no report unit of its own; the report's statement starts after it. So,
from round 19, is one that names the commit and nothing it holds ("Committed as `34984dd`.",
status.bookkeeping, tests/capture/test_heuristic_bookkeeping.py); a sentence that says what the
commit holds is a reference ("Committed as 3f9c2ab with the depth guard.": a fact whose commit
can be checked, tests/capture/test_heuristic_rules.py)."""

from __future__ import annotations

import pytest
from helpers.drafts import assistant, user

from gitmem.capture.extract.heuristic import explain
from gitmem.capture.extract.heuristic.status import RECORDED_RE


@pytest.mark.parametrize(
    "sentence",
    [
        "Committed and pushed.",
        "All changes committed.",
        "Pushed to the remote.",
        "コミット完了しました。",
        "プッシュが完了しました。",
        "10 files changed, +233 / -408 (net -175 lines)",
        "3 files changed, 40 insertions(+), 12 deletions(-)",
    ],
)
def test_a_record_of_the_commit_is_recognised(sentence: str) -> None:
    assert RECORDED_RE.match(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Committed the fix that drops the retry wrapper.",
        "Committed as `34984dd`.",  # not RECORDED_RE: status.bookkeeping (round 19)
        "Pushed to `release/2.1` so the tag build can pick it up.",
        "Pushed back on the cache idea: it hides stale reads.",
        "The commit changed how files are hashed.",
        "インデックスを追加しました。",
    ],
)
def test_a_statement_about_the_work_is_no_record(sentence: str) -> None:
    assert not RECORDED_RE.match(sentence)


@pytest.mark.parametrize(
    ("record", "outcome"),
    [
        ("コミット完了しました。", "リトライ回数を3回に減らしました。"),
        ("10 files changed, +233 / -408 (net -175 lines)", "The retry loop now waits 2 seconds."),
        ("Committed and pushed.", "The retry loop now waits 2 seconds."),
    ],
)
def test_a_report_gives_no_item_for_the_record(record: str, outcome: str) -> None:
    reply = f"{record}\n\n{outcome}"
    found = [d.quote or "" for d, _ in explain([user("Fix the retry loop."), assistant(reply)])]
    assert not any(record in q for q in found)
    assert outcome in found
