"""Background: a pure map in a forked child while this process goes on, the same answers
as the map itself, and nothing lost or left behind when the child or the parent fails."""

from __future__ import annotations

import fcntl
import hashlib
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gitmem.store import parallel
from gitmem.store.parallel import CHUNK, MIN_FORK, Background

needs_two_cores = pytest.mark.skipif(
    not parallel._worth_forking(MIN_FORK), reason="one core or no fork here"
)


def digest(n: int) -> str:
    return hashlib.sha256(str(n).encode()).hexdigest()


@needs_two_cores
def test_the_answers_are_the_map_in_order_each_worked_out_once_by_either_process(
    tmp_path: Path,
) -> None:
    """This process goes on, then asks while the child still works: it claims the chunks
    left, the child finishes its own, and no value is worked out twice."""
    parent = os.getpid()
    calls = tmp_path / "calls"

    def slow(n: int) -> tuple[str, int]:
        time.sleep(0.0005)
        with open(calls, "a") as log:  # appends from both processes never interleave
            log.write(f"{n}\n")
        return digest(n), os.getpid()

    values = list(range(MIN_FORK * 4 + 7))  # a last chunk shorter than the others
    with Background(slow, values) as pending:
        assert pending.forked
        here = [digest(n) for n in values]  # this process goes on meanwhile
        answers = pending.result()
    assert [a for a, _ in answers] == here
    workers = {pid for _, pid in answers}
    assert parent in workers and len(workers) == 2  # both took a share
    assert sorted(int(line) for line in calls.read_text().split()) == values


@needs_two_cores
def test_a_child_that_fails_costs_only_time() -> None:
    parent = os.getpid()

    def fails_in_the_child(n: int) -> str:
        if os.getpid() != parent:
            raise RuntimeError("the child broke")
        return digest(n)

    values = list(range(MIN_FORK))
    with Background(fails_in_the_child, values) as pending:
        assert pending.forked
        assert pending.result() == [digest(n) for n in values]


@needs_two_cores
def test_leaving_early_stops_the_child_and_leaves_nothing_behind() -> None:
    with (
        pytest.raises(ValueError, match="bad value"),
        Background(digest, list(range(MIN_FORK * 20))) as pending,
    ):
        assert pending.forked
        raise ValueError("bad value")  # this process fails before asking
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)  # no child of ours is left, not even a zombie


@needs_two_cores
def test_after_a_stop_the_work_is_done_here_and_its_failure_raised() -> None:
    parent = os.getpid()

    def fails_here(n: int) -> str:
        if os.getpid() == parent and n == 100:
            raise ValueError("bad value")
        return digest(n)

    with Background(fails_here, list(range(MIN_FORK))) as pending:
        pending.stop()  # as if the child had been lost: the work is done here
        assert not pending.forked
        with pytest.raises(ValueError, match="bad value"):
            pending.result()


def test_few_values_or_other_threads_run_here_alone() -> None:
    parent = os.getpid()
    with Background(lambda _: os.getpid(), range(10)) as few:
        assert not few.forked and set(few.result()) == {parent}
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        with Background(lambda _: os.getpid(), range(MIN_FORK)) as threaded:
            assert not threaded.forked and set(threaded.result()) == {parent}
    finally:
        stop.set()
        other.join()


def test_gc_paused_keeps_collections_out_of_the_block_and_restores_the_collector() -> None:
    import gc

    collections: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(info["generation"])

    gc.callbacks.append(count)
    try:
        with parallel.gc_paused():
            assert not gc.isenabled()
            garbage = [[n] for n in range(50_000)]  # far past the youngest threshold
            del garbage
        assert collections == []
        assert gc.isenabled()
        gc.disable()  # a caller that had it off finds it off
        with parallel.gc_paused():
            pass
        assert not gc.isenabled()
        gc.enable()
        with pytest.raises(ValueError), parallel.gc_paused():
            raise ValueError("the block fails")
        assert gc.isenabled()
    finally:
        gc.callbacks.remove(count)
        gc.enable()


@needs_two_cores
def test_a_failure_in_this_process_share_stops_the_child() -> None:
    parent = os.getpid()

    def fails_here(n: int) -> str:
        if os.getpid() == parent:
            raise ValueError("bad value")
        time.sleep(0.001)
        return digest(n)

    with (
        pytest.raises(ValueError, match="bad value"),
        Background(fails_here, list(range(MIN_FORK * 4))) as pending,
    ):
        pending.result()  # this process claims a chunk at once and fails on it
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)  # the child was stopped and reaped


@needs_two_cores
def test_many_values_make_larger_chunks_and_the_same_answers() -> None:
    """Past what the pipe's one write holds in numbers, chunks hold more values each (and
    a last, shorter one); the answers are still the map's, in order."""
    values = list(range(parallel._MAX_CHUNKS * CHUNK * 2 + 1))
    with Background(str, values) as pending:
        assert pending.forked
        assert pending._size == CHUNK * 2 + 1
        assert pending.result() == [str(n) for n in values]


@needs_two_cores
def test_chunks_a_child_claimed_and_took_with_it_are_worked_out_here() -> None:
    """The child finishes four chunks, claims a fifth and dies in it: none of its answers
    reach this process, which works out every chunk itself, those the child claimed too."""
    parent = os.getpid()

    def dies_in_the_fifth_chunk(n: int) -> tuple[str, int]:
        if os.getpid() != parent and n == CHUNK * 4 + 1:
            os._exit(3)
        return digest(n), os.getpid()

    values = list(range(CHUNK * 40))
    with Background(dies_in_the_fifth_chunk, values) as pending:
        assert pending.forked
        time.sleep(0.2)  # let the child claim its chunks and die
        answers = pending.result()
    assert [a for a, _ in answers] == [digest(n) for n in values]
    assert {pid for _, pid in answers} == {parent}


@needs_two_cores
def test_pipelined_finishes_each_batch_in_order_while_the_next_is_made() -> None:
    """Each batch's map is the map of its jobs, whoever worked it out; the next batch is
    made before the one before is finished, and only one child runs at a time."""
    events: list[str] = []

    def batches() -> Iterator[list[int]]:
        for start in range(0, MIN_FORK * 6, MIN_FORK * 2):
            events.append(f"made {start}")
            yield list(range(start, start + MIN_FORK * 2))

    finished: list[list[str]] = []

    def done(batch: list[int], answers: list[str]) -> None:
        events.append(f"done {batch[0]}")
        assert answers == [digest(n) for n in batch]
        finished.append(answers)

    parallel.pipelined(batches(), lambda batch: batch, digest, done)
    assert len(finished) == 3
    step = MIN_FORK * 2
    assert events == [
        "made 0",
        f"made {step}",
        "done 0",
        f"made {2 * step}",
        f"done {step}",
        f"done {2 * step}",
    ]
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)  # every child was reaped


@needs_two_cores
def test_pipelined_stops_the_running_child_when_making_a_batch_fails() -> None:
    def batches() -> Iterator[list[int]]:
        yield list(range(MIN_FORK * 20))
        raise ValueError("cannot read the next batch")

    with pytest.raises(ValueError, match="cannot read"):
        parallel.pipelined(batches(), lambda batch: batch, digest, lambda b, a: None)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)  # the child was stopped and reaped


def test_pipelined_without_batches_calls_nothing() -> None:
    calls: list[object] = []
    parallel.pipelined(iter(()), calls.append, calls.append, lambda b, a: calls.append(b))
    assert calls == []


@needs_two_cores
def test_one_helper_serves_every_batch_and_takes_a_share_of_each(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fork per map copies every page either process writes, at each fork: pipelined
    forks one helper, sends it the front of each batch, and works out the rest here."""
    parent = os.getpid()
    forks: list[int] = []
    real_fork = os.fork
    monkeypatch.setattr(os, "fork", lambda: forks.append(1) or real_fork())
    batches = [
        list(range(start, start + MIN_FORK * 2)) for start in range(0, MIN_FORK * 8, MIN_FORK * 2)
    ]
    workers: list[set[int]] = []

    def done(batch: list[int], answers: list[tuple[str, int]]) -> None:
        assert [a for a, _ in answers] == [digest(n) for n in batch]
        workers.append({pid for _, pid in answers})

    parallel.pipelined(batches, lambda b: b, lambda n: (digest(n), os.getpid()), done)
    assert len(forks) == 1 and len(workers) == 4
    assert all(parent in pids and len(pids) == 2 for pids in workers)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


@needs_two_cores
def test_a_helper_that_fails_costs_only_time() -> None:
    """The helper fails on its first share: that share is worked out here, and so is
    every batch after it."""
    parent = os.getpid()

    def fails_in_the_helper(n: int) -> tuple[str, int]:
        if os.getpid() != parent:
            raise RuntimeError("the helper broke")
        return digest(n), os.getpid()

    finished: list[list[tuple[str, int]]] = []
    batches = [list(range(start, start + MIN_FORK * 2)) for start in (0, MIN_FORK * 2)]
    parallel.pipelined(batches, lambda b: b, fails_in_the_helper, lambda b, a: finished.append(a))
    assert [[a for a, _ in answers] for answers in finished] == [
        [digest(n) for n in batch] for batch in batches
    ]
    assert {pid for answers in finished for _, pid in answers} == {parent}
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


def test_a_share_follows_the_costs_on_each_side() -> None:
    # the helper took half at twice this process's cost a value, beside no other work
    assert parallel._share(0.5, 100, 200, 2.0, 1.0, 0.0, 200) == pytest.approx(1 / 3)
    # work beside its share (reading the next batch) leaves this process less of it
    assert parallel._share(0.5, 100, 200, 1.0, 1.0, 1.0, 100) == pytest.approx(0.95)
    assert parallel._share(0.5, 100, 200, 1.0, 1.0, 0.5, 100) == pytest.approx(0.75)
    assert parallel._share(0.4, 0, 200, 0.0, 1.0, 0.0, 100) == 0.4  # nothing learnt


def _pipes_widen() -> bool:
    limit = Path("/proc/sys/fs/pipe-max-size")
    return (
        hasattr(fcntl, "F_SETPIPE_SZ")
        and limit.is_file()
        and int(limit.read_text()) >= parallel.PIPE_BYTES
    )


@pytest.mark.skipif(not _pipes_widen(), reason="pipes cannot be widened to 1 MiB here")
def test_a_helpers_pipe_takes_a_whole_share_without_waiting_for_its_reader() -> None:
    """A share of records pickled is ~100 KB: a 64 KiB pipe would hold its writer until
    the other process is scheduled to drain it."""
    read, write = os.pipe()
    try:
        parallel._widen(write)
        os.set_blocking(write, False)
        share = b"x" * (parallel.PIPE_BYTES // 2)
        assert os.write(write, share) == len(share)  # a narrow pipe takes 64 KiB, then refuses
    finally:
        os.close(read)
        os.close(write)
