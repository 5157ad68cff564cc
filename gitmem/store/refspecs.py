"""The fetch refspec that makes plain ``git fetch`` / ``git pull`` bring memory, and the
record of every git config value gitmem changed, so that uninstall restores them.

For each remote: ``remote.<name>.fetch = +refs/gitmem/*:refs/gitmem-remotes/<name>/*``.
Only fetch refspecs are added; ``push.default`` and ``remote.*.push`` are never touched
(the pre-push hook carries memory on a push, :mod:`gitmem.hooks.push`). Each value added
is recorded in ``.git/gitmem/git-config.json``; :func:`restore_config` removes exactly
those values again, and only when they are still there. When that record is there but
cannot be read (not JSON, not its shape, not a file), it removes the one value gitmem
documents it adds, each remote's memory refspec, and nothing else.
"""

from __future__ import annotations

import subprocess

import pygit2

from gitmem.core.errors import GitError
from gitmem.store.fetchspec import fetch_refspec, start_fetch_in
from gitmem.store.files import read_state, write_state
from gitmem.store.git import RunningGit, git_top, last_line, run_git
from gitmem.store.repo import Store
from gitmem.store.watermarks import tracking_prefix

CHANGES_FILE = "git-config.json"


def fetch_memory(
    store: Store, remote: str, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    """``git fetch`` of *remote*'s ``refs/gitmem/*`` into its tracking refs (a mirror:
    forced, pruned; no tags, no FETCH_HEAD, no submodules).

    Raises:
        GitError: git could not run.
    """
    return start_fetch_memory(store, remote).finish(timeout)


def start_fetch_memory(store: Store, remote: str) -> RunningGit:
    """:func:`fetch_memory` started, its result read when the caller finishes it.

    Raises:
        GitError: git could not run.
    """
    return start_fetch_in(git_top(store), remote)


def has_fetch_refspec(store: Store, remote: str) -> bool:
    """Whether *remote* fetches memory on a plain ``git fetch``. Raises nothing."""
    try:
        values = list(store.repo.config.get_multivar(f"remote.{remote}.fetch"))
    except (pygit2.GitError, ValueError):
        return False
    return fetch_refspec(remote) in values


def usable_remotes(store: Store) -> list[str]:
    """The configured remotes whose names can name a ref namespace. Raises nothing."""
    try:
        names = list(store.repo.remotes.names())
    except pygit2.GitError:
        return []
    return [
        name
        for name in names
        if name and pygit2.reference_is_valid_name(tracking_prefix(name) + "memory")
    ]


def add_fetch_refspecs(store: Store, remotes: list[str] | None = None) -> list[str]:
    """Add the memory fetch refspec to each of *remotes* (default: every usable remote)
    that lacks it; the config lines added (``remote.origin.fetch = …``), each recorded
    for :func:`restore_config`.

    Raises:
        GitError: git config could not be written.
    """
    added: list[str] = []
    changes = _load(store)
    if changes is None:
        # An unreadable record is rebuilt the way restore_config reads one.
        changes = [c for c in _documented(store) if c["added"] in _values(store, c["key"])]
    for remote in usable_remotes(store) if remotes is None else remotes:
        if has_fetch_refspec(store, remote):
            continue
        key, value = f"remote.{remote}.fetch", fetch_refspec(remote)
        done = run_git(store, "config", "--add", key, value)
        if done.returncode != 0:
            raise GitError(f"cannot set {key}: {last_line(done.stderr)}")
        changes.append({"key": key, "added": value})
        _save(store, changes)
        added.append(f"{key} = {value}")
    return added


def restore_config(store: Store) -> list[str]:
    """Undo every git config change gitmem recorded: each value it added is removed
    (when still there); the lines restored (``removed remote.origin.fetch = …``). When the
    record is there but unreadable, each remote's :func:`fetch_refspec` is what gitmem
    added (the value is in gitmem's own namespace), and the first line says so.

    Raises:
        GitError: git config could not be written.
    """
    restored: list[str] = []
    changes = _load(store)
    if changes is None:
        changes = _documented(store)
        restored.append(f"{CHANGES_FILE} could not be read: removing only gitmem's fetch refspecs")
    for change in reversed(changes):
        key, value = change["key"], change["added"]
        if value in _values(store, key):
            done = run_git(store, "config", "--fixed-value", "--unset-all", key, value)
            if done.returncode != 0:
                raise GitError(f"cannot restore {key}: {last_line(done.stderr)}")
            restored.append(f"removed {key} = {value}")
    _save(store, [])
    return restored


def _load(store: Store) -> list[dict[str, str]] | None:
    """The changes recorded: [] when there is no record, None when it cannot be read."""
    path = store.local_dir / CHANGES_FILE
    if not path.exists() and not path.is_symlink():
        return []
    data = read_state(path, max_depth=4)
    raw = data.get("changes") if isinstance(data, dict) else None
    if not isinstance(raw, list):
        return None
    return [
        {"key": c["key"], "added": c["added"]}
        for c in raw
        if isinstance(c, dict) and isinstance(c.get("key"), str) and isinstance(c.get("added"), str)
    ]


def _values(store: Store, key: str) -> list[str]:
    return run_git(store, "config", "--get-all", key).stdout.splitlines()


def _documented(store: Store) -> list[dict[str, str]]:
    """The value gitmem documents it adds, once per configured remote."""
    try:
        names = list(store.repo.remotes.names())
    except pygit2.GitError:
        return []
    return [{"key": f"remote.{name}.fetch", "added": fetch_refspec(name)} for name in names if name]


def _save(store: Store, changes: list[dict[str, str]]) -> None:
    write_state(store.local_dir / CHANGES_FILE, {"version": 1, "changes": changes})
