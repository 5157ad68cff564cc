"""Checking thousands of records on two cores: half of a pure map in a forked child.

The first brief after a clone (a rebuild of the read model) checks every record of
history: an Ed25519 signature, a canonical-JSON decode and a trust lookup each, ~200 µs
of Python a record. :func:`map_split` runs every other value in a child forked for the
purpose while this process does the rest, and merges the answers in order. The child
inherits the values and the function (nothing is sent to it) and sends back only the
pickled results through a pipe; it never touches a file, a database or git, and ends
with ``os._exit``.

Sequential instead, with the same answers: one core, few values, a platform without
``fork``, or other threads running (forking a threaded process can deadlock the child).
A child that fails in any way costs only time: its share is done here.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

__all__ = ["MIN_SPLIT", "map_split"]

T = TypeVar("T")
R = TypeVar("R")

MIN_SPLIT = 1500
"""Below this many values a fork (a few ms) is not worth it."""


def map_split(func: Callable[[T], R], values: Sequence[T]) -> list[R]:
    """``[func(v) for v in values]``, on two processes when that is worth it. *func* must
    be pure (its effects in the child are lost) and its results picklable. Raises what
    *func* raises (here; a child's failure is never raised)."""
    if not _worth_splitting(len(values)):
        return [func(v) for v in values]
    import pickle  # not on the path of a warm brief, which never splits
    import signal

    read, write = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read)
        os.close(write)
        return [func(v) for v in values]
    if pid == 0:  # the child: the odd places, pickled into the pipe, then gone
        status = 1
        try:
            os.close(read)
            payload = pickle.dumps([func(v) for v in values[1::2]], pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write, "wb") as out:
                out.write(payload)
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        try:
            ours = [func(v) for v in values[0::2]]
            payload = pipe.read()
        except BaseException:
            os.kill(pid, signal.SIGKILL)  # never leave it blocked on a pipe nobody reads
            raise
        finally:
            _, status = os.waitpid(pid, 0)
    theirs: list[R] | None = _results(payload, status, len(values) // 2)
    if theirs is None:
        theirs = [func(v) for v in values[1::2]]
    merged: list[R] = []
    for i, mine in enumerate(ours):
        merged.append(mine)
        if i < len(theirs):
            merged.append(theirs[i])
    return merged


def _worth_splitting(count: int) -> bool:
    return (
        count >= MIN_SPLIT
        and hasattr(os, "fork")
        and threading.active_count() == 1
        and len(os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else ()) > 1
    )


def _results(payload: bytes, status: int, expected: int) -> list[Any] | None:
    """The child's answers, or None when it did not finish them all."""
    if status != 0 or not payload:
        return None
    import pickle

    try:
        # our own child's bytes, written a moment ago from this process's memory
        results = pickle.loads(payload)
    except Exception:  # a truncated pipe: do its share here
        return None
    if not isinstance(results, list) or len(results) != expected:
        return None
    return results
