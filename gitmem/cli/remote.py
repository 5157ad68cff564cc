"""Commands that move memory between machines: sync, backup, restore, snapshot."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from gitmem.cli.base import PathArg, cli, emit, home, json_option, store_of


def _author() -> str:
    from gitmem.store.keys import read_config

    return read_config(home()).get("principal") or "gitmem"


@cli.command()
@click.argument("remote", default="origin")
@click.option(
    "--setup",
    is_flag=True,
    help="First add the fetch refspec to the remote's config and install the pre-push "
    "hook, so plain git fetch / git pull / git push carry memory too.",
)
@click.option(
    "--accept-rewrite",
    is_flag=True,
    help="Union-merge a remote whose history was rewritten (after you inspected it).",
)
@json_option
@click.pass_context
def sync(ctx: click.Context, remote: str, setup: bool, accept_rewrite: bool, as_json: bool) -> None:
    """Fetch, verify, union-merge and push refs/gitmem/* with REMOTE (default origin)."""
    from contextlib import nullcontext
    from dataclasses import replace

    from gitmem.team.prefetch import start_early

    # git fetches while gitmem loads (libgit2, the store, the checks); left here unless taken
    early = None if setup else start_early(ctx.obj["repo"], remote)
    from gitmem.core.shown import shown_text_line

    with early or nullcontext():
        from gitmem.team.fetching import Fetching, check_remote

        store = store_of(ctx)
        configured: list[str] = []
        if setup:
            from gitmem.setup.travel import wire

            check_remote(store, remote)
            wired = wire(store, [remote])
            configured = list(wired.configured)
            if wired.problem:
                click.echo(f"gitmem: {wired.problem}", err=True)
        with Fetching(store, remote, early) as begun:
            from gitmem.team.sync import sync as run_sync

            report = run_sync(store, remote, home(), _author(), accept_rewrite, begun)
    report = replace(report, configured=tuple(configured))
    if as_json:
        emit(report.to_json())
        sys.exit(report.exit_code)
    for line in configured:
        click.echo(f"configured {line}")
    if not report.refs:
        click.echo(f"nothing to sync: neither this clone nor {remote} has refs/gitmem/*")
    for r in report.refs:
        if r.problem is not None:
            click.echo(f"✗ {r.ref}: {r.problem}", err=True)
            continue
        parts = [r.merge]
        if r.new_records:
            parts.append(f"{r.new_records} record(s) in")
        if r.untrusted:
            parts.append(f"{r.untrusted} by untrusted keys (shown degraded)")
        if r.purged:
            parts.append(f"{len(r.purged)} purge(s) from {remote} applied here")
        if r.pushed:
            parts.append(
                f"pushed to {remote}" + (" (a purge: forced, with a lease)" if r.lease else "")
            )
        click.echo(f"✓ {r.ref}: {', '.join(parts)}")
        if r.quarantined:
            click.echo(
                f"  ⚠ {len(r.quarantined)} path(s) from {remote} fail their checks: "
                "quarantined (taken with the rest, never read as genuine)",
                err=True,
            )
        for q in r.quarantined[:5]:
            who = "" if q.commit is None else f" (added in {q.commit[:12]} by {q.author})"
            click.echo(f"    {shown_text_line(f'{q.path}: {q.problem}{who}')}", err=True)
    sys.exit(report.exit_code)


@cli.command()
@click.argument("dest")
@click.option(
    "--keep",
    metavar="daily=N,weekly=N,monthly=N",
    help="Retention: after recording this backup's point, prune the points beyond this "
    "policy (default: keep every point).",
)
@json_option
@click.pass_context
def backup(ctx: click.Context, dest: str, keep: str | None, as_json: bool) -> None:
    """Push every refs/gitmem/* ref, unforced, to the replica DEST (bare repo path or URL)
    and record a dated backup point there."""
    from datetime import UTC, datetime

    from gitmem.team.backup import backup as run_backup
    from gitmem.team.retention import parse_keep

    policy = None if keep is None else parse_keep(keep)
    report = run_backup(store_of(ctx), dest, home(), datetime.now(UTC), policy)
    if as_json:
        emit({"dest": dest, **report.to_json()})
        return
    for c in report.refs:
        click.echo(f"✓ {c.ref}: {c.outcome} ({(c.after or '-')[:12]})")
    click.echo(f"backup point {report.point.name}")
    if report.pruned:
        click.echo(f"pruned {len(report.pruned)} point(s) beyond {report.keep}")


@cli.command()
@click.argument("src")
@click.option(
    "--at",
    "at",
    metavar="TIME",
    help="Restore the newest backup point at or before TIME (a date, an ISO 8601 time, "
    "or a point's name), moving refs back if need be.",
)
@click.option("--list", "list_points", is_flag=True, help="List the replica's backup points.")
@json_option
@click.pass_context
def restore(ctx: click.Context, src: str, at: str | None, list_points: bool, as_json: bool) -> None:
    """Fetch refs/gitmem/* from the replica SRC, verify all of it, then restore it."""
    from gitmem.core.errors import InputError
    from gitmem.core.integrity import describe
    from gitmem.core.shown import shown_text_line
    from gitmem.team.backup import RestoreRefused, backup_points, restore_point
    from gitmem.team.backup import restore as run_restore
    from gitmem.team.retention import parse_at

    store = store_of(ctx)
    if list_points:
        if at is not None:
            raise InputError("--list and --at do not go together")
        points = backup_points(store, src)
        if as_json:
            emit({"src": src, "points": [p.to_json() for p in points]})
            return
        if not points:
            click.echo(f"{src} holds no backup point")
        for shown_point in points:
            tips = ", ".join(f"{r} {t[:12]}" for r, t in shown_point.refs.items())
            click.echo(f"{shown_point.name}  {tips}")
        return
    when = None if at is None else parse_at(at)
    point = None
    try:
        if when is None:
            copies = run_restore(store, src, home())
        else:
            point, copies = restore_point(store, src, home(), when)
    except RestoreRefused as e:
        for p in e.problems:
            said = f"{p.ref} {p.path}: {describe(p.problem, p.detail)}"
            click.echo(f"  ✗ {shown_text_line(said)}", err=True)
        raise
    if as_json:
        shown = {"point": None if point is None else point.to_json()}
        emit({"src": src, **shown, "refs": [c.to_json() for c in copies]})
        return
    if point is not None:
        click.echo(f"backup point {point.name}")
    for c in copies:
        click.echo(f"✓ {c.ref}: {c.outcome} ({(c.after or '-')[:12]})")


@cli.group()
def snapshot() -> None:
    """Stored transcript snapshots."""


@snapshot.command("show")
@click.argument("hash_prefix", metavar="HASH")
@click.option(
    "--output",
    "-o",
    type=PathArg(path_type=Path),
    help="Write the transcript to this file instead of stdout.",
)
@json_option
@click.pass_context
def snapshot_show(ctx: click.Context, hash_prefix: str, output: Path | None, as_json: bool) -> None:
    """Print the transcript snapshot HASH (or the snapshot of checkpoint HASH)."""
    from gitmem.store.files import atomic_write
    from gitmem.team.backup import show_snapshot

    digest, data = show_snapshot(store_of(ctx), hash_prefix)
    if as_json:
        if output is not None:
            atomic_write(output, data, 0o600)
        text = None if output is not None else data.decode("utf-8", errors="replace")
        written = None if output is None else str(output)
        emit({"snapshot": digest, "bytes": len(data), "written_to": written, "text": text})
        return
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    atomic_write(output, data, 0o600)
    click.echo(f"wrote snapshot {digest} ({len(data)} bytes) to {output}", err=True)
