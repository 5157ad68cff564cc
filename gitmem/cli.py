"""The command line: each command parses, calls one function, prints.

Errors: every :class:`GitmemError` becomes one line on stderr and its exit code
(2 bad input, 3 integrity failure, 1 other negatives). A traceback is printed only
with ``--verbose``.
"""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import click

from gitmem import __version__
from gitmem.errors import GitmemError, InputError

F = TypeVar("F", bound=Callable[..., Any])


def json_option(func: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON.")(func)


def _store(ctx: click.Context) -> Any:
    from gitmem.store import Store

    return Store.discover(ctx.obj["repo"])


def _home() -> Path:
    from gitmem.home import gitmem_home

    return gitmem_home()


def _emit(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "-C", "repo", default=".", metavar="PATH", help="Run as if gitmem was started in PATH."
)
@click.option("--verbose", is_flag=True, help="Show tracebacks for errors.")
@click.version_option(__version__, prog_name="gitmem")
@click.pass_context
def cli(ctx: click.Context, repo: str, verbose: bool) -> None:
    """gitmem: signed, git-native memory for AI coding agents."""
    ctx.obj = {"repo": repo, "verbose": verbose}


@cli.command()
@click.option("--name", metavar="PRINCIPAL", help="Who signs (default: git user.email).")
@click.option(
    "--key",
    type=click.Path(path_type=Path),
    metavar="PATH",
    help="Adopt this Ed25519 OpenSSH private key instead of creating one.",
)
@click.pass_context
def init(ctx: click.Context, name: str | None, key: Path | None) -> None:
    """Create (or adopt) your signing key and trust it; safe to run again."""
    from gitmem.initialise import init_repo

    outcome = init_repo(_store(ctx), _home(), name, key)
    ident = outcome.identity
    if outcome.created_key:
        action = "created"
    elif outcome.adopted_key:
        action = "adopted"
    else:
        action = "using"
    click.echo(f"{action} key {ident.signer.public_key.fingerprint()} for {ident.principal}")
    click.echo(f"  private key: {ident.key_path} (0600, never leaves this machine)")
    if outcome.added_signer:
        click.echo(f"  trusted in {_home() / 'allowed_signers'}")
    if not (
        outcome.created_key or outcome.adopted_key or outcome.added_signer or outcome.changed_config
    ):
        click.echo("already initialised; nothing changed")


@cli.group()
def keys() -> None:
    """Your signing keys."""


@keys.command("export")
def keys_export() -> None:
    """Print the allowed_signers line(s) of your own keys."""
    from gitmem.keys import export_lines

    for line in export_lines(_home()):
        click.echo(line)


@keys.command("list")
@json_option
def keys_list(as_json: bool) -> None:
    """List your keys; the active one is marked with *."""
    from gitmem.keys import own_keys

    found = own_keys(_home())
    if as_json:
        _emit(
            [
                {
                    "path": str(k.path),
                    "fingerprint": k.public_key.fingerprint(),
                    "public_key": k.public_key.openssh(),
                    "active": k.active,
                }
                for k in found
            ]
        )
        return
    if not found:
        click.echo("no keys yet: run `gitmem init`")
    for k in found:
        click.echo(f"{'*' if k.active else ' '} {k.public_key.fingerprint()}  {k.path}")


@cli.command()
@click.option(
    "--transcript",
    "transcript_path",
    required=True,
    type=click.Path(path_type=Path),
    help="The session transcript.",
)
@click.option(
    "--items", "items_path", metavar="PATH|-", help="JSON list of items to store (- reads stdin)."
)
@click.option("--session", help="Session id (default: derived from the transcript).")
@json_option
@click.pass_context
def capture(
    ctx: click.Context,
    transcript_path: Path,
    items_path: str | None,
    session: str | None,
    as_json: bool,
) -> None:
    """Write a signed checkpoint of a session transcript and its items."""
    from gitmem.capture import capture as run_capture
    from gitmem.items import parse_items
    from gitmem.keys import load_identity
    from gitmem.transcripts import load_transcript

    store = _store(ctx)
    transcript = load_transcript(transcript_path)
    drafts = [] if items_path is None else parse_items(*_read_input(items_path))
    identity = load_identity(_home())
    result = run_capture(
        store, identity, transcript, transcript_path, drafts, session, datetime.now(UTC)
    )
    if as_json:
        _emit(result.to_json())
        return
    click.echo(f"checkpoint {result.checkpoint} (session {result.session})")
    for item in result.items:
        mark = "✓ verbatim" if item.trust == "verbatim" else "~ inferred"
        note = (
            ""
            if item.quote_verified or item.quote_reason is None
            else f"  (quote not verbatim: {item.quote_reason})"
        )
        click.echo(f"  [{mark}] {item.text}{note}")


@cli.command("verify-quote")
@click.option(
    "--transcript",
    "transcript_path",
    required=True,
    type=click.Path(path_type=Path),
    help="The transcript to check against.",
)
@json_option
@click.argument("quote")
def verify_quote(transcript_path: Path, as_json: bool, quote: str) -> None:
    """Check QUOTE against a transcript; exit 0 when verbatim, 1 when not."""
    from gitmem.transcripts import load_transcript
    from gitmem.verifier import check_quote

    result = check_quote(quote, load_transcript(transcript_path).texts())
    if as_json:
        _emit(result.to_dict())
    else:
        click.echo(f"{'verbatim' if result.verbatim else 'NOT verbatim'}: {result.reason}")
    sys.exit(0 if result.verbatim else 1)


@cli.command()
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "markdown", "json"]),
    default="text",
    show_default=True,
)
@click.option(
    "--budget",
    type=click.IntRange(min=0),
    default=None,
    metavar="BYTES",
    help="Byte budget for text and markdown (0: no limit).",
)
@click.pass_context
def brief(ctx: click.Context, fmt: str, budget: int | None) -> None:
    """Render the "while you were away" briefing, verifying every receipt behind it."""
    from gitmem.brief import build_brief
    from gitmem.render import DEFAULT_BUDGET, render_json, render_markdown, render_text
    from gitmem.roots import load_roots

    store = _store(ctx)
    result = build_brief(store.read(), load_roots(_home(), store))
    limit = DEFAULT_BUDGET if budget is None else budget
    if fmt == "json":
        click.echo(render_json(result))
    elif fmt == "markdown":
        click.echo(render_markdown(result, limit), nl=False)
    else:
        click.echo(render_text(result, limit), nl=False)


@cli.command()
@json_option
@click.pass_context
def verify(ctx: click.Context, as_json: bool) -> None:
    """Check every record and receipt in the store; exit 3 if anything fails."""
    from gitmem.audit import verify_store
    from gitmem.roots import load_roots

    store = _store(ctx)
    report = verify_store(store, load_roots(_home(), store))
    if as_json:
        _emit(report.to_json())
    else:
        click.echo(
            f"{report.records} records, {report.receipts} receipts, "
            f"{report.snapshots} snapshots: "
            f"{'all verified' if report.ok else f'{len(report.problems)} problem(s)'}"
        )
        for p in report.problems:
            click.echo(f"  ✗ {p.path}: {p.problem}: {p.detail}")
    sys.exit(0 if report.ok else 3)


@cli.command()
@json_option
@click.pass_context
def log(ctx: click.Context, as_json: bool) -> None:
    """List the records in the store, newest first."""
    from gitmem.audit import log_entries
    from gitmem.roots import load_roots

    store = _store(ctx)
    entries = log_entries(store, load_roots(_home(), store))
    if as_json:
        _emit([e.to_json() for e in entries])
        return
    for e in entries:
        mark = "✓" if e.verified else "✗"
        count = "" if e.items is None else f" {e.items} item(s)"
        click.echo(
            f"{mark} {e.created or '?':20} {e.type:10} {e.sha256[:12]} "
            f"session={e.session} writer={e.writer} commit={(e.commit or '-')[:12]}{count}"
        )


@cli.command()
@click.option(
    "--keep",
    type=click.Path(path_type=Path),
    metavar="DIR",
    help="Keep the scratch repository and keys in DIR.",
)
def demo(keep: Path | None) -> None:
    """Capture a sample session, brief it, tamper with it, brief again."""
    from gitmem.demo import run_demo

    run_demo(keep, click.echo)


def _read_input(path: str) -> tuple[str, str]:
    if path == "-":
        return sys.stdin.read(), "stdin"
    try:
        return Path(path).read_text(encoding="utf-8"), path
    except FileNotFoundError as e:
        raise InputError(f"items file not found: {path}") from e
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read items file {path}: {e}") from e


def main(argv: list[str] | None = None) -> None:
    """Console entry point: run the CLI, turning errors into one line and an exit code."""
    args = sys.argv[1:] if argv is None else argv
    verbose = "--verbose" in args
    try:
        cli.main(args=args, prog_name="gitmem", standalone_mode=False)
    except GitmemError as e:
        if verbose:
            traceback.print_exc()
        click.echo(f"gitmem: {e}", err=True)
        sys.exit(e.exit_code)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.exceptions.NoArgsIsHelpError as e:
        click.echo(e.format_message())  # a bare `gitmem` or `gitmem keys` asks for help
        sys.exit(0)
    except click.ClickException as e:
        click.echo(f"gitmem: {e.format_message()}", err=True)
        sys.exit(e.exit_code)
    except click.exceptions.Abort:
        click.echo("gitmem: aborted", err=True)
        sys.exit(1)
    except Exception as e:
        if verbose:
            traceback.print_exc()
        click.echo(
            f"gitmem: internal error: {type(e).__name__}: {e} "
            "(rerun with --verbose for the traceback)",
            err=True,
        )
        sys.exit(1)
