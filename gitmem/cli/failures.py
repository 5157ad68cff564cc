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

_ESCAPED = {
    **{c: f"\\x{c:02x}" for c in [*range(0x20), *range(0x7F, 0xA0)] if c != 0x09},
    **{c: f"\\u{c:04x}" for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]},
    0x0A: "\\n",
    0x0D: "\\r",
}
"""What a file or a name may put into an error that a terminal would act on."""


def one_line(message: str) -> str:
    """An error is one line, shown as written: a newline that a file or a name put into
    the message is shown as ``\\n``, any other control character (a terminal's escape,
    ESC) or bidirectional control as its escape (``\\x1b``, ``\\u202e``)."""
    return message.translate(_ESCAPED)


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
