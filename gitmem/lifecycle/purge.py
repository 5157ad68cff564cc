"""``gitmem purge``: remove items, or a string, from every commit of the memory ref, and
say so in one signed event.

What goes (:func:`plan_purge`):

- ``purge ID…``: those item blobs.
- ``purge --text STRING``: every item blob and every record (checkpoint or event) whose
  bytes hold STRING — a record with its receipt, a checkpoint with the items it added
  (nothing else says where they came from); every snapshot holding it is replaced by a
  redacted copy (each occurrence replaced by ``[purged]``); and every item whose verified
  quote no longer checks against its redacted snapshot (the quote held part of STRING).

How (:func:`run_purge`):

1. a ``purge`` event listing exactly that is sealed (:mod:`gitmem.core.purge`; for a
   purge by text, a salted digest of STRING, never STRING);
2. the ref's whole history is written again without those paths, redacted snapshots in
   place of the old ones (:mod:`gitmem.store.purge`), the event is appended on top and
   the ref moved by compare-and-swap from the tip the purge started from (a forced
   move: the new tip does not descend from the old one; retried if a writer won);
3. the tracking refs of what each remote held (``refs/gitmem-remotes/*/memory``) are
   edited the same way, so no local ref reaches the old objects any more (the next
   ``gitmem sync`` pushes the purge and fetches the remote's purged history);
4. ``.git/gitmem/`` is scrubbed of every removed text (:mod:`gitmem.store.purge`);
5. with *gc*, git drops the unreachable objects (:data:`GC_COMMANDS`).

Every checkpoint still verifies: its receipt covers the addresses it names, not the
bytes at them. ``refs/gitmem/releases`` holds no item or snapshot and is not touched.
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from gitmem.core import canonical
from gitmem.core.canonical import sha256_hex
from gitmem.core.errors import FormatError, InputError, NegativeResult
from gitmem.core.items import Item, parse_item
from gitmem.core.purge import (
    HOW_ID,
    HOW_TEXT,
    PURGED_TEXT,
    Purge,
    check_text,
    holds,
    item_texts,
    redact_snapshot,
    text_digest,
    value_holds,
)
from gitmem.core.quotes import check_stored_quotes
from gitmem.core.records import EVENT_PURGE, NAMESPACE, Checkpoint, Source, parse_record
from gitmem.core.types import GitOid, Sha256Hex, is_sha256_hex
from gitmem.lifecycle.workspace import HUMAN_SESSION, MIN_PREFIX, Workspace
from gitmem.store.files import locked
from gitmem.store.purge import (
    GC_COMMANDS,
    LOCK_FILE,
    Scrubbed,
    collect_garbage,
    edit_tracking,
    purge_editor,
    scrub_local,
)
from gitmem.store.repo import StoreContents
from gitmem.store.roots import keep_purges
from gitmem.store.seal import new_event, seal

_ATTEMPTS = 20


@dataclass(frozen=True)
class Removal:
    """One thing a purge removes or replaces, and why (for the confirmation)."""

    kind: str
    """``item``, ``record`` or ``snapshot``."""
    address: Sha256Hex
    why: str
    text: str | None = None
    """An item's text with the purged string masked (shown, never stored)."""


@dataclass(frozen=True)
class PurgePlan:
    tip: GitOid
    purge: Purge
    redacted: Mapping[Sha256Hex, bytes]
    """The redacted copy of each replaced snapshot, by the old snapshot's address."""
    removals: tuple[Removal, ...]
    scrub: tuple[str, ...]
    """Texts to scrub from ``.git/gitmem/`` (never stored)."""


@dataclass(frozen=True)
class PurgeResult:
    event: Sha256Hex
    before: GitOid
    tip: GitOid
    purge: Purge
    refs: tuple[str, ...]
    """The refs rewritten: the memory ref and the tracking refs of its remotes."""
    scrubbed: Scrubbed
    gc_ran: bool = False
    gc_error: str | None = None
    shared: bool = True
    """Whether the team root trusts its key: only then does sync force it onto a remote."""

    def to_json(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "before": self.before,
            "tip": self.tip,
            "how": self.purge.how,
            "items": sorted(self.purge.items),
            "snapshots": dict(sorted(self.purge.snapshots.items())),
            "records": sorted(self.purge.records),
            "refs": list(self.refs),
            "scrubbed": {
                "changed": list(self.scrubbed.changed),
                "deleted": list(self.scrubbed.deleted),
                "left": list(self.scrubbed.left),
            },
            "gc": {"commands": list(GC_COMMANDS), "ran": self.gc_ran, "error": self.gc_error},
            "team_trusted": self.shared,
        }


def plan_purge(ws: Workspace, ids: Sequence[str], text: str | None) -> PurgePlan:
    """What a purge of *ids*, or of *text*, would remove; nothing is written.

    Raises:
        InputError: neither or both given, an empty text, a bad, unknown, ambiguous or
            already purged id, or nothing stored yet.
        NegativeResult: nothing stored holds *text*.
        GitError: the ref cannot be read.
    """
    if ids and text is not None:
        raise InputError("give item ids or --text STRING, not both")
    if not ids and text is None:
        raise InputError("give the ids of the items to purge, or --text STRING")
    contents = ws.store.read()
    if contents.tip is None:
        raise InputError(f"nothing is stored in {ws.store.ref} yet: there is nothing to purge")
    if text is None:
        return _plan_ids(ws, contents, ids)
    return _plan_text(contents, ws, check_text(text))


def _plan_ids(ws: Workspace, contents: StoreContents, ids: Sequence[str]) -> PurgePlan:
    chosen: dict[Sha256Hex, Item | None] = {}
    for prefix in ids:
        if len(prefix) < MIN_PREFIX or not all(c in "0123456789abcdef" for c in prefix):
            raise InputError(f"item id {prefix!r}: give at least {MIN_PREFIX} hex characters")
        matches = [a for a in contents.items if a.startswith(prefix)]
        if not matches:
            purged = ws.memory().find_purged(prefix)
            if purged:
                raise InputError(f"item {prefix} is already {purged[0][1].label}")
            raise InputError(f"no item {prefix} is stored in {ws.store.ref}")
        if len(matches) > 1:
            shown = ", ".join(a[:12] for a in matches[:5])
            raise InputError(f"item id {prefix} is ambiguous ({shown}…): give more characters")
        chosen[matches[0]] = _item(contents.items[matches[0]])
    removals = tuple(
        Removal("item", a, "named", None if i is None else i.text) for a, i in chosen.items()
    )
    assert contents.tip is not None
    purge = Purge(items=tuple(sorted(chosen)), how=HOW_ID, before=contents.tip)
    return PurgePlan(contents.tip, purge, {}, removals, item_texts(chosen.values()))


def _plan_text(contents: StoreContents, ws: Workspace, text: str) -> PurgePlan:
    assert contents.tip is not None
    records = {r.address: r for r in contents.records if _holds(r.data, text)}
    checkpoints = _checkpoints(contents)
    removals = [Removal("record", a, "it holds the text") for a in sorted(records)]
    items: dict[Sha256Hex, str] = {
        a: "it holds the text" for a, data in contents.items.items() if _holds(data, text)
    }
    for address in records:
        for added in checkpoints[address].items if address in checkpoints else ():
            items.setdefault(added, f"checkpoint {address[:12]}, which added it, holds the text")
    formats = _formats(contents, checkpoints)
    redacted: dict[Sha256Hex, bytes] = {}
    for digest in sorted(contents.snapshots):
        data = ws.store.read_snapshot(digest)
        copy = None if data is None else redact_snapshot(data, text, formats.get(digest, ()))
        if copy is not None:
            redacted[digest] = copy
            removals.append(Removal("snapshot", digest, "it holds the text: a redacted copy"))
    items.update(_broken_quotes(contents, checkpoints, redacted, set(items)))
    if not (records or items or redacted):
        raise NegativeResult(f"nothing stored in {ws.store.ref} holds that text")
    parsed = {a: _item(contents.items.get(a)) for a in items}
    removals += [
        Removal("item", a, why, _masked(parsed[a], text)) for a, why in sorted(items.items())
    ]
    purge = Purge(
        items=tuple(sorted(items)),
        snapshots={old: sha256_hex(new) for old, new in redacted.items()},
        records=tuple(sorted(records)),
        how=HOW_TEXT,
        text=text_digest(text, secrets.token_hex(16)),
        before=contents.tip,
    )
    scrub = (text, *item_texts(parsed.values()))
    return PurgePlan(contents.tip, purge, redacted, tuple(removals), scrub)


def _holds(data: bytes, text: str) -> bool:
    """Stored JSON holds *text* where it keeps what was said (:func:`value_holds`); bytes
    that are not canonical JSON are searched as bytes. A purge event never holds it: it
    keeps a digest, never the text, and it is what readers and sync go by, so no later
    purge may remove it. Nor does the session name of what a person wrote by hand
    (:data:`HUMAN_SESSION`, gitmem's own word)."""
    try:
        value = canonical.decode(data)
    except FormatError:
        return holds(data, text)
    if isinstance(value, dict):
        if value.get("event") == EVENT_PURGE:
            return False
        if value.get("session") == HUMAN_SESSION:
            value = {k: v for k, v in value.items() if k != "session"}
    return value_holds(value, text)


def _checkpoints(contents: StoreContents) -> dict[Sha256Hex, Checkpoint]:
    found: dict[Sha256Hex, Checkpoint] = {}
    for stored in contents.records:
        try:
            record = parse_record(stored.data)
        except FormatError:
            continue
        if isinstance(record, Checkpoint):
            found[stored.address] = record
    return found


def _formats(
    contents: StoreContents, checkpoints: Mapping[Sha256Hex, Checkpoint]
) -> dict[Sha256Hex, list[str]]:
    """The transcript format each snapshot was stored from, as its records name it."""
    formats: dict[Sha256Hex, list[str]] = {}
    for checkpoint in checkpoints.values():
        if checkpoint.source is not None:
            formats.setdefault(checkpoint.source.snapshot, []).append(checkpoint.source.format)
    for stored in contents.records:
        if stored.type != "event":
            continue
        try:
            evidence = parse_record(stored.data).extra.get("evidence")
        except FormatError:
            continue
        if not isinstance(evidence, dict):
            continue
        digest, fmt = evidence.get("snapshot"), evidence.get("format")
        if is_sha256_hex(digest) and isinstance(fmt, str):
            formats.setdefault(Sha256Hex(str(digest)), []).append(fmt)
    return formats


def _broken_quotes(
    contents: StoreContents,
    checkpoints: Mapping[Sha256Hex, Checkpoint],
    redacted: Mapping[Sha256Hex, bytes],
    removed: set[Sha256Hex],
) -> dict[Sha256Hex, str]:
    """Items kept so far whose verified quote no longer checks against the redacted copy
    of its snapshot: the quote held part of the text, so the item goes too."""
    if not redacted:
        return {}
    sources: dict[Sha256Hex, Source | None] = {}
    for checkpoint in checkpoints.values():
        for added in checkpoint.items:
            sources.setdefault(added, checkpoint.source)
    broken: dict[Sha256Hex, str] = {}
    for address, data in contents.items.items():
        item = _item(data)
        if address in removed or item is None or not (item.quote and item.quote_verified):
            continue
        source = sources.get(address)
        digest = item.snapshot or (None if source is None else source.snapshot)
        if digest is None or digest not in redacted:
            continue
        fmt, name = (None, "snapshot") if source is None else (source.format, source.name)
        if check_stored_quotes([item.quote], redacted[digest], fmt, name=name)[0].problem:
            broken[address] = "its quote held part of the text"
    return broken


def _item(data: bytes | None) -> Item | None:
    if data is None:
        return None
    try:
        return parse_item(data)
    except FormatError:
        return None


def _masked(item: Item | None, text: str) -> str | None:
    return None if item is None else item.text.replace(text, PURGED_TEXT)


def run_purge(ws: Workspace, plan: PurgePlan, now: datetime, gc: bool = False) -> PurgeResult:
    """Carry out *plan* (see the module's steps).

    Raises:
        SigningKeyError: no key to sign the event with.
        NegativeResult: the ref kept moving under us.
        GitError: the history could not be rewritten.
    """
    with locked(ws.store.local_dir, LOCK_FILE):
        return _run(ws, plan, now, gc)


def _run(ws: Workspace, plan: PurgePlan, now: datetime, gc: bool) -> PurgeResult:
    store, identity = ws.store, ws.identity
    editor = purge_editor(store, plan.purge, plan.redacted)
    for attempt in range(_ATTEMPTS):
        before = store.tip()
        if before is None:
            raise NegativeResult(f"{store.ref} was deleted meanwhile; nothing was purged")
        purge = replace(plan.purge, before=before)
        event = new_event(
            identity, EVENT_PURGE, None, HUMAN_SESSION, now, store.head_commit(), purge.to_extra()
        )
        sealed = seal(event, identity.sign, NAMESPACE)
        message = (
            f"gitmem: purge {sealed.address[:12]} ({len(purge.items)} item(s), "
            f"{len(purge.snapshots)} snapshot(s), {len(purge.records)} record(s))"
        )
        tip = store.commit_onto(editor.edit(before), sealed.entries, message, identity.principal)
        if store.compare_and_swap(before, tip, message):
            break
        time.sleep(random.uniform(0.001, 0.005) * min(attempt + 1, 10))
    else:
        raise NegativeResult(f"{store.ref} kept moving; nothing was purged")
    if ws.roots.check(sealed.address, sealed.data, sealed.receipt, "event").ok:
        keep_purges(store, [sealed.address])  # trusted now: it stays applied here
    team = ws.roots.team_only().check(sealed.address, sealed.data, sealed.receipt, "event")
    refs = (store.ref, *edit_tracking(store, editor))
    scrubbed = scrub_local(store.local_dir, plan.scrub)
    error = collect_garbage(store) if gc else None
    return PurgeResult(sealed.address, before, tip, purge, refs, scrubbed, gc, error, team.ok)
