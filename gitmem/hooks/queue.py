"""The queue of hook work: ``.git/gitmem/queue``, one line per hook run, drained in order.

A hook appends one line and starts the worker only when none runs; the worker
(:mod:`gitmem.hooks.worker`) holds :data:`WORKER_LOCK` (``flock``) for as long as it
drains, so there is one per repository. Its pid is in that file meanwhile.

A line is the hook's name, then its fields, separated by single spaces; the last field
runs to the end of the line (a working tree's path, written by the ``sh`` scripts as it
is); every other field is percent-encoded (the scripts only ever write hex, words and
file names without spaces or ``%``)::

    post-commit <series> <sha> <worktree>       series: rebase, am or -
    post-rewrite <amend|rebase> <input-name> <worktree>
    capture-session <session|-> <transcript> <worktree>

Appends are ``O_APPEND`` writes of one short line, so concurrent hooks never interleave.
The worker reads from :data:`OFFSET_FILE` to the last complete line and moves the offset
past what it took; once everything is taken and the file is large, it truncates it (an
append racing that truncation could be lost; its commit's in-flight marker still names
it, see :mod:`gitmem.hooks.inflight`). Standard library only: the hooks import it.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple
from urllib.parse import quote, unquote

QUEUE_FILE = "queue"
OFFSET_FILE = "queue.offset"
WORKER_LOCK = "queue.lock"
"""Held (``flock``, exclusive) by the worker while it drains; holds its pid meanwhile."""
ROTATE_BYTES = 64 * 1024
"""A queue fully taken and at least this large is truncated."""
NO_SERIES = "-"
"""The field that says "none": a commit of no rebase or ``git am``, a session not named."""
QUEUED_ENV = "GITMEM_QUEUED"
"""Set by the hook scripts to the ``.git/gitmem`` folder once they queued their line."""
_FIELDS = {"post-commit": 3, "post-rewrite": 3, "capture-session": 3}
"""Each kind of line: how many fields follow its name (the last one being the worktree)."""
_MAX_READ = 1 << 20


class QueuedHook(NamedTuple):
    """One line of the queue: a hook's name, its fields, and the worktree it ran in."""

    hook: str
    fields: tuple[str, ...]
    worktree: str

    def line(self) -> bytes:
        """The line this entry is written as (an empty field as ``-``)."""
        words = [self.hook, *(quote(f, safe="") or NO_SERIES for f in self.fields)]
        return (" ".join([*words, self.worktree]) + "\n").encode("utf-8", "surrogateescape")


def parse_line(raw: bytes) -> QueuedHook | None:
    """The entry *raw* (one line, without its newline) holds; None when it is not one.
    Raises nothing."""
    text = raw.decode("utf-8", "surrogateescape")
    hook, _, rest = text.partition(" ")
    count = _FIELDS.get(hook)
    if count is None:
        return None
    parts = rest.split(" ", count - 1)
    if len(parts) != count or not all(parts):
        return None
    return QueuedHook(hook, tuple(unquote(p) for p in parts[:-1]), parts[-1])


def append(local_dir: Path, entry: QueuedHook) -> None:
    """Append *entry* to the queue in one ``O_APPEND`` write.

    Raises:
        OSError: the queue cannot be written.
    """
    local_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(local_dir / QUEUE_FILE, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, entry.line())
    finally:
        os.close(fd)


def take(local_dir: Path) -> tuple[list[QueuedHook], int]:
    """The entries after the offset, in order, and the offset just past them (the last
    complete line: one being written is left for later). Lines that are not entries are
    skipped. The offset is not moved: :func:`taken` does that. Raises nothing."""
    start = _offset(local_dir)
    try:
        with open(local_dir / QUEUE_FILE, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if start > size:
                start = 0  # truncated since the offset was written
            handle.seek(start)
            data = handle.read(_MAX_READ)
    except OSError:
        return [], start
    complete = data.rfind(b"\n") + 1
    entries = [e for e in map(parse_line, data[:complete].splitlines()) if e is not None]
    return entries, start + complete


def taken(local_dir: Path, offset: int) -> None:
    """Move the offset to *offset*; truncate the queue when all of it is taken and it is
    at least :data:`ROTATE_BYTES` long. Raises nothing (an offset not moved only makes
    the next worker take those lines again)."""
    path = local_dir / QUEUE_FILE
    with contextlib.suppress(OSError):
        if offset >= ROTATE_BYTES and path.stat().st_size == offset:
            os.truncate(path, 0)
            offset = 0
        tmp = local_dir / f".{OFFSET_FILE}.{os.getpid()}"
        tmp.write_text(f"{offset}\n")
        os.replace(tmp, local_dir / OFFSET_FILE)


def pending(local_dir: Path) -> bool:
    """Whether the queue holds a complete line not taken yet. Raises nothing."""
    try:
        size = (local_dir / QUEUE_FILE).stat().st_size
    except OSError:
        return False
    offset = _offset(local_dir)
    return size > offset or (size < offset and size > 0)


_early: int | None = None
"""The worker lock taken by :func:`hold_early`, until :func:`worker_lock` adopts it."""


def hold_early(local_dir: Path) -> bool:
    """Try to become the worker before anything else is imported (the hook scripts name
    *local_dir*): whether the lock is now held, or could not even be tried (then the
    worker's own attempt decides). False means another worker holds it, and will take
    what the script queued. Raises nothing."""
    global _early
    try:
        fd = _lock(local_dir)
    except OSError:
        return True
    if fd is None:
        return False
    _early = fd
    return True


@contextlib.contextmanager
def worker_lock(local_dir: Path) -> Iterator[bool]:
    """Try to become the worker: hold :data:`WORKER_LOCK` without waiting (or adopt the
    one :func:`hold_early` took), with this process's pid in it; yields whether it is
    held. Emptied before it is released.

    Raises:
        OSError: the lock file cannot be opened.
    """
    global _early
    fd, _early = _early, None
    if fd is not None and not _same_file(fd, local_dir / WORKER_LOCK):
        os.close(fd)
        fd = None
    if fd is None:
        fd = _lock(local_dir)
    if fd is None:
        yield False
        return
    try:
        yield True
    finally:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
        os.close(fd)  # and with it the lock


def _lock(local_dir: Path) -> int | None:
    """The descriptor of the worker lock, held, with this pid in it; None when another
    process holds it.

    Raises:
        OSError: the lock file cannot be opened.
    """
    local_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(local_dir / WORKER_LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    with contextlib.suppress(OSError):
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


def _same_file(fd: int, path: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(fd), os.stat(path))
    except OSError:
        return False


def worker_pid(local_dir: Path) -> int | None:
    """The pid the worker lock names (the worker, unless it was killed); None when it
    names none. Raises nothing."""
    try:
        text = (local_dir / WORKER_LOCK).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() and 0 < int(text) < 1 << 31 else None


def _offset(local_dir: Path) -> int:
    try:
        text = (local_dir / OFFSET_FILE).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return 0
    return int(text) if text.isdigit() else 0
