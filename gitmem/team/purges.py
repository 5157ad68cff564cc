"""Sync and purge: the one rewrite sync accepts, and the one forced push it makes.

Before the memory ref of a remote is merged, sync asks :func:`reconcile`:

1. **A remote rewrite** (its tip does not descend from the watermark, the last tip seen
   there) is accepted only when it is exactly a purge: the remote holds verified purge
   events, by keys this clone's trust roots vouch for, that the watermark's tree does
   not, and applying them to the watermark's history (:mod:`gitmem.store.rewrite`, which
   writes the same commits in every clone) gives a commit the remote's history contains.
   Anything else — another removal, a purge by an untrusted key, a purge that does not
   account for the difference — is refused as any rewrite is.
2. **The remote's purges are applied here**: the local history is rewritten with every
   trusted purge the remote holds and the local tree does not, before the merge, so the
   union never brings back what was purged; ``.git/gitmem/`` is then scrubbed of the
   removed items' words (this clone never learns a purged string, only those items).
3. **Local purges are applied to what was fetched**: the remote's history is rewritten
   with every trusted purge this clone holds and the remote does not, and that image is
   merged instead. The merged tip then no longer descends from the remote's, so it is
   pushed with ``--force-with-lease`` on the remote tip just fetched: it replaces exactly
   that history, never anything pushed since.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gitmem.core.errors import GitmemError
from gitmem.core.types import GitOid
from gitmem.store.purges import Checker, Found, apply_purges, purges_at, removed_texts
from gitmem.store.repo import Store


@dataclass(frozen=True)
class Reconciled:
    """What the purges on both sides mean for one sync of the memory ref."""

    local: GitOid | None
    """The local tip with the remote's purges applied (the tip itself when none)."""
    fetched: GitOid
    """The remote tip as fetched."""
    merge: GitOid
    """What to merge: the fetched tip with this clone's purges applied."""
    applied: tuple[str, ...] = ()
    """The addresses of the remote's purge events applied to the local history."""
    scrub: tuple[str, ...] = ()
    """The words of the items they removed here, to scrub from ``.git/gitmem/``."""
    refused: str | None = None
    """Why a rewrite of the remote is not accepted as a purge; None when it is, or
    when there was no rewrite."""

    @property
    def lease(self) -> GitOid | None:
        """The remote tip a push must replace (forced, with a lease), or None when a
        plain push will do."""
        return self.fetched if self.merge != self.fetched else None


def reconcile(
    store: Store,
    local: GitOid | None,
    remote: GitOid,
    mark: GitOid | None,
    rewritten: bool,
    checker: Checker,
) -> Reconciled:
    """Steps 1-3 of the module for the local tip *local*, the fetched *remote* tip and
    the watermark *mark* (*rewritten*: *remote* does not descend from it). Nothing is
    written but rewritten commits; the caller moves the refs.

    Raises:
        GitError: a history cannot be read or rewritten.
        IntegrityError: a purge names a redacted snapshot its history lacks.
    """
    if rewritten:
        assert mark is not None
        new = purges_at(store, remote, checker, since=mark)
        refused = _unexplained(store, mark, remote, new.found, len(new.untrusted))
        if refused is not None:
            return Reconciled(local, remote, remote, refused=refused)
    to_local = purges_at(store, remote, checker, since=local).found
    after, scrub = local, removed_texts(store, local, to_local)
    if local is not None and to_local:
        after = apply_purges(store, local, to_local, remote)
    to_remote = () if local is None else purges_at(store, local, checker, since=remote).found
    image = remote
    if local is not None and to_remote:
        image = apply_purges(store, remote, to_remote, local)
    return Reconciled(after, remote, image, tuple(f.address for f in to_local), scrub)


def _unexplained(
    store: Store, mark: GitOid, remote: GitOid, new: Sequence[Found], untrusted: int
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
    listed = ", ".join(f.address[:12] for f in new)
    return f"purge event(s) {listed} do not account for everything it changed"
