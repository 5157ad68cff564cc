"""Whole-store checks (``gitmem verify``) and the record history (``gitmem log``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gitmem.canonical import sha256_hex
from gitmem.errors import InputError
from gitmem.integrity import check_record
from gitmem.model import Checkpoint
from gitmem.rewrites import resolve, rewrite_map
from gitmem.signers import AllowedSignersFile
from gitmem.store import RECORD_DIRS, Store, content_path
from gitmem.transcripts import parse_transcript, snapshot_format
from gitmem.types import Sha256Hex
from gitmem.verifier import check_quotes

RECORD_PATHS = {kind: directory for directory, kind in RECORD_DIRS.items()}


@dataclass(frozen=True)
class Problem:
    path: str
    problem: str
    detail: str

    def to_json(self) -> dict[str, str]:
        return {"path": self.path, "problem": self.problem, "detail": self.detail}


@dataclass(frozen=True)
class VerifyReport:
    records: int
    receipts: int
    snapshots: int
    problems: tuple[Problem, ...]

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


def verify_store(store: Store, roots: Sequence[AllowedSignersFile]) -> VerifyReport:
    """Check every record, receipt and snapshot, every stored quote against its
    snapshot, and that the ref's history only ever added paths."""
    contents = store.read()
    problems: list[Problem] = []
    snapshots: dict[Sha256Hex, bytes] = {}
    for digest in sorted(contents.snapshots):
        data = snapshots[digest] = store.read_snapshot(digest) or b""
        if sha256_hex(data) != digest:
            problems.append(
                Problem(
                    content_path("snapshots", digest),
                    "snapshot edited",
                    "its bytes do not hash to the address in its path",
                )
            )
    for stored in contents.records:
        check = check_record(stored.address, stored.data, stored.receipt, roots)
        if not check.ok:
            problems.append(Problem(stored.path, check.problem or "failed", check.detail))
        if isinstance(check.record, Checkpoint):
            problems += _quote_problems(stored.path, check.record, snapshots)
    addresses = {r.address for r in contents.records}
    for orphan in sorted(contents.receipts - addresses):
        problems.append(
            Problem(
                content_path("receipts", orphan),
                "orphan receipt",
                "a receipt whose record is not in the store",
            )
        )
    for stray in contents.strays:
        problems.append(Problem(stray, "stray path", "it does not fit the store layout"))
    for change in store.history_problems():
        problems.append(
            Problem(
                change.path,
                f"history {change.change}",
                f"memory commit {change.commit[:12]} {change.change} it; the store is append-only",
            )
        )
    return VerifyReport(
        len(contents.records), len(contents.receipts), len(contents.snapshots), tuple(problems)
    )


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
