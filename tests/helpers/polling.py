"""Waiting for work a test started elsewhere (a detached hook, a worker process)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def wait_for(probe: Callable[[], Any], seconds: float = 60.0, every: float = 0.05) -> Any:
    """Poll *probe* until it returns something truthy, and return that; fail the test
    after *seconds*."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = probe()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out after {seconds:g} s")


def wait_carried(repo: Path) -> None:
    """Wait until every carry of memory the pre-push hook started in *repo* (detached,
    :func:`gitmem.hooks.push.push_memory`) has ended: its marker is gone."""
    from gitmem.hooks.push import carries_in_flight

    local = repo / ".git" / "gitmem"
    wait_for(lambda: not carries_in_flight(local))
