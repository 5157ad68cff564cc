"""Which memory belongs to a range of commits. Pure: the verdicts on the records, the
range's commits and files in, the chosen checkpoints and item paths out.

A checkpoint records the commit HEAD was at when it was captured (the post-commit hook
records the commit it captured for); amends and rebases are followed through the verified
``commits-rewritten`` events, so a rebased branch keeps its memory. A checkpoint belongs
to the range when

1. its commit is one of the range's commits, or
2. it is of a session that has a checkpoint of (1), and its commit is where the range
   starts (a parent of the range's first commits): what that session said before its
   first commit on the branch; or
3. its commit is where the range starts and it was captured on a branch of the range
   (a local branch whose tip is one of its commits, ``feature`` of ``main..feature``):
   a session on the branch before its first commit, even one that never committed.

The same session's captures anywhere else (another branch, the main line) are outside
the range and left out, as is every other checkpoint. A record that failed its check is
placed by the commit and session it claims (its items are shown degraded in any case);
sessions are only ever taken from verified checkpoints.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from gitmem.core.amends import resolve, rewrite_map
from gitmem.core.claims import named_paths
from gitmem.core.integrity import RecordCheck
from gitmem.core.items import Item
from gitmem.core.records import Checkpoint, Event
from gitmem.store.ranges import RangeScope


@dataclass(frozen=True)
class InRange:
    """The checkpoints of a range."""

    verified: tuple[Checkpoint, ...]
    verified_at: tuple[str, ...]
    """The addresses of :attr:`verified`, in the same order."""
    failed: frozenset[str]
    """Addresses of the checkpoints of the range that failed their check."""
    sessions: tuple[str, ...]
    unplaced: int
    """Records that failed and cannot even be read: whether they belong is unknown."""

    @property
    def count(self) -> int:
        return len(self.verified) + len(self.failed)

    def added(self) -> list[str]:
        """The addresses of the items the range's verified checkpoints added (not the ones
        they carried), oldest checkpoint first, once each."""
        order = sorted(zip(self.verified, self.verified_at, strict=True), key=_created)
        return list(dict.fromkeys(a for cp, _ in order for a in cp.items))


def in_range(checks: Iterable[RecordCheck], scope: RangeScope) -> InRange:
    """The checkpoints among *checks* (every record's verdict) that belong to *scope*.
    Raises nothing."""
    all_checks = list(checks)
    rewrites = rewrite_map(c.record for c in all_checks if c.ok and isinstance(c.record, Event))
    members, boundary = scope.members, scope.boundary
    placed: list[tuple[RecordCheck, Checkpoint, str | None]] = []
    unplaced = 0
    for check in all_checks:
        record = check.record
        if record is None:
            unplaced += 1
        elif isinstance(record, Checkpoint):
            commit = resolve(record.commit, rewrites) if check.ok else record.commit
            placed.append((check, record, commit))
    sessions = sorted(
        {cp.session for check, cp, commit in placed if check.ok and commit in members}
    )
    chosen = [
        (check, cp)
        for check, cp, commit in placed
        if commit in members
        or (commit in boundary and (cp.session in sessions or cp.branch in scope.branches))
    ]
    verified = [(check.address, cp) for check, cp in chosen if check.ok]
    return InRange(
        verified=tuple(cp for _, cp in verified),
        verified_at=tuple(a for a, _ in verified),
        failed=frozenset(check.address for check, _ in chosen if not check.ok),
        sessions=tuple(sessions),
        unplaced=unplaced,
    )


def _created(pair: tuple[Checkpoint, str]) -> tuple[str, str]:
    return (pair[0].created, pair[1])


def files_named(item: Item, quote: str | None, changed: frozenset[str]) -> tuple[str, ...]:
    """The changed files *item* names: a path of one of its declared claims, or a path in
    its text or quote, matching a changed file exactly, as its trailing part
    (``store/repo.py`` names ``gitmem/store/repo.py``), or as a folder holding it
    (``gitmem/store/``). Raises nothing."""
    paths = named_paths(f"{item.text}\n{quote or ''}") + _claimed_paths(item.extra.get("claims"))
    found: dict[str, None] = {}
    for path in paths:
        for changed_path in _matches(path, changed):
            found.setdefault(changed_path, None)
    return tuple(sorted(found))


def _claimed_paths(claims: object) -> list[str]:
    if not isinstance(claims, Sequence) or isinstance(claims, str):
        return []
    return [
        claim["path"]
        for claim in claims
        if isinstance(claim, Mapping) and isinstance(claim.get("path"), str) and claim["path"]
    ]


def _matches(path: str, changed: frozenset[str]) -> list[str]:
    path = path.strip().removeprefix("./")
    if not path or path.startswith("/"):
        return []
    if path in changed:
        return [path]
    if path.endswith("/"):
        return [c for c in changed if f"/{path}" in f"/{c}"]
    return [c for c in changed if c.endswith(f"/{path}")]
