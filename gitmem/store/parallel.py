"""A pure map worked out by a forked child while this process goes on with other work.

The first brief after a clone (a rebuild of the index) checks every record of
history: an Ed25519 signature, a canonical-JSON decode and a trust lookup each, ~130 µs
of Python a record. :class:`Background` forks a child for ``[func(v) for v in values]``
so that this process can meanwhile do what does not wait for the answers (the rebuild
checks the item blobs and replays the records it expects to hold). The child inherits
the values and the function (nothing is sent to it) and sends back only the pickled
answers through a pipe; it never touches a file, a database or git, and ends with
``os._exit``.

The values are split into chunks, and each chunk is claimed by reading its number from a
pipe filled before the fork: the child claims them one after another, and this process,
once it asks for the answers, claims and works out the ones left. So neither waits idle
for the other, however the work divides, and each chunk is worked out once.

No child, and the same answers worked out here when :meth:`Background.result` is asked:
one core, few values, a platform without ``fork``, or other threads running (forking a
threaded process can deadlock the child). A child that fails in any way costs only
time: its work is done here.

:func:`pipelined` runs such maps one batch after another, each batch's child working
while this process reads the next batch and finishes the one before: what only this
process can do (read git, keep what was found) overlaps the child's share.

:func:`gc_paused` keeps the cyclic garbage collector out of such work meanwhile.
"""

from __future__ import annotations

import gc
import os
import struct
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from types import TracebackType
from typing import IO, Any, Generic, TypeVar

__all__ = ["MIN_FORK", "Background", "gc_paused", "pipelined"]

B = TypeVar("B")
T = TypeVar("T")
R = TypeVar("R")

MIN_FORK = 500
"""Below this many values a fork (a few ms) is not worth it."""

CHUNK = 32
"""Values a chunk holds at least (~5 ms of record checks): what this process may wait for
the child's last chunk."""

_MAX_CHUNKS = 1024
"""All the chunks' numbers (4 bytes each) go into the pipe in one write before the fork:
at most 4 KiB, what every platform's pipe takes at once (``PIPE_BUF``) with no reader."""

_TOKEN = struct.Struct("<I")


class Background(Generic[T, R]):
    """``[func(v) for v in values]``, in a forked child when that is worth it. *func*
    must be pure (its effects in the child are lost) and its results picklable. Use it
    as a context manager: leaving the block without :meth:`result` stops the child."""

    def __init__(self, func: Callable[[T], R], values: Sequence[T]) -> None:
        self._func, self._values = func, values
        self._size = max(CHUNK, -(-len(values) // _MAX_CHUNKS))
        self._pid: int | None = None
        self._pipe: IO[bytes] | None = None
        self._tokens: int | None = None  # the pipe the chunks' numbers are claimed from
        if _worth_forking(len(values)):
            self._fork()

    @property
    def forked(self) -> bool:
        """Whether a child is working on the answers (else :meth:`result` does the work)."""
        return self._pid is not None

    def result(self) -> list[R]:
        """The answers, in the order of the values: the chunks the child has not claimed
        yet are worked out here meanwhile, the rest are the child's once it is done (or
        worked out here too, when it failed). Raises what *func* raises (here; a child's
        failure never is)."""
        if self._pid is None or self._pipe is None or self._tokens is None:
            return self._here()
        mine = self._claimed(self._tokens)  # a failure here stops the child on the way out
        pid, pipe, tokens = self._pid, self._pipe, self._tokens
        self._pid = self._pipe = self._tokens = None
        os.close(tokens)
        try:
            with pipe:
                payload = pipe.read()
        finally:
            _, status = os.waitpid(pid, 0)
        theirs = _answers(payload, status)
        answers: list[R] = []
        for chunk in range(self._chunks()):
            done = mine.get(chunk)
            if done is None:
                done = theirs.get(chunk)
            if not isinstance(done, list) or len(done) != len(self._chunk(chunk)):
                done = self._work(chunk)  # the child's, lost with it
            answers += done
        return answers

    def stop(self) -> None:
        """Stop the child, if one works, and reap it (never leave it blocked on a pipe
        nobody reads, nor a zombie). Raises nothing."""
        if self._pid is None or self._pipe is None:
            return
        import signal

        pid, pipe, tokens = self._pid, self._pipe, self._tokens
        self._pid = self._pipe = self._tokens = None
        os.kill(pid, signal.SIGKILL)  # ours and not yet reaped: it exists
        pipe.close()
        if tokens is not None:
            os.close(tokens)
        os.waitpid(pid, 0)

    def __enter__(self) -> Background[T, R]:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    def _here(self) -> list[R]:
        return [self._func(v) for v in self._values]

    def _chunks(self) -> int:
        return -(-len(self._values) // self._size)

    def _chunk(self, chunk: int) -> Sequence[T]:
        start = chunk * self._size
        return self._values[start : start + self._size]

    def _work(self, chunk: int) -> list[R]:
        return [self._func(v) for v in self._chunk(chunk)]

    def _claimed(self, tokens: int) -> dict[int, list[R]]:
        """Every chunk not claimed yet, claimed from *tokens* and worked out, by number
        (the pipe holds only whole numbers, read whole by one process each)."""
        done: dict[int, list[R]] = {}
        while len(token := os.read(tokens, _TOKEN.size)) == _TOKEN.size:
            (chunk,) = _TOKEN.unpack(token)
            done[chunk] = self._work(chunk)
        return done  # a chunk neither process claimed is worked out by result()

    def _fork(self) -> None:
        import pickle  # not on the path of a warm brief, which never forks

        tokens, fill = os.pipe()
        os.write(fill, b"".join(_TOKEN.pack(k) for k in range(self._chunks())))
        os.close(fill)  # claims read the numbers, then the end of the pipe: nothing blocks
        read, write = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            for fd in (tokens, read, write):
                os.close(fd)
            return
        if pid == 0:  # the child: the chunks it claims, pickled into the pipe, then gone
            status = 1
            try:
                os.close(read)
                payload = pickle.dumps(self._claimed(tokens), pickle.HIGHEST_PROTOCOL)
                with os.fdopen(write, "wb") as out:
                    out.write(payload)
                status = 0
            finally:
                os._exit(status)
        os.close(write)
        self._pid, self._pipe, self._tokens = pid, os.fdopen(read, "rb"), tokens


def pipelined(
    batches: Iterable[B],
    jobs: Callable[[B], Sequence[T]],
    func: Callable[[T], R],
    done: Callable[[B, list[R]], None],
) -> None:
    """``done(batch, [func(v) for v in jobs(batch)])`` for each of *batches*, in their
    order, each map a :class:`Background`: while its child works, this process makes the
    next batch (the iteration of *batches*), then takes its share of the map, then
    starts the next batch's child before it calls *done*. So the child works while this
    process reads and while it finishes, and one child at most runs at a time.

    *done* must not change what *jobs* gives for a batch made before it (the next
    batch is made before *done* sees the one before). Raises what *batches*, *func*
    (here) and *done* raise; a child still working then is stopped.
    """
    iterator = iter(batches)
    batch = next(iterator, None)
    running = None if batch is None else Background(func, jobs(batch))
    try:
        while batch is not None and running is not None:
            upcoming = next(iterator, None)  # made while the child works on *batch*
            answers = running.result()
            running = None if upcoming is None else Background(func, jobs(upcoming))
            done(batch, answers)
            batch = upcoming
    finally:
        if running is not None:
            running.stop()


@contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic garbage collector off for the block, then as it was. For work that makes
    objects by the hundred thousand and keeps them (a rebuild at 1,000 checkpoints spent
    ~90 ms of its ~850 in collections that freed nothing); a forked child inherits it,
    so neither process's pages are walked and copied by a collection meanwhile."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _worth_forking(count: int) -> bool:
    return (
        count >= MIN_FORK
        and hasattr(os, "fork")
        and threading.active_count() == 1
        and len(os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else ()) > 1
    )


def _answers(payload: bytes, status: int) -> dict[int, Any]:
    """The child's answers by chunk; none when it did not finish (its chunks are then
    worked out here)."""
    if status != 0 or not payload:
        return {}
    import pickle

    try:
        # our own child's bytes, written a moment ago from this process's memory
        answers = pickle.loads(payload)
    except Exception:  # a truncated pipe: do its work here
        return {}
    return answers if isinstance(answers, dict) else {}
