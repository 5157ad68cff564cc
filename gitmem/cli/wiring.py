"""Commands that wire gitmem into git and agent hosts: ``hooks``, and the hidden
``hook`` entry point the installed scripts call."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from gitmem.cli.base import cli, emit, json_option, store_of


def _workdir(ctx: click.Context) -> Path:
    store = store_of(ctx)
    return Path(store.repo.workdir or store.common_dir)


@cli.group()
def hooks() -> None:
    """Install, remove or inspect gitmem's git hooks and agent-host hooks."""


@hooks.command("install")
@click.option(
    "--force",
    is_flag=True,
    help="Install even when core.hooksPath points to a shared hooks folder.",
)
@click.option(
    "--agent",
    type=click.Choice(["claude", "codex"]),
    help="Configure an agent host (session start: brief; end: capture) instead.",
)
@click.pass_context
def hooks_install(ctx: click.Context, force: bool, agent: str | None) -> None:
    """Install the post-commit, post-rewrite and pre-push hooks (or an agent's hooks)."""
    if agent is not None:
        from gitmem.agents.hosts import install_agent

        for path in install_agent(agent, _workdir(ctx)):
            click.echo(f"configured {agent}: {path}")
        return
    from gitmem.hooks.install import HOOK_NAMES
    from gitmem.setup.travel import wire

    wired = wire(store_of(ctx), hooks=HOOK_NAMES, force=force)
    for state in wired.hooks:
        kept = f" (kept your hook: {state.foreign.name})" if state.foreign else ""
        click.echo(f"installed {state.name}{kept}")
    for line in wired.configured:
        click.echo(f"configured {line}")


@hooks.command("uninstall")
@click.option(
    "--agent",
    type=click.Choice(["claude", "codex"]),
    help="Remove an agent host's gitmem hooks instead.",
)
@click.pass_context
def hooks_uninstall(ctx: click.Context, agent: str | None) -> None:
    """Remove gitmem's hooks only, restoring any hook they wrapped."""
    if agent is not None:
        from gitmem.agents.hosts import uninstall_agent

        for path in uninstall_agent(agent, _workdir(ctx)):
            click.echo(f"removed gitmem from {path}")
        return
    from gitmem.setup.travel import unwire

    states, restored = unwire(store_of(ctx))
    for state in states:
        click.echo(f"{state.name}: {'restored your hook' if state.installed else 'removed'}")
    for line in restored:
        click.echo(line)


@hooks.command("status")
@json_option
@click.pass_context
def hooks_status(ctx: click.Context, as_json: bool) -> None:
    """Which hooks are installed, and whose."""
    from gitmem.agents.hosts import AGENTS, agent_status
    from gitmem.hooks.install import status

    workdir = _workdir(ctx)
    states = status(workdir)
    agents = {a: agent_status(a, workdir) for a in AGENTS}
    if as_json:
        emit(
            {
                "git": [
                    {
                        "name": s.name,
                        "installed": s.installed,
                        "ours": s.ours,
                        "foreign": None if s.foreign is None else str(s.foreign),
                    }
                    for s in states
                ],
                "agents": agents,
            }
        )
        return
    for s in states:
        who = "gitmem" if s.ours else "another tool" if s.installed else "not installed"
        extra = f", wrapping {s.foreign.name}" if s.foreign else ""
        click.echo(f"{s.name}: {who}{extra}")
    for name, on in agents.items():
        click.echo(f"agent {name}: {'configured' if on else 'not configured'}")


@cli.command("hook", hidden=True)
@click.argument(
    "name", type=click.Choice(["post-commit", "post-rewrite", "pre-push", "capture-session"])
)
@click.argument("args", nargs=-1)
@click.pass_context
def hook(ctx: click.Context, name: str, args: tuple[str, ...]) -> None:
    """Run a hook's work (called by the installed hook scripts; always exits 0).

    The scripts reach :func:`gitmem.hooks.run.run_hook` without this command line
    (:func:`gitmem.cli.main`'s fast path); this command is the same for a user."""
    from gitmem.hooks.run import run_hook

    run_hook(ctx.obj["repo"], name, args)
    sys.exit(0)
