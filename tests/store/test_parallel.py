"""map_split: half of a pure map in a forked child, the same answers as the map itself,
and nothing lost or left behind when the child or the parent fails."""

from __future__ import annotations

import hashlib
import os
import threading

import pytest

from gitmem.store import parallel
from gitmem.store.parallel import MIN_SPLIT, map_split

needs_two_cores = pytest.mark.skipif(
    not parallel._worth_splitting(MIN_SPLIT), reason="one core or no fork here"
)


def digest(n: int) -> str:
    return hashlib.sha256(str(n).encode()).hexdigest()


@needs_two_cores
def test_the_answers_are_the_map_in_order_and_half_come_from_a_child() -> None:
    parent = os.getpid()
    values = list(range(MIN_SPLIT + 7))  # odd: the parent takes the extra one
    answers = map_split(lambda n: (digest(n), os.getpid()), values)
    assert [a for a, _ in answers] == [digest(n) for n in values]
    workers = {pid for _, pid in answers}
    assert parent in workers and len(workers) == 2  # a child did the odd places
    assert [pid == parent for _, pid in answers[:4]] == [True, False, True, False]


@needs_two_cores
def test_a_child_that_fails_costs_only_time() -> None:
    parent = os.getpid()

    def fails_in_the_child(n: int) -> str:
        if os.getpid() != parent:
            raise RuntimeError("the child broke")
        return digest(n)

    values = list(range(MIN_SPLIT))
    assert map_split(fails_in_the_child, values) == [digest(n) for n in values]


@needs_two_cores
def test_a_failure_here_is_raised_and_leaves_no_child_behind() -> None:
    parent = os.getpid()

    def fails_here(n: int) -> str:
        if os.getpid() == parent and n == 100:
            raise ValueError("bad value")
        return digest(n)

    with pytest.raises(ValueError, match="bad value"):
        map_split(fails_here, list(range(MIN_SPLIT)))
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)  # no child of ours is left, not even a zombie


def test_few_values_or_other_threads_run_here_alone() -> None:
    parent = os.getpid()
    assert {pid for pid in map_split(lambda _: os.getpid(), range(10))} == {parent}
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert set(map_split(lambda _: os.getpid(), range(MIN_SPLIT))) == {parent}
    finally:
        stop.set()
        other.join()
