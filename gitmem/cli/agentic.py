"""Commands for agents mid-session and the people beside them: recall, ask, the MCP
server and the web viewer."""

from __future__ import annotations

import sys

import click

from gitmem.brief.budget import HOSTS
from gitmem.cli import RECALL_LIMIT
from gitmem.cli.base import as_of_option, cli, home, json_option, store_of


@cli.command()
@click.argument("terms", nargs=-1)
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=RECALL_LIMIT,
    show_default=True,
    help="Show at most this many items.",
)
@click.option(
    "--from-hook",
    "from_hook",
    type=click.Choice(HOSTS),
    hidden=True,
    help="Called by an agent host's UserPromptSubmit hook: the prompt's terms, from stdin.",
)
@json_option
@as_of_option
@click.pass_context
def recall(
    ctx: click.Context,
    terms: tuple[str, ...],
    limit: int,
    from_hook: str | None,
    as_json: bool,
    as_of: str | None,
) -> None:
    """Search every item of the memory's whole history (forgotten ones never)."""
    from gitmem.agents.recall.render import emit_recall

    if from_hook is not None:
        from gitmem.agents.host_context import prompt_recall

        payload = sys.stdin.read()
        click.echo(prompt_recall(from_hook, ctx.obj["repo"], home(), payload), nl=False)
        return
    if not terms:
        raise click.UsageError("Missing argument 'TERMS...'.")
    click.echo(emit_recall(store_of(ctx), home(), list(terms), limit, as_json, as_of), nl=False)


@cli.command()
@click.argument("question", nargs=-1, required=True)
@click.option(
    "--no-record",
    is_flag=True,
    help="Keep the outcome as one local record (.git/gitmem/ask/) instead of a signed event.",
)
@click.option(
    "--reuse-window",
    type=click.IntRange(0, 86_400),
    default=None,
    metavar="SECONDS",
    help="Reuse the record of an identical ask this recent (default: ask.reuse_window; 0: never).",
)
@json_option
@click.pass_context
def ask(
    ctx: click.Context,
    question: tuple[str, ...],
    no_record: bool,
    reuse_window: int | None,
    as_json: bool,
) -> None:
    """Answer QUESTION from memory and the files at HEAD, released only when
    independent checks agree with the source (exit code per outcome: docs/ask.md)."""
    from gitmem.agents.ask.render import emit_ask

    output, code = emit_ask(
        store_of(ctx),
        home(),
        " ".join(question),
        as_json,
        record=not no_record,
        reuse_window=reuse_window,
    )
    click.echo(output, nl=False)
    sys.exit(code)


@cli.command()
@click.pass_context
def mcp(ctx: click.Context) -> None:
    """Serve this repository's memory to agents over MCP on stdio (needs the [mcp] extra)."""
    from gitmem.agents.mcp import serve

    serve(ctx.obj["repo"] if ctx.obj["repo_given"] else None, home())


@cli.command()
@click.option(
    "--port",
    type=int,
    default=8765,
    show_default=True,
    help="The port to listen on (0: any free one).",
)
@click.option(
    "--host",
    default=None,
    metavar="HOST",
    help="The address to listen on (default 127.0.0.1; any other is served with a warning).",
)
@click.pass_context
def serve(ctx: click.Context, port: int, host: str | None) -> None:
    """A local, read-only web viewer of the memory: the brief, items' histories, recall."""
    from gitmem.agents.viewer import serve as run

    run(ctx.obj["repo"], home(), host, port, lambda line: click.echo(line))
