"""Load the trust roots a reader decides with: which keys may sign memory.

Two ``allowed_signers`` files (ssh-keygen format): the personal one at
``$GITMEM_HOME/allowed_signers`` and the team's ``.gitmem/allowed_signers`` as committed
in HEAD. An uncommitted edit of a committed file grants nothing, because it is read from
the commit, never from the working tree. Revocation lists (``$GITMEM_HOME/revoked_keys``
and the committed ``.gitmem/revoked_keys``, see :mod:`gitmem.core.revocation`) remove a
key from every root. Everything is loaded once, as one :class:`TrustRoots` value that
the caller hands to every check.
"""

from __future__ import annotations

from pathlib import Path

from gitmem.core.allowed_signers import AllowedSignersFile, parse_allowed_signers
from gitmem.core.integrity import TrustRoots
from gitmem.core.revocation import Revocations, combine, parse_revoked_keys, without_revoked
from gitmem.store.home import ALLOWED_SIGNERS
from gitmem.store.repo import Store

TEAM_SIGNERS = ".gitmem/allowed_signers"
TEAM_REVOKED = ".gitmem/revoked_keys"
PERSONAL_REVOKED = "revoked_keys"

__all__ = ["TrustRoots", "load_revoked", "load_trust_roots", "read_text"]


def read_text(data: bytes) -> str:
    """A committed or personal trust file as text; bytes that are not UTF-8 become U+FFFD
    (and the line holding them is then skipped with a reason). Raises nothing."""
    return data.decode("utf-8", errors="replace")


def load_revoked(home: Path, store: Store | None) -> Revocations:
    """Every revoked key: the personal list and, inside a repository, the committed one.
    Raises nothing (unreadable lines are listed in ``problems``)."""
    lists: list[Revocations] = []
    personal = home / PERSONAL_REVOKED
    if personal.is_file():
        lists.append(parse_revoked_keys(read_text(personal.read_bytes()), str(personal)))
    if store is not None:
        team = store.head_blob(TEAM_REVOKED)
        if team is not None:
            lists.append(parse_revoked_keys(read_text(team), f"HEAD:{TEAM_REVOKED}"))
    return combine(lists)


def load_trust_roots(home: Path, store: Store | None) -> TrustRoots:
    """The personal trust root and, inside a repository, the committed team root, without
    any revoked key, and the revocations. Raises nothing."""
    roots: list[AllowedSignersFile] = []
    personal = home / ALLOWED_SIGNERS
    if personal.is_file():
        roots.append(parse_allowed_signers(read_text(personal.read_bytes()), str(personal)))
    if store is not None:
        team = store.head_blob(TEAM_SIGNERS)
        if team is not None:
            roots.append(parse_allowed_signers(read_text(team), f"HEAD:{TEAM_SIGNERS}"))
    revoked = load_revoked(home, store)
    return TrustRoots(tuple(without_revoked(root, revoked) for root in roots), revoked)
