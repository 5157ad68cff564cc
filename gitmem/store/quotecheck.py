"""The stored quotes of one ref checked against their snapshots, each snapshot read once
(for :mod:`gitmem.store.checking`).

The check of the records puts by, for each snapshot, the verified quotes of the items
each checkpoint adds from it. Then the snapshots are walked in the tree's order, each
read, checked against its address and, when quotes wait for it, kept for their check.
The quotes of a batch of snapshots are checked by a helper process as well as here while
the next batch is read (:func:`~gitmem.store.parallel.pipelined`); all the quotes of one
snapshot, whichever checkpoints put them by, are one check: the snapshot is parsed and
folded once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from gitmem.core.canonical import Unread, sha256_hex
from gitmem.core.quotes import check_stored_quotes
from gitmem.core.types import Sha256Hex
from gitmem.store.layout import content_path
from gitmem.store.parallel import pipelined

SNAPSHOT_UNREADABLE = "snapshot unreadable"
"""A problem of a snapshot: larger than a snapshot may hold, so it was not read."""
BATCH_BYTES = 32 * 1024 * 1024
"""Snapshot bytes a batch holds at most (two batches are in memory at a time); a single
larger snapshot is a batch of its own."""


class Found(NamedTuple):
    """A problem found at a path (the ref is the caller's)."""

    path: str
    problem: str
    detail: str


class PutBy(NamedTuple):
    """The verified quotes of the items one checkpoint adds from one snapshot."""

    path: str
    """The checkpoint's path."""
    format: str | None
    name: str
    items: list[Sha256Hex]


class QuoteChecks(NamedTuple):
    """What the check of the snapshots and the quotes found."""

    snapshots: int
    """How many snapshots the walk read."""
    edited: list[Found]
    """Snapshots whose bytes do not hash to their address, by path."""
    by_record: list[tuple[str, list[Found]]]
    """Each checkpoint's quote problems (its path first), in the order found."""


class _Job(NamedTuple):
    """The quotes that wait for one snapshot, read as one format under one name."""

    quotes: list[str]
    snapshot: bytes | None
    format: str | None
    digest: Sha256Hex
    name: str
    hashed: bool
    """Whether the walk found the bytes hash to the digest (they are not hashed again)."""


class _Batch(NamedTuple):
    jobs: list[_Job]
    owners: list[list[PutBy]]
    """For each job, whose quotes it holds, in order."""


def check_quotes(
    walk: Iterable[tuple[Sha256Hex, bytes | None]],
    put_by: dict[Sha256Hex, list[PutBy]],
    quote_of: Callable[[Sha256Hex], str],
    read: Callable[[Sha256Hex], bytes | None],
    chunk: int,
) -> QuoteChecks:
    """Each snapshot of *walk* (address, its bytes read as the walk reaches it) checked against its
    address; the quotes *put_by* keeps for it (by snapshot address, emptied as they are
    checked; *quote_of* gives an item's quote) checked against it, *chunk* snapshots at
    a time; then those of snapshots the walk did not hold, read with *read* (None: not
    stored). Raises what *read* raises."""
    snapshots = _Snapshots(put_by, quote_of)
    by_record: list[tuple[str, list[Found]]] = []
    pipelined(
        snapshots.batches(walk, read, chunk),
        _jobs,
        _checks,
        lambda batch, answers: _keep(batch, answers, by_record),
    )
    return QuoteChecks(snapshots.count, sorted(snapshots.edited, key=lambda f: f.path), by_record)


class _Snapshots:
    """The walk of the snapshots: how many, which were edited, and the batches of jobs."""

    def __init__(
        self, put_by: dict[Sha256Hex, list[PutBy]], quote_of: Callable[[Sha256Hex], str]
    ) -> None:
        self.put_by, self.quote_of = put_by, quote_of
        self.count = 0
        self.edited: list[Found] = []

    def batches(
        self,
        walk: Iterable[tuple[Sha256Hex, bytes | None]],
        read: Callable[[Sha256Hex], bytes | None],
        chunk: int,
    ) -> Iterator[_Batch]:
        put_by = self.put_by
        seen: set[Sha256Hex] = set()
        held: list[tuple[Sha256Hex, bytes | None, bool]] = []
        size = 0
        for digest, stored in walk:
            seen.add(digest)
            self.count += 1
            data = b"" if stored is None else stored
            path = content_path("snapshots", digest)
            if isinstance(data, Unread):
                intact = False
                self.edited.append(Found(path, SNAPSHOT_UNREADABLE, data.reason))
            elif not (intact := sha256_hex(data) == digest):
                detail = "its bytes do not hash to the address in its path"
                self.edited.append(Found(path, "snapshot edited", detail))
            if digest in put_by:
                held.append((digest, data, intact))
                size += len(data)
                if len(held) >= chunk or size >= BATCH_BYTES:
                    yield _batch(held, put_by, self.quote_of)
                    held, size = [], 0
        for digest in sorted(set(put_by) - seen):
            held.append((digest, read(digest), False))
        if held:
            yield _batch(held, put_by, self.quote_of)


def _batch(
    held: list[tuple[Sha256Hex, bytes | None, bool]],
    put_by: dict[Sha256Hex, list[PutBy]],
    quote_of: Callable[[Sha256Hex], str],
) -> _Batch:
    """The jobs of the snapshots *held* (taken out of *put_by*): one a snapshot and a way
    of reading it, whichever checkpoints wait for it."""
    jobs: list[_Job] = []
    owners: list[list[PutBy]] = []
    for digest, data, hashed in held:
        readings: dict[tuple[str | None, str], list[PutBy]] = {}
        for put in put_by.pop(digest, []):
            readings.setdefault((put.format, put.name), []).append(put)
        for (fmt, name), puts in readings.items():
            quotes = [quote_of(a) for put in puts for a in put.items]
            jobs.append(_Job(quotes, data, fmt, digest, name, hashed))
            owners.append(puts)
    return _Batch(jobs, owners)


def _jobs(batch: _Batch) -> list[_Job]:
    return batch.jobs


def _checks(job: _Job) -> list[tuple[str | None, str]]:
    """(problem, reason) of each quote of *job*: pure, so a child may work it out."""
    checks = check_stored_quotes(
        job.quotes, job.snapshot, job.format, job.digest, job.name, hashed=job.hashed
    )
    return [(check.problem, check.reason) for check in checks]


def _keep(
    batch: _Batch,
    answers: list[list[tuple[str | None, str]]],
    by_record: list[tuple[str, list[Found]]],
) -> None:
    for puts, checks in zip(batch.owners, answers, strict=True):
        at = 0
        for put in puts:
            mine = checks[at : at + len(put.items)]
            at += len(put.items)
            problems = [
                Found(content_path("items", a), problem, reason)
                for a, (problem, reason) in zip(put.items, mine, strict=True)
                if problem is not None
            ]
            if problems:
                by_record.append((put.path, problems))
