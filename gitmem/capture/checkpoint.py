"""A prepared transcript and its drafts become one checkpoint and its events, sealed.

prepared transcript + drafts + the memory so far → mask the drafts' text (by shape, and
by the secrets the transcript showed) → verify their quotes in the masked transcript →
plan what is carried, restated and aged out → checkpoint and events, signed. Nothing is
written here: :mod:`gitmem.capture.run` appends what :func:`build_checkpoint` built in
one commit, so a failure anywhere leaves the store as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from gitmem.capture.masking import MASK_PREFIX, contains_mask
from gitmem.capture.masking.documents import mask_string
from gitmem.capture.prepare import Prepared
from gitmem.core import canonical
from gitmem.core.errors import InputError
from gitmem.core.quotes import check_quotes
from gitmem.core.records import (
    EVENT_CORROBORATION,
    EVENT_STATUS,
    NAMESPACE,
    Checkpoint,
    Draft,
    Event,
    Item,
    Source,
    Trust,
    format_time,
    item_id,
)
from gitmem.core.transcript import Transcript
from gitmem.core.types import Sha256Hex
from gitmem.lifecycle.carry import Plan, plan
from gitmem.lifecycle.governance.status import Status
from gitmem.lifecycle.replay import MemoryState, Replayable, current_status
from gitmem.store.keys import Identity
from gitmem.store.repo import Entry, content_path
from gitmem.store.seal import Sealed, new_event, seal

_MAX_SESSION = 200
_MIN_KNOWN_SECRET = 4  # shorter "secrets" would mask ordinary words everywhere
OVERLAPS_SECRET = "the quote overlaps a masked secret, so it cannot be shown as said"


def mask_draft(draft: Draft, known: Sequence[tuple[str, str]] = ()) -> Draft:
    """Secrets are masked in item text, quote and every other string and object key
    alike: by shape and name, in JSON held in a string too
    (:func:`~gitmem.capture.masking.documents.mask_string`), and by the exact secrets
    already found in the transcript (*known*)."""

    def clean(text: str) -> str:
        text = mask_string(text).text
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
        trust = draft.trust
        quote, verified, reason = draft.quote, False, None
        if check is not None:
            verified, reason = check.verbatim, check.reason
            if draft.quote is not None and contains_mask(draft.quote):
                verified, reason = False, OVERLAPS_SECRET
            if not verified:
                extra["unverified_quote"] = draft.quote
                quote = None
                trust = Trust.INFERRED
        items.append(
            Item(
                id=ident,
                kind=draft.kind,
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


@dataclass(frozen=True)
class Built:
    """One capture's records, sealed, and the entries that store them in one commit of
    the memory ref: the snapshot, the checkpoint, its corroboration and ageing events."""

    checkpoint: Sealed
    events: tuple[Sealed, ...]
    snapshot: bytes
    carry: Plan

    @property
    def address(self) -> Sha256Hex:
        return self.checkpoint.address

    @property
    def session(self) -> str:
        return self.checkpoint.record.session

    @property
    def new(self) -> tuple[Item, ...]:
        """The items stored for the first time (carried copies excluded)."""
        return tuple(i for i in self.carry.items if i.extra.get("carried") is not True)

    @property
    def carried(self) -> int:
        """How many open items it carries forward."""
        return len(self.carry.items) - len(self.new)

    @property
    def records(self) -> tuple[Replayable, ...]:
        """The records, in the order a replay applies them."""
        return tuple(Replayable(s.address, s.record) for s in (self.checkpoint, *self.events))

    @property
    def snapshot_hash(self) -> Sha256Hex:
        """The address of the snapshot the checkpoint names as its source."""
        return canonical.sha256_hex(self.snapshot)

    @property
    def entries(self) -> list[Entry]:
        """What one append stores: the snapshot, then each record and its receipt."""
        entries = [Entry(content_path("snapshots", self.snapshot_hash), self.snapshot)]
        for sealed in (self.checkpoint, *self.events):
            entries += sealed.entries
        return entries

    @property
    def message(self) -> str:
        """The commit message of the append."""
        return (
            f"gitmem: checkpoint {self.address[:12]} ({len(self.new)} new, "
            f"{self.carried} carried, session {self.session})"
        )


def build_checkpoint(
    prepared: Prepared,
    drafts: Sequence[Draft],
    session: str,
    identity: Identity,
    now: datetime,
    commit: str | None,
    state: MemoryState | None = None,
) -> Built:
    """The checkpoint of *prepared* with *drafts* (masked here), carrying the open items
    of *state*, with restatements and ageing recorded as events; all sealed by
    *identity*. Writes nothing.

    Raises:
        InputError: a bad session id, or an item that cannot be stored as canonical JSON.
    """
    session = check_session(session)
    snapshot = prepared.snapshot
    snapshot_hash = canonical.sha256_hex(snapshot)
    transcript = prepared.transcript
    items = build_items([mask_draft(d, prepared.secrets) for d in drafts], transcript, session)
    carry = plan(state, items, session, snapshot_hash, now)
    checkpoint = seal(
        Checkpoint(
            session=session,
            writer=identity.principal,
            key=identity.signer.public_key.fingerprint(),
            created=format_time(now),
            commit=commit,
            source=Source(snapshot_hash, transcript.format, transcript.name, len(snapshot)),
            items=carry.items,
        ),
        identity.sign,
        NAMESPACE,
    )
    events: list[Event] = [
        new_event(
            identity,
            EVENT_CORROBORATION,
            restated,
            session,
            now,
            commit,
            {
                "snapshot": snapshot_hash,
                "quote": witness.quote,
                "checkpoint": checkpoint.address,
                "text": witness.text,
            },
        )
        for restated, witness in carry.witnesses
    ]
    if carry.aged_out:  # one event for all of them: ageing is routine, records are not
        aged = {a.id: {"from": current_status(a), "reason": r} for a, r in carry.aged_out}
        events.append(
            new_event(
                identity,
                EVENT_STATUS,
                None,
                session,
                now,
                commit,
                {"to": Status.STALE, "items": aged},
            )
        )
    sealed = tuple(seal(e, identity.sign, NAMESPACE) for e in events)
    return Built(checkpoint, sealed, snapshot, carry)


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
        return {func(k): _map_strings(v, func) for k, v in value.items()}
    return value
