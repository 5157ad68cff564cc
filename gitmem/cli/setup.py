"""Commands that set gitmem up and report on it: init, keys, config, status, doctor,
completion, demo."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from gitmem.cli.base import PathArg, cli, emit, home, json_option, store_of
from gitmem.core.errors import InputError


@cli.command()
@click.option("--name", metavar="PRINCIPAL", help="Who signs (default: git user.email).")
@click.option(
    "--key",
    type=PathArg(path_type=Path),
    metavar="PATH",
    help="Adopt this Ed25519 OpenSSH private key instead of creating one.",
)
@json_option
@click.pass_context
def init(ctx: click.Context, name: str | None, key: Path | None, as_json: bool) -> None:
    """Create (or adopt) your signing key and trust it; safe to run again."""
    from gitmem.setup.init import init_clone

    outcome, wired = init_clone(store_of(ctx), home(), name, key)
    ident = outcome.identity
    action = "created" if outcome.created_key else "adopted" if outcome.adopted_key else "using"
    if as_json:
        emit(
            {
                "key": action,
                "principal": ident.principal,
                "fingerprint": ident.signer.public_key.fingerprint(),
                "private_key": str(ident.key_path),
                "trusted_in": str(home() / "allowed_signers") if outcome.added_signer else None,
                "changed_config": outcome.changed_config,
            }
        )
        return
    click.echo(f"{action} key {ident.signer.public_key.fingerprint()} for {ident.principal}")
    click.echo(f"  private key: {ident.key_path} (0600, never leaves this machine)")
    if outcome.added_signer:
        click.echo(f"  trusted in {home() / 'allowed_signers'}")
    for line in wired.configured:
        click.echo(f"  configured {line}")
    for state in wired.hooks:
        click.echo(f"  the {state.name} hook is installed: memory goes with every git push")
    if wired.problem:
        click.echo(f"gitmem: {wired.problem}", err=True)
    changed = (
        outcome.created_key
        or outcome.adopted_key
        or outcome.added_signer
        or outcome.changed_config
        or wired.configured
    )
    if not changed:
        click.echo("already initialised; nothing changed")


@cli.group()
def keys() -> None:
    """Your signing keys."""


@keys.command("export")
@json_option
def keys_export(as_json: bool) -> None:
    """Print the allowed_signers line(s) of your own keys."""
    from gitmem.store.keys import export_lines

    lines = export_lines(home())
    if as_json:
        emit({"allowed_signers": lines})
        return
    for line in lines:
        click.echo(line)


@keys.command("list")
@json_option
def keys_list(as_json: bool) -> None:
    """List your keys; the active one is marked with *."""
    from gitmem.store.keys import own_keys

    found = own_keys(home())
    if as_json:
        emit(
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
@click.argument("key", required=False)
@click.argument("value", required=False)
@click.option(
    "--repo",
    "in_repo",
    is_flag=True,
    help="Set it for this repository only (.git/gitmem/config.json).",
)
@click.option("--unset", is_flag=True, help="Remove KEY from the file.")
@json_option
@click.pass_context
def config(
    ctx: click.Context,
    key: str | None,
    value: str | None,
    in_repo: bool,
    unset: bool,
    as_json: bool,
) -> None:
    """Show settings, or get / set / unset one (KEY [VALUE])."""
    from gitmem.core.errors import GitError
    from gitmem.store.config import config_path, load_settings, set_value, shown_settings

    try:
        local: Path | None = store_of(ctx).local_dir
    except GitError:
        local = None
    target = config_path(home(), local, in_repo)
    if unset and (key is None or value is not None):
        raise InputError("--unset takes KEY alone: gitmem config --unset KEY")
    if key is not None and (value is not None or unset):
        set_value(target, key, None if unset else value or "")
        if as_json:
            emit({"action": "unset" if unset else "set", "key": key, "file": str(target)})
        else:
            click.echo(f"{'unset' if unset else 'set'} {key} in {target}")
        if not unset:
            # A value set where another source wins does nothing here: say which wins.
            ((name, (shown, source)),) = shown_settings(load_settings(home(), local), key).items()
            if source != str(target):
                there = " (`gitmem config --repo` sets it there)" if not in_repo else ""
                there = there if source == str(config_path(home(), local, True)) else ""
                click.echo(
                    f"gitmem: warning: {name} = {json.dumps(shown)} from {source} wins here "
                    f"over the value just set{there}",
                    err=True,
                )
        return
    shown = shown_settings(load_settings(home(), local), key)
    if as_json:
        emit({k: {"value": v, "from": source} for k, (v, source) in shown.items()})
        return
    for k, (v, source) in shown.items():
        click.echo(f"{k} = {'(unset)' if v is None else json.dumps(v)}  ({source})")


@cli.command()
@json_option
@click.pass_context
def status(ctx: click.Context, as_json: bool) -> None:
    """Key, trust roots, hooks, the last capture and recent failures (exit 2 when a
    config file is not usable)."""
    from gitmem.setup.status import collect

    report = collect(store_of(ctx), home())
    if as_json:
        emit(report)
    else:
        from gitmem.setup.status import render_text

        click.echo(render_text(report), nl=False)
    if "config_error" in report:
        click.echo(f"gitmem: {report['config_error']}", err=True)
        sys.exit(2)


@cli.command()
@click.argument("shell", type=click.Choice(["bash", "zsh", "fish"]))
def completion(shell: str) -> None:
    """Print the shell completion script (click's) for SHELL; see the README to load it."""
    from click.shell_completion import get_completion_class

    completer = get_completion_class(shell)
    assert completer is not None  # click knows every shell the Choice allows
    click.echo(completer(cli, {}, "gitmem", "_GITMEM_COMPLETE").source())


@cli.command()
@json_option
@click.pass_context
def doctor(ctx: click.Context, as_json: bool) -> None:
    """Check key, trust roots, hooks, agent hosts, travel, index, captures and brief
    size, each with its fix (exit 1 when a check fails)."""
    from gitmem.setup.doctor import diagnose, exit_code, render_text

    checks = diagnose(store_of(ctx), home())
    if as_json:
        emit({"ok": exit_code(checks) == 0, "checks": [c.to_json() for c in checks]})
    else:
        click.echo(render_text(checks), nl=False)
    sys.exit(exit_code(checks))


@cli.command()
@click.option(
    "--keep",
    type=PathArg(path_type=Path),
    metavar="DIR",
    help="Keep the scratch repository and keys in DIR.",
)
def demo(keep: Path | None) -> None:
    """Capture a sample session, brief it, tamper with it, brief again."""
    from gitmem.setup.demo import run_demo

    run_demo(keep, click.echo)


@cli.command("help")
@click.argument("command", nargs=-1, metavar="[COMMAND [SUBCOMMAND]]")
@click.pass_context
def help_(ctx: click.Context, command: tuple[str, ...]) -> None:
    """Show gitmem's help, or one COMMAND's (the same as COMMAND --help; a group's
    subcommand too: `gitmem help hooks install`)."""
    root = ctx.find_root()
    found: click.Command = root.command
    parent = root
    for word in command:
        sub = found.get_command(parent, word) if isinstance(found, click.Group) else None
        if sub is None:
            raise InputError(f"no command {' '.join(command)!r}: `gitmem help` lists them")
        parent = click.Context(sub, info_name=word, parent=parent)
        found = sub
    click.echo(found.get_help(parent))
