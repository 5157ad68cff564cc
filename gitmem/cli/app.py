"""The command line's entry: the group (each family of commands imported when one of its
commands runs, :data:`~gitmem.cli.base.COMMAND_FAMILIES`), and the errors turned into
one line and an exit code.

Errors end as :mod:`gitmem.cli.failures` says (one line on stderr and the exit code).
Commands live in one module per family; this module holds the group and the entry
point.
"""

from __future__ import annotations

import contextlib
import io
import sys

import click

from gitmem.cli.base import cli
from gitmem.cli.failures import fail, one_line, say
from gitmem.core.errors import GitmemError

__all__ = ["cli", "global_flags", "run"]


GLOBAL_FLAGS = ("--verbose", "--quiet", "-q", "--no-pager")
"""Flags accepted anywhere on the line, before or after the subcommand (as with git's
``-c``-less global options, a script may append them): they are moved in front."""


def global_flags(args: list[str]) -> tuple[bool, bool, list[str]]:
    """(verbose, quiet, the arguments with those flags moved before the subcommand); after
    a ``--`` nothing is a flag. Raises nothing."""
    end = args.index("--") if "--" in args else len(args)
    head = args[:end]
    verbose, quiet = "--verbose" in head, "--quiet" in head or "-q" in head
    no_pager = "--no-pager" in head
    rest = [a for a in head if a not in GLOBAL_FLAGS] + args[end:]
    flags = ["--verbose"] * verbose + ["--quiet"] * quiet + ["--no-pager"] * no_pager
    return verbose, quiet, flags + rest


def _pager_for(args: list[str]) -> str | None:
    """The pager this run's output goes through, or None (see :mod:`gitmem.cli.pager`)."""
    from gitmem.cli.pager import PAGED, pager_command

    if "--no-pager" in args or "--quiet" in args or not sys.stdout.isatty():
        return None
    words = [a for a in args if not a.startswith("-")]
    if "-C" in args:  # its value is no command
        words = [a for a in words if a != args[args.index("-C") + 1]]
    if not words or words[0] not in PAGED:
        return None
    return pager_command()


def run(args: list[str]) -> None:
    """Run the command line on *args*, turning errors into one line and an exit code
    (always exits). With ``--quiet`` nothing goes to stdout (errors and warnings still
    go to stderr; the exit code says how it went). Long output on a terminal goes through
    a pager (:mod:`gitmem.cli.pager`)."""
    verbose, quiet, args = global_flags(args)
    pager = _pager_for(args)
    if pager is not None:
        _paged(args, pager)
    try:
        sink = io.TextIOWrapper(io.BytesIO())  # with a .buffer, for commands that write bytes
        with contextlib.redirect_stdout(sink) if quiet else contextlib.nullcontext():
            cli.main(args=args, prog_name="gitmem", standalone_mode=False)
    except GitmemError as e:
        fail(e, verbose)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.exceptions.NoArgsIsHelpError as e:
        click.echo(e.format_message())  # a bare `gitmem` or `gitmem keys` asks for help
        sys.exit(0)
    except click.ClickException as e:
        say(f"gitmem: {one_line(e.format_message())}")
        sys.exit(e.exit_code)
    except click.exceptions.Abort:
        say("gitmem: aborted")
        sys.exit(1)
    except Exception as e:
        fail(e, verbose)


def _paged(args: list[str], pager: str) -> None:
    """Run the command line with its stdout collected, then show it through *pager*,
    keeping the exit code (always exits). Errors still go to stderr at once."""
    from gitmem.cli.pager import page

    collected = io.StringIO()
    code: int | str | None = 0
    try:
        with contextlib.redirect_stdout(collected):
            run(["--no-pager", *args])
    except SystemExit as e:
        code = e.code
    finally:
        if collected.getvalue():
            page(collected.getvalue(), pager)
    sys.exit(code)
