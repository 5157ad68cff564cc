"""``gitmem status``: is this repository's memory set up, and is it working?

Key and trust roots, hooks, the store, the last capture and recent failures (the
capture log is where hooks report, since they never print into a git command), and the
background captures in flight or dead (their markers, :mod:`gitmem.hooks.inflight`).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from gitmem.core.errors import GitmemError
from gitmem.core.integrity import TrustRoots
from gitmem.core.shown import shown_text_line
from gitmem.hooks import inflight
from gitmem.lifecycle.fetched import with_fetched
from gitmem.lifecycle.head import open_if_quick, stored_records
from gitmem.setup.travel import remotes_report, render_remotes
from gitmem.store.capturelog import CaptureLog, LogEntry
from gitmem.store.config import load_settings
from gitmem.store.keys import load_identity
from gitmem.store.quarantine import how_many, let_go, quarantined
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots

RECENT_FAILURES = 5


def collect(store: Store, home: Path) -> dict[str, Any]:
    """Everything status reports, as JSON-ready data. Never raises on a broken part:
    the part says what is wrong instead."""
    report: dict[str, Any] = {"repository": str(store.repo.workdir or store.common_dir)}
    try:
        identity = load_identity(home)
        report["key"] = {
            "principal": identity.principal,
            "fingerprint": identity.signer.public_key.fingerprint(),
            "path": str(identity.key_path),
        }
    except GitmemError as e:
        report["key"] = {"error": str(e)}
    roots = load_trust_roots(home, store)
    report["trust_branch"] = roots.branch
    report["trust_roots"] = [
        {"source": r.source, "entries": len(r.entries), "problems": list(r.problems)}
        for r in roots.signers
    ]
    report["trust_notices"] = list(roots.notices)
    report["revocation_problems"] = list(roots.revoked.problems)
    try:
        settings = load_settings(home, store.local_dir)
        report["extractor"] = settings.get("extractor")
    except GitmemError as e:
        report["extractor"] = None
        report["config_error"] = str(e)
    report["hooks"] = _hooks(store)
    report["agents"] = _agents(store)
    report["store"] = _store(store, roots)
    report["remotes"] = remotes_report(store, roots)
    report["quarantined"] = quarantined(store.local_dir)
    report["quarantined_let_go"] = let_go(store.local_dir)
    log = CaptureLog(store.local_dir)
    entries = log.entries()
    last_ok = next((e for e in entries if e.outcome == "ok"), None)
    report["last_capture"] = (
        None
        if last_ok is None
        else {"time": last_ok.time, "source": last_ok.source, **dict(last_ok.detail)}
    )
    report["last_model_run"] = last_model_run(entries)
    background = _background(store)
    died = [
        {"time": b["since"], "source": f"{b['hook']} {b['sha'][:12]}", "error": inflight.DIED}
        for b in background
        if b["state"] == inflight.MarkerState.DIED
    ]
    report["background"] = background
    report["recent_failures"] = (
        died
        + [
            {"time": e.time, "source": e.source, "error": e.error}
            for e in entries
            if e.outcome == "failed"
        ]
    )[:RECENT_FAILURES]
    return report


def _store(store: Store, roots: TrustRoots) -> dict[str, Any]:
    """What the store holds: from its index when that is whole or cheap to make whole;
    else counted from the tip's tree while the index is built in the background
    (``read_model`` "building": how many items are current and how many records fail
    verification are known once it is done)."""
    store = with_fetched(store, roots)  # the view every reader reads: one index, not two
    index = open_if_quick(store, roots)
    if index is None:
        return {
            "ref": store.ref,
            "tip": store.tip(),
            "records": stored_records(store),
            "failed_records": None,
            "items": store.count("items"),
            "current_items": None,
            "snapshots": store.count("snapshots"),
            "read_model": "building",
        }
    with index:
        return {
            "ref": store.ref,
            "tip": index.tip,
            **index.totals(),
            "snapshots": store.count("snapshots"),
            # A JSON field of status: it keeps the index's former name.
            "read_model": "rebuilt" if index.rebuilt else "current",
        }


def last_model_run(entries: list[LogEntry]) -> dict[str, Any] | None:
    """The newest capture that asked a host CLI's model: when, which, what it cost, and
    why it fell back to the heuristic (None: none logged). Raises nothing."""
    for entry in entries:
        if entry.outcome == "ok" and "model_usage" in entry.detail:
            detail = entry.detail
            return {
                "time": entry.time,
                "source": entry.source,
                "extractor": detail.get("extractor"),
                "usage": detail.get("model_usage"),
                "fallback": detail.get("fallback"),
                "heuristic_windows": detail.get("heuristic_windows"),
            }
    return None


def describe_run(run: dict[str, Any]) -> str:
    """One line for a :func:`last_model_run`. Raises nothing."""
    found = run.get("usage")
    usage: dict[str, Any] = found if isinstance(found, dict) else {}

    def count(key: str) -> str:
        return f"{usage.get(key, 0):,}"

    parts = [f"{count('calls')} call(s)", f"{usage.get('seconds', 0)} s"]
    parts.append(f"{count('input_bytes')} bytes in, {count('output_bytes')} out")
    if usage.get("input_tokens") or usage.get("output_tokens"):
        parts.append(f"{count('input_tokens')} tokens in, {count('output_tokens')} out")
    if usage.get("usd"):
        parts.append(f"${usage['usd']}")
    said = f"{run['time']} {', '.join(parts)}"
    read = run.get("heuristic_windows")
    if isinstance(read, int) and read > 0:
        why = run.get("fallback") or "host.calls"
        said += f"; the heuristic read {read} of its part(s) ({why})"
    elif run.get("fallback"):
        said += f"; fell back to the heuristic ({run['fallback']})"
    return said


_QUARANTINE_SHOWN = 10


def _background(store: Store) -> list[dict[str, Any]]:
    now = time.time()
    return [
        {
            "hook": m.hook,
            "sha": m.sha,
            "pid": m.pid,
            "since": datetime.fromtimestamp(m.since, UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "state": m.state(now),
        }
        for m in inflight.markers(store.local_dir)
    ]


def _hooks(store: Store) -> list[dict[str, Any]] | dict[str, str]:
    from gitmem.hooks.install import status as hook_states

    workdir = Path(store.repo.workdir or store.common_dir)
    try:
        return [
            {
                "name": h.name,
                "installed": h.installed,
                "ours": h.ours,
                "foreign": None if h.foreign is None else str(h.foreign),
            }
            for h in hook_states(workdir)
        ]
    except GitmemError as e:
        return {"error": str(e)}


def _agents(store: Store) -> dict[str, bool]:
    from gitmem.agents.hosts import AGENTS, agent_status

    workdir = Path(store.repo.workdir or store.common_dir)
    found: dict[str, bool] = {}
    for name in AGENTS:
        try:
            found[name] = agent_status(name, workdir)
        except GitmemError:
            found[name] = False
    return found


def render_text(report: dict[str, Any]) -> str:
    """The human form of :func:`collect`'s report."""
    lines = [f"repository: {report['repository']}"]
    key = report["key"]
    lines.append(
        f"key: {key['principal']} {key['fingerprint']}"
        if "fingerprint" in key
        else f"key: none — {key['error']}"
    )
    for root in report["trust_roots"] or [
        {"source": "no trust root", "entries": 0, "problems": []}
    ]:
        lines.append(f"trust root: {root['source']} ({root['entries']} key(s))")
        lines += [f"  ⚠ {p}" for p in root["problems"]]
    lines += [
        f"  ⚠ {p}: whatever key it meant to revoke is not revoked"
        for p in report["revocation_problems"]
    ]
    lines.append(f"trust branch: {report['trust_branch'] or 'none'}")
    lines += [f"  ⚠ {n}" for n in report["trust_notices"]]
    lines.append(f"extractor: {report['extractor'] or 'unknown (the config is not usable)'}")
    if "config_error" in report:
        lines.append(f"  ⚠ {report['config_error']}")
    hooks = report["hooks"]
    if isinstance(hooks, dict):
        lines.append(f"hooks: {hooks['error']}")
    else:
        mine = [h["name"] for h in hooks if h["ours"]]
        shown = ", ".join(mine) if mine else "not installed (`gitmem hooks install`)"
        lines.append(f"git hooks: {shown}")
    agents = [name for name, on in report["agents"].items() if on]
    lines.append(f"agent hooks: {', '.join(agents) if agents else 'none'}")
    store = report["store"]
    if store["tip"] is None:
        lines.append("store: empty (nothing captured yet)")
    else:
        failing = (
            f", {store['failed_records']} failing verification" if store["failed_records"] else ""
        )
        current = "" if store["current_items"] is None else f" ({store['current_items']} current)"
        lines.append(
            f"store: {store['records']} record(s){failing}, {store['items']} item(s)"
            f"{current}, {store['snapshots']} snapshot(s) at {store['tip'][:12]}"
        )
        if store["read_model"] == "building":
            lines.append(
                "  its index is being built in the background (`gitmem hook index`): how "
                "many items are current and how many records fail verification, once it is done"
            )
    lines += render_remotes(report["remotes"])
    bad = report["quarantined"]
    if bad:
        count = how_many(len(bad), report["quarantined_let_go"])
        lines.append(f"quarantined: {count} path(s) a sync took that fail their checks")
        # A path and an author are what a push claims: one line each, no terminal escape.
        lines += [
            "  ⚠ "
            + shown_text_line(
                f"{q['path']}: {q['problem']} (from {q['remote']}"
                + ("" if q["commit"] is None else f", added in {q['commit'][:12]} by {q['author']}")
                + ")"
            )
            for q in bad[-_QUARANTINE_SHOWN:]
        ]
    last = report["last_capture"]
    # The capture log holds what hook input named (a transcript path) and what failed
    # with it: one line each, no terminal escape (a host's input is not trusted).
    lines.append(
        "last capture: none"
        if last is None
        else "last capture: " + shown_text_line(f"{last['time']} {last['source']}")
    )
    if report["last_model_run"] is not None:
        lines.append(f"last model run: {shown_text_line(describe_run(report['last_model_run']))}")
    running = [b for b in report["background"] if b["state"] == inflight.MarkerState.RUNNING]
    if running:
        lines.append(f"background captures running: {len(running)}")
    failures = report["recent_failures"]
    lines.append(f"recent failures: {len(failures) or 'none'}")
    lines += [
        "  ✗ " + shown_text_line(f"{f['time']} {f['source']}: {f['error']}") for f in failures
    ]
    return "\n".join(lines) + "\n"
