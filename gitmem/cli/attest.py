"""``gitmem export``: memory as signed in-toto attestations (docs/export.md). ``gitmem
import --format intoto`` and ``gitmem verify --attest`` live with their commands in
:mod:`gitmem.cli.memory`."""

from __future__ import annotations

from pathlib import Path

import click

from gitmem.cli.base import PathArg, cli, emit, home, json_option, store_of
from gitmem.core.errors import InputError

_SHOWN_SKIPPED = 10


@cli.command()
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["intoto", "scai"]),
    default="intoto",
    show_default=True,
    help="intoto: gitmem's memory-item statements, importable again; scai: SCAI attribute "
    "reports for policy engines.",
)
@click.option("--items", "by_id", is_flag=True, help="Export the items ID… (unique prefixes).")
@click.option(
    "--since",
    metavar="REV",
    help="Export the items memory gained or changed since REV (a commit of "
    "refs/gitmem/memory, any other revision, or a date).",
)
@click.option("--all", "every", is_flag=True, help="Export every item.")
@click.option(
    "-o",
    "--output",
    type=PathArg(path_type=Path, dir_okay=False),
    help="Write the bundle (.intoto.jsonl) to FILE instead of stdout.",
)
@click.argument("ids", nargs=-1, metavar="[ID]...")
@json_option
@click.pass_context
def export(
    ctx: click.Context,
    fmt: str,
    by_id: bool,
    since: str | None,
    every: bool,
    output: Path | None,
    ids: tuple[str, ...],
    as_json: bool,
) -> None:
    """Export items as signed in-toto attestations (one DSSE envelope per item, JSON Lines)."""
    from gitmem.brief.attest import Selection
    from gitmem.team.attest.export import export_memory

    if sum((by_id, since is not None, every)) != 1:
        raise InputError("say which items: exactly one of --items ID…, --since REV, --all")
    if by_id != bool(ids):
        raise InputError("--items takes the ids after it (gitmem export --items ID…)")
    if as_json and output is None:
        raise InputError("--json reports on a bundle written with -o FILE")
    result = export_memory(store_of(ctx), home(), fmt, Selection(ids, since, every), output=output)
    for why in result.skipped[:_SHOWN_SKIPPED]:
        click.echo(f"gitmem: warning: not exported: {why}", err=True)
    if len(result.skipped) > _SHOWN_SKIPPED:
        click.echo(f"gitmem: warning: … and {len(result.skipped) - _SHOWN_SKIPPED} more", err=True)
    if output is None:
        click.echo(result.data, nl=False)
    elif as_json:
        emit({"items": result.items, "skipped": list(result.skipped), "output": str(output)})
    else:
        click.echo(f"exported {result.items} item(s) to {output}")
