"""Load the trust roots: which keys may sign memory.

Two ``allowed_signers`` files (ssh-keygen format): the personal one at
``$GITMEM_HOME/allowed_signers``, and the team's ``.gitmem/allowed_signers`` as
committed in HEAD. An uncommitted edit of the team file grants nothing, because
it is read from the commit, never from the working tree.
"""

from __future__ import annotations

from pathlib import Path

from gitmem.home import ALLOWED_SIGNERS
from gitmem.signers import AllowedSignersFile, parse_allowed_signers
from gitmem.store import Store

TEAM_SIGNERS = ".gitmem/allowed_signers"


def load_roots(home: Path, store: Store | None) -> tuple[AllowedSignersFile, ...]:
    """The personal trust root and, inside a repository, the committed team root."""
    roots: list[AllowedSignersFile] = []
    personal = home / ALLOWED_SIGNERS
    if personal.is_file():
        text = personal.read_bytes().decode("utf-8", errors="replace")
        roots.append(parse_allowed_signers(text, str(personal)))
    if store is not None:
        team = store.head_blob(TEAM_SIGNERS)
        if team is not None:
            text = team.decode("utf-8", errors="replace")
            roots.append(parse_allowed_signers(text, f"HEAD:{TEAM_SIGNERS}"))
    return tuple(roots)
