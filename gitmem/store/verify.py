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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from gitmem.core.integrity import (
    NOT_HERE,
    RecordCheck,
    TrustRoots,
    describe,
)
from gitmem.core.records import Record
from gitmem.core.shown import shown_text_line
from gitmem.core.types import GitOid
from gitmem.store.checking import Progress, check_content, no_progress
from gitmem.store.checkjobs import RecordChecker
from gitmem.store.history import HISTORY, HistoryWalk
from gitmem.store.merge import added_paths
from gitmem.store.repo import MEMORY_REF, Store, StoredRecord
from gitmem.store.shape import BrokenRef


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
    since: GitOid | None = None
    """When only what is new since this commit was checked (``verify --since REV``)."""

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
        document = {
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
        return document if self.since is None else {**document, "since": self.since}


class MemoryChecker:
    """The check of a memory record: end to end under *roots*. Never raises on bad bytes.

    :meth:`parsed` is the same check of a record read already (:mod:`~gitmem.store.checking`
    parses every record for the items it names while a child checks the signatures:
    given that parse, the child does not parse each record again)."""

    def __init__(self, roots: TrustRoots) -> None:
        self.roots = roots

    def __call__(self, stored: StoredRecord) -> RecordCheck:
        return self.roots.check(stored.address, stored.data, stored.receipt, stored.type)

    def parsed(self, stored: StoredRecord, record: Record | None, value: Any = None) -> RecordCheck:
        """The check of *stored*, *record* what ``parse_record(stored.data,
        form_checked=True)`` gave (None: it did not parse), *value* the JSON value it was
        made from (its form is then checked without decoding the bytes again). Raises
        nothing."""
        roots = self.roots
        data, receipt = stored.data, stored.receipt
        return roots.check(stored.address, data, receipt, stored.type, record, value)


def memory_checker(roots: TrustRoots) -> RecordChecker:
    """How a memory record is checked: end to end under *roots*. Raises nothing; the
    checker it returns never raises on bad bytes either."""
    return MemoryChecker(roots)


def verify_store(
    store: Store,
    checker_for: Callable[[str], RecordChecker],
    since: GitOid | None = None,
    progress: Progress | None = None,
) -> VerifyReport:
    """Check every ref under ``refs/gitmem/`` (only the store's own ref when it is not
    the memory ref): every record, receipt and snapshot, every stored quote against its
    snapshot, and that each ref's history only ever added paths; with *since* (a
    commit), only what each ref holds that *since* did not, and the history of the
    commits *since* cannot reach (what a CI run checks of a push).

    *checker_for* names the checker for each ref (memory and releases differ; the caller
    holds their trust roots). A ref that is symbolic or not at a commit is one integrity
    problem of its own report; the other refs are still checked. *progress* is told how
    the check of each ref goes (:data:`~gitmem.store.checking.Progress`).

    Raises:
        GitError: the refs cannot be listed, or *since* is not a commit.
    """
    names = store.refs() if store.ref == MEMORY_REF else []
    if store.ref not in names:
        names.insert(0, store.ref)
    told = progress or no_progress
    reports = [_check_or_report(store.at(name), checker_for(name), since, told) for name in names]
    return VerifyReport(
        sum(r.records for r in reports),
        sum(r.receipts for r in reports),
        sum(r.snapshots for r in reports),
        tuple(p for r in reports for p in r.problems),
        tuple(reports),
        tuple(p for r in reports for p in r.untrusted),
        since,
    )


def _check_or_report(
    store: Store, checker: RecordChecker, since: GitOid | None, progress: Progress
) -> RefReport:
    try:
        tip = store.shared_tip()
        if since is None or tip is None:
            return check_ref(store, checker, progress=progress)
        added = added_paths(store.repo, since, tip)
        return check_ref(store, checker, added, [since], progress)
    except BrokenRef as e:
        return RefReport(e.ref, None, 0, 0, 0, (Problem(e.ref, e.problem, e.detail, e.ref),))


def check_ref(
    store: Store,
    checker: RecordChecker,
    only: frozenset[str] | None = None,
    hide: Sequence[GitOid] = (),
    progress: Progress = no_progress,
) -> RefReport:
    """Check the store's ref; with *only*, just those paths (what a fetch would add),
    and with *hide*, only the history not reachable from those commits. Its content is
    read once, a part at a time, its signatures checked on two cores
    (:mod:`gitmem.store.checking`).

    What a verified purge by a trusted key lists is gone on purpose: an item it removed
    is not missing, and a quote is checked against the redacted copy that replaced its
    snapshot.

    Raises:
        BrokenRef: the ref is symbolic or points at something that is not a commit.
    """
    ref = store.ref
    tip = store.tip()
    walk = HistoryWalk(store, hide)  # git walks the history while the content is checked
    try:
        checked = check_content(store, checker, only, progress)
        progress("history", 0)
        changes = walk.problems()
    finally:
        walk.stop()
    problems = [Problem(f.path, f.problem, f.detail, ref) for f in checked.problems]
    for change in changes:
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
    return RefReport(
        ref,
        tip,
        checked.records,
        checked.receipts,
        checked.snapshots,
        failures,
        untrusted,
        checked.unbound if ref.endswith("/memory") else 0,
    )


_SHOWN_UNTRUSTED = 10


def render_verify(report: VerifyReport, strict: bool = False) -> str:
    """The text of ``gitmem verify``: the counts, every integrity problem, and the records
    not taken as written here grouped by why (the first few of each listed); with
    *strict*, the records that name no repository too. Raises nothing."""
    verdict = "intact" if report.ok else f"{len(report.problems)} integrity problem(s)"
    new = "" if report.since is None else f" new since {report.since[:12]}"
    lines = [
        f"{report.records} records, {report.receipts} receipts, "
        f"{report.snapshots} snapshots{new}: {verdict}"
    ]
    # A path is a pushed tree's entry name: one line, no terminal escape (as an item's text).
    lines += [
        f"  ✗ {shown_text_line(f'{p.path}: {describe(p.problem, p.detail)}')}"
        for p in report.problems
    ]
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
