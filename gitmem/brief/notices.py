"""What the brief says about the memory it read, besides its items: everything ``verify``
would report that bears on what the brief reads, and what sync would say of what was
fetched.

- the reading: the trust branch, a trust root's (or the repository file's) bad lines;
- the store: paths outside the layout, entries that are not plain files, item blobs no
  record names, refs under ``refs/gitmem/`` that are not plain refs to commits, what a
  sync took from a remote that failed its checks (quarantined);
- what arrived: memory fetched from a remote that sync would not take (and why), and a
  purge no root of this clone trusts — in the remote's rewrite, or in memory read here.

The last two are :data:`FIRST_LINES`: the brief opens with them, since they say why
memory looks as it does (never "No memory yet" when a remote's memory was left out).
Every notice is a warning: the brief's first line never says "all … verified" beside one
that is a problem of the store (:func:`store_problems`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence

import pygit2

from gitmem.brief.select import BriefWarning
from gitmem.core.errors import FormatError, GitmemError
from gitmem.core.integrity import TrustRoots
from gitmem.core.purge import Purge, purge_of
from gitmem.core.records import Event, parse_record
from gitmem.core.types import Sha256Hex
from gitmem.lifecycle.fetched import Fetched
from gitmem.store.quarantine import how_many, let_go, quarantined
from gitmem.store.repo import (
    MEMORY_REF,
    REFS_PREFIX,
    RELEASES_REF,
    UNKNOWN_DETAIL,
    Store,
    is_shared_ref,
)
from gitmem.store.roots import TEAM_SIGNERS
from gitmem.store.shape import BrokenRef, Paths, odd_entry
from gitmem.store.watermarks import tracking_prefix

FETCHED_REFUSED = "fetched-refused"
UNTRUSTED_PURGE = "untrusted-purge"
FIRST_LINES = frozenset({FETCHED_REFUSED, UNTRUSTED_PURGE})
"""The warnings a brief opens with."""
STORE_PROBLEMS = frozenset(
    {"stray-path", "orphan-item", "unexpected-entry", "junk-ref", "quarantined", UNTRUSTED_PURGE}
)
"""Warnings about the store itself (besides failed records, which carry their record)."""


NOT_REVOKED = "whatever key it meant to revoke is not revoked"


def reading_notices(roots: TrustRoots, strays: Sequence[str] = ()) -> list[BriefWarning]:
    """Warnings about what memory was read with: the trust branch, a trust root's bad
    lines, paths outside the store's layout. Raises nothing."""
    notices = [BriefWarning("trust-branch", notice) for notice in roots.notices]
    notices += [
        BriefWarning("trust-root", f"{root.source}: {problem}", root.source)
        for root in roots.signers
        for problem in root.problems
    ]
    # A revocation line that cannot be read revokes nothing: the key it named stays
    # trusted, so the reader must hear of it as of a bad trust root line.
    notices += [
        BriefWarning("revocation-list", f"{problem}: {NOT_REVOKED}")
        for problem in roots.revoked.problems
    ]
    notices += [
        BriefWarning("stray-path", f"{stray} does not belong in the memory store layout", stray)
        for stray in strays
    ]
    return notices


def store_notices(
    store: Store,
    roots: TrustRoots,
    strays: Sequence[str],
    orphans: Sequence[str],
    failed_purges: Iterable[tuple[str, str, bytes]],
    pending: Sequence[Fetched],
) -> list[BriefWarning]:
    """Everything of the module's list but the reading. Raises nothing."""
    notices = [_refused(store, roots, f) for f in pending if f.problem is not None]
    notices += [_untrusted(p, "memory here holds it") for p in _purges(failed_purges)]
    tree = _tree(store)
    odd = _odd(tree, strays)
    notices += reading_notices(roots, [s for s in strays if s not in odd])
    notices += [
        BriefWarning(
            "unexpected-entry", f"{path} is {what}, where the layout holds plain files", path
        )
        for path, what in odd.items()
    ]
    notices += [
        BriefWarning(
            "orphan-item", f"item {a[:12]} is stored but no record names it: never shown", a
        )
        for a in orphans
    ]
    notices += _junk(store)
    notices += _quarantined(store, tree)
    return notices


def store_problems(warnings: Iterable[BriefWarning]) -> int:
    """How many of *warnings* say the store does not hold what it claims: a failed record
    or item blob, or a problem of :data:`STORE_PROBLEMS`. Raises nothing."""
    return sum(1 for w in warnings if w.record is not None or w.code in STORE_PROBLEMS)


def _refused(store: Store, roots: TrustRoots, fetched: Fetched) -> BriefWarning:
    from gitmem.store.purge import purges_at  # only when something was left out
    from gitmem.store.verify import memory_checker

    message = f"{fetched.remote}'s memory was not read: {fetched.problem}"
    try:
        local = store.at(store.ref).tip()
        found = purges_at(store, fetched.tip, memory_checker(roots), since=local).untrusted
    except GitmemError:
        found = ()
    if found:
        return _untrusted(found[0], f"{fetched.remote} rewrote its memory with it", message)
    return BriefWarning(FETCHED_REFUSED, message)


def _untrusted(purge: Purge, where: str, before: str = "") -> BriefWarning:
    removed = (
        f"{len(purge.items)} item(s), {len(purge.records)} record(s) and "
        f"{len(purge.snapshots)} transcript snapshot(s)"
    )
    message = (
        f"{before + '. ' if before else ''}A purge that no trust root of this clone vouches "
        f"for ({where}): event {purge.address[:12]} by {purge.writer or 'an unknown writer'}, "
        f"key {purge.key or 'unknown'}, removed {removed}; what it removed is shown as "
        f"missing, never as purged. If that key should be trusted, commit it to "
        f"{TEAM_SIGNERS} on the trust branch; if not, a clone that still holds the records "
        "can put them back with `gitmem sync --accept-rewrite`."
    )
    return BriefWarning(UNTRUSTED_PURGE, message, record=None, writer=purge.writer, key=purge.key)


def _purges(rows: Iterable[tuple[str, str, bytes]]) -> list[Purge]:
    found = []
    for address, _, data in rows:
        try:
            event = parse_record(data)
        except FormatError:
            continue
        purge = purge_of(event, Sha256Hex(address)) if isinstance(event, Event) else None
        if purge is not None:
            found.append(purge)
    return found


def _tree(store: Store) -> pygit2.Tree | None:
    try:
        tip = store.tip()
    except GitmemError:
        return None
    commit = None if tip is None else store.repo.get(tip)
    return commit.tree if isinstance(commit, pygit2.Commit) else None


def _odd(tree: pygit2.Tree | None, strays: Sequence[str]) -> dict[str, str]:
    """The strays that are entries of the layout's names but not plain files."""
    odd: dict[str, str] = {}
    at = Paths(tree)
    for path in strays:
        entry = at(path)
        what = None if entry is None else odd_entry(entry.filemode)
        if what is not None:
            odd[path] = what
    return odd


def _junk(store: Store) -> list[BriefWarning]:
    notices = []
    try:
        names = store.refs()
        fetched = _fetched_junk(store)
    except (GitmemError, pygit2.GitError):
        return []
    for remote, name in fetched:
        message = f"{remote}'s {name} {UNKNOWN_DETAIL}: fetched, never read (sync skips it)"
        notices.append(BriefWarning("junk-ref", message, name))
    for name in names:
        try:
            store.at(name).shared_tip()
        except BrokenRef as e:
            message = f"{name} {e.detail}: it holds no memory (`gitmem verify` reports it)"
            notices.append(BriefWarning("junk-ref", message, name))
        except GitmemError:
            return []  # memory as of a moment reads one ref only
    return notices


def _fetched_junk(store: Store) -> list[tuple[str, str]]:
    """(remote, name) of each ref a configured remote holds under ``refs/gitmem/`` (as
    last fetched) that gitmem never writes.

    Raises:
        GitError: the refs cannot be listed.
    """
    found = []
    for remote in filter(None, store.repo.remotes.names()):
        prefix = tracking_prefix(remote)
        for tracking in store.refs(prefix):
            name = REFS_PREFIX + tracking.removeprefix(prefix)
            if not is_shared_ref(name):
                found.append((remote, name))
    return found


def _quarantined(store: Store, tree: pygit2.Tree | None) -> list[BriefWarning]:
    # Each entry is looked up in the tree of the ref it came from (entries written
    # before they named one came from memory); the releases' tree is read only when an
    # entry came from it (most briefs have no entry at all).
    listed = quarantined(store.local_dir)
    if not listed:
        return []
    trees = {MEMORY_REF: Paths(tree)}
    if any(e["ref"] == RELEASES_REF for e in listed):
        with contextlib.suppress(GitmemError):  # memory as of a moment reads one ref only
            trees[RELEASES_REF] = Paths(_tree(store.at(RELEASES_REF)))
    entries = [
        e
        for e in listed
        if (at := trees.get(e["ref"] or MEMORY_REF)) is not None and at(e["path"] or "")
    ]
    if not entries:
        return []
    count = how_many(len(entries), let_go(store.local_dir))
    who = sorted({e["author"] or "an unknown author" for e in entries})
    remotes = sorted({e["remote"] or "a remote" for e in entries})
    named = ", ".join(who[:3]) + (f" and {len(who) - 3} more" if len(who) > 3 else "")
    return [
        BriefWarning(
            "quarantined",
            f"{count} path(s) a sync took from {', '.join(remotes)} fail their checks "
            f"(added in commits by {named}): quarantined, never read as genuine; `gitmem "
            "status` lists them",
        )
    ]
