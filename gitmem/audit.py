"""Whole-store checks (``gitmem verify``) and the record history (``gitmem log``).

``verify`` covers every ref under ``refs/gitmem/``; :func:`check_ref` is also what sync
and restore run on fetched history before they accept any of it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from gitmem.canonical import sha256_hex
from gitmem.errors import FormatError, InputError
from gitmem.home import gitmem_home
from gitmem.integrity import UNTRUSTED_KEY, RecordCheck, check_record
from gitmem.model import Checkpoint, parse_record
from gitmem.revocation import revoked_reason
from gitmem.rewrites import resolve, rewrite_map
from gitmem.roots import ReleaseRoots, load_release_roots, load_revoked
from gitmem.signers import AllowedSignersFile
from gitmem.store import MEMORY_REF, RECORD_DIRS, Store, StoredRecord, content_path
from gitmem.transcripts import parse_transcript, snapshot_format
from gitmem.types import GitOid, Sha256Hex
from gitmem.verifier import check_quotes

RECORD_PATHS = {kind: directory for directory, kind in RECORD_DIRS.items()}


@dataclass(frozen=True)
class Problem:
    path: str
    problem: str
    detail: str
    ref: str = MEMORY_REF

    def to_json(self) -> dict[str, str]:
        return {"path": self.path, "problem": self.problem, "detail": self.detail, "ref": self.ref}


@dataclass(frozen=True)
class RefReport:
    """What one ref under ``refs/gitmem/`` holds, and what is wrong with it."""

    ref: str
    tip: GitOid | None
    records: int
    receipts: int
    snapshots: int
    problems: tuple[Problem, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "ref": self.ref,
            "tip": self.tip,
            "ok": not self.problems,
            "records": self.records,
            "receipts": self.receipts,
            "snapshots": self.snapshots,
        }


@dataclass(frozen=True)
class VerifyReport:
    records: int
    receipts: int
    snapshots: int
    problems: tuple[Problem, ...]
    refs: tuple[RefReport, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "records": self.records,
            "receipts": self.receipts,
            "snapshots": self.snapshots,
            "problems": [p.to_json() for p in self.problems],
            "refs": [r.to_json() for r in self.refs],
        }


@dataclass(frozen=True)
class LogEntry:
    type: str
    sha256: Sha256Hex
    session: str | None
    commit: str | None
    created: str | None
    writer: str | None
    verified: bool
    items: int | None
    captured_commit: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "sha256": self.sha256,
            "session": self.session,
            "commit": self.commit,
            "captured_commit": self.captured_commit,
            "created": self.created,
            "writer": self.writer,
            "verified": self.verified,
        }


RecordChecker = Callable[[StoredRecord], RecordCheck | None]
"""The check of one stored record; None for a record that is unsigned by design."""


def is_releases_ref(ref: str) -> bool:
    """True for ``refs/gitmem/releases`` and its copies (tracking refs, restores).
    Raises nothing."""
    return ref.rsplit("/", 1)[-1] == "releases"


def record_checker(
    store: Store,
    roots: Sequence[AllowedSignersFile],
    release_roots: ReleaseRoots | None = None,
) -> RecordChecker:
    """How records of the store's ref are checked: releases against the committed
    release trust root (namespace ``gitmem-release``), everything else as memory.
    Raises nothing; the checker it returns never raises on bad bytes either."""
    if is_releases_ref(store.ref):
        from gitmem.release.records import check_release

        chosen = release_roots or load_release_roots(gitmem_home(), store)
        return lambda stored: check_release(stored, chosen)

    def check(stored: StoredRecord) -> RecordCheck:
        verdict = check_record(stored.address, stored.data, stored.receipt, roots)
        if verdict.problem == UNTRUSTED_KEY:
            why = revoked_reason(stored.receipt, load_revoked(gitmem_home(), store))
            if why is not None:
                return replace(verdict, detail=why)
        return verdict

    return check


def verify_store(
    store: Store,
    roots: Sequence[AllowedSignersFile],
    release_roots: ReleaseRoots | None = None,
) -> VerifyReport:
    """Check every ref under ``refs/gitmem/`` (only the store's own ref when it is not
    the memory ref): every record, receipt and snapshot, every stored quote against its
    snapshot, and that each ref's history only ever added paths.

    Release records are checked against the committed release trust root
    (*release_roots*, loaded from HEAD when not given). Raises GitError when a ref
    points at something that is not a commit.
    """
    names = store.refs() if store.ref == MEMORY_REF else []
    if store.ref not in names:
        names.insert(0, store.ref)
    reports = []
    for name in names:
        at = store.at(name)
        reports.append(check_ref(at, record_checker(at, roots, release_roots)))
    return VerifyReport(
        sum(r.records for r in reports),
        sum(r.receipts for r in reports),
        sum(r.snapshots for r in reports),
        tuple(p for r in reports for p in r.problems),
        tuple(reports),
    )


def _touched(path: str, only: frozenset[str] | None) -> bool:
    if only is None or path in only:
        return True
    return any(p.startswith(path + "/") for p in only)


def check_ref(
    store: Store,
    checker: RecordChecker,
    only: frozenset[str] | None = None,
    hide: Sequence[GitOid] = (),
) -> RefReport:
    """Check the store's ref; with *only*, just those paths (what a fetch would add),
    and with *hide*, only the history not reachable from those commits.

    Raises GitError when the ref points at something that is not a commit.
    """
    ref = store.ref
    contents = store.read()
    problems: list[Problem] = []
    records = [r for r in contents.records if _touched(r.path, only)]
    wanted = {
        c.source.snapshot
        for c in (parse_checkpoint(r.data) for r in records)
        if c is not None and c.source is not None
    }
    snapshots: dict[Sha256Hex, bytes] = {}
    for digest in sorted(contents.snapshots):
        path = content_path("snapshots", digest)
        checked = _touched(path, only)
        if not checked and digest not in wanted:
            continue
        data = snapshots[digest] = store.read_snapshot(digest) or b""
        if checked and sha256_hex(data) != digest:
            problems.append(
                Problem(
                    path, "snapshot edited", "its bytes do not hash to the address in its path", ref
                )
            )
    for stored in records:
        check = checker(stored)
        if check is None:
            continue
        if not check.ok:
            problems.append(Problem(stored.path, check.problem or "failed", check.detail, ref))
        if isinstance(check.record, Checkpoint):
            problems += [
                Problem(p.path, p.problem, p.detail, ref)
                for p in _quote_problems(stored.path, check.record, snapshots)
            ]
    addresses = {r.address for r in contents.records}
    for orphan in sorted(contents.receipts - addresses):
        path = content_path("receipts", orphan)
        if _touched(path, only):
            problems.append(
                Problem(path, "orphan receipt", "a receipt whose record is not in the store", ref)
            )
    for stray in contents.strays:
        if _touched(stray, only):
            problems.append(Problem(stray, "stray path", "it does not fit the store layout", ref))
    for change in store.history_problems(hide):
        problems.append(
            Problem(
                change.path,
                f"history {change.change}",
                f"commit {change.commit[:12]} of {ref} {change.change} it; "
                "the store is append-only",
                ref,
            )
        )
    return RefReport(
        ref,
        contents.tip,
        len(records),
        len([d for d in contents.receipts if _touched(content_path("receipts", d), only)]),
        len([d for d in contents.snapshots if _touched(content_path("snapshots", d), only)]),
        tuple(problems),
    )


def parse_checkpoint(data: bytes) -> Checkpoint | None:
    """The checkpoint in *data*, or None (not one, or unreadable). Raises nothing."""
    try:
        record = parse_record(data)
    except FormatError:
        return None
    return record if isinstance(record, Checkpoint) else None


def _quote_problems(
    path: str, checkpoint: Checkpoint, snapshots: dict[Sha256Hex, bytes]
) -> list[Problem]:
    """Check every stored verified quote again, against the snapshot it was verified on.

    Carried copies were verified against their origin's snapshot, not this one."""
    quoted = [
        i
        for i in checkpoint.items
        if i.quote is not None and i.quote_verified and i.extra.get("carried") is not True
    ]
    if checkpoint.source is None:
        return (
            [Problem(path, "snapshot missing", "it stores quotes but names no snapshot")]
            if quoted
            else []
        )
    digest = checkpoint.source.snapshot
    if digest not in snapshots:
        return [
            Problem(
                path, "snapshot missing", f"its transcript snapshot {digest[:12]}… is not stored"
            )
        ]
    if not quoted:
        return []
    try:
        stored_as = snapshot_format(checkpoint.source.format)
        transcript = parse_transcript(snapshots[digest], checkpoint.source.name, stored_as)
    except InputError as e:
        return [Problem(path, "snapshot unreadable", str(e))]
    checks = check_quotes([i.quote or "" for i in quoted], transcript.texts())
    return [
        Problem(path, "quote not in snapshot", f"item {item.id}: {result.reason}")
        for item, result in zip(quoted, checks, strict=True)
        if not result.verbatim
    ]


def log_entries(store: Store, roots: Sequence[AllowedSignersFile]) -> list[LogEntry]:
    """Every record, newest first, with whether it verified.

    ``commit`` follows amends and rebases (from verified rewrite events);
    ``captured_commit`` is the commit the record itself names.
    """
    checks = [
        (stored, check_record(stored.address, stored.data, stored.receipt, roots))
        for stored in store.read().records
    ]
    rewrites = rewrite_map(c.record for _, c in checks if c.ok and c.record is not None)
    entries: list[LogEntry] = []
    for stored, check in checks:
        record = check.record
        captured = None if record is None else record.commit
        entries.append(
            LogEntry(
                type=stored.type,
                sha256=stored.address,
                session=None if record is None else record.session,
                commit=resolve(captured, rewrites) if check.ok else captured,
                created=None if record is None else record.created,
                writer=None if record is None else record.writer,
                verified=check.ok,
                items=len(record.items) if isinstance(record, Checkpoint) else None,
                captured_commit=captured,
            )
        )
    # Newest first: the order commits of the ref added them, not the claimed times.
    rank = {path: n for n, path in enumerate(store.additions())}
    paths = {e.sha256: content_path(RECORD_PATHS[e.type], e.sha256) for e in entries}
    entries.sort(key=lambda e: rank.get(paths[e.sha256], len(rank)))
    return entries
