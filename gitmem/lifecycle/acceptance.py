"""Would sync accept this fetched tip? Decided here, once, for ``gitmem sync`` (what it
merges) and for the fetched view (what readers see before a sync).

A remote's tip of a ``refs/gitmem/*`` ref is :class:`Accepted` or :class:`Refused` with a
reason, by these rules in order:

1. **Removed.** The remote no longer has a ref it had when last seen (its watermark):
   records were removed there. Refused.
2. **Rewritten.** Its tip does not descend from the watermark, the last tip accepted
   from or pushed to that remote (:mod:`gitmem.store.watermarks`). Refused, unless it is
   exactly a purge: the remote holds verified purge events, by keys the reader's
   checker trusts, that the watermark's tree does not, and applying them to the
   watermark's history (:mod:`gitmem.store.purge`, which writes the same commits in
   every clone) gives a commit the remote's history contains.
3. **Purges on both sides.** Every trusted purge the remote holds and the local history
   lacks is applied to the local history, and every one the local history holds and
   the remote lacks to what was fetched, so a merge never brings back what either side
   purged. The merged tip then no longer descends from the remote's: the push replaces
   it with a lease (:attr:`Accepted.lease`) — but only when the team root (the trust
   branch's ``.gitmem/allowed_signers``) trusts every purge it carries: a purge that only
   this clone's personal root trusts stays here (:attr:`Accepted.held`), and so does the
   merge, until the team trusts its key.
4. **Checked.** Everything the merge would add is checked by
   :func:`gitmem.store.verify.check_ref` under the reader's checker (addresses, receipts,
   signatures, quotes, layout, the append-only history of the commits not seen before).
   A commit of those that removed or changed a path is a rewrite: refused. A path that
   fails its own check (a record edited or unsigned, a stray file, a symlink) does not
   hold back the rest: it is **quarantined** — taken with everything else (the history
   stays one append-only history in every clone, so nobody's push is ever forced), never
   read as genuine (every reader shows it degraded, ``verify`` lists it), and reported
   with the commit that added it and who that commit says made it. One bad push cannot
   freeze a team. Records by keys no root of the reader knows, or written for another
   repository, are intact: accepted, counted in ``untrusted``, and shown degraded.
5. **No conflict.** No path holds other bytes on the two sides.

With *accept_rewrite* (``gitmem sync --accept-rewrite``) rules 1 and 2 give way: the
remote is union-merged anyway, still checked in full. Sync then moves the refs as an
:class:`Accepted` says; the fetched view shows an accepted tip that needs no purge
applied (:attr:`Accepted.needs_sync`), and leaves every other out with the reason.
Nothing here writes a ref: rewritten commits are objects only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import pygit2

from gitmem.core.errors import GitmemError
from gitmem.core.integrity import describe
from gitmem.core.purge import Purge
from gitmem.core.types import GitOid
from gitmem.store.history import HISTORY, introduced
from gitmem.store.merge import added_paths, union_tree
from gitmem.store.purge import Checker, apply_purges, purges_at, removed_texts
from gitmem.store.repo import MEMORY_REF, REFS_PREFIX, Store
from gitmem.store.verify import check_ref
from gitmem.store.watermarks import tracking_prefix


class Accepted(NamedTuple):
    """A fetched tip sync merges, and how."""

    local: GitOid | None
    """The local tip with the remote's purges applied (the tip itself when none)."""
    fetched: GitOid
    """The remote tip as fetched."""
    merge: GitOid
    """What to merge: the fetched tip with this clone's purges applied."""
    before: GitOid | None = None
    """The local tip the decision was made on."""
    records: int = 0
    """How many records the merge adds."""
    untrusted: int = 0
    """How many of them are by keys no trust root of the reader knows."""
    applied: tuple[str, ...] = ()
    """The addresses of the remote's purge events applied to the local history."""
    scrub: tuple[str, ...] = ()
    """The words of the items they removed here, to scrub from ``.git/gitmem/``."""
    quarantined: tuple[Quarantined, ...] = ()
    """The paths it adds that fail their checks (rule 4)."""
    held: tuple[Purge, ...] = ()
    """This clone's purges the remote lacks that the team root does not trust (rule 3):
    never forced onto the remote."""

    @property
    def lease(self) -> GitOid | None:
        """The remote tip a push must replace (forced, with a lease), or None when a
        plain push will do."""
        return self.fetched if self.merge != self.fetched else None

    @property
    def needs_sync(self) -> bool:
        """Whether taking it needs a purge applied on one side (only sync rewrites)."""
        return self.local != self.before or self.lease is not None


class Quarantined(NamedTuple):
    """A path a fetched tip adds that fails its check, and who its history says added it."""

    path: str
    problem: str
    detail: str
    commit: str | None
    author: str | None

    def to_json(self) -> dict[str, str | None]:
        return self._asdict()


class Refused(NamedTuple):
    """A fetched tip sync does not merge."""

    reason: str
    """One sentence, without advice: the caller says what to run."""
    rewrite: bool = False
    """True when the remote's history no longer holds the last tip seen there (rules 1
    and 2): ``gitmem sync --accept-rewrite`` is the way forward once it is understood."""
    records: int = 0
    """How many records the merge would have added, when it got as far as checking them."""


Decision = Accepted | Refused


def decide(
    store: Store,
    checker: Checker,
    remote: str,
    ref: str,
    tip: GitOid,
    mark: GitOid | None,
    accept_rewrite: bool = False,
    team: Checker | None = None,
) -> Decision:
    """The decision on *remote*'s *tip* of *ref* (fetched into its tracking ref), for
    the local tip as it is now and the watermark *mark* (see the module's rules); with
    *team*, the checker of the team root alone, which says which of this clone's purges
    may be forced onto the remote. Raises nothing: a history that cannot be read or
    rewritten is a refusal."""
    try:
        before = store.at(ref).tip()
        if mark is not None and not accept_rewrite and not store.descends(mark, tip):
            why = None
            if ref == MEMORY_REF:
                new = purges_at(store, tip, checker, since=mark)
                why = _unexplained(store, mark, tip, new.found, len(new.untrusted))
            if ref != MEMORY_REF or why is not None:
                because = "" if why is None else f" ({why})"
                return Refused(
                    f"{remote} rewrote {ref}: its tip {tip[:12]} does not descend from "
                    f"{mark[:12]}, the last tip seen there{because}",
                    rewrite=True,
                )
        if ref == MEMORY_REF:
            plan = _reconciled(store, before, tip, checker, team)
        else:
            plan = Accepted(before, tip, tip, before)
        tracking = store.at(tracking_prefix(remote) + ref.removeprefix(REFS_PREFIX))
        return _checked(store, plan, tracking, checker, mark)
    except (GitmemError, pygit2.GitError) as e:
        return Refused(f"what was fetched cannot be read: {e}")


def removed(remote: str, ref: str, mark: GitOid) -> Refused:
    """Rule 1: *remote* no longer has *ref*, which it had at *mark*. Raises nothing."""
    return Refused(
        f"{remote} no longer has {ref}, which it had at {mark[:12]}: records were removed there",
        rewrite=True,
    )


def _checked(
    store: Store, plan: Accepted, tracking: Store, checker: Checker, mark: GitOid | None
) -> Decision:
    """Rules 4 and 5 for *plan*.

    Raises:
        GitError: a commit cannot be read.
    """
    hide = [t for t in (plan.before, mark) if t is not None and store.repo.get(t) is not None]
    report = check_ref(tracking, checker, added_paths(store.repo, plan.local, plan.merge), hide)
    rewrites = [p for p in report.problems if p.problem.startswith(HISTORY)]
    if rewrites:
        first = rewrites[0]
        return Refused(
            f"{len(rewrites)} problem(s), first {first.path}: "
            f"{describe(first.problem, first.detail)}",
            records=report.records,
        )
    if plan.local is not None:
        ours, theirs = store.repo.get(plan.local), store.repo.get(plan.merge)
        assert isinstance(ours, pygit2.Commit) and isinstance(theirs, pygit2.Commit)
        _, conflicts = union_tree(store.repo, ours.tree, theirs.tree)
        if conflicts:
            shown = ", ".join(conflicts[:3]) + (" …" if len(conflicts) > 3 else "")
            return Refused(
                f"{len(conflicts)} path(s) hold other bytes than the local memory ({shown}); "
                "content-addressed paths never differ unless one side was edited"
            )
    who = introduced(tracking, {p.path for p in report.problems}, hide)
    quarantined = tuple(
        Quarantined(p.path, p.problem, p.detail, *(who.get(p.path) or (None, None)))
        for p in report.problems
    )
    return plan._replace(
        records=report.records, untrusted=len(report.untrusted), quarantined=quarantined
    )


def _reconciled(
    store: Store, local: GitOid | None, remote: GitOid, checker: Checker, team: Checker | None
) -> Accepted:
    """Rule 3: the local tip with the remote's trusted purges applied, and the fetched
    tip with this clone's. Nothing is written but rewritten commits.

    Raises:
        GitError: a history cannot be read or rewritten.
        IntegrityError: a purge names a redacted snapshot its history lacks.
    """
    to_local = purges_at(store, remote, checker, since=local).found
    after, scrub = local, removed_texts(store, local, to_local)
    if local is not None and to_local:
        after = apply_purges(store, local, to_local, remote)
    to_remote = () if local is None else purges_at(store, local, checker, since=remote).found
    image, held = remote, tuple[Purge, ...]()
    if local is not None and to_remote:
        image = apply_purges(store, remote, to_remote, local)
        if team is not None:
            shared = {p.address for p in purges_at(store, local, team, since=remote).found}
            held = tuple(p for p in to_remote if p.address not in shared)
    applied = tuple(p.address for p in to_local)
    return Accepted(after, remote, image, local, applied=applied, scrub=scrub, held=held)


def _unexplained(
    store: Store, mark: GitOid, remote: GitOid, new: Sequence[Purge], untrusted: int
) -> str | None:
    """Why the rewrite from *mark* to *remote* is not exactly *new*, the trusted purges
    the remote holds and *mark* does not (None: it is)."""
    if store.repo.get(mark) is None:
        return "the last tip seen there is no longer stored here"
    if not new:
        if untrusted:
            return (
                f"it holds {untrusted} purge event(s) by keys no trust root of this clone "
                "vouches for, and only a trusted purge may rewrite memory"
            )
        return "no purge event by a trusted key accounts for it"
    try:
        if store.is_ancestor(apply_purges(store, mark, new, remote), remote):
            return None
    except GitmemError as e:
        return f"its purge events could not be applied here: {e}"
    listed = ", ".join(p.address[:12] for p in new)
    return f"purge event(s) {listed} do not account for everything it changed"
