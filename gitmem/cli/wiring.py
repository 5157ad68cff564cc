"""Commands that wire gitmem into git and agent hosts: ``hooks``, and the hidden
``hook`` entry point the installed scripts call."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from gitmem.brief.budget import HOSTS
from gitmem.cli.base import cli, emit, home, json_option, store_of
from gitmem.core.errors import InputError
from gitmem.core.extractors import CHOICES, HOST_EXTRACTORS, host_model_offer

if TYPE_CHECKING:
    from gitmem.hooks.install import HookState


def _state_json(state: HookState) -> dict[str, Any]:
    return {
        "name": state.name,
        "installed": state.installed,
        "ours": state.ours,
        "foreign": None if state.foreign is None else str(state.foreign),
    }


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
    type=click.Choice(HOSTS),
    help="Configure an agent host instead: Claude Code, Codex, Copilot CLI or Gemini CLI "
    "(session start: brief; end and compaction: capture).",
)
@click.option(
    "--scope",
    type=click.Choice(["project", "local", "user"]),
    help="With --agent: which hook file (default: local for claude, "
    ".claude/settings.local.json; user for the others, ~/.codex/hooks.json, "
    "~/.copilot/hooks/gitmem.json, ~/.gemini/settings.json; project: the committed file, "
    "which every teammate then needs gitmem for).",
)
@click.option(
    "--prompt-recall",
    is_flag=True,
    help="With --agent: also add recall hits for each prompt (UserPromptSubmit; Gemini "
    "CLI: BeforeAgent; at most 2,000 bytes). Copilot CLI reads no prompt hook's output.",
)
@click.option(
    "--extractor",
    type=click.Choice(CHOICES),
    help="With --agent: also set the extractor (claude, codex: the host's own model reads "
    "each session in the background; the repository's config, or yours with --scope user).",
)
@json_option
@click.pass_context
def hooks_install(
    ctx: click.Context,
    force: bool,
    agent: str | None,
    scope: str | None,
    prompt_recall: bool,
    extractor: str | None,
    as_json: bool,
) -> None:
    """Install the post-commit, post-rewrite and pre-push hooks (or an agent's hooks)."""
    if agent is None and (scope is not None or prompt_recall or extractor is not None):
        raise InputError("--scope, --prompt-recall and --extractor go with --agent HOST")
    if agent is not None:
        from gitmem.agents.hosts import DEFAULT_SCOPE, install_host
        from gitmem.store.config import config_path, set_value

        scope = scope or DEFAULT_SCOPE[agent]
        done = install_host(agent, _workdir(ctx), scope, prompt_recall=prompt_recall)
        chosen = None
        if extractor is not None:
            chosen = config_path(home(), store_of(ctx).local_dir, in_repo=scope != "user")
            set_value(chosen, "extractor", extractor)
        if as_json:
            shown = {"extractor": {"name": extractor, "file": str(chosen)}} if chosen else {}
            emit({**done.to_json(), **shown})
            return
        if chosen is not None:
            click.echo(f"extractor: {extractor} (set in {chosen})")
        verb = "configured" if done.changed else "already configured"
        click.echo(f"{verb} {agent} ({done.scope}): {done.path}")
        click.echo(f"  hook command: {done.command} ({done.reason})")
        for warning in done.warnings:
            click.echo(f"gitmem: warning: {warning}", err=True)
        click.echo("next steps:")
        for step in done.next_steps:
            click.echo(f"  - {step}")
        if chosen is None and agent in HOST_EXTRACTORS and _runs_heuristic(ctx):
            click.echo(f"  - Captures run the heuristic extractor: {host_model_offer(agent)}.")
        return
    from gitmem.hooks.install import HOOK_NAMES
    from gitmem.setup.travel import wire

    wired = wire(store_of(ctx), hooks=HOOK_NAMES, force=force)
    states = list(wired.hooks)
    if as_json:
        emit({"git": [_state_json(s) for s in states], "configured": list(wired.configured)})
        return
    for state in states:
        kept = f" (kept your hook: {state.foreign.name})" if state.foreign else ""
        click.echo(f"installed {state.name}{kept}")
    for line in wired.configured:
        click.echo(f"configured {line}")


def _runs_heuristic(ctx: click.Context) -> bool:
    """Whether captures here run the heuristic extractor (False when the settings cannot
    be read: doctor names that)."""
    from gitmem.core.errors import GitmemError
    from gitmem.store.config import load_settings

    try:
        extractor = load_settings(home(), store_of(ctx).local_dir).get("extractor")
    except GitmemError:
        return False
    return bool(extractor == "heuristic")


@hooks.command("uninstall")
@click.option(
    "--agent",
    type=click.Choice(HOSTS),
    help="Remove an agent host's gitmem hooks instead.",
)
@click.option(
    "--scope",
    type=click.Choice(["project", "local", "user"]),
    help="With --agent: only this hook file (default: every one the host has).",
)
@json_option
@click.pass_context
def hooks_uninstall(
    ctx: click.Context, agent: str | None, scope: str | None, as_json: bool
) -> None:
    """Remove gitmem's hooks only, restoring any hook they wrapped."""
    if agent is None and scope is not None:
        raise InputError("--scope goes with --agent HOST")
    if agent is not None:
        from gitmem.agents.hosts import scope_states, uninstall_host

        workdir = _workdir(ctx)
        scopes = [scope] if scope else [s.scope for s in scope_states(agent, workdir)]
        removed = uninstall_host(agent, workdir, scopes)
        if as_json:
            emit({"agent": agent, "removed_from": [str(p) for p in removed]})
            return
        for path in removed:
            click.echo(f"removed gitmem from {path}")
        if not removed:
            click.echo(f"no gitmem hooks for {agent} to remove")
        return
    from gitmem.setup.travel import unwire

    states, restored = unwire(store_of(ctx))
    if as_json:
        emit({"git": [_state_json(s) for s in states], "restored": restored})
        return
    for state in states:
        click.echo(f"{state.name}: {'restored your hook' if state.installed else 'removed'}")
    for line in restored:
        click.echo(line)


@hooks.command("status")
@json_option
@click.pass_context
def hooks_status(ctx: click.Context, as_json: bool) -> None:
    """Which hooks are installed, and whose (exit 2, after the report, when a host's
    hook file cannot be read)."""
    from gitmem.agents.hosts import AGENTS, agent_status
    from gitmem.hooks.install import status

    workdir = _workdir(ctx)
    states = status(workdir)
    agents: dict[str, bool] = {}
    errors: dict[str, str] = {}
    for agent in AGENTS:
        try:
            agents[agent] = agent_status(agent, workdir)
        except InputError as e:  # one host's unreadable file: the rest is still reported
            agents[agent], errors[agent] = False, str(e)
    if as_json:
        emit({"git": [_state_json(s) for s in states], "agents": agents, "errors": errors})
    else:
        for s in states:
            who = "gitmem" if s.ours else "another tool" if s.installed else "not installed"
            extra = f", wrapping {s.foreign.name}" if s.foreign else ""
            click.echo(f"{s.name}: {who}{extra}")
        for name, on in agents.items():
            shown = "unreadable" if name in errors else "configured" if on else "not configured"
            click.echo(f"agent {name}: {shown}")
    for message in errors.values():
        click.echo(f"gitmem: {message}", err=True)
    if errors:
        sys.exit(2)


@cli.command("hook", hidden=True)
@click.argument(
    "name",
    type=click.Choice(
        ["post-commit", "post-rewrite", "pre-push", "push-memory", "capture-session", "index"]
    ),
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
