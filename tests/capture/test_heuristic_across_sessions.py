"""Across sessions: an offer waiting on the user's answer lapses when another session
comes (issue 27; docs/heuristic.md, "Across sessions"; gitmem/core/offers.py).
Cases of their own, not copied from the labelled corpus."""

from __future__ import annotations

from datetime import timedelta

import pytest
from helpers.record_values import T0, at, checkpoint, event, item, snapshot

from gitmem.core.offers import LAPSED, another_session, waiting_offer
from gitmem.core.records import EVENT_REOPEN
from gitmem.lifecycle.carry import CarryPolicy, plan
from gitmem.lifecycle.replay import replay

OFFERS = [
    "Local `main` is 3 commits ahead of `origin/main`. Want me to push?",
    "Would you like me to open the pull request now?",
    "The importer is done. Shall I write the migration next?",
    "Does this outline look right before I write the parser section?",
    "Cut the release next, or fix the flaky test first?",
    "Not merged yet — let me know if you want it squashed first.",
    "The two scratch files are untracked; say the word if you'd like them deleted.",
    "**Do you want me to keep the old flag as an alias?**",
    "Listo. ¿Quieres que lo suba a `main`?",
    "Quer que eu faça o commit agora?",
    "Voulez-vous que je crée la PR ?",
    "Die Tests laufen durch. Soll ich pushen?",
    "Vuoi che faccia il merge?",
    "Хотите, чтобы я закоммитил изменения?",
    "测试都通过了。要我提交这些更改吗？",
    "修正しました。プッシュしましょうか？",
    "변경 사항을 푸시할까요?",
]
NOT_OFFERS = [
    "Scrolling back in the terminal pane still does not work (the outer page eats it)?",
    "Should we use Postgres or SQLite for the event store?",
    "The nightly job still fails on arm64.",
    "Why does the cache miss on the second run?",
    "Next: wire the exporter into the CLI.",
    "Want me to push? Also: the arm64 build still fails and nobody has looked at it.",
    "Sollen wir Postgres verwenden?",
    "为什么第二次运行时缓存会失效？",
    "テストはまだ失敗していますか？",
    "PR #234 CI 완료 대기 중.",
    "Should the parser live in `src/parser.py`?",
]


@pytest.mark.parametrize("words", OFFERS)
def test_an_offer_or_a_request_for_a_go_ahead_is_an_offer(words: str) -> None:
    assert waiting_offer("open_loop", words)
    assert waiting_offer("uncertainty", words)


@pytest.mark.parametrize("words", NOT_OFFERS)
def test_an_open_problem_a_design_question_or_a_next_step_is_not(words: str) -> None:
    assert not waiting_offer("open_loop", words)


def test_only_an_open_loop_or_an_uncertainty_is_an_offer() -> None:
    for kind in ("decision", "fact", "belief"):
        assert not waiting_offer(kind, OFFERS[0])


def test_a_side_run_or_another_capture_of_the_session_is_not_another_session() -> None:
    assert not another_session("s1", "s1")
    assert not another_session("s1/agent-a12", "s1")
    assert not another_session("s1", "s1/agent-acompact-9f")
    assert not another_session("s1/agent-a12", "s1/agent-b34")
    assert another_session("s2", "s1")
    assert another_session("s2/agent-a12", "s1")


OFFER = item(OFFERS[0], kind="open_loop", quote=OFFERS[0])
PROBLEM = item(NOT_OFFERS[0], kind="open_loop", quote=NOT_OFFERS[0])


def test_the_next_session_ages_the_offer_out_with_its_reason_and_keeps_the_rest() -> None:
    state = replay([checkpoint(OFFER, PROBLEM, created=at(0))])
    result = plan(state, [], "s2", snapshot("s2"), T0 + timedelta(hours=2))
    assert [(aged.id, why) for aged, why in result.aged_out] == [(OFFER.id, LAPSED)]
    assert result.carried == (PROBLEM.address,)  # an open problem stays


def test_the_same_session_captured_again_or_its_side_run_keeps_the_offer() -> None:
    state = replay([checkpoint(OFFER, created=at(0))])
    for session in ("s1", "s1/agent-acompact-77"):
        result = plan(state, [], session, snapshot(session + "x"), T0 + timedelta(hours=1))
        assert result.aged_out == () and result.carried == (OFFER.address,), session


def test_an_offer_the_next_session_makes_again_stays() -> None:
    state = replay([checkpoint(OFFER, created=at(0))])
    again = item(OFFER.text, kind="open_loop", session="s2", quote=OFFERS[0])
    result = plan(state, [again], "s2", snapshot("s2"), T0 + timedelta(hours=2))
    assert result.aged_out == ()


def test_an_offer_someone_reopened_is_not_aged_again() -> None:
    state = replay(
        [
            checkpoint(OFFER, created=at(0)),
            event(EVENT_REOPEN, OFFER.id, created=at(0, minutes=30)),
        ]
    )
    result = plan(state, [], "s2", snapshot("s2"), T0 + timedelta(hours=2))
    assert result.aged_out == () and result.carried == (OFFER.address,)


def test_a_backfilled_older_session_ages_nothing() -> None:
    state = replay([checkpoint(OFFER, created=at(1))])
    result = plan(state, [], "s0", snapshot("s0"), T0)
    assert result.aged_out == ()


def test_past_the_cap_a_fact_gives_way_before_an_older_decision_or_loop() -> None:
    rule = item("Keep retries at three", quote="keep retries at three")
    loop = item("The arm64 build still fails", kind="open_loop", session="s2")
    fact = item("The suite has 412 tests", kind="fact", session="s3")
    state = replay(
        [
            checkpoint(rule, created=at(0)),
            checkpoint(loop, session="s2", created=at(1)),
            checkpoint(fact, session="s3", created=at(2)),
        ]
    )
    result = plan(
        state, [], "s4", snapshot("s4"), T0 + timedelta(days=3), CarryPolicy(max_carried=2)
    )
    assert set(result.carried) == {rule.id, loop.id}  # the newest item is the fact
    ((dropped, reason),) = result.aged_out
    assert dropped.id == fact.id and "facts before decisions and open loops" in reason


def test_past_the_cap_importance_still_comes_first_and_recency_breaks_ties() -> None:
    key_fact = item("The API key lives in the vault", kind="fact", importance=3)
    old_rule = item("Keep the parser in one file", session="s2")
    new_rule = item("Name branches after the issue", session="s3")
    state = replay(
        [
            checkpoint(key_fact, created=at(0)),
            checkpoint(old_rule, session="s2", created=at(1)),
            checkpoint(new_rule, session="s3", created=at(2)),
        ]
    )
    result = plan(
        state, [], "s4", snapshot("s4"), T0 + timedelta(days=3), CarryPolicy(max_carried=2)
    )
    assert set(result.carried) == {key_fact.id, new_rule.id}
    assert [s.id for s, _ in result.aged_out] == [old_rule.id]
