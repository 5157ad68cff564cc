"""Pushing ``refs/gitmem/*`` to a remote, unforced (or with a lease), and what a push
the remote accepted moves here: the watermark and the tracking ref. Shared by ``gitmem
sync`` and the pre-push hook, which must import little (it runs inside ``git push``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gitmem.core.types import GitOid
from gitmem.store.git import last_line, run_git
from gitmem.store.repo import REFS_PREFIX, Store
from gitmem.store.watermarks import Watermarks, tracking_prefix


def push_refs(
    store: Store, remote: str, refs: Sequence[str], leases: Mapping[str, str] | None = None
) -> dict[str, tuple[bool, str]]:
    """Push *refs*, unforced except those in *leases*: each of those replaces the remote
    tip named there and nothing else (``--force-with-lease``; an empty tip: only where the
    remote has no such ref); per ref: (accepted, git's summary)."""
    leases = leases or {}
    forced = [f"--force-with-lease={r}:{leases[r]}" for r in refs if r in leases]
    specs = (f"{r}:{r}" for r in refs)
    done = run_git(store, "push", "--porcelain", "--no-verify", *forced, remote, *specs)
    results: dict[str, tuple[bool, str]] = {}
    for line in done.stdout.splitlines():
        parts = line.split("\t")
        if len(parts) >= 3 and ":" in parts[1]:
            flag, target = parts[0], parts[1].split(":", 1)[1]
            results[target] = (flag in (" ", "*", "=", "+"), parts[2])
    for ref in refs:
        results.setdefault(ref, (False, last_line(done.stderr)))
    return results


def record_push(store: Store, remote: str, ref: str, tip: GitOid | None, marks: Watermarks) -> None:
    """*remote* accepted *tip* for *ref*: the watermark and the tracking ref move to it."""
    marks.set(remote, ref, tip)
    if tip is not None:  # the remote now holds exactly our tip: the tracking ref mirrors it
        tracking = tracking_prefix(remote) + ref.removeprefix(REFS_PREFIX)
        store.repo.references.create(tracking, tip, force=True)
