"""Waiting for work a test started elsewhere (a detached hook, a worker process)."""

from __future__ import annotations

import time
from collections.abc import Callable
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
