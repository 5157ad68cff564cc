"""``gitmem init``: a signing identity for this user, local state for this repository."""

from __future__ import annotations

import getpass
import re
import socket
from pathlib import Path

import pygit2

from gitmem.core.errors import UnwritableError
from gitmem.setup.travel import Wired, wire
from gitmem.store.files import unwritable
from gitmem.store.keys import InitOutcome, init_identity, read_config, validate_principal
from gitmem.store.repo import Store


def default_principal(store: Store) -> str:
    """git's user.email, else user.name, else user@host — as one allowed_signers word."""
    for key in ("user.email", "user.name"):
        try:
            value = store.repo.config[key]
        except (KeyError, pygit2.GitError):
            continue
        word = re.sub(r"[\s,\"'*?!#]+", "-", str(value).strip()).strip("-")
        if word:
            return word
    return f"{getpass.getuser()}@{socket.gethostname()}"


def init_repo(store: Store, home: Path, name: str | None, key: Path | None) -> InitOutcome:
    """Create or adopt the key, trust it, and make ``.git/gitmem/``. Idempotent.

    Raises:
        InputError: a bad principal; a ``GITMEM_HOME`` or ``.git/gitmem`` that cannot be
            written (:class:`~gitmem.core.errors.UnwritableError`).
        SigningKeyError: the key to adopt is unusable.
    """
    # An empty --name is refused like any other bad principal, never read as "no name".
    kept = read_config(home).get("principal")
    given = name if name is not None else kept if isinstance(kept, str) and kept else None
    principal = given if given is not None else default_principal(store)
    validate_principal(principal)
    try:
        outcome = init_identity(home, principal, key)
    except UnwritableError as e:
        raise UnwritableError(f"GITMEM_HOME {home} is not usable: {e}") from e
    try:
        store.local_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise unwritable(store.local_dir, e) from e
    return outcome


def init_clone(
    store: Store, home: Path, name: str | None, key: Path | None
) -> tuple[InitOutcome, Wired]:
    """:func:`init_repo`, then memory set up to travel with plain git when the repository
    has remotes: the fetch refspec on each, the pre-push hook, and a first fetch of what
    the remotes hold (:func:`gitmem.setup.travel.wire`).

    Raises:
        InputError: a bad principal.
        SigningKeyError: the key to adopt is unusable.
        GitError: git config could not be written.
    """
    outcome = init_repo(store, home, name, key)
    return outcome, wire(store, fetch=True)
