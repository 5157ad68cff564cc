"""Commands that change or explain an item's life: resolve, reverify, supersede, note,
forget, show, promote, gate. Each writes at most one signed event; none edits a record."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from gitmem.cli.base import PathArg, cli, emit, format_option, home, json_option, store_of
from gitmem.core.claims import WorldStatus
from gitmem.core.errors import InputError

if TYPE_CHECKING:
    from gitmem.lifecycle.workspace import Workspace

GATE_EXIT = {"proceed": 0, "reverify": 1, "quarantine": 4}


def _workspace(ctx: click.Context) -> Workspace:
    from gitmem.lifecycle.workspace import Workspace

    return Workspace(store_of(ctx), home())


def _done(ws: Workspace, as_json: bool, action: str, address: str, item: str, **more: str) -> None:
    """Say what was written: the action, the item (its full id in JSON) and the signed
    event's address."""
    if as_json:
        emit({"action": action, "item": ws.item(item).id, "event": address, **more})
    else:
        click.echo(f"{action} {item} (event {address[:12]})")


@cli.command()
@click.argument("item_id", metavar="ID")
@click.option("--note", help="Why it is done (a human verdict).")
@click.option(
    "--evidence",
    metavar="QUOTE",
    help="An agent's evidence: a quote that must verify in --transcript, or nothing is written.",
)
@click.option("--transcript", type=PathArg(path_type=Path), help="Where --evidence is.")
@format_option
@json_option
@click.pass_context
def resolve(
    ctx: click.Context,
    item_id: str,
    note: str | None,
    evidence: str | None,
    transcript: Path | None,
    transcript_format: str | None,
    as_json: bool,
) -> None:
    """Mark an item done, so it stops being carried."""
    from gitmem.capture.evidence import evidence_in_file
    from gitmem.lifecycle.commands import resolve as run

    ws = _workspace(ctx)
    proof = None
    if evidence is not None or transcript is not None:
        if evidence is None or transcript is None:
            raise InputError("--evidence and --transcript go together")
        proof = evidence_in_file(evidence, transcript, transcript_format, ws.store)
    _done(ws, as_json, "resolved", run(ws, item_id, note, proof), item_id)


@cli.command()
@click.argument("item_id", metavar="ID")
@click.option("--evidence", metavar="QUOTE", help="A quote that verifies in --transcript.")
@click.option(
    "--transcript",
    type=PathArg(path_type=Path),
    required=True,
    help="The transcript holding the evidence (alone: the item's own quote).",
)
@format_option
@json_option
@click.pass_context
def reverify(
    ctx: click.Context,
    item_id: str,
    evidence: str | None,
    transcript: Path,
    transcript_format: str | None,
    as_json: bool,
) -> None:
    """Reopen or re-confirm an item, on evidence that verifies (the only way back)."""
    from gitmem.capture.evidence import evidence_in_file
    from gitmem.lifecycle.commands import own_quote
    from gitmem.lifecycle.commands import reverify as run

    ws = _workspace(ctx)
    quote = evidence if evidence is not None else own_quote(ws, item_id)
    proof = evidence_in_file(quote, transcript, transcript_format, ws.store)
    _done(ws, as_json, "reverified", run(ws, item_id, proof), item_id)


@cli.command()
@click.argument("old", metavar="OLD")
@click.argument("new", metavar="NEW")
@click.option(
    "--likely",
    is_flag=True,
    help="Only probably superseded (a contradiction, shown as a warning, until confirmed).",
)
@json_option
@click.pass_context
def supersede(ctx: click.Context, old: str, new: str, likely: bool, as_json: bool) -> None:
    """Say that item NEW replaces item OLD."""
    from gitmem.lifecycle.commands import supersede as run

    ws = _workspace(ctx)
    action = "likely superseded" if likely else "superseded"
    _done(ws, as_json, action, run(ws, old, new, likely), old, by=ws.item(new).id)


@cli.command()
@click.argument("item_id", metavar="ID")
@click.argument("text")
@json_option
@click.pass_context
def note(ctx: click.Context, item_id: str, text: str, as_json: bool) -> None:
    """Record that the world changed since the item was captured (TEXT says how)."""
    from gitmem.capture.masking import mask
    from gitmem.lifecycle.commands import note as run

    ws = _workspace(ctx)
    _done(ws, as_json, "noted", run(ws, item_id, text, lambda t: mask(t).text), item_id)


@cli.command()
@click.argument("item_id", metavar="ID")
@json_option
@click.pass_context
def forget(ctx: click.Context, item_id: str, as_json: bool) -> None:
    """Tombstone an item: its text is never rendered again, anywhere."""
    from gitmem.lifecycle.commands import forget as run

    ws = _workspace(ctx)
    _done(ws, as_json, "forgot", run(ws, item_id), item_id)


@cli.command()
@click.argument("item_id", metavar="ID")
@json_option
@click.pass_context
def show(ctx: click.Context, item_id: str, as_json: bool) -> None:
    """An item's whole history: origin, sightings, events, receipts."""
    from gitmem.lifecycle.show import render
    from gitmem.lifecycle.show import show as run

    report = run(store_of(ctx), home(), item_id)
    if as_json:
        emit(report)
    else:
        click.echo(render(report), nl=False)


@cli.command()
@click.argument("item_id", metavar="ID")
@click.option("--check", "check_only", is_flag=True, help="Only evaluate; write nothing.")
@json_option
@click.pass_context
def promote(ctx: click.Context, item_id: str, check_only: bool, as_json: bool) -> None:
    """Promote an item to VERIFIED when independent evidence allows it (exit 1 if not)."""
    from gitmem.lifecycle.commands import promote as run

    result, event = run(_workspace(ctx), item_id, check_only)
    if as_json:
        emit({**result.to_json(), "event": event})
    else:
        verdict = "allowed" if result.allowed else "not allowed"
        done = "" if event is None else f" (promoted, event {event[:12]})"
        click.echo(f"promotion {verdict}{done}: {result.independent_sources} independent source(s)")
        for reason in result.reasons:
            click.echo(f"  - {reason}")
    sys.exit(0 if result.allowed else 1)


@cli.command()
@click.argument("item_id", metavar="ID")
@click.option(
    "--consequential",
    is_flag=True,
    help="The use has consequences (a deploy, a "
    "merge, a deletion): only VERIFIED items with fresh roots proceed.",
)
@json_option
@click.pass_context
def gate(ctx: click.Context, item_id: str, consequential: bool, as_json: bool) -> None:
    """proceed / reverify / quarantine, before using an item (exit 0 / 1 / 4)."""
    from gitmem.brief.emit import world_probe
    from gitmem.lifecycle.commands import gate_item

    ws = _workspace(ctx)
    view = world_probe(ws.store)(ws.item(item_id))
    result = gate_item(
        ws,
        item_id,
        consequential,
        conflict=view is not None and view.status == WorldStatus.CONTRADICTED,
    )
    if as_json:
        emit(result.to_json())
    else:
        click.echo(result.decision)
        for reason in result.reasons:
            click.echo(f"  - {reason}")
    sys.exit(GATE_EXIT[result.decision])


@cli.command()
@click.argument("item_ids", metavar="ID…", nargs=-1)
@click.option(
    "--text",
    metavar="STRING",
    help="Purge every item, record and snapshot holding STRING instead "
    "(snapshots are replaced by redacted copies).",
)
@click.option("--yes", is_flag=True, help="Do not ask first (needed when stdin is not a terminal).")
@click.option(
    "--gc",
    "collect",
    is_flag=True,
    help="Then run `git reflog expire --expire=now --all && git gc --prune=now`.",
)
@json_option
@click.pass_context
def purge(
    ctx: click.Context,
    item_ids: tuple[str, ...],
    text: str | None,
    yes: bool,
    collect: bool,
    as_json: bool,
) -> None:
    """Remove items (or a string) from every commit of the memory ref, for good."""
    from datetime import UTC, datetime

    from gitmem.lifecycle.purge import plan_purge, run_purge
    from gitmem.store.purge import GC_COMMANDS

    ws = _workspace(ctx)
    plan = plan_purge(ws, item_ids, text)
    if not yes:
        if not sys.stdin.isatty():
            raise InputError("purge rewrites history and asks first: give --yes to run it here")
        for r in plan.removals:
            shown = f": {r.text}" if r.text else ""
            click.echo(f"  {r.kind} {r.address[:12]} ({r.why}){shown}", err=True)
        click.confirm(f"Remove these from every commit of {ws.store.ref}?", abort=True, err=True)
    result = run_purge(ws, plan, datetime.now(UTC), gc=collect)
    if as_json:
        emit(result.to_json())
    else:
        p = result.purge
        click.echo(
            f"purged {len(p.items)} item(s), {len(p.snapshots)} snapshot(s) replaced, "
            f"{len(p.records)} record(s) removed from every commit of {', '.join(result.refs)} "
            f"(event {result.event[:12]})"
        )
        gone = [*result.scrubbed.changed, *result.scrubbed.deleted]
        if gone:
            click.echo(f"scrubbed .git/gitmem/: {', '.join(gone)}")
        for left in result.scrubbed.left:
            click.echo(f"⚠ .git/gitmem/{left} holds the purged text: edit it yourself", err=True)
        if result.shared:
            click.echo("`gitmem sync` pushes the purge to each remote (sync's only forced push).")
        else:
            click.echo(
                "⚠ the team root (.gitmem/allowed_signers on the trust branch) does not trust "
                "your key: this purge stays in this clone, and `gitmem sync` will not force it "
                "onto a remote until that key is committed there",
                err=True,
            )
        click.echo(
            "a transcript file that still holds it stores it again if captured again: "
            "edit or delete it (and rotate a leaked secret)"
        )
        if not collect:
            click.echo(f"so git drops the old objects here: {' && '.join(GC_COMMANDS)}")
        elif result.gc_error is None:
            click.echo(f"old objects dropped here: ran {' && '.join(GC_COMMANDS)}")
    if result.gc_error is not None:
        click.echo(f"gitmem: {result.gc_error}", err=True)
        sys.exit(1)
