"""The click group and what every command shares: options, the store, output."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Mapping
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from gitmem import __version__
from gitmem.core.errors import InputError
from gitmem.core.extractors import CHOICES
from gitmem.core.transcript import FORMATS as FORMAT_CHOICES

if TYPE_CHECKING:
    from gitmem.store.repo import Store

F = TypeVar("F", bound=Callable[..., Any])


def json_option(func: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON.")(func)


def format_option(func: F) -> F:
    return click.option(
        "--format",
        "transcript_format",
        type=click.Choice(FORMAT_CHOICES),
        default=None,
        help="Transcript format (default: detected from the content).",
    )(func)


def as_of_option(func: F) -> F:
    return click.option(
        "--as-of",
        "as_of",
        metavar="TIME|REV",
        help="Memory as it stood then: an ISO date/time (UTC unless a zone is given), a "
        "commit of refs/gitmem/memory, or any other revision (its commit time).",
    )(func)


def extractor_option(func: F) -> F:
    """``--extractor`` and the model overrides (``import``, ``import-chat``)."""
    return _extractor_options(func, "")


def capture_extractor_option(func: F) -> F:
    """:func:`extractor_option` for ``capture``, where ``--items`` alone stores no more."""
    return _extractor_options(func, "; with --items: none")


def _extractor_options(func: F, items_note: str) -> F:
    func = click.option(
        "--model", "model_name", metavar="NAME", help="Model for --extractor openai."
    )(func)
    func = click.option(
        "--base-url", metavar="URL", help="OpenAI-compatible endpoint for --extractor openai."
    )(func)
    func = click.option(
        "--command",
        "model_command",
        metavar="CMD",
        help="Model command for --extractor command (prompt on stdin, JSON on stdout).",
    )(func)
    return click.option(
        "--extractor",
        type=click.Choice(CHOICES),
        default=None,
        help=f"How items are found (default: config `extractor`, else heuristic{items_note}).",
    )(func)


def store_of(ctx: click.Context) -> Store:
    from gitmem.store.repo import Store

    return Store.discover(ctx.obj["repo"])


def home() -> Path:
    from gitmem.store.home import gitmem_home

    return gitmem_home()


def emit(data: Any) -> None:
    from gitmem.core.shown import json_escaped  # a pushed name's lone surrogates

    click.echo(json_escaped(json.dumps(data, ensure_ascii=False, indent=2)))


Scalar = str | int | bool | None


def emit_rows(rows: Iterable[Mapping[str, Scalar]]) -> None:
    """:func:`emit` of a list of flat objects, the same bytes, written an object at a
    time: json's indented output is encoded in Python a value at a time (most of ``log
    --json``'s time at a few thousand records); a flat object's lines are put together
    here from the C encoder's strings."""
    from gitmem.core.shown import json_escaped  # a pushed name's lone surrogates

    chunk: list[str] = []
    opened = False
    for row in rows:
        fields = ",\n".join(f"    {_string(k)}: {_scalar(v)}" for k, v in row.items())
        body = f"  {{\n{fields}\n  }}" if fields else "  {}"
        chunk.append(f"{',' if opened else '['}\n{body}")
        opened = True
        if len(chunk) == _CHUNK:  # written a few hundred at a time, not held whole
            click.echo(json_escaped("".join(chunk)), nl=False)
            chunk.clear()
    click.echo(json_escaped("".join(chunk)) + ("\n]" if opened else "[]"))


_CHUNK = 256


_string = json.encoder.encode_basestring  # what json.dumps(ensure_ascii=False) writes


def _scalar(value: Scalar) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return int.__repr__(value)
    return _string(value)


class PathArg(click.Path):
    """``click.Path`` that refuses an empty value: ``Path("")`` is the current folder, so
    ``--output ""`` or ``--keep ""`` would otherwise act on ``.`` (or fail as a folder)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value:
            self.fail("give a path, not ''", param, ctx)
        return super().convert(value, param, ctx)


def read_input(path: str, what: str) -> tuple[str, str]:
    """The text of a file, or of stdin for ``-``.

    Raises:
        InputError: missing or unreadable.
    """
    if path == "-":
        return sys.stdin.read(), "stdin"
    if not path:
        raise InputError(f"{what}: give a path, not ''")
    try:
        return Path(path).read_text(encoding="utf-8"), path
    except FileNotFoundError as e:
        raise InputError(f"{what} not found: {path}") from e
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read {what} {path}: {e}") from e


COMMAND_FAMILIES: dict[str, str] = {
    "ask": "agentic",
    "backup": "remote",
    "brief": "memory",
    "capture": "memory",
    "completion": "setup",
    "config": "setup",
    "demo": "setup",
    "doctor": "setup",
    "export": "attest",
    "forget": "lifecycle",
    "help": "setup",
    "gate": "lifecycle",
    "hook": "wiring",
    "hooks": "wiring",
    "import": "memory",
    "import-chat": "chat",
    "init": "setup",
    "keys": "setup",
    "log": "memory",
    "mcp": "agentic",
    "note": "lifecycle",
    "pending": "chat",
    "promote": "lifecycle",
    "purge": "lifecycle",
    "recall": "agentic",
    "release": "release",
    "resolve": "lifecycle",
    "restore": "remote",
    "reverify": "lifecycle",
    "review": "memory",
    "serve": "agentic",
    "show": "lifecycle",
    "snapshot": "remote",
    "status": "setup",
    "supersede": "lifecycle",
    "sync": "remote",
    "verify": "memory",
    "verify-quote": "memory",
}
"""Which module of :mod:`gitmem.cli` defines each command: a command's family is
imported when that command runs (or when help or completion lists them all), so
``gitmem brief`` loads neither the release nor the forge code."""


class LazyGroup(click.Group):
    """The top-level group: its commands are registered by their family modules, each
    imported on first use (:data:`COMMAND_FAMILIES`)."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        family = COMMAND_FAMILIES.get(cmd_name)
        if cmd_name not in self.commands and family is not None:
            import_module(f"gitmem.cli.{family}")
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        load_all_commands()
        return super().list_commands(ctx)


def load_all_commands() -> None:
    """Import every family, so that every command is on the group. Raises nothing."""
    for family in sorted(set(COMMAND_FAMILIES.values())):
        import_module(f"gitmem.cli.{family}")


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "-C", "repo", default=".", metavar="PATH", help="Run as if gitmem was started in PATH."
)
@click.option("--verbose", is_flag=True, help="Show tracebacks for errors (anywhere on the line).")
@click.option(
    "--quiet",
    "-q",
    is_flag=True,
    help="Print nothing on stdout; the exit code says how it went (anywhere on the line).",
)
@click.option(
    "--no-pager",
    is_flag=True,
    help="Never page long output (on a terminal it goes through GIT_PAGER, PAGER or less).",
)
@click.version_option(__version__, prog_name="gitmem")
@click.pass_context
def cli(ctx: click.Context, repo: str, verbose: bool, quiet: bool, no_pager: bool) -> None:
    """gitmem: signed, git-native memory for AI coding agents. `gitmem help COMMAND`
    shows one command's help."""
    given = ctx.get_parameter_source("repo") is not click.core.ParameterSource.DEFAULT
    # `-C ""` leaves the folder as it is, as in git.
    ctx.obj = {"repo": repo or ".", "repo_given": given, "verbose": verbose, "quiet": quiet}
