"""Memory as an export carries it: the items chosen, each as this reader's brief shows
it, with the bytes behind it. Read-only.

Nothing is decided twice. What each item's trust class, quote and badges are comes from
the brief's own verification (:func:`gitmem.brief.emit.verified_brief`: every record
behind it checked again from the git objects, every quote against its snapshot, world
checked), run over every chosen item whether current or not; an item the brief would
degrade is exported degraded, with the brief's reason. Then the stored bytes are read:
the item blob, the checkpoint that vouches for it with its receipt, the lifecycle events
that touched it with theirs, and the snapshots they name (only bytes that hash to their
address travel).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

from gitmem.brief.emit import IndexFindings, verified_brief, world_probe
from gitmem.brief.review.build import lifecycle
from gitmem.brief.select import BriefItem
from gitmem.core.canonical import sha256_hex
from gitmem.core.errors import FormatError, InputError
from gitmem.core.intoto.memory import (
    LifeEvent,
    MemoryItem,
    QuoteAt,
    Signed,
    Standing,
    Stored,
    quote_location,
)
from gitmem.core.intoto.statement import SSHSIG_MEDIA
from gitmem.core.records import Checkpoint, Event, parse_as, parse_record
from gitmem.core.transcript import MESSAGES, snapshot_format
from gitmem.core.types import Sha256Hex
from gitmem.lifecycle.asof import open_index
from gitmem.lifecycle.fetched import with_fetched
from gitmem.lifecycle.index import FailedItem, FailedRecord
from gitmem.lifecycle.recheck import snapshot_messages
from gitmem.lifecycle.replay import ItemState, MemoryState, QuoteSource
from gitmem.lifecycle.workspace import MIN_PREFIX
from gitmem.store.asof import resolve_as_of
from gitmem.store.layout import content_path, parse_path, receipt_path, record_path
from gitmem.store.merge import added_paths
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots

SNAPSHOT_MEDIA = {
    "text": "text/plain; charset=utf-8",
    MESSAGES: "application/x.gitmem.messages+jsonl",
}
"""The media type of a snapshot in each of its encodings (docs/transcripts.md)."""


class Selection(NamedTuple):
    """Which items: these ids (unique prefixes), those added or changed since a
    revision of the memory, or every one."""

    ids: tuple[str, ...] = ()
    since: str | None = None
    every: bool = False


class Chosen(NamedTuple):
    items: tuple[MemoryItem, ...]
    """Oldest first."""
    skipped: tuple[str, ...]
    """One sentence per item that cannot travel (its blob is missing or edited)."""


def chosen_items(
    store: Store, home: Path, selection: Selection, world_check: bool = True
) -> Chosen:
    """The items *selection* names, as this reader's brief shows them, with their bytes.

    Raises:
        InputError: no selection, an unknown or ambiguous id, or a ``--since`` that names
            no moment of this repository.
        GitError: the memory ref cannot be read.
    """
    roots = load_trust_roots(home, store)
    view = with_fetched(store, roots)
    with open_index(view, roots) as index:
        state = index.state()
        checkpoints, _, _ = index.counts()
        failed = index.failed()
        failed_items = index.failed_items()
    wanted = _wanted(view, state, selection, _failed_ids(failed, failed_items))
    shown = {a: s for a, s in state.items.items() if wanted is None or a in wanted}
    brief = verified_brief(
        view,
        roots,
        replace(state, items=shown),
        IndexFindings(checkpoints, failed, failed_items),
        world_probe(store) if world_check else None,
        stale=0,
        only_current=False,
    )
    lines = [line for line in brief.items if wanted is None or line.id in wanted]
    return _Reader(view, shown).items(lines)


def _failed_ids(failed: Iterable[FailedRecord], failed_items: Iterable[FailedItem]) -> set[str]:
    """The ids of the items the brief shows from records that failed. Raises nothing."""
    found = {item.id for record in failed for item in record.items}
    return found | {bad.check.address for bad in failed_items}


def _wanted(
    store: Store, state: MemoryState, selection: Selection, degraded: set[str]
) -> set[str] | None:
    """The addresses *selection* names (None: every one).

    Raises:
        InputError: see :func:`chosen_items`.
    """
    if selection.every:
        return None
    if selection.since is not None:
        return _changed_since(store, selection.since)
    if not selection.ids:
        raise InputError("say which items: --items ID…, --since REV or --all")
    known = set(state.items) | degraded
    return {_one(prefix, known) for prefix in selection.ids}


def _one(prefix: str, known: Iterable[str]) -> str:
    if len(prefix) < MIN_PREFIX or prefix.strip("0123456789abcdef"):
        raise InputError(f"item id {prefix!r}: give at least {MIN_PREFIX} hex characters")
    found = sorted(a for a in known if a.startswith(prefix))
    if not found:
        raise InputError(f"no item {prefix} in this repository's memory")
    if len(found) > 1:
        ids = ", ".join(a[:12] for a in found[:5])
        raise InputError(f"item id {prefix} is ambiguous ({ids}…): give more characters")
    return found[0]


def _changed_since(store: Store, spec: str) -> set[str] | None:
    """The items added since the memory as of *spec*, and those an event added since
    is about (None: memory did not exist then, so every item).

    Raises:
        InputError: *spec* names no moment of this repository.
    """
    try:
        moment = resolve_as_of(store, spec)
    except InputError as e:
        raise InputError(str(e).replace("--as-of", "--since")) from e
    tip = store.tip()
    if moment.commit is None:
        return None
    if tip is None:
        return set()
    paths = added_paths(store.repo, moment.commit, tip) or frozenset()
    found: set[str] = set()
    events: list[str] = []
    for path in paths:
        parsed = parse_path(path)
        if parsed is not None and parsed[0] == "items":
            found.add(parsed[1])
        elif parsed is not None and parsed[0] == "events":
            events.append(path)
    for data in store.read_paths(events).values():
        try:
            record = parse_record(data)
        except FormatError:
            continue
        if isinstance(record, Event):
            found.update(address for address, _ in record.parts())
    return found


class _Reader:
    """Reads the bytes behind brief lines, each path once."""

    def __init__(self, store: Store, states: Mapping[str, ItemState]) -> None:
        self.store = store
        self.states = states
        self.snapshots: dict[str, bytes | None] = {}
        self.messages: dict[QuoteSource, list[str] | None] = {}

    def items(self, lines: Sequence[BriefItem]) -> Chosen:
        blobs = self.store.read_paths(content_path("items", Sha256Hex(i.id)) for i in lines)
        events = {
            address
            for line in lines
            if (state := self.states.get(line.id)) is not None
            for address, _ in state.events
        }
        signed = {
            **self._signed({i.checkpoint for i in lines}, "checkpoint"),
            **self._signed(events, "event"),
        }
        checkpoints: dict[str, Checkpoint | None] = {}
        items: list[MemoryItem] = []
        skipped: list[str] = []
        for line in lines:
            data = blobs.get(content_path("items", Sha256Hex(line.id)))
            if data is None or sha256_hex(data) != line.id:
                skipped.append(f"item {line.id[:12]}: its blob is missing or edited")
                continue
            if line.checkpoint not in checkpoints:
                checkpoints[line.checkpoint] = _checkpoint(signed.get(line.checkpoint))
            record = checkpoints[line.checkpoint]
            if record is None:
                skipped.append(f"item {line.id[:12]}: its checkpoint cannot be read")
                continue
            items.append(self._item(line, data, record, signed))
        items.sort(key=lambda i: (i.created, i.item.digest))
        return Chosen(tuple(items), tuple(skipped))

    def _signed(self, addresses: Iterable[str], kind: str) -> dict[str, Signed]:
        """The bytes of each record of *kind* stored at *addresses*, with its receipt."""
        wanted = [Sha256Hex(a) for a in addresses]
        data = self.store.read_paths(
            [*(record_path(kind, a) for a in wanted), *(receipt_path(a) for a in wanted)]
        )
        found: dict[str, Signed] = {}
        for address in wanted:
            path = record_path(kind, address)
            if path in data:
                receipt = data.get(receipt_path(address))
                found[address] = Signed(
                    Stored(path, address, data[path]),
                    None
                    if receipt is None
                    else Stored(receipt_path(address), sha256_hex(receipt), receipt, SSHSIG_MEDIA),
                )
        return found

    def _item(
        self, line: BriefItem, data: bytes, record: Checkpoint, signed: Mapping[str, Signed]
    ) -> MemoryItem:
        state = self.states.get(line.id)
        events: list[LifeEvent] = []
        digests: dict[str, str | None] = {}
        if record.source is not None:
            digests[record.source.snapshot] = record.source.format
        for address, event in () if state is None else state.events:
            if address in signed:
                events.append(LifeEvent(event.event, event.created, event.writer, signed[address]))
                for digest in _snapshots_named(event):
                    digests.setdefault(digest, None)
        quote = self._quote(line, state)
        if quote is not None:
            digests.setdefault(quote.snapshot, None)
        forgotten = state is not None and state.forgotten
        return MemoryItem(
            item=Stored(content_path("items", Sha256Hex(line.id)), line.id, data),
            kind=line.kind,
            text=None if forgotten else line.text,
            trust=line.trust,
            captured_trust=line.captured_trust,
            degraded=None
            if line.degraded_label is None
            else (line.degraded_label, line.degraded_reason or ""),
            quote=None if forgotten else quote,
            session=line.origin_session,
            writer=record.writer,
            key=record.key,
            created=record.created,
            transcript_time=record.transcript_time,
            last_seen=line.created,
            commit=record.commit,
            checkpoint=signed[line.checkpoint],
            standing=Standing(
                None if state is None else lifecycle(state),
                line.status,
                line.carried,
                line.corroboration,
                line.contradiction,
            ),
            events=tuple(events),
            snapshots=tuple(self._snapshot(d, f) for d, f in digests.items() if self._held(d)),
            world=(None, None) if line.world is None else (line.world.status, line.world.summary),
        )

    def _quote(self, line: BriefItem, state: ItemState | None) -> QuoteAt | None:
        source = None if state is None else state.quote_source
        if line.quote is None or source is None:
            return None
        if source not in self.messages:
            self.messages[source] = snapshot_messages(self.store, source)[0]
        messages = self.messages[source]
        where = None if messages is None else quote_location(line.quote, messages)
        message, ranges = (None, ()) if where is None else where
        return QuoteAt(line.quote, source.snapshot, message, ranges)

    def _held(self, digest: str) -> bool:
        """Whether the snapshot *digest* is stored with bytes that hash to it."""
        if digest not in self.snapshots:
            data = self.store.read_snapshot(Sha256Hex(digest))
            intact = data is not None and sha256_hex(data) == digest
            self.snapshots[digest] = data if intact else None
        return self.snapshots[digest] is not None

    def _snapshot(self, digest: str, fmt: str | None) -> Stored:
        media = "application/octet-stream"
        with contextlib.suppress(InputError):  # a format no gitmem knows: bytes, then
            media = SNAPSHOT_MEDIA.get(snapshot_format(fmt), media) if fmt else media
        path = content_path("snapshots", Sha256Hex(digest))
        return Stored(path, digest, self.snapshots[digest], media)


def _checkpoint(signed: Signed | None) -> Checkpoint | None:
    """The checkpoint *signed* holds (None: not stored, or not a checkpoint that reads).
    Its form is not checked again: the brief just checked it (or shows it failed)."""
    if signed is None or signed.record.data is None:
        return None
    return parse_as(signed.record.data, Checkpoint, form_checked=True)


def _snapshots_named(event: Event) -> list[str]:
    """The snapshots an event's evidence names (a corroboration's, a reverify's); *event*
    is the item's own part of it, as replay applied it."""
    found = [event.extra.get("snapshot")]
    evidence = event.extra.get("evidence")
    if isinstance(evidence, dict):
        found.append(evidence.get("snapshot"))
    return [d for d in found if isinstance(d, str) and len(d) == 64]
