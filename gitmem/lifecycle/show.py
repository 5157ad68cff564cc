"""``gitmem show ID``: an item's whole history — origin, sightings, corroborations, events,
and whether each record behind it verified. A forgotten item's text is never shown."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gitmem.core.integrity import RecordCheck
from gitmem.core.records import Checkpoint
from gitmem.core.shown import shown_quote_line, shown_text_line
from gitmem.lifecycle.recheck import checked_now
from gitmem.lifecycle.replay import current_status
from gitmem.lifecycle.workspace import MIN_PREFIX, Workspace
from gitmem.store.repo import Store

FORGOTTEN = "[forgotten]"


def show(store: Store, home: Path, prefix: str) -> dict[str, Any]:
    """The history of one item, every receipt behind it verified in full.

    Raises:
        InputError: an unknown or ambiguous id.
    """
    ws = Workspace(store, home)
    purged = purged_report(ws, prefix)
    if purged is not None:
        return purged
    state = ws.item(prefix)
    forgotten = state.forgotten
    item = state.item
    addresses = [
        state.origin_checkpoint,
        *(s.checkpoint for s in state.sightings),
        *(a for a, _ in state.events),
    ]
    checks = checked_now(store, ws.roots, addresses)
    origin = _record(checks, state.origin_checkpoint)
    return {
        "id": item.id,
        "kind": item.kind,
        "text": FORGOTTEN if forgotten else item.text,
        "quote": None if forgotten else state.quote,
        "captured_trust": item.trust,
        "trust": state.trust,
        "status": current_status(state),
        "open": state.active,
        "resolved": state.resolved,
        "forgotten": forgotten,
        "superseded_by": state.superseded_by,
        "likely_superseded_by": state.likely_superseded_by,
        "carried": state.carried,
        "corroboration": state.corroboration,
        "origin": {
            "session": item.origin_session,
            "checkpoint": state.origin_checkpoint,
            "created": state.first_seen,
            "writer": origin.writer if isinstance(origin, Checkpoint) else None,
            "quote_reason": None if forgotten else item.quote_reason,
        },
        "sightings": [
            {
                "checkpoint": s.checkpoint,
                "session": s.session,
                "snapshot": s.snapshot,
                "created": s.created,
            }
            for s in state.sightings
        ],
        "witnesses": [  # the JSON field's word for corroborations (kept: it is output)
            {
                "event": w.event,
                "session": w.session,
                "snapshot": w.snapshot,
                "created": w.created,
                "quote": None if forgotten else w.quote,
            }
            for w in state.corroborations
        ],
        "events": [_event(a, event, forgotten, item.id) for a, event in state.events],
        "receipts": [_receipt(checks, a) for a in dict.fromkeys(addresses)],
    }


def purged_report(ws: Workspace, prefix: str) -> dict[str, Any] | None:
    """What ``show`` says of a purged item (its id, who purged it, when, by which
    event; never its text), or None when *prefix* names no purged item alone. Raises
    GitError when the ref cannot be read."""
    if len(prefix) < MIN_PREFIX:
        return None
    memory = ws.matching(prefix)
    found = memory.find_purged(prefix)
    if len(found) != 1 or memory.find(prefix):
        return None
    address, mark = found[0]
    return {
        "id": address,
        "purged": True,
        "text": mark.label,
        "writer": mark.writer,
        "created": mark.created,
        "event": mark.address,
    }


def _record(checks: dict[str, RecordCheck], address: str) -> Any:
    check = checks.get(address)
    return None if check is None else check.record


def _event(address: str, event: Any, forgotten: bool, item_id: str) -> dict[str, Any]:
    extra = dict(event.extra)
    batch = extra.pop("items", None)
    if isinstance(batch, dict) and isinstance(batch.get(item_id), dict):
        extra.update(batch[item_id])  # this item's part of a status event about several
    if forgotten:
        extra = {
            k: ("[forgotten]" if k in ("note", "quote", "text", "evidence") else v)
            for k, v in extra.items()
        }
    return {
        "address": address,
        "event": event.event,
        "created": event.created,
        "writer": event.writer,
        "session": event.session,
        **extra,
    }


def _receipt(checks: dict[str, RecordCheck], address: str) -> dict[str, Any]:
    check = checks.get(address)
    if check is None:
        return {"record": address, "verified": False, "detail": "not in the store"}
    return {
        "record": address,
        "verified": check.ok,
        "detail": check.detail if check.ok else check.summary,
    }


def render(report: dict[str, Any]) -> str:
    """The human form of :func:`show`."""
    if report.get("purged"):
        return f"{report['id']}  {shown_text_line(report['text'])} (event {report['event'][:12]})\n"
    lines = [
        f"{report['id']}  {report['kind']}  [{report['trust']}]  {report['status']}"
        f"{'  (open)' if report['open'] else ''}",
        f"  {shown_text_line(report['text'])}",
    ]
    if report["quote"]:
        lines.append(f'  "{shown_quote_line(report["quote"])}"')
    origin = report["origin"]
    # What a record claims (its session, writer, an event's fields) is shown as an
    # item's text is: one line, no terminal escape.
    lines.append(
        shown_text_line(
            f"origin: session {origin['session']}, checkpoint {origin['checkpoint'][:12]}, "
            f"{origin['created']}, by {origin['writer']}"
        )
    )
    lines.append(
        f"sightings: {len(report['sightings'])}; corroboration ×"
        f"{report['corroboration']}; carried: {'yes' if report['carried'] else 'no'}"
    )
    for w in report["witnesses"]:  # "witness": this output's word for a corroboration (kept)
        said = shown_text_line(f"{w['session']} at {w['created']}")
        lines.append(f"  witness {said} (snapshot {w['snapshot'][:12]})")
    for e in report["events"]:
        detail = ", ".join(
            f"{k}={v}"
            for k, v in e.items()
            if k not in ("address", "event", "created", "writer", "session")
        )
        lines.append(
            shown_text_line(f"event {e['event']} {e['created']} by {e['writer']}: {detail}")
        )
    bad = [r for r in report["receipts"] if not r["verified"]]
    lines.append(
        f"receipts: {len(report['receipts']) - len(bad)} verified"
        + (f", {len(bad)} FAILED" if bad else "")
    )
    lines += [f"  ✗ {r['record'][:12]}: {r['detail']}" for r in bad]
    return "\n".join(lines) + "\n"
