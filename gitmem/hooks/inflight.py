"""Markers of background captures in flight: ``.git/gitmem/running/<hook>-<sha>``.

One marker file per commit whose capture is pending or running. The post-commit script
writes it (empty) as it queues the commit (:mod:`gitmem.hooks.queue`); the worker writes
its pid into it when it takes the commit from the queue, and removes it when that capture
ends, whatever the outcome (a failure is in the capture log). So a marker left behind
means the capture died: killed, out of memory, the machine switched off. It is *dead*
when its process is gone. A marker no process has claimed yet is pending while the
queue's worker runs (it takes every line in turn); with no worker, it is dead once
:data:`SPAWN_GRACE` seconds have passed and no process runs ``gitmem hook`` for it
(where ``/proc`` lists processes), else after :data:`START_GRACE` seconds. The next
capture records each dead marker as a failure in the capture log and captures the commit
it names (:func:`gitmem.hooks.capturing.recover`); ``gitmem status`` shows them until then.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from enum import StrEnum
from pathlib import Path
from typing import NamedTuple

from gitmem.core import boundedjson
from gitmem.hooks import queue
from gitmem.store.files import write_state

RUNNING_DIR = "running"
START_GRACE = 60.0
"""Seconds a marker may wait, without a pid, for its process to start (no ``/proc``)."""
SPAWN_GRACE = 2.0
"""Seconds the hook script needs to start the process a marker names."""
DIED = (
    "the background capture died before it finished (killed or crashed); "
    "the next hook run captures its commit's message"
)
"""The capture log's error for a dead marker, and what ``gitmem status`` says of one."""
_NAME_RE = re.compile(r"(?P<hook>[a-z-]+)-(?P<sha>[0-9a-f]{40}(?:[0-9a-f]{24})?)")
_MAX_BYTES = 4096


class MarkerState(StrEnum):
    """What ``gitmem status`` says of a marker."""

    RUNNING = "running"
    DIED = "died"


class InflightMarker(NamedTuple):
    """One capture in flight, or one that died."""

    path: Path
    hook: str
    sha: str
    pid: int | None
    since: float
    """When the marker was last written (Unix time)."""

    def dead(self, now: float) -> bool:
        """Whether its capture died (see the module docstring). Raises nothing."""
        if self.pid is not None:
            return not alive(self.pid)
        worker = queue.worker_pid(self.path.parent.parent)
        if worker is not None and alive(worker):
            return False  # queued: the worker takes it in turn
        age = now - self.since
        if age > START_GRACE:
            return True
        running = _running(self.hook, self.sha)
        return age > SPAWN_GRACE and running is False

    def state(self, now: float) -> MarkerState:
        """Running or died. Raises nothing."""
        return MarkerState.DIED if self.dead(now) else MarkerState.RUNNING


def marker_path(local_dir: Path, hook: str, sha: str) -> Path:
    """Where the marker of *hook*'s capture of *sha* lives."""
    return local_dir / RUNNING_DIR / f"{hook}-{sha}"


def start(local_dir: Path, hook: str, sha: str) -> Path:
    """Claim (or write) the marker of this capture, with this process's pid; its path.
    Raises nothing: a marker that cannot be written only loses the trace of a crash."""
    path = marker_path(local_dir, hook, sha)
    data = {"hook": hook, "sha": sha, "pid": os.getpid(), "started": round(time.time(), 3)}
    with contextlib.suppress(OSError):
        write_state(path, data, indent=None)
    return path


def finish(path: Path) -> None:
    """Remove a marker: its capture ended. Raises nothing."""
    with contextlib.suppress(OSError):
        path.unlink(missing_ok=True)


def markers(local_dir: Path) -> list[InflightMarker]:
    """Every marker, oldest first; files that are not markers are ignored. Raises nothing."""
    try:
        paths = list((local_dir / RUNNING_DIR).iterdir())
    except OSError:
        return []
    found: list[InflightMarker] = []
    for path in paths:
        match = _NAME_RE.fullmatch(path.name)
        if match is None:
            continue
        try:
            since = path.stat().st_mtime
            with path.open("rb") as handle:
                raw = handle.read(_MAX_BYTES)
        except OSError:
            continue
        found.append(InflightMarker(path, match["hook"], match["sha"], _pid(raw), since))
    return sorted(found, key=lambda m: (m.since, m.path.name))


def dead(local_dir: Path, now: float | None = None) -> list[InflightMarker]:
    """The markers whose capture died, oldest first. Raises nothing."""
    at = time.time() if now is None else now
    return [m for m in markers(local_dir) if m.dead(at)]


def _pid(raw: bytes) -> int | None:
    try:
        data = boundedjson.loads(raw, max_depth=2)
    except ValueError:
        return None  # empty (written by the hook script) or unreadable
    value = data.get("pid") if isinstance(data, dict) else None
    if isinstance(value, int) and not isinstance(value, bool) and 0 < value < 1 << 31:
        return value
    return None


def _running(hook: str, sha: str) -> bool | None:
    """Whether some process runs ``gitmem hook <hook> <sha>``; None without ``/proc``."""
    proc = Path("/proc")
    if not proc.is_dir():
        return None
    wanted = f"\0{hook}\0{sha}".encode()
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if wanted in cmdline:
            return True
    return False


def alive(pid: int) -> bool:
    """Whether process *pid* runs (a zombie, killed and not yet reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True  # no /proc (macOS): the signal said it exists
    return stat.rpartition(")")[2].split()[:1] != ["Z"]
