"""What a reader checks again, straight from the git objects, before it shows anything:
however warm the index (:mod:`gitmem.lifecycle.index`) is, an edited record, item
or snapshot behind what is rendered is caught here and degrades visibly.

- the receipt of each shown item's origin checkpoint, in full (bytes, signature, key, trust);
- that the checkpoint names the item, and that the item's bytes hash to its address;
- each verbatim quote against the stored snapshot it was verified on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from gitmem.core.canonical import sha256_hex
from gitmem.core.integrity import RecordCheck, TrustRoots, check_item
from gitmem.core.quotes import check_stored_quotes, stored_messages
from gitmem.core.records import Checkpoint
from gitmem.core.types import Sha256Hex
from gitmem.lifecycle.replay import ItemState, MemoryState, QuoteSource
from gitmem.store.layout import content_path, receipt_path, record_path
from gitmem.store.repo import Store


class Rechecked(NamedTuple):
    """The verdicts on what is about to be shown."""

    checks: dict[Sha256Hex, RecordCheck]
    """The origin checkpoint of each item, checked now."""
    broken: dict[str, tuple[str, str]]
    """Item id → (label, why) for each item whose record or bytes do not hold."""


def checked_now(
    store: Store, roots: TrustRoots, addresses: Iterable[str]
) -> dict[str, RecordCheck]:
    """The records at *addresses* checked in full again, straight from the git objects
    (bytes, receipt, key, trust): what a reader verifies before it shows anything, however
    warm the index is. An address with no record stored is left out.

    Raises:
        GitError: the memory ref cannot be read.
    """
    wanted = [Sha256Hex(a) for a in dict.fromkeys(addresses)]
    paths = [record_path(kind, a) for a in wanted for kind in ("checkpoint", "event")]
    data = store.read_paths(paths + [receipt_path(a) for a in wanted])
    checks: dict[str, RecordCheck] = {}
    for address in wanted:
        for kind in ("checkpoint", "event"):
            path = record_path(kind, address)
            if path in data:
                receipt = data.get(receipt_path(address))
                checks[address] = roots.check(address, data[path], receipt, kind)
    return checks


def recheck(store: Store, roots: TrustRoots, states: Iterable[ItemState]) -> Rechecked:
    """Check, from the git objects, everything behind *states*: the receipt of each item's
    origin checkpoint, that the checkpoint names the item, and that the item's bytes hash
    to its address.

    Raises:
        GitError: the memory ref cannot be read.
    """
    shown = list(states)
    origins = {s.origin_checkpoint for s in shown}
    checks = {Sha256Hex(a): c for a, c in checked_now(store, roots, origins).items()}
    paths = {s.id: content_path("items", s.id) for s in shown}
    blobs = store.read_paths(paths.values())
    broken: dict[str, tuple[str, str]] = {}
    for item_state in shown:
        check = checks.get(Sha256Hex(item_state.origin_checkpoint))
        blob = blobs.get(paths[item_state.id])
        # Bytes that hash to the address are the bytes the index parsed this item
        # from: the same bytes parse the same. Only others are looked at closely.
        intact = blob is not None and sha256_hex(blob) == item_state.id
        verdict = None if intact else check_item(item_state.id, blob)
        if check is None or not check.ok:
            why = "its checkpoint is not stored" if check is None else check.detail
            broken[item_state.id] = ((check and check.problem) or "record missing", why)
        elif not isinstance(check.record, Checkpoint) or item_state.id not in check.record.named:
            broken[item_state.id] = ("item not named", "its checkpoint does not name it")
        elif verdict is not None and not verdict.ok:
            broken[item_state.id] = (verdict.problem or "item failed", verdict.detail)
    return Rechecked(checks, broken)


def purge_checks(
    store: Store, roots: TrustRoots, state: MemoryState
) -> dict[Sha256Hex, RecordCheck]:
    """The records behind the purged items a brief renders, checked now: the newest
    checkpoint (which names them) and the purge events (which say who purged them, when).

    Raises:
        GitError: the memory ref cannot be read.
    """
    if not state.purged or state.latest_checkpoint is None:
        return {}
    newest = checked_now(store, roots, [state.latest_checkpoint]).get(state.latest_checkpoint)
    if newest is None or not isinstance(newest.record, Checkpoint):
        return {}
    events = {state.purged[a].address for a in newest.record.named if a in state.purged}
    wanted = [state.latest_checkpoint, *events]
    return {Sha256Hex(a): c for a, c in checked_now(store, roots, wanted).items()}


def quote_failures(
    store: Store, states: Mapping[str, ItemState], quotes: Sequence[tuple[str, str]]
) -> dict[str, str]:
    """Each (item id, quote) of *quotes* checked again against the stored snapshot it was
    verified on (each snapshot read, hash-checked and folded once): item id → why it
    failed. A missing or edited snapshot fails every quote it should hold.

    Raises:
        GitError: the memory ref cannot be read.
    """
    wanted: dict[QuoteSource, list[tuple[str, str]]] = {}
    failures: dict[str, str] = {}
    for ident, quote in quotes:
        source = states[ident].quote_source if ident in states else None
        if source is None:
            failures[ident] = "no stored snapshot is named for it"
        else:
            wanted.setdefault(source, []).append((ident, quote))
    for source, held in wanted.items():
        digest = Sha256Hex(source.snapshot)
        checks = check_stored_quotes(
            [q for _, q in held], store.read_snapshot(digest), source.format, digest, source.name
        )
        failures.update(
            (ident, check.reason)
            for (ident, _), check in zip(held, checks, strict=True)
            if check.problem is not None
        )
    return failures


def snapshot_messages(store: Store, source: QuoteSource) -> tuple[list[str] | None, str]:
    """The message texts of the stored snapshot a quote was verified on, read by the one
    rule (:func:`gitmem.core.quotes.stored_messages`); or None and why not (not stored,
    edited, unreadable).

    Raises:
        GitError: the memory ref cannot be read.
    """
    digest = Sha256Hex(source.snapshot)
    data = store.read_snapshot(digest)
    messages, failed = stored_messages(data, source.format, digest, source.name)
    return messages, failed.reason
