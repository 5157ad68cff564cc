"""A merge said without a number closes the PR the session named last (issue 27, round 13;
docs/heuristic.md, "A merge said without a number"): cases of their own, not copied from
the labelled corpus."""

from __future__ import annotations

from helpers.drafts import assert_verbatim, assistant, user

from gitmem.capture.extract.heuristic import extract
from gitmem.capture.extract.heuristic.turns import MERGED_RE
from gitmem.core.items import Kind
from gitmem.core.transcript import Message

OPENED = "PR #44 is open and needs your review: https://github.com/acme/tool/pull/44"


def _session(answer: str, after: str) -> list[Message]:
    return [
        user("the exporter drops empty folders, fix it and open a PR"),
        assistant(f"Fixed: the exporter keeps empty folders now.\n\n{OPENED}"),
        user(answer),
        assistant(after),
    ]


def _loops(messages: list[Message]) -> list[str]:
    drafts = extract(messages)
    assert_verbatim(drafts, messages)
    return [d.quote for d in drafts if d.kind == Kind.OPEN_LOOP]


def test_the_users_merged_closes_the_pr_the_reply_before_opened() -> None:
    merged = _session("merged", "Merged and synced — `main` is at `36451b5`, branch deleted.")
    assert OPENED not in _loops(merged)


def test_a_merge_said_in_another_language_closes_it_too() -> None:
    merged = _session("policy is set up now", "Merge edildi. Şimdi tag'i yeni commit'e taşıyorum.")
    assert OPENED not in _loops(merged)


def test_without_the_merge_the_pr_stays_open() -> None:
    waiting = _session("thanks, I'll look tonight", "Sounds good — ping me after the review.")
    assert OPENED in _loops(waiting)


def test_merging_something_else_or_another_pr_closes_nothing_here() -> None:
    other = _session("merged main into my branch, can you rebase?", "Rebased onto `main`.")
    assert OPENED in _loops(other)
    numbered = _session("what about the other one?", "PR #45 merged. #44 still waits for you.")
    assert any("#44" in q for q in _loops(numbered))


def test_a_pr_named_after_the_merge_is_not_closed_by_it() -> None:
    messages = [
        *_session("merged", "Merged."),
        user("now bump the version"),
        assistant("Bumped to 1.1.1. PR #46 is open: https://github.com/acme/tool/pull/46"),
    ]
    assert any("#46" in q for q in _loops(messages))


def test_what_opens_as_a_merge() -> None:
    for said in ("merged", "Merged!", "PR merged.", "It's merged", "Merge edildi.", "fusionado."):
        assert MERGED_RE.match(said), said
    for said in ("merged main into my branch", "The merge failed", "merge it please"):
        assert not MERGED_RE.match(said), said
