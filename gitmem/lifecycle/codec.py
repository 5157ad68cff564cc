"""Replayed item state as JSON-ready values, and back: how the index keeps it. Pure.

Everything an :class:`~gitmem.lifecycle.replay.ItemState` holds is written except the
item itself, which is stored once as its blob and named here by address, and its events,
which are records the index holds anyway and are named here by address too; the caller
hands the :class:`~gitmem.core.items.Item` and the events back when decoding (an event
about several items applies to this one by its own part, as replay applied it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gitmem.core.items import Item, Trust
from gitmem.core.records import Event
from gitmem.lifecycle.governance.status import Status
from gitmem.lifecycle.replay import Corroboration, ItemState, QuoteSource, Sighting

_VERSION = 5


def encode_state(state: ItemState) -> dict[str, Any]:
    """*state* as JSON-ready values (the item by its address). Raises nothing."""
    return {
        "v": _VERSION,
        "item": state.item.address,
        "origin_checkpoint": state.origin_checkpoint,
        "origin_snapshot": state.origin_snapshot,
        "first_seen": state.first_seen,
        "latest_checkpoint": state.latest_checkpoint,
        "last_seen": state.last_seen,
        "sightings": [
            [s.checkpoint, s.session, s.snapshot, s.created, s.branch, s.commit]
            for s in state.sightings
        ],
        "witnesses": [  # the stored key's word for corroborations (the format: kept)
            [w.event, w.session, w.snapshot, w.created, w.quote] for w in state.corroborations
        ],
        "events": [address for address, _ in state.events],
        "carried": state.carried,
        "carry_count": state.carry_count,
        "latest_time": state.latest_time,
        "unseen_in": list(state.unseen_in),
        "seen_session": state.seen_session,
        "resolved": state.resolved,
        "forgotten": state.forgotten,
        "superseded_by": state.superseded_by,
        "likely_superseded_by": state.likely_superseded_by,
        "notes": list(state.notes),
        "status": state.status,
        "trust_override": None if state.trust_override is None else list(state.trust_override),
        "last_contradiction": state.last_contradiction,
        "origin_source": _source(state.origin_source),
        "evidence_source": _source(state.evidence_source),
    }


def event_addresses(data: dict[str, Any]) -> list[str]:
    """The addresses of the events a state :func:`encode_state` wrote names (for the
    caller to look up before :func:`decode_state`). Raises nothing."""
    events = data.get("events")
    return [a for a in events if isinstance(a, str)] if isinstance(events, list) else []


def decode_state(data: dict[str, Any], item: Item, events: Mapping[str, Event]) -> ItemState:
    """The state :func:`encode_state` wrote, for *item*, its events looked up by address
    in *events*.

    Raises:
        ValueError, KeyError, TypeError: *data* was not written by :func:`encode_state`
            of this version, or names an event *events* lacks or one not about *item*
            (the index then rebuilds itself).
    """
    if data.get("v") != _VERSION or data["item"] != item.address:
        raise ValueError("item state from another version or another item")
    override = data["trust_override"]
    return ItemState(
        item=item,
        origin_checkpoint=data["origin_checkpoint"],
        origin_snapshot=data["origin_snapshot"],
        first_seen=data["first_seen"],
        latest_checkpoint=data["latest_checkpoint"],
        last_seen=data["last_seen"],
        sightings=[Sighting(*s) for s in data["sightings"]],
        corroborations=[Corroboration(*w) for w in data["witnesses"]],
        events=[(address, _event_for(events[address], item)) for address in data["events"]],
        carried=bool(data["carried"]),
        carry_count=int(data["carry_count"]),
        latest_time=str(data["latest_time"]),
        unseen_in=[str(s) for s in data["unseen_in"]],
        seen_session=str(data["seen_session"]),
        resolved=bool(data["resolved"]),
        forgotten=bool(data["forgotten"]),
        superseded_by=data["superseded_by"],
        likely_superseded_by=data["likely_superseded_by"],
        notes=list(data["notes"]),
        status=None if data["status"] is None else Status(data["status"]),
        trust_override=None if override is None else (Trust(override[0]), override[1]),
        last_contradiction=data["last_contradiction"],
        origin_source=_read_source(data["origin_source"]),
        evidence_source=_read_source(data["evidence_source"]),
    )


def _event_for(event: Event, item: Item) -> Event:
    view = event.part_for(item.address)
    if view is None:
        raise ValueError("an item state names an event not about its item")
    return view


def _source(source: QuoteSource | None) -> list[str | None] | None:
    return None if source is None else [source.snapshot, source.format, source.name]


def _read_source(data: list[str | None] | None) -> QuoteSource | None:
    if data is None:
        return None
    snapshot, fmt, name = data
    if snapshot is None or name is None:
        raise ValueError("a quote source names its snapshot and its file")
    return QuoteSource(snapshot, fmt, name)
