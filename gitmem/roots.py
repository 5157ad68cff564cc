"""Load the trust roots: which keys may sign memory, and which may approve releases.

Memory: two ``allowed_signers`` files (ssh-keygen format), the personal one at
``$GITMEM_HOME/allowed_signers`` and the team's ``.gitmem/allowed_signers`` as
committed in HEAD. Releases: ``.gitmem/release_signers`` and the optional threshold
policy ``.gitmem/release_policy.json``, both as committed in HEAD. An uncommitted edit
of a committed file grants nothing, because it is read from the commit, never from
the working tree.

Revocation lists (``$GITMEM_HOME/revoked_keys`` and the committed
``.gitmem/revoked_keys``, see :mod:`gitmem.revocation`) remove a key from every root.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gitmem.home import ALLOWED_SIGNERS
from gitmem.release.policy import Policy, parse_policy
from gitmem.revocation import Revocations, combine, parse_revoked_keys, without_revoked
from gitmem.signers import AllowedSignersFile, parse_allowed_signers
from gitmem.store import Store

TEAM_SIGNERS = ".gitmem/allowed_signers"
TEAM_REVOKED = ".gitmem/revoked_keys"
PERSONAL_REVOKED = "revoked_keys"
RELEASE_SIGNERS = ".gitmem/release_signers"
RELEASE_POLICY = ".gitmem/release_policy.json"


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def load_revoked(home: Path, store: Store | None) -> Revocations:
    """Every revoked key: the personal list and, inside a repository, the committed one.
    Raises nothing (unreadable lines are listed in ``problems``)."""
    lists: list[Revocations] = []
    personal = home / PERSONAL_REVOKED
    if personal.is_file():
        lists.append(parse_revoked_keys(_text(personal.read_bytes()), str(personal)))
    if store is not None:
        team = store.head_blob(TEAM_REVOKED)
        if team is not None:
            lists.append(parse_revoked_keys(_text(team), f"HEAD:{TEAM_REVOKED}"))
    return combine(lists)


def load_roots(home: Path, store: Store | None) -> tuple[AllowedSignersFile, ...]:
    """The personal trust root and, inside a repository, the committed team root,
    without any revoked key. Raises nothing."""
    roots: list[AllowedSignersFile] = []
    personal = home / ALLOWED_SIGNERS
    if personal.is_file():
        roots.append(parse_allowed_signers(_text(personal.read_bytes()), str(personal)))
    if store is not None:
        team = store.head_blob(TEAM_SIGNERS)
        if team is not None:
            roots.append(parse_allowed_signers(_text(team), f"HEAD:{TEAM_SIGNERS}"))
    revoked = load_revoked(home, store)
    return tuple(without_revoked(root, revoked) for root in roots)


@dataclass(frozen=True)
class ReleaseRoots:
    """Who may approve a release, and how many of them must."""

    signers: tuple[AllowedSignersFile, ...]
    """The committed release_signers without revoked keys (empty when none is committed)."""
    signers_text: str | None
    """The committed file as is, for ``ssh-keygen -Y verify`` (keys gitmem cannot parse)."""
    revoked: Revocations
    policy: Policy


def load_release_roots(home: Path, store: Store) -> ReleaseRoots:
    """The release trust root and threshold policy as committed in HEAD. Raises nothing:
    a missing root trusts no key, a bad policy fails closed (``policy.problem``)."""
    revoked = load_revoked(home, store)
    raw = store.head_blob(RELEASE_SIGNERS)
    text = None if raw is None else _text(raw)
    signers = (
        ()
        if text is None
        else (without_revoked(parse_allowed_signers(text, f"HEAD:{RELEASE_SIGNERS}"), revoked),)
    )
    return ReleaseRoots(
        signers, text, revoked, parse_policy(store.head_blob(RELEASE_POLICY), RELEASE_POLICY)
    )
