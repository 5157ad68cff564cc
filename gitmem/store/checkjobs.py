"""The checks a walk of the store's content hands out (for :mod:`gitmem.store.checking`):
one item blob or one record each, worked out in this process or in a forked helper.

A job names its blobs unread, and the process that checks a job reads them: a helper is
sent their ids and reads them from a handle on the repository of its own (not the one it
shares with the process that forked it). What comes back is small: a verdict, and what
the walk needs of a record (:class:`Facts`), never the bytes or the parsed record.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any, NamedTuple

import pygit2

from gitmem.core.canonical import decode_unchecked
from gitmem.core.errors import FormatError
from gitmem.core.integrity import RecordCheck, check_item
from gitmem.core.purge import Purge, purge_of
from gitmem.core.records import (
    EVENT_PURGE,
    Checkpoint,
    Event,
    Record,
    record_of,
    repository_of,
)
from gitmem.core.types import Sha256Hex
from gitmem.store.layout import LIMITS, bounded_bytes, limit_of
from gitmem.store.repo import StoredRecord

Blob = pygit2.Blob | str
"""A blob to read: the tree's object in the process that walked it, its id in a helper."""


class ItemJob(NamedTuple):
    address: Sha256Hex
    blob: Blob


class RecordJob(NamedTuple):
    type: str
    address: Sha256Hex
    path: str
    blob: Blob
    receipt: Blob | None
    """Its receipt's blob (None: no plain file is stored there)."""


Job = ItemJob | RecordJob

ItemVerdict = tuple[str | None, str, str | None, str | None]
"""An item blob's check: (problem, detail, quote, snapshot), its quote when verified."""


class Origin(NamedTuple):
    """The snapshot a checkpoint's items were drawn from, and how it is read (what the
    walk needs of a :class:`~gitmem.core.records.Source`: a tuple pickles in a third of
    the time a dataclass does)."""

    snapshot: Sha256Hex
    format: str
    name: str


class Facts(NamedTuple):
    """What the walk needs of a record that parses: the purge an event records, what a
    checkpoint names and adds, and from which transcript."""

    type: str
    bound: bool
    """It names the repository it was written for."""
    purge: Purge | None
    named: tuple[Sha256Hex, ...]
    adds: tuple[Sha256Hex, ...]
    source: Origin | None


class RecordVerdict(NamedTuple):
    """A record's check."""

    signed: bool
    """False: its checker does not sign it (nothing else is said of it)."""
    problem: str | None
    detail: str
    facts: Facts | None
    """None: it does not parse."""


RecordChecker = Callable[[StoredRecord], RecordCheck | None]
"""The check of one stored record; None for a record that is unsigned by design."""


class Checks:
    """The check of one job (:meth:`__call__`), by *checker*, in whichever process runs
    it. Pure but for reading the job's blobs."""

    def __init__(self, repo: pygit2.Repository, checker: RecordChecker) -> None:
        self._repo, self._check = repo, checker
        self._parsed: Callable[[StoredRecord, Record | None, Any], RecordCheck | None] | None
        self._parsed = getattr(checker, "parsed", None)  # a check that takes a parse (verify's)
        self._own: pygit2.Repository | None = None
        self._same: dict[Sha256Hex, Sha256Hex] = {}
        """Each item address met so far, as one string (see :func:`facts_of`)."""

    def __call__(self, job: Job) -> ItemVerdict | RecordVerdict | None:
        """The check of *job* (None: git cannot read the record, which the walk leaves
        out, as a walk always did)."""
        if isinstance(job, ItemJob):
            return item_verdict(job.address, self.read(job.blob, _ITEM))
        data = self.read(job.blob, limit_of(job.path))
        if data is None:
            return None
        receipt = None if job.receipt is None else self.read(job.receipt, _RECEIPT)
        stored = StoredRecord(job.type, job.address, job.path, data, receipt)
        check = self._check(stored) if self._parsed is None else self._parsed(stored, *parsed(data))
        if check is None:
            return RecordVerdict(False, None, "", None)
        if check.record is None:
            return RecordVerdict(True, check.problem, check.detail, None)
        same = self._same if isinstance(job.blob, str) else None  # a helper's, to be pickled
        facts = facts_of(check.record, job.address, same)
        return RecordVerdict(True, check.problem, check.detail, facts)

    def read(self, blob: Blob, limit: tuple[int, str]) -> bytes | None:
        """The bytes of *blob*, a file that may hold *limit* (:func:`bounded_bytes`).
        Raises nothing."""
        if not isinstance(blob, str):  # the tree's own object, in the process that walked it
            return bounded_bytes(self._repo, blob.id, limit)
        if self._own is None:  # a helper, sent ids: a handle of its own, opened once
            with contextlib.suppress(pygit2.GitError, KeyError, ValueError):
                self._own = pygit2.Repository(self._repo.path)
        return bounded_bytes(self._own or self._repo, blob, limit)


_ITEM, _RECEIPT = LIMITS["items"], LIMITS["receipts"]


def sent(job: Job) -> Job:
    """What a helper is sent of *job*: the ids of its blobs."""
    if isinstance(job, ItemJob):
        return ItemJob(job.address, _oid(job.blob))
    receipt = None if job.receipt is None else _oid(job.receipt)
    return RecordJob(job.type, job.address, job.path, _oid(job.blob), receipt)


def _oid(blob: Blob) -> str:
    return blob if isinstance(blob, str) else str(blob.id)


def item_verdict(address: Sha256Hex, data: bytes | None) -> ItemVerdict:
    """The check of one item blob (its bytes *data*, None: not stored)."""
    verdict = check_item(address, data)
    item = verdict.item
    quote = item.quote if item is not None and item.quote_verified else None
    return verdict.problem, verdict.detail, quote, None if item is None else item.snapshot


def facts_of(
    record: Record, address: Sha256Hex, same: dict[Sha256Hex, Sha256Hex] | None = None
) -> Facts:
    """What the walk needs of *record*, stored at *address*. With *same*, each item
    address is the string *same* holds for it (added there when new): the ~50 addresses a
    checkpoint names are mostly carried ones that the checkpoints before named too, and
    the answers a helper sends then pickle each address once, not once a checkpoint (a
    share of 600 checkpoints: 2.2 MB and 11 ms of pickling both ways, against 0.9 MB and
    3 ms)."""
    bound = bool(repository_of(record))
    if isinstance(record, Checkpoint):
        items, carried = record.items, record.carried
        if same is not None:
            items = tuple([same.setdefault(a, a) for a in items])
            carried = tuple([same.setdefault(a, a) for a in carried])
        source = record.source
        origin = None if source is None else Origin(source.snapshot, source.format, source.name)
        return Facts(record.type, bound, None, items + carried, items, origin)
    purge = None
    if isinstance(record, Event) and record.event == EVENT_PURGE:
        purge = purge_of(record, address)
    return Facts(record.type, bound, purge, (), (), None)


def parsed(data: bytes) -> tuple[Record | None, Any]:
    """*data* parsed, and the JSON value it holds; its canonical form left to the record's
    check (a record that does not parse there is taken as unparsed)."""
    try:
        value = decode_unchecked(data)
        return record_of(value), value
    except FormatError:
        return None, None
