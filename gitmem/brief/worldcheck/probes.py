"""The local probes: files at HEAD, branches, merges and commits, read through pygit2.

Read-only and cheap: a few object lookups per claim, no ``git`` subprocess, nothing
written anywhere. Each probe answers confirmed, contradicted or None (could not tell),
with a detail saying what was seen and naming commits by their short id.

Remote-tracking refs are only as fresh as the last fetch: a branch or commit pushed from
another clone and not fetched here reads as absent, and the detail says so.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import NamedTuple

import pygit2

from gitmem.brief.worldcheck.claims import Claim
from gitmem.core.claims import WorldStatus

CONFIRMED, CONTRADICTED = WorldStatus
_MAX_WALK = 500  # commits searched for the one that removed a file
_WALK_SECONDS = 0.02  # and for at most this long
_SUBJECT_CHARS = 60


class Probe(NamedTuple):
    """What the world said about one claim.

    ``outcome`` is ``"confirmed"``, ``"contradicted"`` or None (could not check);
    ``detail`` one clause saying what was seen ("src/a.py is not in HEAD (5d41402)");
    ``change``, when contradicted, the few words a resolve note would say ("PR #214
    merged").
    """

    claim: Claim
    outcome: str | None
    detail: str
    change: str | None = None


class LocalProbes:
    """The git probes of one repository, with what they share (HEAD, the default
    branch) looked up once."""

    def __init__(self, repo: pygit2.Repository) -> None:
        self.repo = repo
        self._head: tuple[pygit2.Commit | None] | None = None
        self._remotes: list[str] | None = None

    def probe(self, claim: Claim, deadline: float) -> Probe:
        """Probe one local claim (file, branch, merge, commit). *deadline* bounds the
        only walk (the search for the commit that removed a file).

        Raises:
            ValueError: *claim* is not a local claim type.
            pygit2.GitError: the repository cannot be read.
        """
        probes: dict[str, Callable[[Claim, float], Probe]] = {
            "file-exists": self._file,
            "branch-exists": self._branch,
            "branch-merged": self._merged,
            "commit-exists": self._commit,
        }
        if claim.type not in probes:
            raise ValueError(f"not a local claim: {claim.type}")
        return probes[claim.type](claim, deadline)

    # -- the probes ---------------------------------------------------------------

    def _file(self, claim: Claim, deadline: float) -> Probe:
        path = claim.fields["path"]
        head = self._head_commit()
        if head is None:
            return Probe(claim, None, "HEAD has no commit yet")
        if path in head.tree:
            return Probe(claim, CONFIRMED, f"{path} is in HEAD ({head.short_id})")
        where = f"{path} is not in HEAD ({head.short_id})"
        workdir = self.repo.workdir
        if workdir and os.path.lexists(os.path.join(workdir, path)):
            return Probe(claim, None, f"{where} but is in the working tree, not committed")
        removed = _removed_in(head, path, min(deadline, time.monotonic() + _WALK_SECONDS))
        if removed is not None:
            return Probe(
                claim,
                CONTRADICTED,
                f"{where}: removed in {removed.short_id} {_subject(removed)}",
                f"{path} removed in {removed.short_id}",
            )
        return Probe(claim, CONTRADICTED, where, f"{path} not in HEAD")

    def _branch(self, claim: Claim, deadline: float) -> Probe:
        branch = claim.fields["branch"]
        found = self._find_branch(branch)
        if found is None:
            return Probe(
                claim,
                CONTRADICTED,
                f"no branch {branch} here, locally or in the remote-tracking refs"
                " (fetch if it was pushed from another clone)",
                f"no branch {branch}",
            )
        name, tip = found
        where = "" if name == branch else f" as {name}"
        return Probe(claim, CONFIRMED, f"branch {branch} exists{where} ({tip.short_id})")

    def _merged(self, claim: Claim, deadline: float) -> Probe:
        branch = claim.fields["branch"]
        into = claim.fields.get("into")
        found = self._find_branch(branch)
        if found is None:
            return Probe(claim, None, f"branch {branch} is gone: whether it was merged is unknown")
        tip = found[1]
        targets = self._targets(into)
        if not targets:
            missing = f"branch {into} not found" if into else "no default branch found"
            return Probe(claim, None, f"{missing} to compare {branch} with")
        for name, target in targets:
            if target.id == tip.id or self.repo.descendant_of(target.id, tip.id):
                return Probe(
                    claim, CONFIRMED, f"branch {branch} ({tip.short_id}) is merged into {name}"
                )
        names = " or ".join(name for name, _ in targets)
        return Probe(
            claim,
            CONTRADICTED,
            f"branch {branch} ({tip.short_id}) is not merged into {names}"
            " (a squash or rebase merge looks the same)",
            f"branch {branch} not merged into {targets[0][0]}",
        )

    def _commit(self, claim: Claim, deadline: float) -> Probe:
        sha = claim.fields["sha"]
        try:
            obj = self.repo.get(sha)
        except pygit2.AmbiguousError:
            return Probe(claim, None, f"{sha} is ambiguous: more than one object starts so")
        if obj is None:
            if self.repo.is_shallow:
                return Probe(claim, None, f"no commit {sha} in this shallow clone")
            return Probe(
                claim,
                CONTRADICTED,
                f"no commit {sha} in this repository (fetch if it was made in another clone)",
                f"commit {sha} not found",
            )
        if not isinstance(obj, pygit2.Commit):
            kind = obj.type_str
            return Probe(
                claim, CONTRADICTED, f"{sha} is a {kind}, not a commit", f"{sha} is a {kind}"
            )
        return Probe(claim, CONFIRMED, f"commit {obj.short_id} exists {_subject(obj)}")

    # -- shared lookups -------------------------------------------------------------

    def _head_commit(self) -> pygit2.Commit | None:
        if self._head is None:
            head = None
            if not self.repo.head_is_unborn:
                try:
                    head = self.repo.head.peel(pygit2.Commit)
                except (pygit2.GitError, KeyError, ValueError):
                    head = None
            self._head = (head,)
        return self._head[0]

    def _remote_names(self) -> list[str]:
        if self._remotes is None:
            names = [name for name in self.repo.remotes.names() if name]
            # origin first: it is the one a forge and a default branch usually come from.
            self._remotes = sorted(names, key=lambda name: name != "origin")
        return self._remotes

    def _ref_commit(self, refname: str) -> pygit2.Commit | None:
        ref = self.repo.references.get(refname)
        if ref is None:
            return None
        try:
            return ref.peel(pygit2.Commit)
        except (pygit2.GitError, KeyError, ValueError):
            return None

    def _find_branch(self, branch: str) -> tuple[str, pygit2.Commit] | None:
        """(the name it was found under, its tip): local first, then each remote."""
        tip = self._ref_commit(f"refs/heads/{branch}")
        if tip is not None:
            return branch, tip
        for remote in self._remote_names():
            for name in (f"{remote}/{branch}", branch if branch.startswith(f"{remote}/") else ""):
                tip = self._ref_commit(f"refs/remotes/{name}") if name else None
                if tip is not None:
                    return name, tip
        return None

    def _targets(self, into: str | None) -> list[tuple[str, pygit2.Commit]]:
        """What "merged" is measured against: *into*, else the default branch (the one
        a remote's HEAD names, else ``init.defaultBranch``, ``main`` or ``master``),
        locally and on each remote; else HEAD."""
        names = [into] if into else self._default_names()
        for name in names:
            found: list[tuple[str, pygit2.Commit]] = []
            for label in [name, *(f"{remote}/{name}" for remote in self._remote_names())]:
                prefix = "refs/heads/" if label == name else "refs/remotes/"
                tip = self._ref_commit(prefix + label)
                if tip is not None:
                    found.append((label, tip))
            if found:
                return found
        head = self._head_commit()
        return [("HEAD", head)] if head is not None and not into else []

    def _default_names(self) -> list[str]:
        names: list[str] = []
        for remote in self._remote_names():
            ref = self.repo.references.get(f"refs/remotes/{remote}/HEAD")
            target = ref.target if ref is not None else None
            if isinstance(target, str) and target.startswith(f"refs/remotes/{remote}/"):
                names.append(target.removeprefix(f"refs/remotes/{remote}/"))
        try:
            configured = self.repo.config["init.defaultBranch"]
        except (KeyError, ValueError, pygit2.GitError):
            configured = None
        if isinstance(configured, str):
            names.append(configured)
        return [*dict.fromkeys([*names, "main", "master"])]


def _removed_in(head: pygit2.Commit, path: str, deadline: float) -> pygit2.Commit | None:
    """The commit on HEAD's first-parent line that removed *path*, when it is found
    within a few hundred commits and before *deadline*."""
    commit = head
    for _ in range(_MAX_WALK):
        if time.monotonic() >= deadline or not commit.parents:
            return None
        parents = commit.parents
        if any(path in parent.tree for parent in parents):
            return commit
        commit = parents[0]
    return None


def _subject(commit: pygit2.Commit) -> str:
    line = commit.message.strip().split("\n", 1)[0].strip()
    if len(line) > _SUBJECT_CHARS:
        line = line[: _SUBJECT_CHARS - 1].rstrip() + "…"
    return f"“{line}”" if line else "(no message)"
