"""Load the trust roots a reader decides with: which keys may sign memory.

Two ``allowed_signers`` files (ssh-keygen format): the personal one at
``$GITMEM_HOME/allowed_signers`` and the team's ``.gitmem/allowed_signers`` **as committed
on the trust branch**: the configured ``trust_ref``, else origin's default branch
(``refs/remotes/origin/HEAD``), else the local default branch. Checking out a branch never
grants trust to a key that branch added: a key counts once it is merged where the team
reviews code (the brief says which keys wait for that). An uncommitted edit grants nothing
either, because the file is read from a commit, never from the working tree.

Revocation lists (``$GITMEM_HOME/revoked_keys`` and the committed ``.gitmem/revoked_keys``,
see :mod:`gitmem.core.revocation`) remove a key from every root; the committed list counts
from HEAD as well as from the trust branch, since a revocation only ever takes trust away.
Everything is loaded once, as one :class:`TrustRoots` value the caller hands to every check.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

import pygit2

from gitmem.core.allowed_signers import AllowedSignersFile, parse_allowed_signers
from gitmem.core.errors import GitmemError
from gitmem.core.integrity import TrustRoots
from gitmem.core.revocation import Revocations, combine, parse_revoked_keys, without_revoked
from gitmem.core.types import GitOid
from gitmem.store.files import read_state, write_state
from gitmem.store.home import ALLOWED_SIGNERS
from gitmem.store.repo import Store
from gitmem.store.repository import repository_at

KEPT_PURGES = "purges.json"
"""In ``.git/gitmem/``: the purge events this clone applied while their keys were trusted."""
TEAM_SIGNERS = ".gitmem/allowed_signers"
TEAM_REVOKED = ".gitmem/revoked_keys"
PERSONAL_REVOKED = "revoked_keys"
ORIGIN_HEAD = "refs/remotes/origin/HEAD"
HEAD_FALLBACK = "HEAD, for want of a default branch"
""":attr:`TrustBranch.how` when no default branch exists here."""
PINNED_BRANCH = "trust-branch.json"
"""In ``.git/gitmem/``: origin's default branch as this clone first read trust from it."""

__all__ = [
    "TrustBranch",
    "TrustRoots",
    "default_branch",
    "load_revoked",
    "load_trust_roots",
    "read_text",
    "reader_trust_branch",
    "trust_branch",
]


class TrustBranch(NamedTuple):
    """Where committed trust is read from."""

    name: str
    """As a person names it: ``origin/main``, ``main``, or the configured ref."""
    commit: GitOid | None
    """The commit it points at; None when it names nothing (then no team root counts)."""
    how: str
    """Why this one: "configured", "origin's default branch", "the local default branch"."""
    notice: str | None = None
    """Set when origin's default branch is no longer the one this clone first read trust
    from: what happened and how to follow it."""


def read_text(data: bytes) -> str:
    """A committed or personal trust file as text; bytes that are not UTF-8 become U+FFFD
    (and the line holding them is then skipped with a reason). Raises nothing."""
    return data.decode("utf-8", errors="replace")


def trust_branch(store: Store, configured: str | None = None) -> TrustBranch:
    """The trust branch of *store*'s repository: *configured* (``gitmem config trust_ref``)
    when given, else origin's default branch, else the local default branch
    (``init.defaultBranch``, ``main`` or ``master``, whichever exists), else HEAD in a
    repository that has none of them. Raises nothing.

    Origin's default branch is the one this clone first read trust from
    (``.git/gitmem/trust-branch.json``): a remote that later names another default branch
    (its HEAD moved to a branch nobody reviewed, then ``git remote set-head origin -a``)
    does not move the team root with it; the notice says so and how to follow it."""
    if configured:
        return TrustBranch(configured, store.resolve(configured), "configured")
    repo = store.repo
    target = _origin_head(repo)
    if target is not None:
        name = target.removeprefix("refs/remotes/")
        commit = store.resolve(target)
        if commit is not None:
            return _pinned(store, TrustBranch(name, commit, "origin's default branch"))
    for name in _default_branch_names(repo):
        commit = store.resolve(f"refs/heads/{name}")
        if commit is not None:
            return TrustBranch(name, commit, "the local default branch")
    return TrustBranch("HEAD", store.head_commit(), HEAD_FALLBACK)


def reader_trust_branch(home: Path, store: Store) -> TrustBranch:
    """The trust branch this reader uses: :func:`trust_branch` with the configured
    ``trust_ref``. Raises nothing."""
    return trust_branch(store, _configured_trust_ref(home, store))


def _pinned(store: Store, origin: TrustBranch) -> TrustBranch:
    """*origin* (origin's default branch now), or the one this clone first read trust from
    when origin names another since. Raises nothing."""
    path = store.local_dir / PINNED_BRANCH
    data = read_state(path, max_depth=2)
    first = data.get("branch") if isinstance(data, dict) else None
    if not isinstance(first, str) or not first.startswith("origin/"):
        with contextlib.suppress(OSError):
            write_state(path, {"version": 1, "branch": origin.name})
        return origin
    if first == origin.name:
        return origin
    notice = (
        f"origin's default branch is now {origin.name}, not {first} as when this clone "
        f"first read trust from it: the team root is still read from {first} (a key counts "
        f"once merged there); if the team moved on, `gitmem config --repo trust_ref "
        f"{origin.name}` follows it"
    )
    return TrustBranch(
        first,
        store.resolve(f"refs/remotes/{first}"),
        "origin's default branch when this clone first read it",
        notice,
    )


def default_branch(store: Store) -> str | None:
    """The local branch (``refs/heads/NAME``) that is the default branch, by the trust
    branch's rule without its setting: the branch origin's default branch names
    (``refs/remotes/origin/HEAD`` → ``origin/main`` → ``refs/heads/main``), else the local
    default branch (``init.defaultBranch``, ``main`` or ``master``), when that branch
    exists here; None when none does. Raises nothing."""
    repo = store.repo
    target = _origin_head(repo)
    names = _default_branch_names(repo)
    if target is not None and target.startswith("refs/remotes/origin/"):
        names = [target.removeprefix("refs/remotes/origin/")]
    for name in names:
        if store.resolve(f"refs/heads/{name}") is not None:
            return f"refs/heads/{name}"
    return None


def _origin_head(repo: pygit2.Repository) -> str | None:
    """The ref ``refs/remotes/origin/HEAD`` names, or None. Raises nothing."""
    try:
        origin = repo.references.get(ORIGIN_HEAD)
        target = origin.target if origin is not None else None
    except (pygit2.GitError, ValueError):
        return None
    return target if isinstance(target, str) else None


def _default_branch_names(repo: pygit2.Repository) -> list[str]:
    names = ["main", "master"]
    try:
        configured = repo.config["init.defaultBranch"]
    except (KeyError, pygit2.GitError, ValueError):
        return names
    return [configured, *names] if isinstance(configured, str) else names


def load_revoked(home: Path, store: Store | None, branch: TrustBranch | None = None) -> Revocations:
    """Every revoked key: the personal list and, inside a repository, the committed one at
    HEAD and on the trust *branch*. Raises nothing (unreadable lines are listed in
    ``problems``)."""
    lists: list[Revocations] = []
    personal = home / PERSONAL_REVOKED
    if personal.is_file():
        lists.append(parse_revoked_keys(read_text(personal.read_bytes()), str(personal)))
    if store is not None:
        seen: set[GitOid] = set()
        places = [("HEAD", store.head_commit())]
        if branch is not None:
            places.append((branch.name, branch.commit))
        for name, commit in places:
            if commit is None or commit in seen:
                continue
            seen.add(commit)
            team = store.blob_at(commit, TEAM_REVOKED)
            if team is not None:
                lists.append(parse_revoked_keys(read_text(team), f"{name}:{TEAM_REVOKED}"))
    return combine(lists)


def load_trust_roots(home: Path, store: Store | None) -> TrustRoots:
    """The personal trust root and, inside a repository, the team root as committed on the
    trust branch, without any revoked key, and the revocations. Keys that HEAD's team file
    adds but the trust branch's does not grant nothing; each is named in ``notices``. The
    repository records may name is the trust branch's (:mod:`gitmem.store.repository`).
    Raises nothing."""
    roots: list[AllowedSignersFile] = []
    personal = home / ALLOWED_SIGNERS
    if personal.is_file():
        roots.append(parse_allowed_signers(read_text(personal.read_bytes()), str(personal)))
    if store is None:
        revoked = load_revoked(home, None)
        return TrustRoots(tuple(without_revoked(root, revoked) for root in roots), revoked)
    branch = reader_trust_branch(home, store)
    revoked = load_revoked(home, store, branch)
    team = None if branch.commit is None else store.blob_at(branch.commit, TEAM_SIGNERS)
    source = f"{branch.name}:{TEAM_SIGNERS}"
    if team is not None:
        roots.append(parse_allowed_signers(read_text(team), source))
    repository = repository_at(store, branch.commit, branch.name)
    return TrustRoots(
        tuple(without_revoked(root, revoked) for root in roots),
        revoked,
        branch.name,
        (() if branch.notice is None else (branch.notice,))
        + _branch_only_keys(store, branch, team)
        + repository.notices,
        repository.ids,
        repository.own,
        source if team is not None else None,
        kept_purges(store),
    )


def kept_purges(store: Store) -> frozenset[str]:
    """The purge events this clone applied while their keys were trusted (see
    :attr:`TrustRoots.kept`). Raises nothing: an unreadable file keeps none."""
    data = read_state(store.local_dir / KEPT_PURGES, max_depth=3)
    found = data.get("purges") if isinstance(data, dict) else None
    return (
        frozenset(a for a in found if isinstance(a, str))
        if isinstance(found, list)
        else frozenset()
    )


def keep_purges(store: Store, addresses: Iterable[str]) -> None:
    """Remember that this clone applied the purge events at *addresses* (their keys
    trusted now). Raises nothing: a clone that cannot write keeps fewer."""
    kept = kept_purges(store)
    wanted = kept | frozenset(addresses)
    if wanted == kept:
        return
    with contextlib.suppress(OSError):
        write_state(store.local_dir / KEPT_PURGES, {"version": 1, "purges": sorted(wanted)})


def _configured_trust_ref(home: Path, store: Store) -> str | None:
    from gitmem.store.config import load_settings

    try:
        return load_settings(home, store.local_dir).text("trust_ref")
    except GitmemError:
        return None  # a malformed config is reported by the command that reads it


def _branch_only_keys(store: Store, branch: TrustBranch, team: bytes | None) -> tuple[str, ...]:
    """One sentence when HEAD's committed team file holds keys the trust branch's does not."""
    head = store.head_commit()
    if head is None or head == branch.commit:
        return ()
    mine = store.blob_at(head, TEAM_SIGNERS)
    if mine is None or mine == team:
        return ()
    trusted = set() if team is None else _keys(parse_allowed_signers(read_text(team), "trust"))
    added = sorted(
        _keys(parse_allowed_signers(read_text(mine), "HEAD")) - trusted, key=lambda k: k[1]
    )
    if not added:
        return ()
    named = ", ".join(f"{fingerprint} ({principals})" for principals, fingerprint in added[:3])
    more = f" and {len(added) - 3} more" if len(added) > 3 else ""
    return (
        f"{len(added)} key(s) added by this branch, not yet by {branch.name}: {named}{more}; "
        f"records they sign count once {TEAM_SIGNERS} is merged into {branch.name}",
    )


def _keys(root: AllowedSignersFile) -> set[tuple[str, str]]:
    return {(",".join(entry.principals), entry.key.fingerprint()) for entry in root.entries}
