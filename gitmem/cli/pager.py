"""Long output through a pager, as git does it: only when stdout is a terminal, through
``GIT_PAGER``, else ``PAGER``, else ``less`` (``LESS=FRX`` unless set: one screen is just
printed), never with ``--no-pager``; an empty pager or ``cat`` means none. Hooks, scripts
and tests write to pipes and files, so they are never paged."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping

PAGED = frozenset(
    {"brief", "recall", "review", "log", "show", "verify", "status", "doctor", "help"}
)
"""The commands whose output can run long; the others print a line or two, or prompt."""


def pager_command(environ: Mapping[str, str] | None = None) -> str | None:
    """The pager to run (a shell command), or None for none. Raises nothing."""
    env = os.environ if environ is None else environ
    for key in ("GIT_PAGER", "PAGER"):
        value = env.get(key)
        if value is not None:
            return None if value.strip() in ("", "cat") else value
    return "less"


def page(text: str, command: str) -> None:
    """Show *text* through *command*, run by the shell as git runs its pager. Raises
    nothing: a pager that cannot start prints the text itself."""
    env = {**os.environ}
    env.setdefault("LESS", "FRX")
    env.setdefault("LV", "-c")
    try:
        subprocess.run(command, shell=True, input=text.encode("utf-8"), env=env, check=False)
    except OSError:
        os.write(1, text.encode("utf-8"))
