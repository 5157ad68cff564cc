"""The pre-push hook: this clone's memory goes with every push, whatever was typed.

git runs it in the foreground before it sends anything, for ``git push``, ``git push
origin main``, ``git push -u origin HEAD`` alike, and waits for it: so the foreground
(:func:`pre_push`) only decides whether memory needs carrying — a capture in flight
(its commit's checkpoint must go), a ``refs/gitmem/*`` ref the remote (as last fetched)
lacks, a push to a URL, or ``sync_on_push`` set — without the network, and starts
``gitmem hook push-memory REMOTE URL`` detached when it does (most pushes owe nothing,
and :mod:`gitmem.hooks.foreground` finds that from a few files before this module and
pygit2 load). That (:func:`push_memory`)

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
(tracking refs need a name). Nothing here ever fails the user's push: what the detached
carry could not do is an entry in the capture log (``gitmem status``), and the next
push's foreground says it, one line each on stderr.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gitmem.core.errors import GitmemError
from gitmem.hooks import inflight
from gitmem.hooks.foreground import GUARD as GUARD
from gitmem.hooks.foreground import UNTOLD_FILE as UNTOLD_FILE
from gitmem.hooks.foreground import capture_in_flight, pushed_lines
from gitmem.hooks.foreground import names_memory as names_memory
from gitmem.hooks.run import masked
from gitmem.store.files import atomic_write, read_state, write_state
from gitmem.store.repo import REFS_PREFIX, TRACKING_PREFIX, Store

CAPTURE_WAIT = 120.0
"""Seconds the detached carry waits for captures in flight before pushing what memory
holds (a push of thirty commits queues thirty captures)."""
PUSHES_FILE = "pushes.json"
_POLL = 0.05


def pre_push(store: Store, remote: str, url: str) -> None:
    """The foreground (see the module docstring): say what the last carry to *remote*
    could not do, and start the carry detached when memory needs it. Raises nothing
    of its own."""
    if os.environ.get(GUARD):
        return
    os.environ[GUARD] = "1"  # inherited by every git this process runs
    if names_memory(pushed_lines()):
        # The user pushes memory refs themselves (a deliberate force push, say): a push
        # of ours could move the remote ref under theirs and fail it.
        return
    _tell(store, remote)
    if _owed(store, remote):
        _start_carry(store, remote, url)


def push_memory(store: Store, remote: str, url: str) -> None:
    """``gitmem hook push-memory REMOTE URL``, started detached by :func:`pre_push`:
    carry memory to *remote* (steps 1 to 3 of the module), one carry at a time. Raises
    what the work raises; :func:`gitmem.hooks.run.run_safely` logs it (and the next
    push's foreground says it)."""
    from gitmem.store.files import locked

    os.environ[GUARD] = "1"
    marker = _own_marker(store)
    try:
        with locked(store.local_dir, CARRY_LOCK):
            _carry(store, remote, url)
    except Exception as e:  # logged by run_safely; said at the next push
        why = str(e) if isinstance(e, GitmemError) else f"internal error: {type(e).__name__}"
        say(f"memory not pushed to {remote}: {masked(why)} (see `gitmem status`)", store, remote)
        raise
    finally:
        if marker is not None:
            marker.unlink(missing_ok=True)


CARRYING_DIR = "carrying"
"""``.git/gitmem/carrying/``: one file per carry started and not ended, named by the
foreground that started it, holding the carry's pid once it runs."""
MARKER_ENV = "GITMEM_CARRY_MARKER"
"""The name of its marker, handed to the detached carry."""
CARRY_LOCK = "carry.lock"
"""Held by the carry that runs: one at a time per clone."""
_MARKER_GRACE = 60.0
"""Seconds a marker may wait, without a pid, for its carry to start."""


def carries_in_flight(local_dir: Path) -> list[Path]:
    """The markers of carries started and not ended (a dead carry's are removed, see
    :func:`_prune`). Raises nothing."""
    try:
        return sorted((local_dir / CARRYING_DIR).iterdir())
    except OSError:
        return []


def _start_carry(store: Store, remote: str, url: str) -> None:
    """Write a marker and start ``gitmem hook push-memory`` detached. Raises nothing
    of its own (an interpreter that cannot start is :func:`spawn_detached`'s OSError)."""
    from gitmem.store.spawn import spawn_detached

    _prune(store.local_dir)
    name = f"{_safe(remote)}-{os.getpid()}-{time.time_ns()}"
    marker = store.local_dir / CARRYING_DIR / name
    with contextlib.suppress(OSError):
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    where = str(store.repo.workdir or store.common_dir)
    os.environ[MARKER_ENV] = name
    try:
        spawn_detached(["-C", where, "hook", "push-memory", remote, url])
    except OSError:
        marker.unlink(missing_ok=True)
        raise


def _own_marker(store: Store) -> Path | None:
    """The marker the foreground wrote for this carry, now holding this pid. Raises
    nothing."""
    name = os.environ.pop(MARKER_ENV, "")
    if not name or "/" in name or name.startswith("."):
        return None
    marker = store.local_dir / CARRYING_DIR / name
    with contextlib.suppress(OSError):
        atomic_write(marker, f"{os.getpid()}\n".encode(), 0o644)
    return marker


def _prune(local_dir: Path) -> None:
    """Remove the markers of carries that died (killed, the machine switched off): a
    pid that runs no more, or no pid after :data:`_MARKER_GRACE` seconds. Raises
    nothing."""
    now = time.time()
    for marker in carries_in_flight(local_dir):
        try:
            text = marker.read_text(errors="replace").strip()
            age = now - marker.stat().st_mtime
        except OSError:
            continue
        pid = int(text) if text.isdigit() and 0 < len(text) < 10 else None
        if (pid is None and age > _MARKER_GRACE) or (pid is not None and not inflight.alive(pid)):
            marker.unlink(missing_ok=True)


def _safe(remote: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in remote)


def _owed(store: Store, remote: str) -> bool:
    """Whether memory needs carrying to *remote* (see the module docstring): decided from
    local refs and files, without the network. Raises nothing."""
    if capture_in_flight(store.local_dir):
        return True
    try:
        refs = store.shared_refs()
        if not refs:
            return False  # no memory: nothing to carry, and nothing more to load
        if remote not in store.repo.remotes.names():
            return True  # a URL: no tracking refs to tell what it lacks
        there = f"{TRACKING_PREFIX}{remote}/"
        if any(store.at(r).tip() != store.at(there + r[len(REFS_PREFIX) :]).tip() for r in refs):
            return True
    except GitmemError:
        return True  # a junk ref: the carry's sync says what it is
    from gitmem.store.config import load_settings
    from gitmem.store.home import gitmem_home

    with contextlib.suppress(GitmemError):
        return bool(load_settings(gitmem_home(), store.local_dir).get("sync_on_push"))
    return False


def _carry(store: Store, remote: str, url: str) -> None:
    still = wait_for_captures(store.local_dir, CAPTURE_WAIT)
    if still:
        say(
            f"a capture was still running after {CAPTURE_WAIT:.0f}s; its checkpoint goes "
            "with the next push",
            store,
            remote,
        )
    if not store.shared_refs():
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
    tips = {ref: store.at(ref).tip() for ref in store.shared_refs()}
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
            if mark is not None and (there is None or not store.descends(mark, there)):
                return f"{remote}'s {ref} no longer descends from the last tip seen there"
            if there is not None and not store.descends(there, tips[ref] or there):
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
        say(f"memory not pushed to {remote}: {masked(problems[0])}", store, remote)
    bad = sum(len(r.quarantined) for r in report.refs)
    if bad:
        say(
            f"{bad} path(s) from {remote} fail their checks: quarantined (`gitmem status`)",
            store,
            remote,
        )


def _push_to_url(store: Store, url: str, log: Any, source: str) -> None:
    from gitmem.store.pushing import push_refs

    refs = store.shared_refs()
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
        say(f"memory not pushed to {masked(url)}: {masked(refused[0])}", store, url)


def say(line: str, store: Store | None = None, remote: str | None = None) -> None:
    """One line on stderr, which git shows the user; with *store* and *remote*, kept
    for the next push's foreground to say (a detached carry's stderr goes nowhere).
    Raises nothing."""
    with contextlib.suppress(OSError, ValueError):
        print(f"gitmem: {line}", file=sys.stderr, flush=True)
    if store is not None and remote is not None:
        _untold(store, lambda lines: lines.setdefault(remote, []).append(line))


def _tell(store: Store, remote: str) -> None:
    """Say (once) what the last carries to *remote* kept to be said. Raises nothing."""
    if not (store.local_dir / UNTOLD_FILE).exists():
        return  # the usual case: one stat, no lock
    told: list[str] = []
    _untold(store, lambda lines: told.extend(lines.pop(remote, [])))
    for line in told:
        say(line)


def _untold(store: Store, change: Callable[[dict[str, list[str]]], object]) -> None:
    """Apply *change* to the lines kept for each remote (``untold.json``), under a lock
    (the foreground and a carry may both write). Raises nothing."""
    from gitmem.store.files import locked

    path = store.local_dir / UNTOLD_FILE
    with contextlib.suppress(GitmemError, OSError), locked(store.local_dir, UNTOLD_LOCK):
        data = read_state(path, max_depth=3)
        lines: dict[str, list[str]] = {
            str(k): [str(x) for x in v][-_KEEP:]
            for k, v in (data.items() if isinstance(data, dict) else ())
            if isinstance(v, list)
        }
        change(lines)
        lines = {k: v[-_KEEP:] for k, v in lines.items() if v}
        if lines:
            write_state(path, lines, sort_keys=True)
        else:
            path.unlink(missing_ok=True)


UNTOLD_LOCK = "untold.lock"
_KEEP = 5
"""Lines kept per remote: the last ones."""


def last_pushes(local_dir: Path) -> dict[str, dict[str, Any]]:
    """When memory was last pushed to each remote by this hook, and which tips. Raises
    nothing (an unreadable file: none recorded)."""
    data = read_state(local_dir / PUSHES_FILE, max_depth=4)
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
    with contextlib.suppress(OSError):
        write_state(
            store.local_dir / PUSHES_FILE, {"version": 1, "remotes": pushes}, sort_keys=True
        )
