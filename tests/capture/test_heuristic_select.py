"""What the heuristic keeps of what it found (gitmem.capture.extract.heuristic.select):
each (kind, text) once, the latest, then the cap; weighed as the candidates come, so a
transcript that marks a million things is read in bounded memory."""

from __future__ import annotations

import sys
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitmem.capture.extract.heuristic.select import Candidate, select
from gitmem.core.items import Draft, Kind
from gitmem.core.quotes import fold


def all_held(items: list[Candidate], max_items: int) -> list[Draft]:
    """The rule with every candidate held at once (as select kept them before)."""
    found: dict[tuple[str, str], Candidate] = {}
    for item in items:
        key = (item.kind, fold(item.text))
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
