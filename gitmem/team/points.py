"""Backup points in a replica: recorded by each backup, listed, pruned by a policy.

A point is a set of refs ``refs/gitmem-backups/<UTC time>/<name>`` in the replica, one per
``refs/gitmem/<name>`` ref backed up, each naming the commit the backup left there (names
and the policy: :mod:`gitmem.team.retention`). Points are refs only: the commits they name
are already in the replica, so a point costs no storage beyond what the history holds,
and pruning one deletes only its refs. Points live in the replica alone; no clone
fetches them except ``restore --at``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from gitmem.core.errors import NegativeResult
from gitmem.core.records import format_time
from gitmem.core.types import GitOid
from gitmem.store.git import last_line, run_git
from gitmem.store.repo import REFS_PREFIX, Store, is_shared_ref
from gitmem.team.retention import POINTS_PREFIX, Keep, kept, point_name, point_time


@dataclass(frozen=True)
class Point:
    name: str
    """The point's UTC time, ``YYYYMMDDTHHMMSSZ``."""
    time: datetime
    refs: Mapping[str, GitOid]
    """``refs/gitmem/<name>`` → the commit the point holds for it."""

    def point_ref(self, ref: str) -> str:
        return f"{POINTS_PREFIX}{self.name}/{ref.removeprefix(REFS_PREFIX)}"

    def to_json(self) -> dict[str, Any]:
        return {"point": self.name, "time": format_time(self.time), "refs": dict(self.refs)}


def list_points(store: Store, where: str) -> list[Point]:
    """Every backup point in the replica *where*, oldest first (refs under the points
    prefix whose names are not a point's are ignored).

    Raises:
        NegativeResult: the replica cannot be read.
        GitError: git could not run.
    """
    done = run_git(store, "ls-remote", where, f"{POINTS_PREFIX}*")
    if done.returncode != 0:
        raise NegativeResult(f"cannot read the replica {where}: {last_line(done.stderr)}")
    found: dict[str, dict[str, GitOid]] = {}
    for line in done.stdout.splitlines():
        oid, _, name = line.partition("\t")
        stamp, _, rest = name.removeprefix(POINTS_PREFIX).partition("/")
        shared = is_shared_ref(f"{REFS_PREFIX}{rest}")
        if name.startswith(POINTS_PREFIX) and shared and point_time(stamp) is not None:
            found.setdefault(stamp, {})[f"{REFS_PREFIX}{rest}"] = GitOid(oid)
    points = []
    for stamp, refs in found.items():
        when = point_time(stamp)
        assert when is not None
        points.append(Point(stamp, when, dict(sorted(refs.items()))))
    return sorted(points, key=lambda p: p.time)


def record_point(store: Store, dest: str, refs: Sequence[str], now: datetime) -> Point:
    """Record the point *now* in the replica *dest*: each of *refs* as backed up (a point
    already recorded in the same second is replaced).

    Raises:
        NegativeResult: the replica refused a point ref.
        GitError: git could not run.
    """
    tips = {}
    for ref in refs:
        tip = store.at(ref).tip()
        if tip is not None:
            tips[ref] = tip
    name = point_name(now)
    when = point_time(name)
    assert when is not None  # a name point_name wrote
    point = Point(name, when, tips)
    # Forced: a point is this second's state, and a second backup within the same second
    # (of a history that was just accepted unforced) is the later state of that second.
    specs = [f"+{ref}:{point.point_ref(ref)}" for ref in tips]
    done = run_git(store, "push", "--porcelain", "--no-verify", dest, *specs)
    if done.returncode != 0:
        raise NegativeResult(
            f"the replica {dest} refused the backup point {point.name}: {last_line(done.stderr)}"
        )
    return point


def prune_points(store: Store, dest: str, keep: Keep) -> list[Point]:
    """Delete the points of *dest* that *keep* does not keep; the points deleted.

    Raises:
        NegativeResult: the replica cannot be read, or refused a deletion.
        GitError: git could not run.
    """
    points = list_points(store, dest)
    keeping = kept((p.time for p in points), keep)
    doomed = [p for p in points if p.time not in keeping]
    if not doomed:
        return []
    specs = [f":{p.point_ref(ref)}" for p in doomed for ref in p.refs]
    done = run_git(store, "push", "--porcelain", "--no-verify", dest, *specs)
    if done.returncode != 0:
        raise NegativeResult(
            f"the replica {dest} refused to prune {len(doomed)} backup point(s): "
            f"{last_line(done.stderr)}"
        )
    return doomed
