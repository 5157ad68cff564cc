"""The capture pipeline: a transcript in, one signed checkpoint out.

transcript → tag echoes of gitmem's own output → mask secrets → snapshot →
items (given, or extracted) → mask their text → verify quotes → canonical bytes →
sign → append. Everything that can be wrong with the input (and every model reply)
is found before the first object is written, so a failure leaves the store as it was.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any, cast

from gitmem.capture.echoes import tag_echoes
from gitmem.capture.masking import MASK_PREFIX, contains_mask, mask
from gitmem.core import canonical
from gitmem.core.errors import InputError
from gitmem.core.quotes import check_quotes, strip_gitmem_context
from gitmem.core.records import (
    EVENT_CORROBORATION,
    EVENT_STATUS,
    NAMESPACE,
    Checkpoint,
    Draft,
    Item,
    Kind,
    Source,
    Trust,
    format_time,
    item_id,
)
from gitmem.core.transcript import Message, Transcript
from gitmem.core.types import GitOid, Sha256Hex
from gitmem.lifecycle.carry import plan
from gitmem.lifecycle.replay import MemoryState, Replayable, current_status
from gitmem.store.capturelog import CaptureLog
from gitmem.store.keys import Identity
from gitmem.store.repo import Entry, Store, content_path
from gitmem.store.seal import new_event, seal

_MAX_SESSION = 200
_MIN_KNOWN_SECRET = 4  # shorter "secrets" would mask ordinary words everywhere
OVERLAPS_SECRET = "the quote overlaps a masked secret, so it cannot be shown as said"


@dataclass(frozen=True)
class CaptureResult:
    checkpoint: Sha256Hex
    session: str
    items: tuple[Item, ...]
    """The items this capture stored for the first time (carried copies excluded)."""
    memory_commit: GitOid
    snapshot: Sha256Hex
    carried: int = 0
    restated: tuple[str, ...] = ()
    """Open items this capture's verified quotes restated (corroboration witnesses)."""
    aged_out: tuple[str, ...] = ()
    records: tuple[Replayable, ...] = ()
    """The records written, for a writer that keeps its memory state current."""

    def to_json(self) -> dict[str, Any]:
        """The ``capture --json`` document."""
        return {
            "checkpoint": self.checkpoint,
            "session": self.session,
            "items": [
                {
                    "id": i.id,
                    "kind": i.kind,
                    "text": i.text,
                    "trust": i.trust,
                    "quote": i.quote,
                    "quote_verified": i.quote_verified,
                }
                for i in self.items
            ],
        }


@dataclass(frozen=True)
class Prepared:
    """A transcript ready to store: echoes tagged, secrets masked."""

    transcript: Transcript
    echo_lines: int
    masked: int
    secrets: tuple[tuple[str, str], ...] = ()
    """(secret text, kind) found in the transcript, longest first; in memory only, so that
    the same secret given in an item (where its name may not show) is masked too."""

    @property
    def snapshot(self) -> bytes:
        return self.transcript.snapshot.encode("utf-8")

    def clean_messages(self) -> list[Message]:
        """The messages without gitmem's own output, for extractors."""
        return [replace(m, text=strip_gitmem_context(m.text)) for m in self.transcript.messages]


def prepare(
    transcript: Transcript, emitted: dict[str, float], written_at: float | None
) -> Prepared:
    """Tag echoes of earlier gitmem output, then mask every secret in every message."""
    messages, echoes = tag_echoes(transcript.messages, emitted, written_at)
    masked: list[Message] = []
    found: dict[str, str] = {}
    count = 0
    for message in messages:
        result = mask(message.text)
        count += len(result.findings)
        for finding in result.findings:
            found.setdefault(message.text[finding.start : finding.end], finding.kind)
        masked.append(replace(message, text=result.text) if result.findings else message)
    known = sorted(found.items(), key=lambda pair: -len(pair[0]))
    return Prepared(transcript.with_messages(masked), echoes, count, tuple(known))


def default_session(transcript: Transcript, path: Path | None) -> str:
    """The session a capture belongs to when none is given.

    The transcript's own session id when its format has one; otherwise one derived
    from the file's absolute path, so a transcript that grows between captures stays
    one session.
    """
    if transcript.session:
        return transcript.session
    where = str(path.resolve()) if path is not None else transcript.name
    digest = hashlib.sha256(where.encode("utf-8", "surrogateescape")).hexdigest()
    return f"file-{digest[:12]}"


def mask_draft(draft: Draft, known: Sequence[tuple[str, str]] = ()) -> Draft:
    """Secrets are masked in item text, quote and every other string alike: by shape,
    and by the exact secrets already found in the transcript (*known*)."""

    def clean(text: str) -> str:
        text = mask(text).text
        for secret, kind in known:
            if len(secret) >= _MIN_KNOWN_SECRET:
                text = text.replace(secret, f"{MASK_PREFIX}{kind}]")
        return text

    return Draft(
        kind=draft.kind,
        text=clean(draft.text),
        trust=draft.trust,
        quote=None if draft.quote is None else clean(draft.quote),
        extra=cast(dict[str, Any], _map_strings(draft.extra, clean)),
    )


def build_items(drafts: Sequence[Draft], transcript: Transcript, session: str) -> list[Item]:
    """Check every quote against the transcript and freeze the items.

    A verbatim item whose quote fails is stored as inferred, with the reason; its
    text is kept as ``unverified_quote`` and never in ``quote``.
    """
    quoted = [d.quote for d in drafts if d.quote is not None]
    checks = iter(check_quotes(quoted, transcript.texts()))  # folds the transcript once
    items: list[Item] = []
    seen: set[str] = set()
    for draft in drafts:
        check = next(checks) if draft.quote is not None else None
        ident = item_id(session, draft.kind, draft.text)
        if ident in seen:
            continue  # the same statement twice in one capture is one item
        seen.add(ident)
        extra = dict(draft.extra)
        trust: Trust = cast(Trust, draft.trust)
        quote, verified, reason = draft.quote, False, None
        if check is not None:
            verified, reason = check.verbatim, check.reason
            if draft.quote is not None and contains_mask(draft.quote):
                verified, reason = False, OVERLAPS_SECRET
            if not verified:
                extra["unverified_quote"] = draft.quote
                quote = None
                trust = "inferred"
        items.append(
            Item(
                id=ident,
                kind=cast(Kind, draft.kind),
                text=draft.text,
                trust=trust,
                origin_session=session,
                quote=quote,
                quote_verified=verified,
                quote_reason=reason,
                extra=extra,
            )
        )
    return items


def write_checkpoint(
    store: Store,
    identity: Identity,
    prepared: Prepared,
    drafts: Sequence[Draft],
    session: str,
    now: datetime,
    commit: str | None = None,
    state: MemoryState | None = None,
) -> CaptureResult:
    """Sign and append one checkpoint of *prepared* with *drafts* (masked here), carrying
    the open items of *state* and recording restatements and ageing as events, all in
    one commit of the memory ref.

    Raises:
        InputError: a bad session id.
        GitError, NegativeResult: the store could not be written.
    """
    session = check_session(session)
    snapshot = prepared.snapshot
    snapshot_hash = canonical.sha256_hex(snapshot)
    transcript = prepared.transcript
    items = build_items([mask_draft(d, prepared.secrets) for d in drafts], transcript, session)
    carry = plan(state, items, session, snapshot_hash, now)
    commit = commit if commit is not None else store.head_commit()
    checkpoint = Checkpoint(
        session=session,
        writer=identity.principal,
        key=identity.signer.public_key.fingerprint(),
        created=format_time(now),
        commit=commit,
        source=Source(snapshot_hash, transcript.format, transcript.name, len(snapshot)),
        items=carry.items,
    )
    sealed = seal(checkpoint, identity.sign, NAMESPACE)
    address = sealed.address
    entries = [Entry(content_path("snapshots", snapshot_hash), snapshot), *sealed.entries]
    written = [Replayable(address, checkpoint)]
    for restated, witness in carry.witnesses:
        entries += _event(
            written,
            identity,
            EVENT_CORROBORATION,
            restated,
            session,
            now,
            commit,
            {
                "snapshot": snapshot_hash,
                "quote": witness.quote,
                "checkpoint": address,
                "text": witness.text,
            },
        )
    if carry.aged_out:  # one event for all of them: ageing is routine, records are not
        aged = {a.id: {"from": current_status(a), "reason": r} for a, r in carry.aged_out}
        entries += _event(
            written,
            identity,
            EVENT_STATUS,
            None,
            session,
            now,
            commit,
            {"to": "STALE", "items": aged},
        )
    new = tuple(i for i in carry.items if i.extra.get("carried") is not True)
    memory_commit = store.append(
        entries,
        message=f"gitmem: checkpoint {address[:12]} ({len(new)} new, "
        f"{len(carry.items) - len(new)} carried, session {session})",
        author=identity.principal,
    )
    return CaptureResult(
        address,
        session,
        new,
        memory_commit,
        snapshot_hash,
        carried=len(carry.items) - len(new),
        restated=tuple(i for i, _ in carry.witnesses),
        aged_out=tuple(a.id for a, _ in carry.aged_out),
        records=tuple(written),
    )


def _event(
    written: list[Replayable],
    identity: Identity,
    name: str,
    item: str | None,
    session: str,
    now: datetime,
    commit: str | None,
    extra: dict[str, Any],
) -> list[Entry]:
    """The entries of one event, remembering the event among the records *written*."""
    sealed = seal(
        new_event(identity, name, item, session, now, commit, extra), identity.sign, NAMESPACE
    )
    written.append(Replayable(sealed.address, sealed.record))
    return sealed.entries


def capture(
    store: Store,
    identity: Identity,
    transcript: Transcript,
    transcript_path: Path | None,
    drafts: Sequence[Draft],
    session: str | None,
    now: datetime,
) -> CaptureResult:
    """Capture *transcript* with explicit *drafts* and no extractor (no ledger, no log)."""
    prepared = prepare(transcript, {}, None)
    return write_checkpoint(
        store,
        identity,
        prepared,
        drafts,
        session or default_session(transcript, transcript_path),
        now,
    )


def log_result(
    log: CaptureLog, source: str, result: CaptureResult, prepared: Prepared, extractor: str
) -> None:
    log.write(
        "ok",
        source,
        checkpoint=result.checkpoint,
        session=result.session,
        items=len(result.items),
        extractor=extractor,
        echo_lines=prepared.echo_lines,
        masked=prepared.masked,
    )


def check_session(session: str) -> str:
    """Raises InputError unless *session* is printable text of reasonable length."""
    if len(session) > _MAX_SESSION or not session.isprintable() or not session.strip():
        raise InputError(f"session id must be printable text of at most {_MAX_SESSION} chars")
    return session


def _map_strings(value: Any, func: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return func(value)
    if isinstance(value, list):
        return [_map_strings(v, func) for v in value]
    if isinstance(value, dict):
        return {k: _map_strings(v, func) for k, v in value.items()}
    return value
