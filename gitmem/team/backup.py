"""Backup to a storage-only replica, verified restore, and transcripts from snapshots.

- ``backup DEST``: push every ``refs/gitmem/*`` ref, unforced, to a bare repository
  (a path, created when missing, or a URL), record a dated backup point there, and prune
  the points a retention policy does not keep (:mod:`gitmem.team.points`).
- ``restore SRC``: fetch the replica's refs into a scratch namespace, verify every
  record, receipt, snapshot and quote and each ref's append-only history against this
  clone's trust roots, refuse a replica whose history does not contain what this clone
  already has, and only then move the local refs. Any problem: nothing changes.
- ``restore SRC --at TIME``: the same verification of the newest backup point at or
  before TIME, then each local ref is set to the point's tip, back in time if need be.
- ``snapshot show HASH``: the stored transcript snapshot, hash-checked.
"""

from __future__ import annotations

import re
import secrets
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import pygit2

from gitmem.core.canonical import sha256_hex
from gitmem.core.errors import GitError, InputError, IntegrityError, NegativeResult
from gitmem.core.integrity import describe
from gitmem.core.records import Checkpoint, parse_as
from gitmem.core.types import GitOid, Sha256Hex
from gitmem.store.git import last_line, run_git
from gitmem.store.merge import merge_into
from gitmem.store.repo import MEMORY_REF, REFS_PREFIX, Store, is_shared_ref
from gitmem.store.verify import Problem, check_ref
from gitmem.team.checkers import load_checkers
from gitmem.team.points import Point, list_points, prune_points, record_point
from gitmem.team.retention import POINTS_PREFIX, Keep, newest_at

SCRATCH_PREFIX = "refs/gitmem-restore/"
_URLISH = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://|^[^/]+:")


@dataclass(frozen=True)
class RefCopy:
    ref: str
    before: GitOid | None
    after: GitOid | None
    outcome: str

    def to_json(self) -> dict[str, Any]:
        return {
            "ref": self.ref,
            "before": self.before,
            "after": self.after,
            "outcome": self.outcome,
        }


@dataclass(frozen=True)
class BackupReport:
    """What one backup did: each ref pushed, the point recorded, the points pruned."""

    refs: tuple[RefCopy, ...]
    point: Point
    pruned: tuple[Point, ...] = ()
    keep: Keep | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "refs": [c.to_json() for c in self.refs],
            "point": self.point.to_json(),
            "keep": None if self.keep is None else str(self.keep),
            "pruned": [p.name for p in self.pruned],
        }


class BackupRefused(IntegrityError):
    """This clone's own memory fails integrity: a backup would spread the damage."""

    def __init__(self, problems: list[Problem]) -> None:
        first = problems[0]
        super().__init__(
            f"backup refused, nothing pushed: this clone fails integrity ({len(problems)} "
            f"problem(s), first {first.ref} {first.path}: {describe(first.problem, first.detail)}"
            "); run `gitmem verify`"
        )
        self.problems = problems


class RestoreRefused(IntegrityError):
    """The replica failed verification, or rewrote what this clone had; nothing changed."""

    def __init__(self, source: str, problems: list[Problem]) -> None:
        first = problems[0]
        super().__init__(
            f"restore from {source} refused, nothing changed: {len(problems)} problem(s), "
            f"first {first.ref} {first.path}: {describe(first.problem, first.detail)}"
        )
        self.problems = problems


def backup(
    store: Store, dest: str, home: Path, now: datetime, keep: Keep | None = None
) -> BackupReport:
    """Push every ``refs/gitmem/*`` ref to *dest*, unforced; a missing local path
    becomes a new bare repository. What is pushed meets sync's acceptance rule first:
    integrity required, records by keys no root trusts carried as they are. Once every
    ref is in, the backup point *now* is recorded in the replica; with *keep*, the
    points the policy does not keep are then pruned (the new point always stays).

    Raises:
        BackupRefused: a ref of this clone fails integrity (nothing is pushed).
        NegativeResult: nothing to back up, or the replica refused a ref (it holds
            history this clone lacks).
        GitError: the replica could not be created or reached.
    """
    dest = _where(store, dest)
    refs = store.shared_refs()
    if not refs:
        raise NegativeResult("nothing to back up: this clone has no refs/gitmem/* ref yet")
    checkers = load_checkers(home, store)
    problems = [p for ref in refs for p in check_ref(store.at(ref), checkers.for_ref(ref)).problems]
    if problems:
        raise BackupRefused(problems)
    if dest.startswith("/") and not Path(dest).exists():
        done = run_git(store, "init", "--quiet", "--bare", dest)
        if done.returncode != 0:
            raise GitError(f"cannot create the replica {dest}: {last_line(done.stderr)}")
    before = _remote_tips(store, dest)
    done = run_git(store, "push", "--porcelain", "--no-verify", dest, *(f"{r}:{r}" for r in refs))
    copies, refused = [], []
    for ref in refs:
        tip = store.at(ref).tip()
        fields = next(
            (x.split("\t") for x in done.stdout.splitlines() if f"\t{ref}:{ref}\t" in x), None
        )
        if fields is not None and len(fields) >= 3 and fields[0] in (" ", "*", "="):
            outcome = {"*": "created", "=": "up-to-date"}.get(fields[0], "pushed")
            copies.append(RefCopy(ref, before.get(ref), tip, outcome))
        else:
            why = fields[-1] if fields else last_line(done.stderr)
            refused.append(f"{ref} ({why})")
    if refused:
        raise NegativeResult(
            f"the replica {dest} refused {', '.join(refused)}: it holds history this clone "
            "lacks; add it as a remote and run `gitmem sync` to merge, then back up again"
        )
    point = record_point(store, dest, refs, now)
    pruned = prune_points(store, dest, keep) if keep is not None else []
    return BackupReport(tuple(copies), point, tuple(pruned), keep)


def _where(store: Store, place: str) -> str:
    """A remote name or URL as given; a local path made absolute (git runs elsewhere).

    Raises:
        InputError: an empty place, or a path that is this repository itself (a replica
            is another repository: "" or "." would back up into this clone).
    """
    if not place:
        raise InputError("give the replica: a bare repository path or a URL, not ''")
    if place in store.repo.remotes.names() or _URLISH.match(place):
        return place
    where = Path(place).resolve()
    own = {Path(store.common_dir).resolve()}
    if store.repo.workdir:
        own.add(Path(store.repo.workdir).resolve())
    if where in own:
        raise InputError(f"{place} is this repository: a replica is another repository")
    return str(where)


def _source(store: Store, place: str) -> str:
    """:func:`_where` of a replica to read from, which must exist when it is a path.

    Raises:
        InputError: as :func:`_where`; or a path where nothing is.
    """
    where = _where(store, place)
    named = place in store.repo.remotes.names() or _URLISH.match(place)
    if not named and not Path(where).exists():
        raise InputError(f"no replica at {place}: nothing is there")
    return where


def _remote_tips(store: Store, where: str) -> dict[str, GitOid]:
    done = run_git(store, "ls-remote", where, f"{REFS_PREFIX}*")
    tips: dict[str, GitOid] = {}
    for line in done.stdout.splitlines():
        oid, _, name = line.partition("\t")
        if is_shared_ref(name):
            tips[name] = GitOid(oid)
    return tips


def restore(store: Store, source: str, home: Path) -> list[RefCopy]:
    """Verify the replica *source* in full, then bring its refs into this clone.

    The replica is fetched into a quarantine (a temporary repository that borrows this
    clone's objects), checked there with sync's acceptance rule — integrity required,
    records by keys this clone does not trust accepted and shown degraded — and only an
    accepted replica's objects enter this clone. Each local ref is created or moved
    forward to the replica's tip (union-merged when a capture moved it meanwhile), never
    moved back. A refused restore leaves nothing behind: no ref, no object.

    Raises:
        RestoreRefused: any record, receipt, snapshot, quote or history of the replica
            fails integrity, or its history does not contain this clone's tip.
        NegativeResult: the replica holds no gitmem refs, or cannot be fetched.
        GitError: git could not run.
    """
    source = _source(store, source)
    copies = []
    with _verified(store, source, home, f"+{REFS_PREFIX}*", forward_only=True) as plans:
        for ref, tip in plans:
            result = merge_into(
                store.at(ref), tip, f"gitmem: restore {ref} from {source}", "gitmem"
            )
            copies.append(RefCopy(ref, result.before, result.after, result.outcome))
    return copies


def backup_points(store: Store, source: str) -> list[Point]:
    """The backup points of the replica *source*, oldest first.

    Raises:
        NegativeResult: the replica cannot be read.
        GitError: git could not run.
    """
    return list_points(store, _source(store, source))


def restore_point(
    store: Store, source: str, home: Path, at: datetime
) -> tuple[Point, list[RefCopy]]:
    """Restore the newest backup point of *source* at or before *at*: verified exactly as
    :func:`restore` verifies a replica (in a quarantine, sync's acceptance rule, nothing
    enters this clone before the whole point is accepted), then each ref the point holds
    is set to its tip — created, moved forward, or moved back (``rewound``; ``replaced``
    when the histories diverged, as after a purge). What this clone held past the point
    stays in the ref's reflog and in any later point. Refs the point lacks are left as
    they are.

    Raises:
        RestoreRefused: the point fails integrity.
        NegativeResult: no point at or before *at*, the replica cannot be read, or a ref
            moved while it was restored.
        GitError: git could not run.
    """
    source = _source(store, source)
    points = list_points(store, source)
    when = newest_at([p.time for p in points], at)
    if when is None:
        oldest = f"; the oldest is {points[0].name}" if points else ""
        raise NegativeResult(
            f"{source} holds no backup point at or before {at:%Y-%m-%dT%H:%M:%SZ}{oldest}"
        )
    (point,) = [p for p in points if p.time == when]
    copies = []
    spec = f"+{POINTS_PREFIX}{point.name}/*"
    with _verified(store, source, home, spec, forward_only=False) as plans:
        for ref, tip in plans:
            copies.append(
                _set_ref(store.at(ref), tip, f"gitmem: restore {ref} from {source} at {point.name}")
            )
    return point, copies


@contextmanager
def _verified(
    store: Store, source: str, home: Path, spec: str, forward_only: bool
) -> Iterator[list[tuple[str, GitOid]]]:
    """Fetch the refs *spec* names in *source* as ``refs/gitmem/*`` into a quarantine,
    accept them (or raise RestoreRefused), copy the accepted objects into this clone
    under a scratch namespace, and yield the (ref, tip) pairs; the scratch refs are
    removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="gitmem-restore-") as folder:
        quarantine = _quarantine(store, Path(folder))
        done = run_git(quarantine, *_FETCH, source, f"{spec}:{REFS_PREFIX}*")
        if done.returncode != 0:
            raise NegativeResult(f"cannot fetch from {source}: {last_line(done.stderr)}")
        plans = _accept(store, quarantine, source, home, forward_only)
        scratch = f"{SCRATCH_PREFIX}{secrets.token_hex(6)}/"
        done = run_git(store, *_FETCH, folder, f"+{REFS_PREFIX}*:{scratch}*")
        if done.returncode != 0:
            raise GitError(f"cannot copy the verified replica: {last_line(done.stderr)}")
    try:
        yield plans
    finally:
        for name in store.refs(scratch):
            store.repo.references.delete(name)


def _set_ref(store: Store, tip: GitOid, message: str) -> RefCopy:
    local = store.tip()
    if local == tip:
        return RefCopy(store.ref, local, tip, "up-to-date")
    if local is None:
        outcome = "created"
    elif store.is_ancestor(local, tip):
        outcome = "fast-forward"
    else:
        outcome = "rewound" if store.is_ancestor(tip, local) else "replaced"
    if not store.compare_and_swap(local, tip, message):
        raise NegativeResult(f"{store.ref} moved while it was restored; nothing changed, run again")
    return RefCopy(store.ref, local, tip, outcome)


_FETCH = ("fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--no-recurse-submodules")


def _quarantine(store: Store, folder: Path) -> Store:
    """An empty bare repository in *folder* that can read this clone's objects (git's
    alternates), so the replica's objects land there and history can still be compared."""
    repo = pygit2.init_repository(str(folder), bare=True)
    alternates = folder / "objects" / "info" / "alternates"
    alternates.write_text(f"{store.common_dir / 'objects'}\n", encoding="utf-8")
    return Store(pygit2.Repository(repo.path))


def _accept(
    store: Store, quarantine: Store, source: str, home: Path, forward_only: bool = True
) -> list[tuple[str, GitOid]]:
    """Check every fetched ref; the (ref, tip) pairs to restore, or RestoreRefused. With
    *forward_only*, a ref whose history does not contain this clone's tip (nor is
    contained in it) is refused: only a restore to a chosen point may go back."""
    refs = quarantine.shared_refs()
    if not refs:
        raise NegativeResult(f"{source} holds no refs/gitmem/* ref to restore")
    checkers = load_checkers(home, store)
    problems: list[Problem] = []
    plans: list[tuple[str, GitOid]] = []
    for ref in refs:
        copy = quarantine.at(ref)
        tip = copy.tip()
        assert tip is not None
        mine = store.at(ref).tip()
        if (
            forward_only
            and mine is not None
            and not (quarantine.is_ancestor(mine, tip) or quarantine.is_ancestor(tip, mine))
        ):
            problems.append(
                Problem(
                    ref,
                    "history rewritten",
                    f"the replica's tip {tip[:12]} does not contain this clone's tip "
                    f"{mine[:12]}: it rewrote or lost what this clone already has",
                    ref,
                )
            )
            continue
        report = check_ref(copy, checkers.for_ref(ref))
        problems += [Problem(p.path, p.problem, p.detail, ref) for p in report.problems]
        plans.append((ref, tip))
    if problems:
        raise RestoreRefused(source, problems)
    return plans


def show_snapshot(store: Store, prefix: str) -> tuple[Sha256Hex, bytes]:
    """The stored snapshot whose hash starts with *prefix* (or the snapshot of the
    checkpoint whose hash does), after checking its bytes hash to its address.

    Raises:
        InputError: not a hex prefix of at least 6 characters, no match, or several.
        IntegrityError: the stored bytes do not hash to their address.
    """
    prefix = prefix.strip().lower()
    if not re.fullmatch(r"[0-9a-f]{6,64}", prefix):
        raise InputError(f"{prefix!r} is not a hash (6 to 64 hex characters)")
    contents = store.at(MEMORY_REF).read()
    found = {d for d in contents.snapshots if d.startswith(prefix)}
    if not found:
        for record in contents.records:
            checkpoint = parse_as(record.data, Checkpoint)
            if record.address.startswith(prefix) and checkpoint and checkpoint.source:
                found.add(checkpoint.source.snapshot)
    if not found:
        raise InputError(f"no stored snapshot or checkpoint matches {prefix}")
    if len(found) > 1:
        raise InputError(f"{prefix} matches {len(found)} snapshots; give more characters")
    digest = found.pop()
    data = store.at(MEMORY_REF).read_snapshot(digest)
    if data is None:
        raise InputError(f"snapshot {digest[:12]}… is named but not stored")
    if sha256_hex(data) != digest:
        raise IntegrityError(f"snapshot {digest[:12]}… was edited: its bytes do not hash to it")
    return digest, data
