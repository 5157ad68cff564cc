"""Advisory locks on files in ``.git/gitmem/``: one writer of a kind at a time."""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def locked(local_dir: Path, name: str) -> Iterator[None]:
    """Hold an exclusive lock on ``<local_dir>/<name>`` for the duration (blocking)."""
    local_dir.mkdir(parents=True, exist_ok=True)
    with open(local_dir / name, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
