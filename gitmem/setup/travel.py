"""Memory travels with plain git: what ``gitmem init``, ``gitmem hooks install`` and
``gitmem sync --setup`` set up in a clone, what uninstall takes back, and what ``gitmem
status`` says about each remote.

Set up: each remote gets the memory fetch refspec (:mod:`gitmem.store.refspecs`), and the
pre-push hook is installed (:mod:`gitmem.hooks.push`). Nothing else in git's config
changes; uninstall removes exactly what was added.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygit2

from gitmem.core.errors import GitmemError
from gitmem.core.integrity import TrustRoots
from gitmem.hooks.install import HookState, install, uninstall
from gitmem.hooks.push import last_pushes
from gitmem.lifecycle.fetched import tracking_memory, unmerged
from gitmem.store.git import last_line
from gitmem.store.refspecs import (
    add_fetch_refspecs,
    fetch_memory,
    has_fetch_refspec,
    restore_config,
    usable_remotes,
)
from gitmem.store.repo import MEMORY_REF, Store

PRE_PUSH = ("pre-push",)


@dataclass(frozen=True)
class Wired:
    hooks: tuple[HookState, ...]
    configured: tuple[str, ...]
    """The git config lines added."""
    problem: str | None = None
    """Why the hooks could not be installed (the refspecs still were)."""


def wire(
    store: Store,
    remotes: Sequence[str] | None = None,
    hooks: Sequence[str] = PRE_PUSH,
    force: bool = False,
    fetch: bool = False,
) -> Wired:
    """Add the fetch refspec to *remotes* (default: every remote) and install *hooks*;
    with no remote at all, nothing. A hooks folder gitmem may not write into (a shared
    ``core.hooksPath``) is reported, not raised, when only the pre-push hook was asked;
    so is a failed first fetch (with *fetch*: of each remote just configured).

    Raises:
        GitError: git config could not be written.
        InputError: *hooks* beyond the pre-push hook could not be installed.
    """
    workdir = Path(store.repo.workdir or store.common_dir)
    configured = add_fetch_refspecs(store, None if remotes is None else list(remotes))
    problems = _first_fetch(store, configured) if fetch else []
    if not usable_remotes(store) and tuple(hooks) == PRE_PUSH:
        return Wired((), tuple(configured))
    try:
        states = install(workdir, force=force, names=hooks)
    except GitmemError as e:
        if tuple(hooks) != PRE_PUSH:
            raise
        problems.append(str(e))
        states = []
    shown = tuple(s for s in states if s.name in hooks)
    return Wired(shown, tuple(configured), "; ".join(problems) or None)


def _first_fetch(store: Store, configured: Sequence[str]) -> list[str]:
    """Fetch memory from each remote *configured* names; the failures, one each."""
    problems = []
    for line in configured:
        remote = line.removeprefix("remote.").split(".fetch", 1)[0]
        try:
            done = fetch_memory(store, remote, timeout=120)
        except GitmemError as e:
            problems.append(str(e))
            continue
        if done.returncode != 0:
            problems.append(f"git fetch {remote} failed: {last_line(done.stderr)}")
    return problems


def unwire(store: Store) -> tuple[list[HookState], list[str]]:
    """Remove gitmem's git hooks (restoring the ones they wrapped) and every git config
    value gitmem added.

    Raises:
        GitError: not a repository, or git config could not be written.
    """
    workdir = Path(store.repo.workdir or store.common_dir)
    return uninstall(workdir), restore_config(store)


def remotes_report(store: Store, roots: TrustRoots) -> list[dict[str, Any]]:
    """Per remote: whether a plain fetch brings memory, what was fetched, how many
    commits of memory this clone is ahead of / behind it, the records fetched but not
    merged (and why they are not read, if they are not), the last push. Raises nothing."""
    fetched = tracking_memory(store)
    pending = {f.remote: f for f in unmerged(store, roots)}
    pushes = last_pushes(store.local_dir)
    try:
        local = store.at(MEMORY_REF).tip()
    except GitmemError:
        local = None
    report = []
    for remote in usable_remotes(store):
        tip = fetched.get(remote)
        ahead, behind = _ahead_behind(store, local, tip)
        waiting = pending.get(remote)
        report.append(
            {
                "remote": remote,
                "fetch_refspec": has_fetch_refspec(store, remote),
                "fetched": tip,
                "ahead": ahead,
                "behind": behind,
                "unmerged_records": 0 if waiting is None else waiting.records,
                "unmerged_problem": None if waiting is None else waiting.problem,
                "last_push": pushes.get(remote),
            }
        )
    return report


def _ahead_behind(store: Store, local: str | None, tip: str | None) -> tuple[int, int]:
    if local is None or tip is None:
        return (
            0 if local is None else _count(store, local),
            0 if tip is None else _count(store, tip),
        )
    try:
        ahead, behind = store.repo.ahead_behind(pygit2.Oid(hex=local), pygit2.Oid(hex=tip))
    except (pygit2.GitError, ValueError, KeyError):
        return 0, 0
    return int(ahead), int(behind)


def _count(store: Store, tip: str) -> int:
    try:
        return sum(1 for _ in store.repo.walk(pygit2.Oid(hex=tip)))
    except (pygit2.GitError, ValueError, KeyError):
        return 0


def render_remotes(remotes: list[dict[str, Any]]) -> list[str]:
    """The status lines of :func:`remotes_report`."""
    lines = []
    for r in remotes:
        name = r["remote"]
        if not r["fetch_refspec"]:
            lines.append(f"remote {name}: memory not fetched by git fetch (run `gitmem init`)")
            continue
        if r["fetched"] is None:
            lines.append(f"remote {name}: nothing fetched yet (`git fetch {name}`)")
            continue
        parts = [f"{r['ahead']} commit(s) ahead", f"{r['behind']} behind"]
        if r["unmerged_records"]:
            why = f", not read: {r['unmerged_problem']}" if r["unmerged_problem"] else ""
            parts.append(f"{r['unmerged_records']} fetched record(s) not merged yet{why}")
        push = r["last_push"]
        parts.append(f"last push {push['time']}" if push else "never pushed from here")
        lines.append(f"remote {name}: memory " + ", ".join(parts))
    return lines
