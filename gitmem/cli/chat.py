"""Commands for chat exports approved by a person: import-chat, and the pending group."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from gitmem.cli.base import PathArg, cli, emit, extractor_option, home, json_option, store_of

if TYPE_CHECKING:
    from gitmem.capture.run import Context


def _context(ctx: click.Context) -> Context:
    from gitmem.capture.run import Context

    return Context.open(store_of(ctx), home())


def _line(item: dict[str, Any]) -> str:
    """One proposal as `pending list` and `import-chat` show it."""
    from gitmem.core.items import badge_of
    from gitmem.core.shown import shown_quote_line, shown_text_line

    when = f" {item['said_at']}" if item["said_at"] else ""
    said = shown_text_line(item["text"])
    voice = shown_text_line(f"{item['voice']}{when}")  # a name the export gave
    text = f"{item['id']} {badge_of(item['trust'])} [{voice}] {said}"
    if item["quote"]:
        text += f' — "{shown_quote_line(item["quote"])}"'
    elif item["quote_reason"]:
        text += f"  (quote not verbatim: {shown_text_line(item['quote_reason'])})"
    if item["audit"] is not None:
        text += f"  [audit: {item['audit']['verdict']}"
        text += f": {item['audit']['reason']}]" if item["audit"]["reason"] else "]"
    return text


@cli.command("import-chat")
@click.argument("export", type=PathArg(path_type=Path))
@click.option(
    "--format",
    "chat_format",
    type=click.Choice(["telegram", "generic"]),
    default=None,
    help="The export's format (default: detected).",
)
@click.option(
    "--me", metavar="NAME", help="Which participant you are (default: what the export shows)."
)
@click.option(
    "--audit-command",
    metavar="CMD",
    help="A second model (prompt on stdin, JSON on stdout) that audits each proposed item.",
)
@extractor_option
@json_option
@click.pass_context
def import_chat(
    ctx: click.Context,
    export: Path,
    chat_format: str | None,
    me: str | None,
    audit_command: str | None,
    extractor: str | None,
    model_command: str | None,
    base_url: str | None,
    model_name: str | None,
    as_json: bool,
) -> None:
    """Propose memory items from a chat export and stage them for your approval."""
    from gitmem.capture.chat.flow import import_chat as run_import
    from gitmem.capture.chat.flow import shown
    from gitmem.capture.extract import ModelOverrides

    result = run_import(
        _context(ctx),
        export,
        format=chat_format,
        me=me,
        now=datetime.now(UTC),
        extractor=extractor,
        overrides=ModelOverrides(model_command, base_url, model_name),
        audit_command=audit_command,
    )
    if as_json:
        emit(result.to_json())
        return
    from gitmem.core.shown import shown_text_line

    data = result.to_json()
    skipped = ", ".join(f"{n} {k}" for k, n in data["skipped"].items() if n) or "none"
    voices = shown_text_line(", ".join(data["voices"]))  # the names the export gave
    click.echo(
        f"{data['export']}: {data['messages']} messages read (skipped: {skipped}), "
        f"voices {voices}, {data['masked']} secret(s) masked"
    )
    if result.already_imported:
        click.echo("already imported: nothing new to propose (see `gitmem pending list`)")
        return
    for item in result.proposed:
        click.echo(f"  {_line(shown(item))}")
    if data["audit"] is not None:
        counts = ", ".join(f"{n} {k}" for k, n in data["audit"].items())
        click.echo(f"audit: {counts} (only kept items are approved by --all)")
    known = result.already_pending + result.already_stored
    note = f" ({known} already pending or stored)" if known else ""
    click.echo(
        f"{len(result.proposed)} item(s) proposed{note}; nothing is stored until you run "
        "`gitmem pending approve ID…|--all`"
    )


@cli.group()
def pending() -> None:
    """Proposals from import-chat waiting for your approval (never stored until approved)."""


@pending.command("list")
@json_option
@click.pass_context
def pending_list(ctx: click.Context, as_json: bool) -> None:
    """List the pending proposals."""
    from gitmem.capture.chat.flow import shown
    from gitmem.capture.chat.pending import Staging

    pairs = list(Staging(store_of(ctx).local_dir).items())
    if as_json:
        emit([{"import": imp.id, "export": imp.name, **shown(item)} for imp, item in pairs])
        return
    if not pairs:
        click.echo("nothing pending")
    for imp, item in pairs:
        click.echo(f"{_line(shown(item))}  ({imp.name})")


@pending.command("show")
@click.argument("ident", metavar="ID")
@json_option
@click.pass_context
def pending_show(ctx: click.Context, ident: str, as_json: bool) -> None:
    """Show one pending proposal with the message it came from."""
    from gitmem.capture.chat.flow import message_of, shown
    from gitmem.capture.chat.pending import Staging

    ((imp, item),) = Staging(store_of(ctx).local_dir).find([ident])
    data = {"import": imp.id, "export": imp.source, **shown(item), "message": message_of(imp, item)}
    if as_json:
        emit(data)
        return
    click.echo(_line(shown(item)))
    click.echo(f"kind: {item.draft.kind}; from {imp.source}")
    click.echo("message:")
    for line in (data["message"] or "(not found)").splitlines():
        click.echo(f"  | {line}")


@pending.command("approve")
@click.argument("ids", nargs=-1, metavar="ID…")
@click.option(
    "--all", "every", is_flag=True, help="Approve every proposal the audit did not hold back."
)
@json_option
@click.pass_context
def pending_approve(ctx: click.Context, ids: tuple[str, ...], every: bool, as_json: bool) -> None:
    """Store the approved proposals: one signed checkpoint per import."""
    from gitmem.capture.chat.flow import approve

    result = approve(_context(ctx), ids, every, datetime.now(UTC))
    if as_json:
        emit(result.to_json())
        return
    if not result.checkpoints:
        click.echo("nothing to approve")
    for _, r in result.checkpoints:
        click.echo(f"checkpoint {r.checkpoint} (session {r.session}): {len(r.items)} item(s)")
    for item in result.held:
        click.echo(
            f"  held: {item.id} (audit: {item.audit.verdict if item.audit else '-'}); "
            "approve it by its id if you want it"
        )


@pending.command("reject")
@click.argument("ids", nargs=-1, required=True, metavar="ID…")
@json_option
@click.pass_context
def pending_reject(ctx: click.Context, ids: tuple[str, ...], as_json: bool) -> None:
    """Drop pending proposals; nothing of them is kept."""
    from gitmem.capture.chat.flow import reject

    removed = reject(store_of(ctx).local_dir, ids)
    if as_json:
        emit({"rejected": removed})
        return
    click.echo(f"rejected {len(removed)} item(s): {', '.join(removed)}")
