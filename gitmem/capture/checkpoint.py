"""A prepared transcript and its drafts become one checkpoint and its events, sealed.

prepared transcript + drafts + the memory so far → mask the drafts' text (by shape, and
by the secrets the transcript showed) → verify their quotes in the masked transcript →
plan what is carried, corroborated and aged out → checkpoint and events, signed. Nothing is
written here: :mod:`gitmem.capture.run` appends what :func:`build_checkpoint` built in
one commit, so a failure anywhere leaves the store as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from gitmem.capture.closing import state_changes
from gitmem.capture.locate import locate_quotes
from gitmem.capture.masking import contains_mask, masked
from gitmem.capture.prepare import Prepared
from gitmem.capture.questions import DECIDING, rests_on_question
from gitmem.capture.standing import standing
from gitmem.capture.widen import WIDENED, widened
from gitmem.core import canonical
from gitmem.core.errors import InputError
from gitmem.core.items import Draft, Item, Trust
from gitmem.core.quotes import QuoteCheck, check_quote, check_quotes
from gitmem.core.records import (
    BRANCH,
    EVENT_CORROBORATION,
    EVENT_LIKELY_SUPERSEDED,
    EVENT_STATE_CHANGED,
    EVENT_STATUS,
    NAMESPACE,
    REPOSITORY,
    TRANSCRIPT_TIME,
    Checkpoint,
    Event,
    Source,
    format_time,
)
from gitmem.core.support import shown_text
from gitmem.core.transcript import MAX_SNAPSHOT_BYTES, Transcript, said_text
from gitmem.core.types import Sha256Hex
from gitmem.lifecycle.carry import Plan, plan
from gitmem.lifecycle.governance.status import Status
from gitmem.lifecycle.replay import MemoryState, Replayable, current_status
from gitmem.store.keys import Identity
from gitmem.store.layout import content_path
from gitmem.store.repo import Entry
from gitmem.store.seal import Sealed, new_event, seal

_MAX_SESSION = 200
OVERLAPS_SECRET = "the quote overlaps a masked secret, so it cannot be shown as said"
UNMATCHED = "the quote is the item: its text could not be matched to it"
UNSAID = (
    "found only in message {index}, tool output or the host's instructions or "
    "interruption markers, which is not what the session said"
)


def mask_draft(draft: Draft, known: Sequence[tuple[str, str]] = ()) -> Draft:
    """Secrets are masked in item text, quote and every other string and object key
    alike: by shape and name, behind any escaping (:func:`~gitmem.capture.masking.mask`),
    and by the exact secrets already found in the transcript (*known*)."""

    def clean(text: str) -> str:
        return masked(text, known)

    return Draft(
        kind=draft.kind,
        text=clean(draft.text),
        trust=draft.trust,
        quote=None if draft.quote is None else clean(draft.quote),
        extra=cast(dict[str, Any], _map_strings(draft.extra, clean)),
        message=draft.message,
    )


def build_items(
    drafts: Sequence[Draft], transcript: Transcript, session: str, snapshot: Sha256Hex
) -> list[Item]:
    """Check every quote against the transcript (stored as *snapshot*) and freeze the
    items; the same statement (kind and text) twice is one item.

    A quote must lie in one message; in the draft's own message when it names one
    (``Draft.message``: found only in another message, or with an index that names no
    message, it is not verbatim). A quote that verifies is stored as the transcript's own
    bytes of the matched span (case, punctuation and spacing as said), never the
    extractor's spelling. Only what the session's people said counts: a quote found only
    in tool output, the host's instructions or its interruption markers
    (:func:`~gitmem.core.transcript.said_text`) is
    not verbatim. A verbatim item whose quote fails, or a decision or fact that rests on
    a question (:mod:`gitmem.capture.questions`), is stored as inferred, with the reason;
    the quote is kept as ``unverified_quote`` and never in ``quote``. A verbatim item
    whose genuine quote does not support its text (:func:`~gitmem.core.support.unsupported`:
    the text reverses it, or adds a negation or a number it lacks) keeps its evidence: the
    quote itself becomes the item's text, its summary kept as ``summary``, so the
    transcript's own words carry the badge.
    """
    texts = said_texts(transcript)
    checks = locate_quotes(drafts, texts)
    _explain_unsaid(drafts, checks, transcript, texts)
    items: list[Item] = []
    seen: set[tuple[str, str]] = set()
    for draft, check in zip(drafts, checks, strict=True):
        if (draft.kind, draft.text) in seen:
            continue  # the same statement twice in one capture is one item
        seen.add((draft.kind, draft.text))
        extra = dict(draft.extra)
        trust, text = draft.trust, draft.text
        quote, verified, reason = draft.quote, False, None
        if check is not None:
            verified, reason = check.verbatim, check.reason
            if verified and check.span:
                quote = check.span
            if quote is not None and contains_mask(quote):
                verified, reason = False, OVERLAPS_SECRET
            if verified and quote and draft.kind in DECIDING and check.message_index is not None:
                asked = rests_on_question(text, quote, texts[check.message_index])
                verified, reason = (False, asked) if asked else (verified, reason)
            if verified and quote and check.message_index is not None:
                message = texts[check.message_index]
                withdrawn = standing(quote, message, draft.kind)
                wide = withdrawn and widened(quote, message, draft.kind, withdrawn)
                if wide and not contains_mask(wide):  # the sentence, condition and all
                    extra["summary"], text, quote = text, wide, wide
                    withdrawn, reason = None, f"{reason}; {WIDENED}"
                verified, reason = (False, withdrawn) if withdrawn else (verified, reason)
            shown, conflict = shown_text(text, quote) if verified else (text, None)
            if conflict is not None and trust == Trust.VERBATIM and quote:
                extra["summary"], text = text, shown
                reason = f"{reason}; {UNMATCHED} ({conflict})"
            if not verified:
                extra["unverified_quote"] = quote
                quote = None
                trust = Trust.INFERRED
        items.append(
            Item(
                kind=draft.kind,
                text=text,
                trust=trust,
                origin_session=session,
                snapshot=snapshot,
                quote=quote,
                quote_verified=verified,
                quote_reason=reason,
                extra=extra,
            )
        )
    return items


def said_texts(transcript: Transcript) -> list[str]:
    """The messages' texts, with what nobody said (tool output, the host's instructions,
    its interruption markers, the host's text in the user's turn:
    :func:`~gitmem.core.transcript.said_text`) blanked, so that indices still name
    messages and offsets their text. Raises nothing."""
    return [said_text(m) for m in transcript.messages]


def unsaid_check(quote: str, transcript: Transcript, said: Sequence[str]) -> QuoteCheck | None:
    """When *quote* is found only in what nobody said, the failed check that says so;
    else None. *said* is :func:`said_texts` of *transcript*. Raises nothing."""
    if list(said) == transcript.texts():
        return None
    check = check_quote(quote, transcript.texts())
    if not check.verbatim:
        return None
    return QuoteCheck(False, UNSAID.format(index=check.message_index), check.fragments, None)


def _explain_unsaid(
    drafts: Sequence[Draft],
    checks: list[QuoteCheck | None],
    transcript: Transcript,
    said: Sequence[str],
) -> None:
    """Say so when a quote that failed is found in what nobody said (*said* is
    :func:`said_texts` of *transcript*): tool output, or the host's text."""
    failed = [n for n, c in enumerate(checks) if c is not None and not c.verbatim]
    if not failed or list(said) == transcript.texts():
        return
    found = check_quotes([drafts[n].quote or "" for n in failed], transcript.texts())
    for n, check in zip(failed, found, strict=True):
        if check.verbatim:
            reason = UNSAID.format(index=check.message_index)
            checks[n] = QuoteCheck(False, reason, check.fragments, None)


@dataclass(frozen=True)
class Built:
    """One capture's records, sealed, and the entries that store them in one commit of
    the memory ref: the snapshot, the checkpoint, its corroboration and ageing events."""

    checkpoint: Sealed
    events: tuple[Sealed, ...]
    snapshot: bytes
    carry: Plan

    def adds_to(self, state: MemoryState | None) -> bool:
        """Whether the checkpoint says anything *state* does not hold already: an item
        that is not current there, a corroboration, a likely supersession, or a loop it
        says is closed (:mod:`~gitmem.capture.closing`)."""
        current = {} if state is None else {a for a, s in state.items.items() if s.current}
        return bool(
            any(i.address not in current for i in self.carry.items)
            or self.carry.corroborations
            or self.carry.supersessions
            or any(
                isinstance(e.record, Event) and e.record.event == EVENT_STATE_CHANGED
                for e in self.events
            )
        )

    @property
    def address(self) -> Sha256Hex:
        return self.checkpoint.address

    @property
    def session(self) -> str:
        return self.checkpoint.record.session

    @property
    def new(self) -> tuple[Item, ...]:
        """The items the checkpoint adds."""
        return self.carry.items

    @property
    def carried(self) -> int:
        """How many open items it carries forward (by reference)."""
        return len(self.carry.carried)

    @property
    def corroborated(self) -> tuple[str, ...]:
        """The open items its verified quotes corroborate."""
        return tuple(i for i, _ in self.carry.corroborations)

    @property
    def aged_out(self) -> tuple[str, ...]:
        """The open items it ages out."""
        return tuple(a.id for a, _ in self.carry.aged_out)

    @property
    def records(self) -> tuple[Replayable, ...]:
        """The records, in the order a replay applies them; the checkpoint with its items."""
        added = {i.address: i for i in self.new}
        return (
            Replayable(self.checkpoint.address, self.checkpoint.record, added),
            *(Replayable(s.address, s.record) for s in self.events),
        )

    @property
    def snapshot_hash(self) -> Sha256Hex:
        """The address of the snapshot the checkpoint names as its source."""
        return canonical.sha256_hex(self.snapshot)

    @property
    def entries(self) -> list[Entry]:
        """What one append stores: the snapshot, the item blobs, then each record and its
        receipt."""
        entries = [Entry(content_path("snapshots", self.snapshot_hash), self.snapshot)]
        entries += [Entry(content_path("items", i.address), i.canonical_bytes()) for i in self.new]
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
    branch: str | None = None,
    whole: bool = False,
) -> Built:
    """The checkpoint of *prepared* with *drafts* (masked here), carrying the open items
    of *state*, with corroborations and ageing recorded as events; all sealed by
    *identity*. *now* is when it is captured; it records its session's own time
    (:meth:`~gitmem.capture.prepare.Prepared.session_time`), by which carry and ageing
    are decided, and the *branch* it was captured on. *whole*: the drafts are an
    extractor's reading of the whole transcript (none given by an agent), so an item its
    session said before and they no longer give ages out (:mod:`gitmem.lifecycle.carry`).
    Writes nothing.

    Raises:
        InputError: a bad session id, or an item that cannot be stored as canonical JSON.
    """
    session = check_session(session)
    if prepared.snapshot_size > MAX_SNAPSHOT_BYTES:
        raise InputError(
            f"the transcript's snapshot would be {prepared.snapshot_size:,} bytes, over the "
            f"{MAX_SNAPSHOT_BYTES >> 20} MiB a snapshot may hold"
        )
    # The snapshot's bytes are made last, to store them: a long transcript's text, its
    # folded copies for the quote checks and its bytes are not held at once.
    snapshot_hash = prepared.snapshot_address
    transcript = prepared.transcript
    masked = [mask_draft(d, prepared.secrets) for d in drafts]
    items = build_items(masked, transcript, session, snapshot_hash)
    said = prepared.session_time(now)
    holds = transcript.holds if whole else None  # masked, as its quotes were checked
    carry = plan(state, items, session, snapshot_hash, said, holds=holds)
    extra: dict[str, Any] = {**_lineage(transcript, session), TRANSCRIPT_TIME: format_time(said)}
    if branch is not None:
        extra[BRANCH] = branch
    if identity.repository is not None:
        extra[REPOSITORY] = identity.repository
    checkpoint = seal(
        Checkpoint(
            session=session,
            writer=identity.principal,
            key=identity.signer.public_key.fingerprint(),
            created=format_time(now),
            commit=commit,
            source=Source(
                snapshot_hash, transcript.format, transcript.name, prepared.snapshot_size
            ),
            items=tuple(i.address for i in carry.items),
            carried=carry.carried,
            extra=extra,
        ),
        identity.sign,
        NAMESPACE,
    )
    events: list[Event] = [
        new_event(
            identity,
            EVENT_CORROBORATION,
            corroborated,
            session,
            now,
            commit,
            {
                "snapshot": snapshot_hash,
                "quote": said.quote,
                "checkpoint": checkpoint.address,
                "text": said.text,
            },
        )
        for corroborated, said in carry.corroborations
    ]
    if carry.supersessions:  # one event for all of them, as for ageing
        by = {old: {"by": new} for old, new in carry.supersessions}
        events.append(
            new_event(identity, EVENT_LIKELY_SUPERSEDED, None, session, now, commit, {"items": by})
        )
    events += state_changes(state, carry, prepared, session, identity, (said, now), commit)
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
    return Built(checkpoint, sealed, prepared.snapshot, carry)


def _lineage(transcript: Transcript, session: str) -> dict[str, str]:
    """``parent_session`` (optional, docs/storage.md): the session a side run (a subagent
    or compaction transcript) branched from, when it is filed under a session of its own."""
    parent = transcript.session if transcript.agent else None
    return {"parent_session": parent} if parent and parent != session else {}


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
