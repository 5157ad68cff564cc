"""Commands for signed releases: candidate, approve, pin, verify."""

from __future__ import annotations

import os
import sys
from datetime import UTC, datetime
from pathlib import Path

import click

from gitmem.cli.base import F, PathArg, cli, emit, home, json_option, store_of


def _signer_options(func: F) -> F:
    func = click.option(
        "--signer",
        type=click.Choice(["file", "agent", "ssh-keygen"]),
        default="file",
        show_default=True,
        help="file: --key is an Ed25519 private key; agent: the key is in ssh-agent "
        "(--key KEY.pub picks one); ssh-keygen: `ssh-keygen -Y sign -f KEY` signs "
        "(hardware -sk keys, passphrase-protected keys).",
    )(func)
    func = click.option(
        "--key",
        type=PathArg(path_type=Path),
        metavar="PATH",
        help="The maintainer's key (see --signer).",
    )(func)
    return click.option(
        "--principal",
        required=True,
        metavar="P",
        help="Who approves, as listed in .gitmem/release_signers.",
    )(func)


@cli.group()
def release() -> None:
    """Signed releases: candidates, approvals by held keys, recovery-tested pins."""


@release.command("candidate")
@click.argument("rev")
@json_option
@click.pass_context
def release_candidate(ctx: click.Context, rev: str, as_json: bool) -> None:
    """Record REV as an unsigned release candidate (never approved by itself)."""
    from gitmem.team.release.flow import record_candidate

    written = record_candidate(store_of(ctx), rev)
    if as_json:
        emit({"record": written.address, "commit": written.release.commit, "new": written.new})
        return
    state = "recorded" if written.new else "already recorded"
    click.echo(f"candidate {written.release.commit[:12]} {state} ({written.address[:12]})")


@release.command("approve")
@click.argument("rev")
@_signer_options
@click.option(
    "--sequence",
    type=click.IntRange(min=1),
    default=None,
    help="Sign this sequence number (default: this release's, else the next one).",
)
@json_option
@click.pass_context
def release_approve(
    ctx: click.Context,
    rev: str,
    principal: str,
    key: Path | None,
    signer: str,
    sequence: int | None,
    as_json: bool,
) -> None:
    """Sign an approval of REV (commit and tree) with a held key."""
    from gitmem.team.release.flow import approve
    from gitmem.team.release.signing import held_key

    held = held_key(signer, key, os.environ)
    written = approve(store_of(ctx), home(), rev, principal, held, datetime.now(UTC), sequence)
    if as_json:
        emit(
            {
                "record": written.address,
                "commit": written.release.commit,
                "sequence": written.sequence,
                "trust": written.detail,
            }
        )
        return
    click.echo(
        f"approved {written.release.commit[:12]} as release {written.sequence} "
        f"({written.address[:12]}): {written.detail}"
    )


@release.command("pin")
@click.argument("rev")
@click.option(
    "--recovery-tested",
    is_flag=True,
    help="State that this release was restored and run on another machine.",
)
@click.option(
    "--evidence",
    required=True,
    type=PathArg(path_type=Path),
    metavar="FILE",
    help="The recovery evidence (a log of the restore and run); its SHA-256 is signed.",
)
@_signer_options
@json_option
@click.pass_context
def release_pin(
    ctx: click.Context,
    rev: str,
    recovery_tested: bool,
    evidence: Path,
    principal: str,
    key: Path | None,
    signer: str,
    as_json: bool,
) -> None:
    """Sign the recovery-tested pin of the approved release REV (the second signature)."""
    from gitmem.core.errors import InputError
    from gitmem.team.release.flow import pin
    from gitmem.team.release.signing import held_key

    if not recovery_tested:
        raise InputError(
            "a pin states that the release was recovery-tested: pass --recovery-tested"
        )
    held = held_key(signer, key, os.environ)
    written = pin(store_of(ctx), home(), rev, principal, held, evidence, datetime.now(UTC))
    if as_json:
        emit(
            {
                "record": written.address,
                "commit": written.release.commit,
                "sequence": written.sequence,
            }
        )
        return
    click.echo(
        f"pinned release {written.sequence} ({written.release.commit[:12]}) as recovery-tested "
        f"({written.address[:12]})"
    )


@release.command("verify")
@click.argument("rev")
@json_option
@click.pass_context
def release_verify(ctx: click.Context, rev: str, as_json: bool) -> None:
    """Is REV an approved release (and pinned)? Exit 0 when approved, 1 when not."""
    from gitmem.core.shown import shown_text_line
    from gitmem.team.release.flow import verify_release

    verdict = verify_release(store_of(ctx), home(), rev)
    if as_json:
        emit(verdict.to_json())
    else:
        state = "approved" if verdict.approved else "NOT approved"
        if verdict.pinned:
            state += ", pinned (recovery-tested)"
        click.echo(f"{rev}: {state}")
        # A record's principal and key are what a push claims: one line, no escapes.
        for a in verdict.approvals:
            mark = "✓" if a["counted"] else "✗"
            said = f"{a['kind']} by {a['principal']} ({a['key']}), sequence {a['sequence']}"
            click.echo(f"  {mark} {shown_text_line(said)}")
        for reason in verdict.reasons:
            click.echo(f"  - {shown_text_line(reason)}")
    sys.exit(0 if verdict.approved else 1)
