"""Starting gitmem detached from the process that asks: a hook's work, an index built
in the background. Standard library only (the hooks import it)."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def spawn_detached(argv: Sequence[str]) -> None:
    """Start ``gitmem <argv>`` in a new session, holding none of our file descriptors.

    Raises:
        OSError: the interpreter cannot be started.
    """
    import subprocess  # not for the hooks' first steps, which never spawn

    subprocess.Popen(
        [sys.executable, "-m", "gitmem", *argv],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        close_fds=True,
        start_new_session=True,
    )
