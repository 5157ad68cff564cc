"""The capture pipeline: transcript and items in, one signed checkpoint out.

transcript → snapshot → items → verify quotes → canonical bytes → sign → append.
Everything that can be wrong with the input is found before the first object is
written, so bad input leaves the store as it was.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, cast

from gitmem import canonical
from gitmem.errors import InputError
from gitmem.integrity import NAMESPACE
from gitmem.items import Draft
from gitmem.keys import Identity
from gitmem.model import Checkpoint, Item, Kind, Source, Trust, format_time, item_id
from gitmem.receipts import sign
from gitmem.store import Entry, Store, content_path
from gitmem.transcripts import Transcript
from gitmem.types import GitOid, Sha256Hex
from gitmem.verifier import check_quotes

_MAX_SESSION = 200


@dataclass(frozen=True)
class CaptureResult:
    checkpoint: Sha256Hex
    session: str
    items: tuple[Item, ...]
    memory_commit: GitOid

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


def default_session(transcript: Transcript, path: Path) -> str:
    """The session a capture belongs to when none is given.

    The transcript's own session id when its format has one; otherwise one derived
    from the file's absolute path, so a transcript that grows between captures
    stays one session.
    """
    if transcript.session:
        return transcript.session
    digest = hashlib.sha256(str(path.resolve()).encode("utf-8", "surrogateescape")).hexdigest()
    return f"file-{digest[:12]}"


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
            if not check.verbatim:
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


def capture(
    store: Store,
    identity: Identity,
    transcript: Transcript,
    transcript_path: Path,
    drafts: Sequence[Draft],
    session: str | None,
    now: datetime,
) -> CaptureResult:
    """Write one checkpoint for *transcript* and *drafts*.

    Raises:
        InputError: a bad session id.
        GitError, NegativeResult: the store could not be written.
    """
    session = _check_session(session) if session else default_session(transcript, transcript_path)
    snapshot = transcript.snapshot.encode("utf-8")
    snapshot_hash = canonical.sha256_hex(snapshot)
    checkpoint = Checkpoint(
        session=session,
        writer=identity.principal,
        key=identity.signer.public_key.fingerprint(),
        created=format_time(now),
        commit=store.head_commit(),
        source=Source(snapshot_hash, transcript.format, transcript.name, len(snapshot)),
        items=tuple(build_items(drafts, transcript, session)),
    )
    data = checkpoint.canonical_bytes()
    address = canonical.sha256_hex(data)
    receipt = sign(data, identity.signer, NAMESPACE)
    memory_commit = store.append(
        [
            Entry(content_path("snapshots", snapshot_hash), snapshot),
            Entry(content_path("checkpoints", address), data),
            Entry(content_path("receipts", address), receipt),
        ],
        message=f"gitmem: checkpoint {address[:12]} ({len(checkpoint.items)} items, "
        f"session {session})",
        author=identity.principal,
    )
    return CaptureResult(address, session, checkpoint.items, memory_commit)


def _check_session(session: str) -> str:
    if len(session) > _MAX_SESSION or not session.isprintable() or not session.strip():
        raise InputError(f"session id must be printable text of at most {_MAX_SESSION} chars")
    return session
