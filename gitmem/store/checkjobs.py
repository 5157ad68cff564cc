"""The checks a walk of the store's content hands out (for :mod:`gitmem.store.checking`):
one item blob or one record each, worked out in this process or in a forked helper.

A job names its blobs unread, and the process that checks a job reads them: a helper is
sent their ids and reads them from a handle on the repository of its own (not the one it
shares with the process that forked it). What comes back is small: a verdict, and what
the walk needs of a record (:class:`Facts`), never the bytes or the parsed record.
"""

from __future__ import annotations

import contextlib
import os
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
    Source,
    record_of,
    repository_of,
)
from gitmem.core.types import Sha256Hex
from gitmem.store.layout import blob_bytes, content_path, object_bytes, receipt_path
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


class Facts(NamedTuple):
    """What the walk needs of a record that parses: the purge an event records, what a
    checkpoint names and adds, and from which transcript."""

    type: str
    bound: bool
    """It names the repository it was written for."""
    purge: Purge | None
    named: tuple[Sha256Hex, ...]
    adds: tuple[Sha256Hex, ...]
    source: Source | None


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
        self._pid = os.getpid()
        self._own: pygit2.Repository | None = None

    def __call__(self, job: Job) -> ItemVerdict | RecordVerdict | None:
        """The check of *job* (None: git cannot read the record, which the walk leaves
        out, as a walk always did)."""
        if isinstance(job, ItemJob):
            return item_verdict(
                job.address, self.read(job.blob, content_path("items", job.address))
            )
        data = self.read(job.blob, job.path)
        if data is None:
            return None
        receipt = None if job.receipt is None else self.read(job.receipt, receipt_path(job.address))
        stored = StoredRecord(job.type, job.address, job.path, data, receipt)
        check = self._check(stored) if self._parsed is None else self._parsed(stored, *parsed(data))
        if check is None:
            return RecordVerdict(False, None, "", None)
        facts = None if check.record is None else facts_of(check.record, job.address)
        return RecordVerdict(True, check.problem, check.detail, facts)

    def read(self, blob: Blob, path: str) -> bytes | None:
        """The bytes of *blob*, found at *path* (:func:`blob_bytes`). Raises nothing."""
        if not isinstance(blob, str):
            return blob_bytes(self._repo, blob, path)
        repo = self._repo
        if os.getpid() != self._pid:  # a helper: a handle of its own, opened once
            if self._own is None:
                with contextlib.suppress(pygit2.GitError, KeyError, ValueError):
                    self._own = pygit2.Repository(repo.path)
            repo = self._own or repo
        return object_bytes(repo, blob, path)


def sent(job: Job) -> Job:
    """What a helper is sent of *job*: the ids of its blobs."""
    if isinstance(job, ItemJob):
        return job._replace(blob=_oid(job.blob))
    receipt = None if job.receipt is None else _oid(job.receipt)
    return job._replace(blob=_oid(job.blob), receipt=receipt)


def _oid(blob: Blob) -> str:
    return blob if isinstance(blob, str) else str(blob.id)


def item_verdict(address: Sha256Hex, data: bytes | None) -> ItemVerdict:
    """The check of one item blob (its bytes *data*, None: not stored)."""
    verdict = check_item(address, data)
    item = verdict.item
    quote = item.quote if item is not None and item.quote_verified else None
    return verdict.problem, verdict.detail, quote, None if item is None else item.snapshot


def facts_of(record: Record, address: Sha256Hex) -> Facts:
    """What the walk needs of *record*, stored at *address*."""
    bound = bool(repository_of(record))
    if isinstance(record, Checkpoint):
        return Facts(record.type, bound, None, record.named, record.items, record.source)
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
