"""Which check each ref under ``refs/gitmem/`` gets: releases against the committed
release trust root (namespace ``gitmem-release``), every other ref as memory.

Verify, sync, backup and restore all decide with one :class:`RefCheckers`, loaded once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gitmem.core.integrity import TrustRoots
from gitmem.store.checkjobs import RecordChecker
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots
from gitmem.store.verify import memory_checker
from gitmem.team.release.records import check_release
from gitmem.team.release.roots import ReleaseRoots, load_release_roots


def is_releases_ref(ref: str) -> bool:
    """True for ``refs/gitmem/releases`` and its copies (tracking refs, restores).
    Raises nothing."""
    return ref.rsplit("/", 1)[-1] == "releases"


@dataclass(frozen=True)
class RefCheckers:
    """The trust roots of memory and of releases, and the checker each ref gets."""

    memory: TrustRoots
    releases: ReleaseRoots

    def for_ref(self, ref: str) -> RecordChecker:
        """The checker of records on *ref*. Raises nothing; the checker never raises on
        bad bytes either."""
        if is_releases_ref(ref):
            roots = self.releases
            return lambda stored: check_release(stored, roots)
        return memory_checker(self.memory)


def load_checkers(home: Path, store: Store) -> RefCheckers:
    """Both trust roots as this clone has them (see :mod:`gitmem.store.roots` and
    :mod:`gitmem.team.release.roots`). Raises nothing."""
    return RefCheckers(load_trust_roots(home, store), load_release_roots(home, store))
