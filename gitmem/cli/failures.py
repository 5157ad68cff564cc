"""How a command that failed ends: one line on stderr and the exit code, for the full
command line and for its click-free fast paths alike (no click here).

Every :class:`~gitmem.core.errors.GitmemError` becomes ``gitmem: <its message>`` and its
exit code (2 bad input, 3 integrity failure, 1 other negatives); anything else is a bug:
``gitmem: internal error: …`` and exit 70. A traceback is printed only with ``--verbose``.
"""

from __future__ import annotations

import sys
from typing import NoReturn

from gitmem.core.errors import INTERNAL_EXIT, GitmemError


def one_line(message: str) -> str:
    """An error is one line: a newline that a file or a name put into the message is
    shown as ``\\n``."""
    return message.replace("\r", "\\r").replace("\n", "\\n")


def fail(error: Exception, verbose: bool) -> NoReturn:
    """End the process for *error* as the command line does. Never returns."""
    if verbose:
        import traceback  # only when asked for: a brief that fails should stay cheap

        traceback.print_exc()
    if isinstance(error, GitmemError):
        say(f"gitmem: {one_line(str(error))}")
        sys.exit(error.exit_code)
    say(
        f"gitmem: internal error: {type(error).__name__}: {one_line(str(error))} "
        "(rerun with --verbose for the traceback)"
    )
    sys.exit(INTERNAL_EXIT)


def say(line: str) -> None:
    """One line on stderr, flushed."""
    sys.stderr.write(line + "\n")
    sys.stderr.flush()
