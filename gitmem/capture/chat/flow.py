"""``gitmem import-chat`` and ``gitmem pending``: proposals staged, a person decides.

Import: export → voices settled → secrets masked (:mod:`gitmem.capture.prepare`) → items
proposed, each from one message (:mod:`gitmem.capture.chat.propose`) → each quote checked
against its own message → optionally audited by a second model
(:mod:`gitmem.capture.chat.audit`) → staged (:mod:`gitmem.capture.chat.pending`), never
stored. An export whose masked snapshot is already staged or stored proposes nothing, and
no item already staged or in memory is proposed again.

Approve: the approved items of one import become one signed checkpoint whose source is
the import's masked snapshot, through the capture pipeline every capture uses (quotes
checked again, carry, corroboration); each keeps its voice and date. Reject: the items are
removed; nothing of them is kept.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from gitmem.capture.chat.audit import Proposal, audit_items, summary
from gitmem.capture.chat.export import FORMAT_NAMES, parse_export
from gitmem.capture.chat.pending import PendingImport, PendingItem, Staging
from gitmem.capture.chat.propose import SAID_AT, VOICE, propose
from gitmem.capture.chat.voices import Chat, settle_voices
from gitmem.capture.checkpoint import build_items, mask_draft
from gitmem.capture.extract import NO_OVERRIDES, ModelOverrides
from gitmem.capture.prepare import Prepared, prepare
from gitmem.capture.run import CaptureResult, Context, capture_transcript
from gitmem.capture.transcripts import read_user_file
from gitmem.core.canonical import sha256_hex
from gitmem.core.errors import InputError
from gitmem.core.items import Draft, statement_id
from gitmem.core.records import format_time
from gitmem.core.transcript import Transcript, parse_snapshot, render_snapshot
from gitmem.core.types import Sha256Hex
from gitmem.store.files import locked

LOCK_FILE = "pending.lock"


@dataclass(frozen=True)
class Imported:
    """What one ``import-chat`` found and staged."""

    chat: Chat
    import_id: str
    extractor: str
    masked: int
    proposed: tuple[PendingItem, ...]
    already_pending: int = 0
    already_stored: int = 0
    already_imported: bool = False
    audited: bool = False

    def to_json(self) -> dict[str, Any]:
        export = self.chat.export
        return {
            "import": self.import_id,
            "session": self.chat.session,
            "format": export.format,
            "export": export.name,
            "messages": len(export.messages),
            "skipped": dict(export.skipped),
            "voices": self.chat.voices(),
            "me": self.chat.export.participants()[self.chat.me],
            "masked": self.masked,
            "extractor": self.extractor,
            "already_imported": self.already_imported,
            "already_pending": self.already_pending,
            "already_stored": self.already_stored,
            "proposed": [shown(i) for i in self.proposed],
            "audit": summary([i.audit for i in self.proposed]) if self.audited else None,
        }


@dataclass(frozen=True)
class Approved:
    """What one ``pending approve`` wrote."""

    checkpoints: tuple[tuple[str, CaptureResult], ...]
    """(import id, the checkpoint written for it)."""
    held: tuple[PendingItem, ...] = field(default_factory=tuple)
    """Left pending by ``--all``: audited and not kept."""

    def to_json(self) -> dict[str, Any]:
        return {
            "checkpoints": [
                {
                    "import": imp,
                    "checkpoint": r.checkpoint,
                    "session": r.session,
                    "items": [
                        {"id": i.id, "text": i.text, "trust": i.trust, "voice": i.extra.get(VOICE)}
                        for i in r.items
                    ],
                }
                for imp, r in self.checkpoints
            ],
            "held": [shown(i) for i in self.held],
        }


def shown(item: PendingItem) -> dict[str, Any]:
    """A pending item as ``--json`` shows it. Raises nothing."""
    d = item.draft
    return {
        "id": item.id,
        "kind": d.kind,
        "text": d.text,
        "trust": item.trust,
        "quote": d.quote if item.verbatim else None,
        "unverified_quote": None if item.verbatim else d.quote,
        "quote_reason": item.reason,
        "voice": d.extra.get(VOICE),
        "said_at": d.extra.get(SAID_AT),
        "audit": None if item.audit is None else item.audit.to_json(),
        "held": item.held,
    }


def import_chat(
    ctx: Context,
    path: Path,
    *,
    format: str | None,
    me: str | None,
    now: datetime,
    extractor: str | None = None,
    overrides: ModelOverrides = NO_OVERRIDES,
    audit_command: str | None = None,
) -> Imported:
    """Propose items from the chat export at *path* and stage them (see the module).

    Raises:
        InputError: the export cannot be read or does not fit its format; who "me" is
            cannot be told; an unknown extractor or missing model settings; an audit
            command that is no command line.
        ModelError: the extractor's model failed or broke the schema (logged); an
            audit failure is an item's ``failed`` verdict instead.
    """
    if audit_command is not None:
        _check_audit_command(audit_command)
    chosen_format = None if format is None else FORMAT_NAMES.get(format, format)
    data = read_user_file(path, "chat export", "MB")
    chat = settle_voices(parse_export(data, path.name, chosen_format), me)
    prepared = prepare(chat.transcript, ctx.emitted, path.stat().st_mtime)
    digest = sha256_hex(prepared.snapshot)
    name = extractor or str(ctx.settings.get("extractor"))
    source = f"import-chat {path}"
    staging = Staging(ctx.store.local_dir)
    with locked(ctx.store.local_dir, LOCK_FILE):
        staged = {i.id for _, i in staging.items()}
        if any(imp.id == digest for imp in staging.imports()) or digest in set(
            ctx.store.read().snapshots
        ):
            return Imported(chat, digest, name, prepared.masked, (), already_imported=True)
        drafts = propose(chat, prepared, name, ctx.settings, ctx.log, source, overrides)
        fresh, pending, stored = _new_drafts(ctx, prepared, drafts, chat.session, staged)
        items = _checked(fresh, prepared.transcript, chat.session, digest)
        if audit_command is not None and items:
            items = _audited(items, audit_command, ctx, source)
        staging.save(
            PendingImport(
                digest,
                chat.session,
                chat.export.format,
                chat.export.name,
                str(path),
                format_time(now),
                prepared.masked,
                prepared.transcript.snapshot,
                tuple(items),
            )
        )
    ctx.log.write("ok", source, staged=len(items), extractor=name, masked=prepared.masked)
    return Imported(
        chat,
        digest,
        name,
        prepared.masked,
        tuple(items),
        already_pending=pending,
        already_stored=stored,
        audited=audit_command is not None,
    )


def approve(ctx: Context, ids: Sequence[str], every: bool, now: datetime) -> Approved:
    """Write the pending items *ids* (or, with *every*, all those not held by the audit)
    as one signed checkpoint per import, and take them out of the staging area.

    Raises:
        InputError: both or neither of *ids* and *every*; an id names no pending item.
        GitmemError: a checkpoint could not be written (what was approved before it
            stays written; the rest stays pending).
    """
    if bool(ids) == every:
        raise InputError("give the ids to approve, or --all (not both)")
    staging = Staging(ctx.store.local_dir)
    with locked(ctx.store.local_dir, LOCK_FILE):
        pairs = list(staging.items()) if every else staging.find(ids)
        held = tuple(i for _, i in pairs if every and i.held)
        chosen = [(imp, i) for imp, i in pairs if not (every and i.held)]
        written: list[tuple[str, CaptureResult]] = []
        for imported in _imports_of(chosen):
            mine = [i for imp, i in chosen if imp.id == imported.id]
            result = _write(ctx, imported, mine, now)
            if result is not None:
                written.append((imported.id, result))
            staging.save(imported.without(i.id for i in mine))
    return Approved(tuple(written), held)


def reject(local_dir: Path, ids: Sequence[str]) -> list[str]:
    """Remove the pending items *ids* from the staging area in *local_dir*; the ids removed.

    Raises:
        InputError: no ids, or an id names no pending item (then nothing is removed).
    """
    if not ids:
        raise InputError("give the ids of the pending items to reject")
    staging = Staging(local_dir)
    with locked(local_dir, LOCK_FILE):
        pairs = staging.find(ids)
        for imported in _imports_of(pairs):
            staging.save(imported.without(i.id for imp, i in pairs if imp.id == imported.id))
    return [i.id for _, i in pairs]


def message_of(imported: PendingImport, item: PendingItem) -> str | None:
    """The (masked) message *item* was proposed from. Raises nothing."""
    try:
        messages = parse_snapshot(imported.snapshot.encode("utf-8"), imported.name, "messages")
    except InputError:
        return None
    index = item.draft.message
    if index is None or not 0 <= index < len(messages.messages):
        return None
    return messages.messages[index].text


def _new_drafts(
    ctx: Context, prepared: Prepared, drafts: Sequence[Draft], session: str, staged: set[str]
) -> tuple[list[Draft], int, int]:
    """The masked drafts not yet staged or stored (each once), and how many were."""
    memory = ctx.memory()
    fresh: dict[str, Draft] = {}
    pending = stored = 0
    for draft in drafts:
        masked = mask_draft(draft, prepared.secrets)
        ident = statement_id(session, masked.kind, masked.text)
        if ident in staged:
            pending += 1
        elif memory.statement(session, masked.kind, masked.text) is not None:
            stored += 1
        else:
            fresh.setdefault(ident, masked)
    return list(fresh.values()), pending, stored


def _checked(
    drafts: Sequence[Draft], transcript: Transcript, session: str, snapshot: Sha256Hex
) -> list[PendingItem]:
    """Each draft with its quote checked against its own message, as approval will."""
    items = build_items(drafts, transcript, session, snapshot)
    return [
        PendingItem(
            item.statement,
            # A verified quote is staged as the message's own bytes of the matched span,
            # what approval stores (and checks again).
            replace(draft, quote=item.quote) if item.quote_verified else draft,
            item.quote_verified,
            item.quote_reason,
        )
        for draft, item in zip(drafts, items, strict=True)
    ]


def _check_audit_command(command: str) -> None:
    """Refuse an audit command that cannot run, before anything is read or asked: also
    when the export turns out to be imported already.

    Raises:
        InputError: empty, or not a command line (an unclosed quote).
    """
    try:
        words = shlex.split(command)
    except ValueError as e:
        raise InputError(f"--audit-command is not a command line ({e}): {command!r}") from e
    if not words:
        raise InputError("--audit-command needs a command line, not an empty one")


def _audited(
    items: list[PendingItem], command: str, ctx: Context, source: str
) -> list[PendingItem]:
    proposals = [
        Proposal(
            i.id,
            i.draft.kind,
            i.draft.text,
            str(i.draft.extra.get(VOICE, "")),
            _text(i.draft.extra.get(SAID_AT)),
            i.draft.quote,
            i.verbatim,
        )
        for i in items
    ]
    timeout = float(ctx.settings.get("timeout"))
    audits = audit_items(proposals, command, timeout, ctx.log, source)
    return [replace(i, audit=a) for i, a in zip(items, audits, strict=True)]


def _write(
    ctx: Context, imported: PendingImport, items: Sequence[PendingItem], now: datetime
) -> CaptureResult | None:
    memory = ctx.memory()
    drafts = [
        i.draft
        for i in items
        if memory.statement(imported.session, i.draft.kind, i.draft.text) is None
    ]
    if not drafts:
        return None  # approved before (a crash between the write and the staging update)
    parsed = parse_snapshot(imported.snapshot.encode("utf-8"), imported.name, imported.format)
    if render_snapshot(imported.format, parsed.messages) != imported.snapshot:
        raise InputError(f"the pending import {imported.id[:12]} was edited; reject it")
    transcript = Transcript(
        imported.format,
        imported.name,
        parsed.messages,
        imported.snapshot,
        session=imported.session,
    )
    # A person approved these items: they are written even when memory holds their claims.
    return capture_transcript(
        ctx,
        Prepared(transcript, 0, imported.masked),
        None,
        source=f"pending approve {imported.source}",
        drafts=drafts,
        session=imported.session,
        again=True,
        now=now,
    )


def _imports_of(
    pairs: Sequence[tuple[PendingImport, PendingItem]],
) -> list[PendingImport]:
    return list({imp.id: imp for imp, _ in pairs}.values())


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None
