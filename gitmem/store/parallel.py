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

:func:`pipelined` runs maps of one function one batch after another (a verify's
records, then its quotes) with a :class:`Helper`: a child forked once, sent the front
of each batch's values pickled through a pipe, that works while this process reads the
next batch, works out the rest and finishes the one before. A fork per batch would cost
more than the pickling: the kernel copies every page either process writes while a
child lives, again after each fork.

:func:`gc_paused` keeps the cyclic garbage collector out of such work meanwhile.
"""

from __future__ import annotations

import contextlib
import gc
import os
import struct
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from types import TracebackType
from typing import IO, Any, Generic, TypeVar

__all__ = ["MIN_FORK", "Background", "Helper", "gc_paused", "pipelined"]

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
    sent: Callable[[T], T] | None = None,
) -> None:
    """``done(batch, [func(v) for v in jobs(batch)])`` for each of *batches*, in their
    order, a :class:`Helper` taking a share of each map: this process sends it the front
    of a batch's values (each as *sent* makes it: what a child needs of it, pickled),
    makes the next batch (the iteration of *batches*), works out the rest, takes the
    helper's answers, sends it the next batch's share, and only then calls *done*. So the
    helper works while this process reads and while it finishes; each share is sized
    from the last batch's times (wall-clock: a process another program holds back is
    given less), so that both finish together.

    *done* must not change what *jobs* gives for a batch made before it (the next
    batch is made before *done* sees the one before). Raises what *batches*, *func*
    (here) and *done* raise; the helper is stopped then, and at the end.
    """
    helper: Helper[T, R] = Helper(func)
    share = 0.5
    """The fraction of a batch's values the helper takes."""
    iterator = iter(batches)
    try:
        batch = next(iterator, None)
        values = [] if batch is None else jobs(batch)
        front = helper.send(values, share, sent)
        beside = 0.0  # seconds of finishing the batch before (the helper works meanwhile)
        while batch is not None:
            began = time.perf_counter()
            upcoming = next(iterator, None)
            made = time.perf_counter()
            answers = [func(v) for v in values[front:]]
            mine = time.perf_counter() - made
            theirs = helper.receive() if front else ([], 0.0)
            following = [] if upcoming is None else jobs(upcoming)
            if theirs is None:  # the helper failed: its share is worked out here
                answers[:0] = [func(v) for v in values[:front]]
            else:
                answers[:0] = theirs[0]
                costs = (front, len(values), theirs[1], mine)
                share = _share(share, *costs, made - began + beside, len(following))
            front = helper.send(following, share, sent)
            began = time.perf_counter()
            done(batch, answers)
            beside = time.perf_counter() - began
            batch, values = upcoming, following
    finally:
        helper.stop()


def _share(
    share: float, front: int, count: int, theirs: float, mine: float, other: float, coming: int
) -> float:
    """The helper's share of the next batch (*coming* values): its seconds for its part
    should match this process's for the rest and for the work beside it (*other*: making
    the next batch, finishing one), at the costs a value had on each side in this batch
    (*front* of its *count* values the helper's, in *theirs* seconds, the rest in
    *mine*)."""
    if not front or front == count or not coming or theirs <= 0 or mine <= 0:
        return share
    each_theirs, each_mine = theirs / front, mine / (count - front)
    # x * coming * each_theirs == other + (1 - x) * coming * each_mine
    wanted = (other / coming + each_mine) / (each_theirs + each_mine)
    return min(0.95, max(0.05, wanted))


class Helper(Generic[T, R]):
    """A child forked once to take a share of many maps of *func*: each is sent its
    values pickled through a pipe and sends back its answers, while this process works
    out the rest. A fork per map (:class:`Background`) makes the kernel copy every page
    either process writes while the child lives, again at each fork (~1.4 s of the ~7 s a
    10,000-checkpoint verify took on two cores); a helper pays that once.

    It is forked for the first map worth it (see :class:`Background`); a helper that fails
    in any way costs only time: its share is worked out here, and it gets no other.
    """

    def __init__(self, func: Callable[[T], R]) -> None:
        self._func = func
        self._pid: int | None = None
        self._out: IO[bytes] | None = None  # values to the child
        self._in: IO[bytes] | None = None  # answers from the child
        self._tried = False

    def send(self, values: Sequence[T], share: float, sent: Callable[[T], T] | None) -> int:
        """Send the helper the front *share* of *values* (each as *sent* makes it); how
        many it took (0: none, the helper being gone, or not worth forking). Raises
        nothing of its own."""
        count = round(len(values) * share)
        if not count or not self._alive(len(values)):
            return 0
        assert self._out is not None
        front = values[:count] if sent is None else [sent(v) for v in values[:count]]
        import pickle

        payload = pickle.dumps(front, pickle.HIGHEST_PROTOCOL)
        try:
            self._out.write(_SIZE.pack(len(payload)) + payload)
            self._out.flush()
        except OSError:  # the helper is gone
            self.stop()
            return 0
        return count

    def receive(self) -> tuple[list[R], float] | None:
        """The answers to what was sent last and the helper's seconds for them; None when
        it failed (it is stopped then). Raises nothing of its own."""
        import pickle

        if self._in is None:
            return None
        head = self._in.read(_SIZE.size)
        payload = self._in.read(_SIZE.unpack(head)[0]) if len(head) == _SIZE.size else b""
        try:
            # our own child's bytes, written a moment ago from this process's memory
            got = pickle.loads(payload) if payload else None
        except Exception:
            got = None
        if not isinstance(got, tuple) or len(got) != 2 or not isinstance(got[0], list):
            self.stop()
            return None
        return got[0], float(got[1])

    def stop(self) -> None:
        """End the helper, if one runs, and reap it. Raises nothing."""
        pid, out, into = self._pid, self._out, self._in
        self._pid = self._out = self._in = None
        if pid is None:
            return
        import signal

        os.kill(pid, signal.SIGKILL)  # ours and not yet reaped: it exists
        for pipe in (out, into):
            try:
                if pipe is not None:
                    pipe.close()
            except OSError:
                pass
        os.waitpid(pid, 0)

    def _alive(self, count: int) -> bool:
        if self._pid is None and not self._tried and _worth_forking(count):
            self._tried = True
            self._fork()
        return self._pid is not None

    def _fork(self) -> None:
        values, to_child = os.pipe()
        from_child, answers = os.pipe()
        for fd in (to_child, answers):
            _widen(fd)
        try:
            pid = os.fork()
        except OSError:
            for fd in (values, to_child, from_child, answers):
                os.close(fd)
            return
        if pid == 0:  # the child: answers to each share it is sent, until the pipe ends
            status = 1
            try:
                os.close(to_child)
                os.close(from_child)
                _serve(self._func, os.fdopen(values, "rb"), os.fdopen(answers, "wb"))
                status = 0
            finally:
                os._exit(status)
        os.close(values)
        os.close(answers)
        self._pid = pid
        self._out, self._in = os.fdopen(to_child, "wb"), os.fdopen(from_child, "rb")


_SIZE = struct.Struct("<Q")

PIPE_BYTES = 1 << 20
"""What a helper's pipes are widened to hold, where the system lets them (Linux, up to
``/proc/sys/fs/pipe-max-size``, 1 MiB by default): a share of a verify's records is
~100 KB pickled and the answers to it more, which a 64 KiB pipe takes only as the
other process drains it, each writer waiting for the reader to be scheduled (~8 ms a
share on a loaded machine, half a second of a 10,000-checkpoint verify)."""


def _widen(fd: int) -> None:
    """The pipe of *fd* made to hold :data:`PIPE_BYTES` where it can be. Raises nothing."""
    import fcntl

    setting = getattr(fcntl, "F_SETPIPE_SZ", None)
    if setting is not None:
        with contextlib.suppress(OSError):
            fcntl.fcntl(fd, setting, PIPE_BYTES)


def _serve(func: Callable[[Any], Any], values: IO[bytes], answers: IO[bytes]) -> None:
    """The helper's loop: each share read, worked out and answered (None for a share
    that failed: the parent works it out), until the parent closes the pipe."""
    import pickle

    # What it inherited is never garbage here: kept out of every collection, whose walks
    # would write (and so copy) each page of the parent's heap.
    gc.freeze()
    while len(head := values.read(_SIZE.size)) == _SIZE.size:
        share = values.read(_SIZE.unpack(head)[0])
        began = time.perf_counter()
        try:
            done = [func(v) for v in pickle.loads(share)]
            payload = pickle.dumps((done, time.perf_counter() - began), pickle.HIGHEST_PROTOCOL)
        except Exception:
            payload = pickle.dumps(None)
        answers.write(_SIZE.pack(len(payload)) + payload)
        answers.flush()


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
