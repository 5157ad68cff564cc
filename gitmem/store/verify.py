"""Whole-store checks (``gitmem verify``).

``verify`` covers every ref under ``refs/gitmem/``; :func:`check_ref` is also what sync,
backup and restore run on fetched history before they accept any of it. How each record
is checked is the caller's: a :data:`RecordChecker` per ref, holding its trust roots.

Integrity and trust are kept apart. Integrity (bytes that hash to their address,
canonical records, a valid receipt by the key the record names, quotes that are in their
snapshot, append-only history, nothing outside the layout) is a property of the store:
its failures are ``problems`` — a broken ref (symbolic, or not at a commit) and an entry
that is not a plain file (a symlink, an executable) among them, and each is reported
without stopping the check of the other refs. Trust (a root vouches for that key, for
that writer, at that time) is a property of the reader: an intact record by a key no
root of this reader knows is ``untrusted``, listed but not a failure of the store.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gitmem.core.canonical import sha256_hex
from gitmem.core.errors import FormatError
from gitmem.core.integrity import (
    NOT_HERE,
    WRONG_FOLDER,
    ItemCheck,
    RecordCheck,
    TrustRoots,
    check_item,
    describe,
)
from gitmem.core.items import Item
from gitmem.core.purge import Purges, resolve_snapshot
from gitmem.core.quotes import SNAPSHOT_MISSING, check_stored_quotes
from gitmem.core.records import Checkpoint, parse_record, repository_of
from gitmem.core.types import GitOid, Sha256Hex
from gitmem.store.history import HISTORY, history_problems
from gitmem.store.layout import RECORD_PATHS, content_path
from gitmem.store.purge import purges_among
from gitmem.store.repo import MEMORY_REF, Store, StoredRecord
from gitmem.store.shape import UNEXPECTED_ENTRY, BrokenRef


@dataclass(frozen=True)
class Problem:
    path: str
    problem: str
    detail: str
    ref: str = MEMORY_REF

    @property
    def integrity(self) -> bool:
        """A failure of the store itself; False for an intact record this reader does not
        take as written here (a key no root trusts, another repository)."""
        return self.problem not in NOT_HERE

    def to_json(self) -> dict[str, str]:
        return {"path": self.path, "problem": self.problem, "detail": self.detail, "ref": self.ref}


def _split(problems: Sequence[Problem]) -> tuple[tuple[Problem, ...], tuple[Problem, ...]]:
    """(integrity problems, untrusted records)."""
    return tuple(p for p in problems if p.integrity), tuple(p for p in problems if not p.integrity)


@dataclass(frozen=True)
class RefReport:
    """What one ref under ``refs/gitmem/`` holds, and what is wrong with it."""

    ref: str
    tip: GitOid | None
    records: int
    receipts: int
    snapshots: int
    problems: tuple[Problem, ...]
    """Integrity failures."""
    untrusted: tuple[Problem, ...] = ()
    """Intact records this reader does not take as written here: by keys no trust root
    of this reader vouches for, or for another repository."""
    unbound: int = 0
    """Intact memory records that name no repository (written before records did)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "ref": self.ref,
            "tip": self.tip,
            "ok": not self.problems,
            "records": self.records,
            "receipts": self.receipts,
            "snapshots": self.snapshots,
            "untrusted": len(self.untrusted),
            "unbound": self.unbound,
        }


@dataclass(frozen=True)
class VerifyReport:
    records: int
    receipts: int
    snapshots: int
    problems: tuple[Problem, ...]
    """Integrity failures: the store does not hold what it claims."""
    refs: tuple[RefReport, ...] = ()
    untrusted: tuple[Problem, ...] = ()
    """Intact records this reader does not take as written here (see :class:`RefReport`)."""

    @property
    def unbound(self) -> int:
        """Intact memory records that name no repository."""
        return sum(r.unbound for r in self.refs)

    @property
    def ok(self) -> bool:
        """No integrity failure (untrusted records are not one)."""
        return not self.problems

    def exit_code(self, strict: bool = False) -> int:
        """0 when the store is intact; 3 for an integrity failure, or with *strict* for
        any untrusted record as well."""
        return 3 if self.problems or (strict and self.untrusted) else 0

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "records": self.records,
            "receipts": self.receipts,
            "snapshots": self.snapshots,
            "problems": [p.to_json() for p in self.problems],
            "untrusted": [p.to_json() for p in self.untrusted],
            "untrusted_records": len(self.untrusted),
            "unbound_records": self.unbound,
            "refs": [r.to_json() for r in self.refs],
        }


RecordChecker = Callable[[StoredRecord], RecordCheck | None]
"""The check of one stored record; None for a record that is unsigned by design."""


def memory_checker(roots: TrustRoots) -> RecordChecker:
    """How a memory record is checked: end to end under *roots*. Raises nothing; the
    checker it returns never raises on bad bytes either."""
    return lambda stored: roots.check(stored.address, stored.data, stored.receipt, stored.type)


def verify_store(store: Store, checker_for: Callable[[str], RecordChecker]) -> VerifyReport:
    """Check every ref under ``refs/gitmem/`` (only the store's own ref when it is not
    the memory ref): every record, receipt and snapshot, every stored quote against its
    snapshot, and that each ref's history only ever added paths.

    *checker_for* names the checker for each ref (memory and releases differ; the caller
    holds their trust roots). A ref that is symbolic or not at a commit is one integrity
    problem of its own report; the other refs are still checked.

    Raises:
        GitError: the refs cannot be listed.
    """
    names = store.refs() if store.ref == MEMORY_REF else []
    if store.ref not in names:
        names.insert(0, store.ref)
    reports = [_check_or_report(store.at(name), checker_for(name)) for name in names]
    return VerifyReport(
        sum(r.records for r in reports),
        sum(r.receipts for r in reports),
        sum(r.snapshots for r in reports),
        tuple(p for r in reports for p in r.problems),
        tuple(reports),
        tuple(p for r in reports for p in r.untrusted),
    )


def _check_or_report(store: Store, checker: RecordChecker) -> RefReport:
    try:
        return check_ref(store, checker)
    except BrokenRef as e:
        return RefReport(e.ref, None, 0, 0, 0, (Problem(e.ref, e.problem, e.detail, e.ref),))


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

    What a verified purge by a trusted key lists is gone on purpose: an item it removed
    is not missing, and a quote is checked against the redacted copy that replaced its
    snapshot.

    Raises:
        BrokenRef: the ref is symbolic or points at something that is not a commit.
    """
    ref = store.ref
    contents = store.read()
    purges = purges_among(contents.records, checker)
    problems: list[Problem] = []
    records = [r for r in contents.records if _touched(r.path, only)]
    checks = [(stored, checker(stored)) for stored in records]
    checkpoints = [
        check.record for _, check in checks if check and isinstance(check.record, Checkpoint)
    ]
    wanted = {
        resolve_snapshot(purges.snapshots, c.source.snapshot)
        for c in checkpoints
        if c.source is not None
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
    named: set[Sha256Hex] = set()
    verdicts: dict[Sha256Hex, ItemCheck] = {}
    for stored, check in checks:
        if check is None:
            continue
        if not check.ok:
            problems.append(Problem(stored.path, check.problem or "failed", check.detail, ref))
        if (
            check.record is not None
            and check.record.type != stored.type
            and check.problem != WRONG_FOLDER
        ):
            kind = check.record.type
            belongs = RECORD_PATHS.get(kind, "another folder")
            detail = f"it holds a record of type {kind!r}, which belongs under {belongs}/"
            problems.append(Problem(stored.path, WRONG_FOLDER, detail, ref))
        if isinstance(check.record, Checkpoint):
            named.update(check.record.named)
            problems += [
                Problem(p.path, p.problem, p.detail, ref)
                for p in _item_problems(
                    check.record, contents.items, snapshots, only, purges, verdicts
                )
            ]
    for address in sorted(set(contents.items) - named):
        path = content_path("items", address)
        if _touched(path, only):
            problems.append(Problem(path, "orphan item", "an item blob no checkpoint names", ref))
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
    for path, what in contents.odd_entries:
        if _touched(path, only):
            detail = f"{what} where the layout holds plain files only"
            problems.append(Problem(path, UNEXPECTED_ENTRY, detail, ref))
    for change in history_problems(store, hide):
        problems.append(
            Problem(
                change.path,
                f"{HISTORY}{change.change}",
                f"commit {change.commit[:12]} of {ref} {change.change} it; "
                "the store is append-only",
                ref,
            )
        )
    failures, untrusted = _split(problems)
    unbound = [
        c for _, c in checks if c is not None and c.ok and c.record and not repository_of(c.record)
    ]
    return RefReport(
        ref,
        contents.tip,
        len(records),
        len([d for d in contents.receipts if _touched(content_path("receipts", d), only)]),
        len([d for d in contents.snapshots if _touched(content_path("snapshots", d), only)]),
        failures,
        untrusted,
        len(unbound) if ref.endswith("/memory") else 0,
    )


def parse_checkpoint(data: bytes) -> Checkpoint | None:
    """The checkpoint in *data*, or None (not one, or unreadable). Raises nothing."""
    try:
        record = parse_record(data)
    except FormatError:
        return None
    return record if isinstance(record, Checkpoint) else None


def _item_problems(
    checkpoint: Checkpoint,
    blobs: Mapping[Sha256Hex, bytes],
    snapshots: dict[Sha256Hex, bytes],
    only: frozenset[str] | None,
    purges: Purges,
    verdicts: dict[Sha256Hex, ItemCheck],
) -> list[Problem]:
    """Every item blob *checkpoint* names must be stored (unless a trusted purge removed
    it) and hash to its address; every verified quote of an item it adds is checked
    again, against the item's own snapshot or the redacted copy a purge put in its place
    (a carried item was checked where it was added). *verdicts* keeps each blob's
    verdict across the checkpoints of one ref: a carried item is checked once."""
    problems: list[Problem] = []
    quoted: list[Item] = []
    untrusted = {a: p for p in purges.untrusted for a in p.items}
    for address in checkpoint.named:
        path = content_path("items", address)
        if not _touched(path, only) or address in purges.items:
            continue
        verdict = verdicts.get(address)
        if verdict is None:
            verdict = verdicts[address] = check_item(address, blobs.get(address))
        if verdict.item is None:
            detail = verdict.detail
            if address in untrusted and blobs.get(address) is None:
                detail += (
                    f"; purge event {untrusted[address].address[:12]} lists it, but its key "
                    "is not trusted here, so that purge does not count"
                )
            problems.append(Problem(path, verdict.problem or "failed", detail))
        elif address in checkpoint.items and verdict.item.quote and verdict.item.quote_verified:
            quoted.append(verdict.item)
    source = checkpoint.source
    by_snapshot: dict[Sha256Hex, list[Item]] = {}
    for item in quoted:
        digest = item.snapshot or (None if source is None else source.snapshot)
        if digest is None:
            problems.append(
                Problem(content_path("items", item.address), SNAPSHOT_MISSING, "no snapshot")
            )
            continue
        by_snapshot.setdefault(resolve_snapshot(purges.snapshots, digest), []).append(item)
    for digest, items in by_snapshot.items():
        assert source is not None
        quotes = [i.quote or "" for i in items]
        data = snapshots.get(digest)
        checks = check_stored_quotes(quotes, data, source.format, digest, source.name)
        problems += [
            Problem(content_path("items", i.address), check.problem, check.reason)
            for i, check in zip(items, checks, strict=True)
            if check.problem is not None
        ]
    return problems


_SHOWN_UNTRUSTED = 10


def render_verify(report: VerifyReport, strict: bool = False) -> str:
    """The text of ``gitmem verify``: the counts, every integrity problem, and the records
    not taken as written here grouped by why (the first few of each listed); with
    *strict*, the records that name no repository too. Raises nothing."""
    verdict = "intact" if report.ok else f"{len(report.problems)} integrity problem(s)"
    lines = [
        f"{report.records} records, {report.receipts} receipts, "
        f"{report.snapshots} snapshots: {verdict}"
    ]
    lines += [f"  ✗ {p.path}: {describe(p.problem, p.detail)}" for p in report.problems]
    if report.untrusted:
        lines.append(
            f"{len(report.untrusted)} intact record(s) by keys no trust root of this clone "
            "vouches for, or written for another repository (shown degraded in the brief; "
            "`--strict` fails on them):"
        )
        groups: dict[str, list[Problem]] = {}
        for p in report.untrusted:
            groups.setdefault(describe(p.problem, p.detail), []).append(p)
        for reason, members in groups.items():
            lines.append(f"  ? {len(members)} × {reason}")
            lines += [f"      {p.path}" for p in members[:_SHOWN_UNTRUSTED]]
            if len(members) > _SHOWN_UNTRUSTED:
                lines.append(f"      … and {len(members) - _SHOWN_UNTRUSTED} more")
    if strict and report.unbound:
        lines.append(
            f"{report.unbound} intact record(s) name no repository: written before records "
            "named the one they were written for, they are read as before, and one copied "
            "here from another repository cannot be told from them (capture again to bind)"
        )
    return "\n".join(lines) + "\n"
