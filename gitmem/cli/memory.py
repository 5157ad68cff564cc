"""Commands that write, read and check memory: capture, import, brief, review, verify,
log."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from gitmem.brief.budget import HOSTS, host_budget
from gitmem.cli.base import (
    PathArg,
    as_of_option,
    capture_extractor_option,
    cli,
    emit,
    emit_rows,
    extractor_option,
    format_option,
    home,
    json_option,
    read_input,
    store_of,
)
from gitmem.core.errors import InputError
from gitmem.core.items import Trust, badge_of
from gitmem.core.transcript import FORMATS as FORMAT_CHOICES


@cli.command()
@click.option(
    "--transcript",
    "transcript_path",
    type=PathArg(path_type=Path),
    help="The session transcript.",
)
@click.option(
    "--items", "items_path", metavar="PATH|-", help="JSON list of items to store (- reads stdin)."
)
@click.option("--session", help="Session id (default: from the transcript).")
@click.option(
    "--from-hook",
    "from_hook",
    type=click.Choice(HOSTS),
    help="Called by an agent host's hook: read its event from stdin, capture "
    "in the background, never fail.",
)
@format_option
@capture_extractor_option
@json_option
@click.pass_context
def capture(
    ctx: click.Context,
    transcript_path: Path | None,
    items_path: str | None,
    session: str | None,
    from_hook: str | None,
    transcript_format: str | None,
    extractor: str | None,
    model_command: str | None,
    base_url: str | None,
    model_name: str | None,
    as_json: bool,
) -> None:
    """Write a signed checkpoint of a session transcript and its items."""
    if from_hook is not None:
        from gitmem.agents.host_event import dispatch

        dispatch(from_hook, ctx.obj["repo"], sys.stdin.read())
        return
    if transcript_path is None:
        raise InputError("capture needs --transcript PATH (or --from-hook AGENT)")
    from gitmem.capture.extract import ModelOverrides
    from gitmem.capture.items import parse_items
    from gitmem.capture.prepare import prepare
    from gitmem.capture.run import Context, capture_transcript
    from gitmem.capture.transcripts import load_transcript, require_conversation, skipped_note

    store = store_of(ctx)
    transcript = load_transcript(transcript_path, transcript_format)
    drafts = None if items_path is None else parse_items(*read_input(items_path, "items file"))
    if not drafts:  # explicit items are what to store: the transcript is only evidence
        require_conversation(transcript)
    note = skipped_note(transcript)
    if note is not None:
        click.echo(f"gitmem: warning: {note}", err=True)
    context = Context.open(store, home())
    written_at = transcript_path.stat().st_mtime
    prepared = prepare(transcript, context.emitted, written_at)
    # The text as read is not kept beside its masked copy: a long transcript is big.
    del transcript
    result = capture_transcript(
        context,
        prepared,
        transcript_path,
        source=f"capture {transcript_path}",
        drafts=drafts,
        extractor=extractor,
        overrides=ModelOverrides(model_command, base_url, model_name),
        session=session,
        written_at=written_at,
    )
    if as_json:
        emit(result.to_json())
        return
    if result.skipped is not None:
        click.echo(f"{result.skipped}; nothing written (session {result.session})")
        return
    from gitmem.core.shown import shown_text_line

    click.echo(f"checkpoint {result.checkpoint} (session {result.session})")
    for item in result.items:
        mark = badge_of(item.trust)[1:-1]
        failed = not item.quote_verified and item.quote_reason is not None
        note = f"  (quote not verbatim: {item.quote_reason})" if failed else ""
        click.echo(f"  [{mark}] {shown_text_line(item.text + note)}")
    if result.corroborated:
        ids = ", ".join(i[:8] for i in result.corroborated)
        # Output kept as printed before "corroboration" became the one word for it.
        click.echo(f"  restated (corroboration recorded): {ids}")
    if result.carried:
        click.echo(f"  carried {result.carried} open item(s) forward")
    if result.aged_out:
        click.echo(
            f"  aged out (now STALE, see `gitmem show ID`): "
            f"{', '.join(i[:8] for i in result.aged_out)}"
        )


INTOTO = "intoto"


@cli.command("import")
@click.argument("folder", metavar="FOLDER|FILE", type=PathArg(path_type=Path))
@click.option(
    "--format",
    "transcript_format",
    type=click.Choice([*FORMAT_CHOICES, INTOTO]),
    default=None,
    help="Transcript format (default: detected from the content); intoto: FILE is a "
    "bundle of `gitmem export`, whose items are checked and stored.",
)
@click.option(
    "--any-folder",
    is_flag=True,
    help="Also import the sessions of FOLDER that ran in another repository's folder "
    "(skipped by default: Codex keeps every project's sessions in one folder).",
)
@extractor_option
@json_option
@click.pass_context
def import_(
    ctx: click.Context,
    folder: Path,
    transcript_format: str | None,
    any_folder: bool,
    extractor: str | None,
    model_command: str | None,
    base_url: str | None,
    model_name: str | None,
    as_json: bool,
) -> None:
    """Capture every transcript in FOLDER, or the one transcript FILE, once (already
    captured ones are skipped); with --format intoto, store the items of an exported
    bundle FILE after checking each."""
    if transcript_format == INTOTO:
        from gitmem.team.attest.imports import import_attestations

        done = import_attestations(store_of(ctx), home(), folder)
        if as_json:
            emit(done._asdict())
        else:
            untrusted = f", {done.untrusted} by keys no trust root of yours knows" * bool(
                done.untrusted
            )
            click.echo(
                f"{done.items} item(s), {done.records} record(s), {done.snapshots} "
                f"snapshot(s) checked{untrusted}; "
                + ("stored" if done.written else "all already stored")
                + (f" ({done.skipped} other attestation(s) skipped)" if done.skipped else "")
            )
        return
    from gitmem.capture.extract import ModelOverrides
    from gitmem.capture.folder import Folders, bulk_extractor, candidate_files, import_folder
    from gitmem.capture.run import Context

    files = candidate_files(folder)
    store = store_of(ctx)
    context = Context.open(store, home())
    extractor, notice = bulk_extractor(extractor, context.settings.get("extractor"), len(files))
    if notice is not None:
        click.echo(f"gitmem: {notice}", err=True)
    # a file named by itself is imported wherever its session ran: the user chose it
    folders = None if any_folder or not folder.is_dir() else Folders(store)
    overrides = ModelOverrides(model_command, base_url, model_name)
    show_bar = sys.stderr.isatty() and not as_json
    with click.progressbar(
        length=len(files), label="importing", file=sys.stderr, show_pos=True, hidden=not show_bar
    ) as bar:
        outcomes = import_folder(
            context,
            files,
            transcript_format,
            extractor,
            overrides,
            lambda _: bar.update(1),
            folders,
        )
    counts = {s: sum(o.status == s for o in outcomes) for s in ("captured", "skipped", "failed")}
    refused = sum(not o.transcript for o in outcomes)
    elsewhere = sum(o.elsewhere for o in outcomes)
    if as_json:
        emit({**counts, "files": [o.to_json() for o in outcomes]})
    else:
        for o in outcomes:
            if o.status == "failed":
                click.echo(f"  ✗ {o.path}: {o.error}")
            elif not o.transcript or o.elsewhere:
                click.echo(f"  - {o.path}: skipped: {o.reason}")
        not_transcripts = f"; {refused} not a transcript" if refused else ""
        if elsewhere:
            not_transcripts += f"; {elsewhere} of another repository, `--any-folder` imports them"
        click.echo(
            f"{counts['captured']} captured, {counts['skipped']} skipped (already stored or "
            f"nothing to keep{not_transcripts}), "
            f"{counts['failed']} failed ({len(files)} files)"
        )
    if elsewhere and refused + elsewhere == len(outcomes):
        raise InputError(
            f"nothing to import in {folder}: its sessions ran in other repositories' folders "
            "(`--any-folder` imports them)"
        )
    if refused == len(outcomes):
        if folder.is_file():
            raise InputError(f"nothing to import: {outcomes[0].reason}")
        raise InputError(f"nothing to import in {folder}: {_none_found(len(files))}")
    sys.exit(1 if counts["failed"] else 0)


def _none_found(files: int) -> str:
    """Why an import found nothing to import among its *files* candidates."""
    from gitmem.capture.folder import SUFFIXES

    if not files:
        return f"it holds no {', '.join(SUFFIXES)} file"
    if files == 1:
        return "its one file is not a transcript"
    return f"none of its {files} files is a transcript"


@cli.command("verify-quote")
@click.option(
    "--transcript",
    "transcript_path",
    required=True,
    type=PathArg(path_type=Path),
    help="The transcript to check against.",
)
@format_option
@json_option
@click.argument("quote")
@click.pass_context
def verify_quote(
    ctx: click.Context,
    transcript_path: Path,
    transcript_format: str | None,
    as_json: bool,
    quote: str,
) -> None:
    """Check QUOTE against a transcript; exit 0 when verbatim, 1 when not."""
    from gitmem.capture.evidence import check_quote_in_file

    if not quote.strip():
        raise InputError("verify-quote needs a QUOTE: an empty one is no quote at all")
    result = check_quote_in_file(quote, transcript_path, transcript_format, ctx.obj["repo"])
    if as_json:
        emit(result.to_dict())
    else:
        click.echo(f"{Trust.VERBATIM if result.verbatim else 'NOT verbatim'}: {result.reason}")
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
    help="Hard cap in bytes (default 9000, at least 800; 0: no limit).",
)
@click.option(
    "--host",
    type=click.Choice(HOSTS),
    default=None,
    help="Fit the agent host's own cap, in its unit: claude 9,000 characters, codex 2,300 "
    "tokens (estimated), copilot and gemini 9,000 characters.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (the same as --format json).")
@click.option(
    "--from-hook",
    "from_hook",
    type=click.Choice(HOSTS),
    hidden=True,
    help="Called by an agent host's session-start hook: print nothing outside a repository.",
)
@as_of_option
@click.pass_context
def brief(
    ctx: click.Context,
    fmt: str,
    budget: int | None,
    host: str | None,
    as_json: bool,
    from_hook: str | None,
    as_of: str | None,
) -> None:
    """Render the "while you were away" briefing, verifying every receipt behind it."""
    from gitmem.brief.emit import emit_brief

    if from_hook is not None:
        from gitmem.agents.host_context import hook_brief, read_event

        click.echo(hook_brief(from_hook, ctx.obj["repo"], home(), read_event()), nl=False)
        return
    if as_json and fmt not in ("text", "json"):
        raise InputError(f"--json and --format {fmt} do not go together")
    if host is not None and budget is not None:
        raise InputError("--host picks the budget: give --host or --budget, not both")
    shown = "json" if as_json else fmt
    limit = budget if host is None else host_budget(host)
    click.echo(emit_brief(store_of(ctx), home(), shown, limit, as_of=as_of), nl=False)


@cli.command()
@click.argument("range_spec", metavar="RANGE")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["markdown", "json"]),
    default="markdown",
    show_default=True,
)
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=100,
    show_default=True,
    help="Show at most this many items.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (the same as --format json).")
@as_of_option
@click.pass_context
def review(
    ctx: click.Context, range_spec: str, fmt: str, limit: int, as_json: bool, as_of: str | None
) -> None:
    """The memory of a range of commits (main..feature), as one pull-request comment."""
    from gitmem.brief.review import emit_review

    shown = "json" if as_json else fmt
    click.echo(emit_review(store_of(ctx), home(), range_spec, shown, limit, as_of), nl=False)


@cli.command()
@click.option(
    "--strict",
    is_flag=True,
    help="Also exit 3 when a record is by a key no trust root knows or written for another "
    "repository, and list the records that name no repository.",
)
@click.option(
    "--attest",
    is_flag=True,
    help="Print the result as a signed in-toto Test Result (a DSSE envelope, one JSON line).",
)
@click.option(
    "--since",
    "since",
    metavar="REV",
    help="Check only what memory holds that REV (a commit of the memory ref) did not, "
    "and the history after it: what a CI run checks of a push.",
)
@json_option
@click.pass_context
def verify(
    ctx: click.Context, strict: bool, attest: bool, since: str | None, as_json: bool
) -> None:
    """Check the store's integrity (exit 3 on any failure) and list untrusted records."""
    from gitmem.store.verify import render_verify, verify_store
    from gitmem.team.checkers import load_checkers

    store = store_of(ctx)
    start = None
    if since is not None:
        start = store.resolve(since)
        if start is None:
            raise InputError(f"--since {since}: no such commit in this repository")
    if attest:
        if as_json:
            raise InputError("--json and --attest do not go together")
        if start is not None:
            raise InputError("--since and --attest do not go together")
        from gitmem.team.attest.verify import attest_verify

        attested = attest_verify(store, home(), strict)
        click.echo(attested.envelope, nl=False)
        sys.exit(attested.exit_code)
    from gitmem.cli.progress import progress_line

    line = progress_line("verify", not as_json)
    try:
        report = verify_store(store, load_checkers(home(), store).for_ref, start, line)
    finally:
        if line is not None:
            line.close()
    if as_json:
        emit(report.to_json())
    else:
        click.echo(render_verify(report, strict), nl=False)
    sys.exit(report.exit_code(strict))


@cli.command()
@click.option(
    "-n", "--max-count", "limit", type=click.IntRange(min=0), metavar="N", help="Only the N newest."
)
@click.option(
    "--since", metavar="WHEN", help="Only records created since WHEN (3d, 12h, 2w, a date, a time)."
)
@json_option
@click.pass_context
def log(ctx: click.Context, limit: int | None, since: str | None, as_json: bool) -> None:
    """List the records in the store, newest first."""
    from datetime import UTC, datetime

    from gitmem.core.shown import shown_text_line
    from gitmem.lifecycle.log import log_entries
    from gitmem.store.log import parse_since
    from gitmem.store.roots import load_trust_roots

    start = None if since is None else parse_since(since, datetime.now(UTC))
    store = store_of(ctx)
    entries = log_entries(store, load_trust_roots(home(), store), limit, start)
    if as_json:
        emit_rows(e.to_json() for e in entries)
        return
    for e in entries:
        mark = "✓" if e.verified else "✗"
        count = "" if e.items is None else f" {e.items} item(s)"
        claims = shown_text_line(f"session={e.session or '-'} writer={e.writer or '-'}")
        click.echo(
            f"{mark} {e.created or '?':20} {e.type:10} {e.sha256[:12]} "
            f"{claims} commit={(e.commit or '-')[:12]}{count}"
        )
