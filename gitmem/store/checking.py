"""The check of one ref's content, read once and a part at a time
(:func:`gitmem.store.verify.check_ref` reports it).

A team-year of memory is tens of thousands of records and item blobs: read all at once
they take hundreds of megabytes, and checked one by one a core does it all. So the item
blobs, then the records, are walked a chunk at a time from the tree's fan-out folders,
events before checkpoints (the purges among them say what is gone on purpose before any
checkpoint naming it is checked). A chunk is a list of checks whose blobs are still
unread (:mod:`~gitmem.store.checkjobs`): a helper forked once takes a share of each
chunk, reading, parsing and checking those blobs itself, while this process walks the
next chunk, checks the rest and keeps what the one before found
(:func:`~gitmem.store.parallel.pipelined`). Each item blob is read and checked once
however many checkpoints name it, and only its verdict is kept. The quotes to check again
are put together by snapshot, and each snapshot is read once, checked, and let go
(:mod:`~gitmem.store.quotecheck`). The problems come out in the order the whole-store
read gave them: each record's (its own, then its items', then its quotes') in the
tree's order, then orphans, strays and history.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import NamedTuple, TypeVar, cast

import pygit2

from gitmem.core.integrity import (
    ITEM_MISSING,
    UNTRUSTED_KEY,
    WRONG_FOLDER,
)
from gitmem.core.purge import Purge, Purges, resolve_snapshot
from gitmem.core.quotes import SNAPSHOT_MISSING
from gitmem.core.types import GitOid, Sha256Hex
from gitmem.store.checkjobs import (
    Checks,
    Facts,
    ItemJob,
    ItemVerdict,
    Job,
    RecordChecker,
    RecordJob,
    RecordVerdict,
    item_verdict,
    sent,
)
from gitmem.store.layout import (
    EXTENSIONS,
    RECORD_DIRS,
    RECORD_PATHS,
    blob_bytes,
    content_path,
    hashed_here,
    holds_record,
    misfit,
    parse_path,
    plain_file,
    plain_file_bytes,
    receipt_path,
    walk_content,
)
from gitmem.store.parallel import gc_paused, pipelined
from gitmem.store.purge import purges_at
from gitmem.store.quotecheck import Found, PutBy, check_quotes
from gitmem.store.repo import Store
from gitmem.store.shape import UNEXPECTED_ENTRY, Paths, by_name, entry_at, odd_entry

CHUNK = 1000
"""Records read, checked and let go at a time (two chunks are in memory at a time; a
chunk costs one exchange with the helper, not a fork)."""


T = TypeVar("T")

Progress = Callable[[str, int], None]
"""Told how a check goes: ``("content", n)`` after each batch (*n* records and item blobs
checked so far), ``("quotes", n)`` as the snapshots are reached (*n* read so far), and
``("history", 0)`` while only the walk of the history is left (``verify`` on a terminal
shows it)."""


def no_progress(stage: str, done: int) -> None:
    """No one is told."""


class Checked(NamedTuple):
    """What checking one ref's content found."""

    problems: list[Found]
    records: int
    receipts: int
    snapshots: int
    unbound: int = 0
    """Intact records that name no repository (written before records did)."""


def check_content(
    store: Store,
    checker: RecordChecker,
    only: frozenset[str] | None = None,
    progress: Progress = no_progress,
) -> Checked:
    """Check the content of *store*'s ref at its tip (only the paths in *only*, when
    given: what a fetch would add) with *checker*, the check of one stored record;
    *progress* is told how it goes.

    Raises:
        BrokenRef: the ref is symbolic or points at something that is not a commit.
    """
    # No collection meanwhile: what the check keeps (a verdict an item, the quotes put
    # by) is kept to its end, and a collection of it frees nothing (two in a verify of
    # 10,000 checkpoints, ~80 ms); the helper forked in it inherits the pause.
    with hashed_here(), gc_paused():
        return _Checking(store, checker, only, progress).run()


class _Checking:
    def __init__(
        self,
        store: Store,
        checker: RecordChecker,
        only: frozenset[str] | None,
        progress: Progress,
    ) -> None:
        self.store, self.only, self.check, self.progress = store, only, checker, progress
        self.done = 0
        """Records and item blobs checked so far."""
        self.answer = Checks(store.repo, checker)
        tip = store.tip()
        self.tree: pygit2.Tree | None = None if tip is None else store._commit(tip).tree
        self.tip: GitOid | None = tip
        self.at = Paths(self.tree)
        self.by_record: dict[str, list[Found]] = {}
        self.strays: dict[str, list[str]] = {}
        """Misfits found under each top folder (in the order found)."""
        self.odd: dict[str, list[tuple[str, str]]] = {}
        self.unnamed: set[Sha256Hex] = set()
        """The item blobs walked (those *only* names, when given) that no checkpoint
        checked so far names: what is left at the end is orphaned."""
        self.addresses: set[Sha256Hex] = set()
        self.verdicts: dict[Sha256Hex, ItemVerdict] = {}
        """item → (problem, detail, quote, snapshot) of its blob (quote when verified)."""
        self.failing: set[Sha256Hex] = set()
        """Items whose blob does not hold (the verdict names a problem)."""
        self.receipts = 0
        """The receipts under receipts/ (those *only* names, when given)."""
        self.unmatched: list[Sha256Hex] = []
        """Those of them whose record was not checked yet when they were walked (a
        store's receipts are not all held at once: 150,000 at 50,000 checkpoints)."""
        self.quotes: dict[Sha256Hex, list[PutBy]] = {}
        """snapshot → the quotes of checkpoints' items put by for it."""
        self.found: list[Purge] = []
        self.untrusted: list[Purge] = []
        self.records = 0
        self.unbound = 0
        self._known: tuple[tuple[int, int], Purges, dict[Sha256Hex, Purge]] | None = None
        self._fan, self._fan_names = "", dict[bytes, pygit2.Object]()
        """The fan-out folder of receipts/ read last, and its entries by name."""

    # -- the walk ---------------------------------------------------------------

    def run(self) -> Checked:
        if self.tree is None:
            return Checked([], 0, 0, 0)
        if self.only is not None:
            self._purges_of_the_tip()
        # purges first: the events, then the checkpoints
        pipelined(self._batches(), list, self.answer, self._finish, sent)
        receipts = self._receipts()
        snapshots = self._snapshots()
        orphans = self._orphan_items()
        problems: list[Found] = []
        problems += self._snapshot_problems
        for directory in RECORD_DIRS:
            for path in sorted(p for p in self.by_record if p.startswith(directory + "/")):
                problems += self.by_record[path]
        problems += orphans
        problems += self._orphan_receipts
        strays, odd = self._misfits()
        problems += [Found(s, "stray path", "it does not fit the store layout") for s in strays]
        problems += [
            Found(p, UNEXPECTED_ENTRY, f"{what} where the layout holds plain files only")
            for p, what in odd
        ]
        return Checked(problems, self.records, receipts, snapshots, self.unbound)

    def _touched(self, path: str) -> bool:
        only = self.only
        if only is None or path in only:
            return True
        return any(p.startswith(path + "/") for p in only)

    def _top(self, directory: str) -> pygit2.Tree | None:
        top = entry_at(self.tree, directory)
        return top if isinstance(top, pygit2.Tree) else None

    def _entries(self, directory: str) -> Iterator[tuple[Sha256Hex, pygit2.Blob]]:
        """Each (address, blob) under *directory* (those *only* names, when given)."""
        top = self._top(directory)
        if self.only is None:
            if top is not None:
                yield from walk_content(
                    top,
                    directory,
                    self.strays.setdefault(directory, []),
                    self.odd.setdefault(directory, []),
                )
            return
        assert self.tree is not None
        for path in sorted(p for p in self.only if p.startswith(directory + "/")):
            place, entry = parse_path(path), self.at(path)
            if entry is None:
                continue
            if place is None:
                self.strays.setdefault(directory, []).append(misfit(path))
            elif (what := odd_entry(entry.filemode)) is not None:
                self.odd.setdefault(directory, []).append((path, what))
            elif isinstance(entry, pygit2.Blob):
                yield place[1], entry

    def _misfits(self) -> tuple[list[str], list[tuple[str, str]]]:
        """The strays and the entries that are not plain files, in the tree's order: a
        top-level name outside the layout, then each folder's own misfits."""
        assert self.tree is not None
        strays: list[str] = []
        odd: list[tuple[str, str]] = []
        for top in self.tree:
            name = top.name or ""
            if name in EXTENSIONS and isinstance(top, pygit2.Tree):
                strays += dict.fromkeys(self.strays.get(name, []))
                odd += self.odd.get(name, [])
            elif self._touched(name):
                strays.append(name)
        return strays, odd

    def _chunks(self, directory: str) -> Iterator[list[Job]]:
        kind = RECORD_DIRS[directory]
        chunk: list[Job] = []
        for address, blob in self._entries(directory):
            receipt = plain_file(self._receipt(address))
            chunk.append(RecordJob(kind, address, content_path(directory, address), blob, receipt))
            if len(chunk) >= CHUNK:
                yield chunk
                chunk = []
        if chunk:
            yield chunk

    def _receipt(self, address: Sha256Hex) -> pygit2.Object | None:
        """The entry at the receipt path of the record at *address*. A whole walk asks in
        the order of the addresses, so each fan-out folder of receipts/ is read once, all
        its names at a time (one lookup by bisection reads ~8 of its entries: ~0.3 s of
        a 10,000-checkpoint ``verify``); a walk of some paths looks each up alone."""
        if self.only is not None:
            return self.at(receipt_path(address))
        fan = address[:2]
        if fan != self._fan:
            self._fan, self._fan_names = fan, by_name(self.at.folder(f"receipts/{fan}"))
        return self._fan_names.get(f"{address[2:]}.sig".encode())

    def _read(self, path: str) -> bytes | None:
        return plain_file_bytes(self.store.repo, self.at(path), path)

    # -- records ------------------------------------------------------------------

    def _batches(self) -> Iterator[list[Job]]:
        """The item blobs, then the records, events first (the purges among them say what
        is gone on purpose before any checkpoint naming it is checked), a chunk at a
        time, unread: the process that checks a blob reads it."""
        chunk: list[Job] = []
        for address, blob in self._entries("items"):
            self.unnamed.add(address)
            chunk.append(ItemJob(address, blob))
            if len(chunk) >= CHUNK:
                yield chunk
                chunk = []
        if chunk:
            yield chunk
        for directory in ("events", "checkpoints"):
            yield from self._chunks(directory)
        # walked while the helper still checks its share of the last chunk
        for address, _ in self._entries("receipts"):
            self.receipts += 1
            if address not in self.addresses:
                self.unmatched.append(address)

    def _finish(self, batch: list[Job], answers: list[ItemVerdict | RecordVerdict | None]) -> None:
        """What one batch's checks found, kept: item blobs' verdicts, or each record's
        problems (and its checkpoints' items and quotes) in the order read."""
        for job, answer in zip(batch, answers, strict=True):
            if isinstance(job, ItemJob):
                self._verdict_of(job.address, cast(ItemVerdict, answer))
            elif answer is not None:
                self.records += 1
                self.addresses.add(job.address)
                verdict = cast(RecordVerdict, answer)
                if verdict.signed:
                    self._record(job, verdict)
        self.done += len(batch)
        self.progress("content", self.done)

    def _record(self, job: RecordJob, verdict: RecordVerdict) -> None:
        found: list[Found] = []
        problem, facts = verdict.problem, verdict.facts
        if problem is not None:
            found.append(Found(job.path, problem, verdict.detail))
        if problem is None and facts is not None and not facts.bound:
            self.unbound += 1
        if facts is not None and facts.type != job.type and problem != WRONG_FOLDER:
            belongs = RECORD_PATHS.get(facts.type, "another folder")
            detail = f"it holds a record of type {facts.type!r}, which belongs under {belongs}/"
            found.append(Found(job.path, WRONG_FOLDER, detail))
        if facts is not None and facts.purge is not None and self.only is None:
            if problem is None:
                self.found.append(facts.purge)
            elif problem == UNTRUSTED_KEY:
                self.untrusted.append(facts.purge)
        if facts is not None and facts.type == "checkpoint":
            self.unnamed.difference_update(facts.named)
            found += self._items_of(job.path, facts)
        if found:
            self.by_record.setdefault(job.path, []).extend(found)

    def _purges_of_the_tip(self) -> None:
        """The purge events of the whole tip (a check of some paths still knows what
        every trusted purge removed)."""
        assert self.tip is not None
        purges = purges_at(self.store, self.tip, self.check)
        self.found, self.untrusted = list(purges.found), list(purges.untrusted)
        self._known = None

    def _purges(self) -> tuple[Purges, dict[Sha256Hex, Purge]]:
        """The purges known so far, and each item an untrusted one lists: worked out
        again only when a purge was found since (not once per checkpoint)."""
        known = (len(self.found), len(self.untrusted))
        if self._known is None or self._known[0] != known:
            purges = Purges.of(self.found, self.untrusted)
            untrusted = {a: p for p in purges.untrusted for a in p.items}
            self._known = (known, purges, untrusted)
        return self._known[1], self._known[2]

    # -- items and quotes ---------------------------------------------------------

    def _item(self, address: Sha256Hex) -> None:
        """The verdict on the item blob at *address*, read and checked once."""
        path = content_path("items", address)
        if address in self.verdicts or not self._touched(path):
            return
        self._verdict_of(address, item_verdict(address, self._read(path)))

    def _verdict_of(self, address: Sha256Hex, verdict: ItemVerdict) -> None:
        self.verdicts[address] = verdict
        if verdict[0] is not None:
            self.failing.add(address)

    def _items_of(self, path: str, checkpoint: Facts) -> list[Found]:
        """Every item blob *checkpoint* names must be stored (unless a trusted purge
        removed it) and hash to its address; the verified quotes of the items it adds are
        put by for their snapshot's check."""
        purges, untrusted = self._purges()
        problems: list[Found] = []
        quoted: list[tuple[Sha256Hex, str | None]] = []
        everything = self.only is None
        verdicts = self.verdicts
        names = checkpoint.named  # ~50 a checkpoint, most of them carried: kept lean
        if (
            everything
            and verdicts.keys() >= set(names)
            and self.failing.isdisjoint(names)
            and (not purges.items or purges.items.keys().isdisjoint(names))
        ):
            # The usual checkpoint: every blob it names is stored, was checked and holds,
            # and none is purged: only the quotes it adds count.
            adds = checkpoint.adds
            quoted = [(a, verdicts[a][3]) for a in names if a in adds and verdicts[a][2]]
            names = ()
        for named in names:
            address = Sha256Hex(named)
            if address in purges.items:
                continue
            if not everything and not self._touched(content_path("items", address)):
                continue
            verdict = verdicts.get(address)
            if verdict is None:
                self._item(address)
                verdict = verdicts[address]
            problem, detail, quote, snapshot = verdict
            if problem is not None:
                item_path = content_path("items", address)
                if address in untrusted and problem == ITEM_MISSING:
                    detail += (
                        f"; purge event {untrusted[address].address[:12]} lists it, but its "
                        "key is not trusted here, so that purge does not count"
                    )
                problems.append(Found(item_path, problem, detail))
            elif address in checkpoint.adds and quote:
                quoted.append((address, snapshot))
        source = checkpoint.source
        by_snapshot: dict[Sha256Hex, list[Sha256Hex]] = {}
        for address, snapshot in quoted:
            digest = snapshot or (None if source is None else source.snapshot)
            if digest is None:
                problems.append(
                    Found(content_path("items", address), SNAPSHOT_MISSING, "no snapshot")
                )
                continue
            by_snapshot.setdefault(
                resolve_snapshot(purges.snapshots, Sha256Hex(digest)), []
            ).append(address)
        for digest, items in by_snapshot.items():
            assert source is not None
            self.quotes.setdefault(digest, []).append(
                PutBy(path, source.format, source.name, items)
            )
        return problems

    def _snapshots(self) -> int:
        """Each snapshot read once, and the quotes put by for it checked
        (:mod:`~gitmem.store.quotecheck`); how many snapshots were read."""
        verdicts = self.verdicts
        repo = self.store.repo
        checks = check_quotes(
            self._reached(
                (d, blob_bytes(repo, b, "snapshots")) for d, b in self._entries("snapshots")
            ),
            self.quotes,
            lambda a: verdicts[a][2] or "",
            lambda digest: self._read(content_path("snapshots", digest)),
            CHUNK,
        )
        self._snapshot_problems = checks.edited
        for path, problems in checks.by_record:
            self.by_record.setdefault(path, []).extend(problems)
        return checks.snapshots

    def _reached(self, snapshots: Iterator[T]) -> Iterator[T]:
        """*snapshots*, *progress* told of each hundredth."""
        for count, snapshot in enumerate(snapshots, 1):
            if count % 100 == 0:
                self.progress("quotes", count)
            yield snapshot

    # -- orphans ------------------------------------------------------------------

    def _orphan_items(self) -> list[Found]:
        return [
            Found(content_path("items", a), "orphan item", "an item blob no checkpoint names")
            for a in sorted(self.unnamed)
        ]

    def _receipts(self) -> int:
        self._orphan_receipts: list[Found] = []
        for address in self.unmatched:
            if address not in self.addresses and (
                self.only is None or not holds_record(self.store.repo, self.tree, address)
            ):
                self._orphan_receipts.append(
                    Found(
                        content_path("receipts", address),
                        "orphan receipt",
                        "a receipt whose record is not in the store",
                    )
                )
        self._orphan_receipts.sort(key=lambda f: f.path)
        return self.receipts
