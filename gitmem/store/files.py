"""Files in gitmem's local state: written whole or not at all, and locked while shared.

Every file gitmem writes outside the object store (keys, config, local state, hook and
agent settings) goes through :func:`atomic_write`; every writer that must be alone in
``.git/gitmem/`` holds :func:`locked`.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def atomic_write(path: Path, data: bytes, mode: int, dir_mode: int = 0o700) -> None:
    """Write *data* to *path* through a temp file in the same folder and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=dir_mode)
    import tempfile  # not on the hooks' import path

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


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
