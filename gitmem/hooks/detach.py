"""Leaving the process that fired a hook (gitmem started detached from it:
:mod:`gitmem.store.spawn`).

Cheap to import (standard library only): every hook entry point runs this first.
"""

from __future__ import annotations

import contextlib
import os


def leave_caller() -> None:
    """Drop every inherited descriptor above 2 and leave the caller's session.

    ``gitmem hook …`` calls this first. The scripts already give it ``/dev/null`` for
    stdin, stdout and stderr and close descriptors 3-9, but ``sh`` cannot close higher
    ones, and ``setsid(1)`` is missing on some systems (macOS). Never raises.
    """
    for fd in _open_fds():
        if fd > 2:
            with contextlib.suppress(OSError):
                os.close(fd)
    with contextlib.suppress(OSError):  # already a session leader: setsid(1) did it
        os.setsid()


def _open_fds() -> list[int]:
    for listing in ("/proc/self/fd", "/dev/fd"):
        try:
            # The listing's own descriptor is closed again by the time this returns.
            return sorted(int(name) for name in os.listdir(listing) if name.isdigit())
        except OSError:
            continue
    return list(range(3, min(os.sysconf("SC_OPEN_MAX"), 65536)))
