"""A pure map worked out by a forked child while this process goes on with other work.

The first brief after a clone (a rebuild of the read model) checks every record of
history: an Ed25519 signature, a canonical-JSON decode and a trust lookup each, ~130 µs
of Python a record. :class:`Background` forks a child for ``[func(v) for v in values]``
so that this process can meanwhile do what does not wait for the answers (the rebuild
checks the item blobs and replays the records it expects to hold). The child inherits
the values and the function (nothing is sent to it) and sends back only the pickled
answers through a pipe; it never touches a file, a database or git, and ends with
``os._exit``.

No child, and the same answers worked out here when :meth:`Background.result` is asked:
one core, few values, a platform without ``fork``, or other threads running (forking a
threaded process can deadlock the child). A child that fails in any way costs only
time: its work is done here.

:func:`gc_paused` keeps the cyclic garbage collector out of such work meanwhile.
"""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import TracebackType
from typing import IO, Any, Generic, TypeVar

__all__ = ["MIN_FORK", "Background", "gc_paused"]

T = TypeVar("T")
R = TypeVar("R")

MIN_FORK = 500
"""Below this many values a fork (a few ms) is not worth it."""


class Background(Generic[T, R]):
    """``[func(v) for v in values]``, in a forked child when that is worth it. *func*
    must be pure (its effects in the child are lost) and its results picklable. Use it
    as a context manager: leaving the block without :meth:`result` stops the child."""

    def __init__(self, func: Callable[[T], R], values: Sequence[T]) -> None:
        self._func, self._values = func, values
        self._pid: int | None = None
        self._pipe: IO[bytes] | None = None
        if _worth_forking(len(values)):
            self._fork()

    @property
    def forked(self) -> bool:
        """Whether a child is working on the answers (else :meth:`result` does the work)."""
        return self._pid is not None

    def result(self) -> list[R]:
        """The answers, in the order of the values: the child's once it is done, or
        worked out here. Raises what *func* raises (here; a child's failure never is)."""
        if self._pid is None or self._pipe is None:
            return self._here()
        pid, pipe = self._pid, self._pipe
        self._pid = self._pipe = None
        try:
            with pipe:
                payload = pipe.read()
        finally:
            _, status = os.waitpid(pid, 0)
        answers = _answers(payload, status, len(self._values))
        return self._here() if answers is None else answers

    def stop(self) -> None:
        """Stop the child, if one works, and reap it (never leave it blocked on a pipe
        nobody reads, nor a zombie). Raises nothing."""
        if self._pid is None or self._pipe is None:
            return
        import signal

        pid, pipe = self._pid, self._pipe
        self._pid = self._pipe = None
        os.kill(pid, signal.SIGKILL)  # ours and not yet reaped: it exists
        pipe.close()
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

    def _fork(self) -> None:
        import pickle  # not on the path of a warm brief, which never forks

        read, write = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(read)
            os.close(write)
            return
        if pid == 0:  # the child: every answer, pickled into the pipe, then gone
            status = 1
            try:
                os.close(read)
                payload = pickle.dumps(self._here(), pickle.HIGHEST_PROTOCOL)
                with os.fdopen(write, "wb") as out:
                    out.write(payload)
                status = 0
            finally:
                os._exit(status)
        os.close(write)
        self._pid, self._pipe = pid, os.fdopen(read, "rb")


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


def _answers(payload: bytes, status: int, expected: int) -> list[Any] | None:
    """The child's answers, or None when it did not finish them all."""
    if status != 0 or not payload:
        return None
    import pickle

    try:
        # our own child's bytes, written a moment ago from this process's memory
        answers = pickle.loads(payload)
    except Exception:  # a truncated pipe: do its work here
        return None
    if not isinstance(answers, list) or len(answers) != expected:
        return None
    return answers
