"""Who may approve a release, and how many of them must: the release trust root.

``.gitmem/release_signers`` (allowed_signers format) and the optional threshold policy
``.gitmem/release_policy.json``, both as committed on the trust branch (the team root's,
:func:`gitmem.store.roots.trust_branch`), without any revoked key (the same revocation
lists as memory, :func:`gitmem.store.roots.load_revoked`). Not HEAD's: the commit a build
machine checks out is the release itself, so a branch that added its author's key to its
own ``release_signers`` approved itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gitmem.core.allowed_signers import AllowedSignersFile, parse_allowed_signers
from gitmem.core.revocation import Revocations, without_revoked
from gitmem.store.repo import Store
from gitmem.store.roots import HEAD_FALLBACK, load_revoked, read_text, reader_trust_branch
from gitmem.team.release.policy import ReleasePolicy, parse_policy

RELEASE_SIGNERS = ".gitmem/release_signers"
RELEASE_POLICY = ".gitmem/release_policy.json"
NO_BRANCH = (
    "a default branch (this clone has none: fetch origin's, or name one with "
    "`gitmem config --repo trust_ref REF`)"
)


@dataclass(frozen=True)
class ReleaseRoots:
    """Who may approve a release, and how many of them must."""

    signers: tuple[AllowedSignersFile, ...]
    """The committed release_signers without revoked keys (empty when none is committed)."""
    signers_text: str | None
    """The committed file as is, for ``ssh-keygen -Y verify`` (keys gitmem cannot parse)."""
    revoked: Revocations
    policy: ReleasePolicy
    branch: str = "the trust branch"
    """Where both files were read: the trust branch's name (``origin/main``), or
    :data:`NO_BRANCH`."""


def load_release_roots(home: Path, store: Store) -> ReleaseRoots:
    """The release trust root and threshold policy as committed on the trust branch.
    Raises nothing: a missing root trusts no key, a bad policy fails closed
    (``policy.problem``)."""
    branch = reader_trust_branch(home, store)
    revoked = load_revoked(home, store, branch)
    # With no default branch the trust branch falls back to HEAD, the commit under
    # review: for a release that is no root at all.
    where = NO_BRANCH if branch.how == HEAD_FALLBACK else branch.name

    def committed(path: str) -> bytes | None:
        if branch.commit is None or where == NO_BRANCH:
            return None
        return store.blob_at(branch.commit, path)

    raw = committed(RELEASE_SIGNERS)
    text = None if raw is None else read_text(raw)
    source = f"{branch.name}:{RELEASE_SIGNERS}"
    signers = (
        () if text is None else (without_revoked(parse_allowed_signers(text, source), revoked),)
    )
    policy = parse_policy(committed(RELEASE_POLICY), RELEASE_POLICY)
    return ReleaseRoots(signers, text, revoked, policy, where)
