"""Who may approve a release, and how many of them must: the release trust root.

``.gitmem/release_signers`` (allowed_signers format) and the optional threshold policy
``.gitmem/release_policy.json``, both as committed in HEAD, without any revoked key (the
same revocation lists as memory, :func:`gitmem.store.roots.load_revoked`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gitmem.core.allowed_signers import AllowedSignersFile, parse_allowed_signers
from gitmem.core.revocation import Revocations, without_revoked
from gitmem.store.repo import Store
from gitmem.store.roots import load_revoked, read_text
from gitmem.team.release.policy import ReleasePolicy, parse_policy

RELEASE_SIGNERS = ".gitmem/release_signers"
RELEASE_POLICY = ".gitmem/release_policy.json"


@dataclass(frozen=True)
class ReleaseRoots:
    """Who may approve a release, and how many of them must."""

    signers: tuple[AllowedSignersFile, ...]
    """The committed release_signers without revoked keys (empty when none is committed)."""
    signers_text: str | None
    """The committed file as is, for ``ssh-keygen -Y verify`` (keys gitmem cannot parse)."""
    revoked: Revocations
    policy: ReleasePolicy


def load_release_roots(home: Path, store: Store) -> ReleaseRoots:
    """The release trust root and threshold policy as committed in HEAD. Raises nothing:
    a missing root trusts no key, a bad policy fails closed (``policy.problem``)."""
    revoked = load_revoked(home, store)
    raw = store.head_blob(RELEASE_SIGNERS)
    text = None if raw is None else read_text(raw)
    signers = (
        ()
        if text is None
        else (without_revoked(parse_allowed_signers(text, f"HEAD:{RELEASE_SIGNERS}"), revoked),)
    )
    return ReleaseRoots(
        signers, text, revoked, parse_policy(store.head_blob(RELEASE_POLICY), RELEASE_POLICY)
    )
