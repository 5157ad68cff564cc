"""Files in gitmem's local state: written whole or not at all, and locked while shared.

Every file gitmem writes outside the object store (keys, config, local state, hook and
agent settings) goes through :func:`atomic_write`; every writer that must be alone in
``.git/gitmem/`` holds :func:`locked`.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from gitmem.core import boundedjson
from gitmem.core.errors import UnwritableError


def atomic_write(path: Path, data: bytes, mode: int, dir_mode: int = 0o700) -> None:
    """Write *data* to *path* through a temp file in the same folder and a rename.

    Raises:
        UnwritableError: the folder cannot be made or the file written (an OSError too).
    """
    import tempfile  # not on the hooks' import path

    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=dir_mode)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError as e:
        raise unwritable(path, e) from e
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException as e:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(e, OSError) and not isinstance(e, UnwritableError):
            raise unwritable(path, e) from e
        raise


def read_state(
    path: Path,
    max_depth: int = boundedjson.MAX_DEPTH,
    max_int_digits: int = boundedjson.MAX_INT_DIGITS,
) -> Any:
    """The JSON value of the local state file at *path*; None when it is missing,
    unreadable or not JSON within those bounds (local state is then as if never
    written: each caller says what that costs). Raises nothing."""
    try:
        return boundedjson.loads(
            path.read_bytes(), max_depth=max_depth, max_int_digits=max_int_digits
        )
    except (OSError, ValueError):
        return None


def write_state(
    path: Path, value: object, indent: int | None = 1, sort_keys: bool = False, mode: int = 0o644
) -> None:
    """Write *value* as the JSON of the local state file at *path* (a newline after it).

    Raises:
        UnwritableError: as :func:`atomic_write`.
    """
    text = json.dumps(value, indent=indent, sort_keys=sort_keys) + "\n"
    atomic_write(path, text.encode(), mode)


def unwritable(path: Path, error: OSError) -> UnwritableError:
    """The one-line error for *path* that could not be written."""
    return UnwritableError(f"cannot write {path}: {error.strerror or error}")


@contextmanager
def locked(local_dir: Path, name: str) -> Iterator[None]:
    """Hold an exclusive lock on ``<local_dir>/<name>`` for the duration (blocking).

    Raises:
        UnwritableError: the folder or the lock file cannot be made.
    """
    try:
        local_dir.mkdir(parents=True, exist_ok=True)
        handle = open(local_dir / name, "w")  # noqa: SIM115  (closed below)
    except OSError as e:
        raise unwritable(local_dir / name, e) from e
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
