"""What the heuristic keeps of what it found (gitmem.capture.extract.heuristic.select):
each (kind, text) once, the latest, then the cap; weighed as the candidates come, so a
transcript that marks a million things is read in bounded memory."""

from __future__ import annotations

import sys
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitmem.capture.extract.heuristic import extract
from gitmem.capture.extract.heuristic.select import Candidate, claim_key, select
from gitmem.core.items import Draft, Kind
from gitmem.core.transcript import Message


def all_held(items: list[Candidate], max_items: int) -> list[Draft]:
    """The rule with every candidate held at once (as select kept them before)."""
    found: dict[tuple[str, str], Candidate] = {}
    for item in items:
        key = claim_key(item)
        earlier = found.get(key)
        if earlier is not None and earlier.by_user and not item.by_user:
            item = replace(item, by_user=True)
        found[key] = item
    ranked = sorted(found.values(), key=lambda f: (f.importance, f.by_user, f.position))
    kept = ranked[max(0, len(ranked) - max_items) :] if max_items else []
    return [f.draft() for f in sorted(kept, key=lambda f: f.position)]


def candidate(n: int, said: int, by_user: bool) -> Candidate:
    """Statement *said* (its importance follows from what it says) at position *n*."""
    kind = (Kind.DECISION, Kind.OPEN_LOOP)[said % 2]
    text = f"We keep module {said}"
    return Candidate(kind, text, text, said % 3, {}, (n, 0, 0), by_user)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.lists(st.tuples(st.integers(0, 60), st.booleans()), max_size=400), st.integers(0, 5))
def test_weighing_as_they_come_keeps_what_holding_everything_keeps(
    said: list[tuple[int, bool]], max_items: int
) -> None:
    items = [candidate(n, s, user) for n, (s, user) in enumerate(said)]
    with pytest.MonkeyPatch.context() as patch:
        # Few held, so that many are let go and weighed again.
        module = sys.modules["gitmem.capture.extract.heuristic.select"]
        patch.setattr(module, "HELD", 1)
        patch.setattr(module, "MIN_HELD", 4)
        assert select(items, max_items) == all_held(items, max_items)


def test_many_candidates_are_weighed_in_bounded_memory() -> None:
    import tracemalloc

    items = (candidate(n, n, n % 7 == 0) for n in range(20_000))
    tracemalloc.start()
    try:
        kept = select(items, 40)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(kept) == 40
    assert peak < 2 << 20  # holding all 20,000 takes about 11 MB


@pytest.mark.parametrize("count", [1, 7, 21, 30, 39, 40])
def test_fewer_candidates_than_the_cap_are_all_kept(count: int) -> None:
    # A cap above the number held keeps them all (it once kept only cap - count of them).
    items = [candidate(n, n, False) for n in range(count)]
    assert len(select(items, 40)) == count


# --- one item a PR or issue ----------------------------------------------------------------


def forge(n: int, kind: Kind, text: str, rule: str = "forge") -> Candidate:
    return Candidate(kind, text, text, 2, {}, (n, 0, 0), False, rule)


def test_a_pr_said_again_is_one_item_its_latest_state_whatever_its_kind() -> None:
    opened = forge(0, Kind.OPEN_LOOP, "Draft PR #12: https://github.com/acme/tool/pull/12")
    pushed = forge(1, Kind.OPEN_LOOP, "Pushed the fix; PR #12 head now points at it.")
    other = forge(2, Kind.OPEN_LOOP, "PR #13 still waits for review.")
    merged = forge(3, Kind.FACT, "PR #12 is merged.")
    kept = select([opened, pushed, other, merged], 10)
    assert [d.quote for d in kept] == [other.quote, merged.quote]


def test_prs_are_one_claim_only_when_they_name_the_same_numbers() -> None:
    both = forge(0, Kind.OPEN_LOOP, "Review PR #12 and PR #13 before the release.")
    one = forge(1, Kind.FACT, "PR #12 is merged.")
    url = forge(2, Kind.OPEN_LOOP, "See https://github.com/acme/tool/issues/12 for the log.")
    assert len(select([both, one], 10)) == 2
    assert [d.quote for d in select([one, url], 10)] == [url.quote]  # #12, a link or not


def test_other_rules_naming_a_pr_keep_their_own_text_as_the_claim() -> None:
    # A decision that names a PR is about what it decides, not the PR's state.
    first = forge(0, Kind.DECISION, "Decision: merge PR #12 before the cut.", "label-decision")
    later = forge(1, Kind.FACT, "PR #12 is merged.")
    assert len(select([first, later], 10)) == 2
    assert claim_key(first) == (Kind.DECISION, "decision: merge pr #12 before the cut.")


def test_an_open_loop_naming_a_pr_is_that_prs_state_whichever_rule_found_it() -> None:
    # "PR #12 still fails on CI" is found by a phrase, "PR #12 is merged" by the forge rule:
    # both state what is left of PR #12, so the later one stands for it, as between two
    # forge items (a phrase-marked loop kept apart let a stale mention of the PR through).
    failing = forge(0, Kind.OPEN_LOOP, "PR #12 still fails on CI.", "phrase-open_loop")
    merged = forge(1, Kind.FACT, "PR #12 is merged.")
    assert [d.quote for d in select([failing, merged], 10)] == [merged.quote]
    waiting = forge(2, Kind.OPEN_LOOP, "PR #12 waits for the last CI run.", "phrase-open_loop")
    assert [d.quote for d in select([merged, waiting], 10)] == [waiting.quote]
    assert claim_key(failing) == claim_key(merged) == ("forge", "#12")


def test_a_session_that_opens_a_pr_and_reports_it_merged_keeps_only_the_merge() -> None:
    messages = [
        Message("user", "Open a PR for the tokenizer fix."),
        Message("assistant", "Draft PR #41: https://github.com/acme/tool/pull/41"),
        Message("user", "CI is green, merge it."),
        Message("assistant", "PR #41 was merged this morning."),
    ]
    quotes = [d.quote or "" for d in extract(messages)]
    assert [q for q in quotes if "#41" in q] == ["PR #41 was merged this morning."]
