"""The pre-push hook: this clone's memory goes with every push, whatever was typed.

git runs it (in the foreground) before it sends anything, for ``git push``, ``git push
origin main``, ``git push -u origin HEAD`` alike. It

1. waits, at most :data:`CAPTURE_WAIT` seconds, for the post-commit captures in flight
   (their markers, :mod:`gitmem.hooks.inflight`), so the pushed commit's checkpoint
   goes with it;
2. pushes every ``refs/gitmem/*`` ref the remote (as last fetched) lacks, unforced and
   only over the tip it last fetched (``--force-with-lease`` on that tip, for a push that
   is a fast-forward of it), with ``--no-verify`` and :data:`GUARD` set, so the push it
   runs never runs this hook;
3. when the remote holds memory this clone has not merged (the push is refused as not
   a fast-forward, or the remote moved since it was fetched), or its tip as fetched no
   longer descends from the last tip accepted there (a rollback or a rewrite), runs
   ``gitmem sync`` with it — fetch, check, union-merge, push — and gives sync's answer:
   a rolled-back remote is reported, and local records are pushed back only when the
   user asks (``gitmem sync --accept-rewrite``). With ``sync_on_push`` set it always
   runs sync.

A push to a URL rather than a named remote pushes memory unforced and merges nothing
(tracking refs need a name). Nothing here ever fails the user's push: a failure is one
line on stderr and an entry in the capture log (``gitmem status``).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from gitmem.core import boundedjson
from gitmem.core.errors import GitmemError
from gitmem.core.types import GitOid
from gitmem.hooks import inflight
from gitmem.hooks.run import masked
from gitmem.store.files import atomic_write
from gitmem.store.repo import REFS_PREFIX, Store

GUARD = "GITMEM_IN_PRE_PUSH"
"""Set while the hook runs: a git push started inside it must not run the hook again."""
CAPTURE_WAIT = 15.0
"""Seconds the hook waits for captures in flight before pushing what memory holds."""
PUSHES_FILE = "pushes.json"
_POLL = 0.05


def pre_push(store: Store, remote: str, url: str) -> None:
    """Carry memory with the push to *remote* (see the module docstring). Raises what
    the work raises; :func:`gitmem.hooks.run.run_safely` logs it and prints one line."""
    if os.environ.get(GUARD):
        return
    os.environ[GUARD] = "1"  # inherited by every git this process runs
    if names_memory(_stdin()):
        # The user pushes memory refs themselves (a deliberate force push, say): a push
        # of ours could move the remote ref under theirs and fail it.
        return
    try:
        _carry(store, remote, url)
    except GitmemError as e:
        say(f"memory not pushed to {remote}: {masked(str(e))} (see `gitmem status`)")
        raise


def _carry(store: Store, remote: str, url: str) -> None:
    still = wait_for_captures(store.local_dir, CAPTURE_WAIT)
    if still:
        say(
            f"a capture is still running after {CAPTURE_WAIT:.0f}s; its checkpoint goes "
            "with the next push"
        )
    if not store.refs():
        return  # no memory: nothing to carry, and nothing more to load
    from gitmem.store.capturelog import CaptureLog
    from gitmem.store.config import load_settings
    from gitmem.store.home import gitmem_home

    log = CaptureLog(store.local_dir)
    source = f"pre-push {remote}"
    home = gitmem_home()
    sync_on_push = load_settings(home, store.local_dir).get("sync_on_push")
    named = remote in store.repo.remotes.names()
    if not named:
        _push_to_url(store, url or remote, log, source)
        return
    if not sync_on_push:
        refused = _push_new(store, remote)
        if refused is None:
            log.write("ok", source, url=masked(url), pushed="fast-forward")
            return
    _sync(store, remote, url, home, log, source)


def names_memory(lines: list[str]) -> bool:
    """Whether git's pre-push lines push (or delete) a ``refs/gitmem/`` ref. Raises
    nothing."""
    return any(
        len(words) == 4 and words[2].startswith(REFS_PREFIX)
        for words in (line.split() for line in lines)
    )


def _stdin() -> list[str]:
    try:
        if sys.stdin is None or sys.stdin.isatty():
            return []
        return sys.stdin.read(1 << 20).splitlines()
    except (OSError, ValueError):
        return []


def wait_for_captures(local_dir: Path, seconds: float) -> int:
    """Wait until no post-commit capture is in flight, or *seconds* passed; how many
    still are. Raises nothing."""
    deadline = time.monotonic() + seconds
    while True:
        now = time.time()
        running = [
            m for m in inflight.markers(local_dir) if m.hook == "post-commit" and not m.dead(now)
        ]
        if not running or time.monotonic() >= deadline:
            return len(running)
        time.sleep(_POLL)


def _push_new(store: Store, remote: str) -> str | None:
    """Push each local ``refs/gitmem/*`` ref the tracking ref says *remote* lacks, as a
    fast-forward of the tip last fetched; None when every one went (or none had to), else
    why the first did not (then sync decides)."""
    from gitmem.store.files import locked
    from gitmem.store.pushing import push_refs, record_push
    from gitmem.store.shape import BrokenRef, commit_at
    from gitmem.store.watermarks import SYNC_LOCK, Watermarks, tracking_prefix

    prefix = tracking_prefix(remote)
    tips = {ref: store.at(ref).tip() for ref in store.refs()}
    try:
        seen = {ref: store.at(prefix + ref.removeprefix(REFS_PREFIX)).tip() for ref in tips}
        for ref, there in seen.items():
            if there is not None:
                commit_at(store.repo, ref, there)
    except BrokenRef as e:
        return f"{e.ref} {e.detail}"  # a junk ref there: sync skips it and says so
    wanted = [ref for ref, tip in tips.items() if tip is not None and seen[ref] != tip]
    if not wanted:
        return None
    with locked(store.local_dir, SYNC_LOCK):  # the watermarks are sync's
        marks = Watermarks(store.local_dir)
        for ref in wanted:
            mark, there = marks.get(remote, ref), seen[ref]
            if mark is not None and (there is None or not _descends(store, mark, there)):
                return f"{remote}'s {ref} no longer descends from the last tip seen there"
            if there is not None and not _descends(store, there, tips[ref] or there):
                return f"{ref} does not descend from {remote}'s"
        # Each push replaces exactly the tip last fetched (or asks that there be none):
        # a remote that moved since, a rollback included, refuses it and sync decides.
        leases = {ref: seen[ref] or "" for ref in wanted}
        results = push_refs(store, remote, wanted, leases)
        for ref in wanted:
            if results[ref][0]:
                record_push(store, remote, ref, tips[ref], marks)
        marks.save()
    _remember(store, remote, {r: tips[r] for r in wanted if results[r][0]})
    refused = [results[r][1] for r in wanted if not results[r][0]]
    return refused[0] if refused else None


def _descends(store: Store, older: GitOid, newer: GitOid) -> bool:
    try:
        return store.is_ancestor(older, newer)
    except GitmemError:
        return False


def _sync(store: Store, remote: str, url: str, home: Path, log: Any, source: str) -> None:
    from gitmem.store.keys import read_config
    from gitmem.team.sync import sync

    author = read_config(home).get("principal") or "gitmem"
    report = sync(store, remote, home, author)
    problems = [r.problem for r in report.refs if r.problem]
    _remember(store, remote, {r.ref: r.local_after for r in report.refs if r.pushed})
    log.write(
        "ok" if report.ok else "failed",
        source,
        url=masked(url),
        merged=sum(r.new_records for r in report.refs),
        pushed=[r.ref for r in report.refs if r.pushed],
        error=masked("; ".join(problems)[:500]) if problems else None,
    )
    if problems:
        say(f"memory not pushed to {remote}: {masked(problems[0])}")
    bad = sum(len(r.quarantined) for r in report.refs)
    if bad:
        say(f"{bad} path(s) from {remote} fail their checks: quarantined (`gitmem status`)")


def _push_to_url(store: Store, url: str, log: Any, source: str) -> None:
    from gitmem.store.pushing import push_refs

    refs = store.refs()
    results = push_refs(store, url, refs)
    refused = [f"{r}: {results[r][1]}" for r in refs if not results[r][0]]
    log.write(
        "failed" if refused else "ok",
        source,
        url=masked(url),
        pushed=[r for r in refs if results[r][0]],
        error=masked("; ".join(refused)[:500]) if refused else None,
    )
    if refused:
        say(f"memory not pushed to {masked(url)}: {masked(refused[0])}")


def say(line: str) -> None:
    """One line on stderr, which git shows the user. Raises nothing."""
    with contextlib.suppress(OSError, ValueError):
        print(f"gitmem: {line}", file=sys.stderr, flush=True)


def last_pushes(local_dir: Path) -> dict[str, dict[str, Any]]:
    """When memory was last pushed to each remote by this hook, and which tips. Raises
    nothing (an unreadable file: none recorded)."""
    try:
        data = boundedjson.loads((local_dir / PUSHES_FILE).read_bytes(), max_depth=4)
    except (OSError, ValueError):
        return {}
    remotes = data.get("remotes") if isinstance(data, dict) else None
    if not isinstance(remotes, dict):
        return {}
    return {str(k): v for k, v in remotes.items() if isinstance(v, dict)}


def _remember(store: Store, remote: str, tips: dict[str, Any]) -> None:
    if not tips:
        return
    from datetime import UTC, datetime  # only once something went: a push with none is cheap

    pushes = last_pushes(store.local_dir)
    when = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    pushes[remote] = {"time": when, "refs": {r: t for r, t in tips.items() if t}}
    data = json.dumps({"version": 1, "remotes": pushes}, indent=1, sort_keys=True)
    with contextlib.suppress(OSError):
        atomic_write(store.local_dir / PUSHES_FILE, (data + "\n").encode(), 0o644)
