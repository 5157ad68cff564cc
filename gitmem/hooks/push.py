"""The pre-push hook: memory goes with the push."""

from __future__ import annotations

from gitmem.hooks.run import masked
from gitmem.store.repo import Store


def pre_push(store: Store, remote: str, url: str) -> None:
    """When ``sync_on_push`` is set, sync memory with the remote being pushed to:
    fetch, check, union-merge, push (never forced). Only named remotes sync, since
    their tracking refs need a name."""
    from gitmem.store.config import load_settings
    from gitmem.store.home import gitmem_home

    home = gitmem_home()
    if not load_settings(home, store.local_dir).get("sync_on_push"):
        return
    from gitmem.store.capturelog import CaptureLog
    from gitmem.store.keys import read_config
    from gitmem.team.sync import sync

    log = CaptureLog(store.local_dir)
    if remote not in store.repo.remotes.names():
        log.write("skipped", f"pre-push {remote}", url=masked(url), reason="not a named remote")
        return
    author = read_config(home).get("principal") or "gitmem"
    report = sync(store, remote, home, author)
    problems = [r.problem for r in report.refs if r.problem]
    log.write(
        "ok" if report.ok else "failed",
        f"pre-push {remote}",
        url=masked(url),
        merged=sum(r.new_records for r in report.refs),
        pushed=[r.ref for r in report.refs if r.pushed],
        error=masked("; ".join(problems)[:500]) if problems else None,
    )
