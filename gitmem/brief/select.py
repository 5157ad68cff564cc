"""Select what the brief shows, after checking every record behind it.

Read-only. Every record is verified in full (address, receipt signature over the
exact bytes, trusted key) on every brief; the verified ones are replayed into item
state (:mod:`gitmem.lifecycle.replay`), and the text rendered comes from those same bytes.
A record that fails is never dropped: its items are shown degraded (unless a genuine
copy of the same item exists), and a warning names it.

Four axes, never mixed: the trust class (how it was captured), corroboration
(independent sessions), world-check (the world agreed during this brief) and the
epistemic status. A contradiction on any axis suppresses the positive badges.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gitmem.core.integrity import RecordCheck, TrustRoots
from gitmem.core.records import Checkpoint, Item, sortable_time
from gitmem.core.types import Sha256Hex
from gitmem.lifecycle.memory import VerifiedMemory
from gitmem.lifecycle.replay import ItemState, current_status

NO_VERIFIED_QUOTE = "no verified quote"

SECTIONS = (
    ("verify", "VERIFY BEFORE TRUSTING"),
    ("decision", "DECISIONS"),
    ("open_loop", "OPEN LOOPS"),
    ("belief", "BELIEFS"),
    ("uncertainty", "UNCERTAINTIES"),
    ("fact", "FACTS"),
)

# State that can change outside a session: PRs, branches, files, keys, deploys.
_EXTERNAL_STATE = re.compile(
    r"\b(?:PR|MR|pull request|merge request|issue)\s*#?\d+|#\d+\b|\bbranch(?:es)?\b|"
    r"\bmerged?\b|\bdeploy\w*|\brelease[sd]?\b|\b(?:api |ssh |signing )?keys?\b|\brotat\w+|"
    r"\bCI\b|\bpipeline\b|\bstaging\b|\bproduction\b|\bprod\b|"
    r"\w\.(?:py|js|ts|go|rs|md|json|toml|ya?ml|cfg|ini|sh)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class WorldView:
    """What the world said about one item during this brief."""

    status: str | None  # "confirmed" | "contradicted" | None
    summary: str | None  # what changed, for the ⚠ line
    hint: str | None  # the command that resolves or reopens it


WorldProbe = Callable[[ItemState], WorldView | None]


@dataclass(frozen=True)
class BriefItem:
    id: str
    kind: str
    text: str
    quote: str | None
    captured_trust: str
    trust: str
    degraded_reason: str | None
    degraded_label: str | None
    section: str
    origin_session: str
    checkpoint: str
    created: str
    writer: str
    importance: int
    carried: bool = False
    corroboration: int = 1
    world: WorldView | None = None
    status: str = "INFERRED"
    contradiction: str | None = None
    """What contradicts the item right now (a note, a likely superseder, the world)."""

    @property
    def world_check(self) -> str | None:
        return None if self.world is None else self.world.status

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "section": self.section,
            "text": self.text,
            "quote": self.quote,
            "captured_trust": self.captured_trust,
            "trust": self.trust,
            "degraded_reason": self.degraded_reason,
            "carried": self.carried,
            "corroboration": self.corroboration,
            "world_check": self.world_check,
            "status": self.status,
            "contradiction": self.contradiction,
            "origin_session": self.origin_session,
            "checkpoint": self.checkpoint,
            "created": self.created,
            "writer": self.writer,
        }


@dataclass(frozen=True)
class BriefWarning:
    code: str
    message: str
    path: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "path": self.path}


@dataclass(frozen=True)
class Brief:
    items: tuple[BriefItem, ...]
    warnings: tuple[BriefWarning, ...]
    checkpoints: int
    verified: int
    failed: int
    latest: str | None
    stale: int = 0
    """Open items that aged out (not shown; `gitmem show` has them)."""


def build_brief(
    loaded: VerifiedMemory, roots: TrustRoots, world: WorldProbe | None = None
) -> Brief:
    """Turn the checked, replayed store into brief items, ranked."""
    warnings: list[BriefWarning] = []
    shown: dict[str, BriefItem] = {}
    state = loaded.state
    for item_state in state.items.values():
        if item_state.current:
            shown[item_state.id] = _from_state(item_state, loaded, world)
    records = loaded.contents.records
    checkpoints = [r for r in records if r.type == "checkpoint"]
    verified = sum(1 for r in checkpoints if loaded.checks[r.address].ok)
    for stored, check in loaded.failed():
        warnings.append(_failure_warning(check, stored.path, stored.type))
        record = check.record
        if isinstance(record, Checkpoint):
            for item in record.items:
                if item.id not in state.items:  # a genuine copy always wins
                    shown.setdefault(item.id, _degraded(item, record, check))
    for root in roots.signers:
        for problem in root.problems:
            warnings.append(BriefWarning("trust-root", f"{root.source}: {problem}", root.source))
    for stray in loaded.contents.strays:
        warnings.append(
            BriefWarning("stray-path", f"{stray} does not belong in the memory store layout", stray)
        )
    latest = max((s.last_seen for s in state.items.values()), default=None)
    stale = sum(1 for s in state.items.values() if s.active and not s.current)
    # Newest first; a higher importance first within that (sorts are stable). Corroboration
    # never enters the ranking.
    items = sorted(shown.values(), key=lambda i: (i.created, i.id), reverse=True)
    items.sort(key=lambda i: -i.importance)
    return Brief(
        tuple(items),
        tuple(warnings),
        len(checkpoints),
        verified,
        len(checkpoints) - verified,
        latest,
        stale,
    )


def _from_state(state: ItemState, loaded: VerifiedMemory, world: WorldProbe | None) -> BriefItem:
    item = state.item
    label, reason = _claim_problem(state)
    origin = loaded.checks.get(Sha256Hex(state.origin_checkpoint))
    record = origin.record if origin is not None else None
    view = world(state) if world is not None and label is None else None
    contradiction = _contradiction(state, view)
    return BriefItem(
        id=item.id,
        kind=item.kind,
        text=item.text,
        quote=None if label else state.quote,
        captured_trust=item.trust,
        trust="untagged" if label else state.trust,
        degraded_reason=reason,
        degraded_label=label,
        section=_section(item),
        origin_session=item.origin_session,
        checkpoint=state.origin_checkpoint,
        created=state.last_seen,
        writer=record.writer if isinstance(record, Checkpoint) else "",
        importance=_importance(item),
        carried=state.carried,
        corroboration=state.corroboration,
        world=view,
        status="QUARANTINED" if label else current_status(state),
        contradiction=contradiction,
    )


def _claim_problem(state: ItemState) -> tuple[str | None, str | None]:
    """A genuine record can still claim verbatim without a verified quote (another tool,
    a bug): the badge is earned by the quote, never by the claim."""
    if state.trust == "verbatim" and not state.quote:
        return NO_VERIFIED_QUOTE, (
            f"{NO_VERIFIED_QUOTE}: the record claims verbatim but stores no verified quote"
        )
    return None, None


def _contradiction(state: ItemState, view: WorldView | None) -> str | None:
    if state.likely_superseded_by is not None:
        return f"likely superseded by {state.likely_superseded_by[:8]}"
    if state.notes:
        return f"state changed: {state.notes[-1]}"
    if view is not None and view.status == "contradicted":
        return view.summary or "the world disagrees"
    return None


def _degraded(item: Item, record: Checkpoint, check: RecordCheck) -> BriefItem:
    return BriefItem(
        id=item.id,
        kind=item.kind,
        text=item.text,
        quote=None,  # nothing in a failed record is trusted: not its trust, not its quote
        captured_trust=item.trust,
        trust="untagged",
        degraded_reason=f"{check.problem}: {check.detail}",
        degraded_label=check.problem,
        section=_section(item),
        origin_session=item.origin_session,
        checkpoint=check.address,
        created=sortable_time(record.created),
        writer=record.writer,
        importance=_importance(item),
        corroboration=0,
        status="QUARANTINED",
    )


def _importance(item: Item) -> int:
    value = item.extra.get("importance")
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _section(item: Item) -> str:
    external = item.extra.get("external_state")
    if external is True or item.extra.get("claims"):
        return "verify"
    if external is None and _EXTERNAL_STATE.search(f"{item.text}\n{item.quote or ''}"):
        return "verify"
    return item.kind


def _failure_warning(check: RecordCheck, path: str, kind: str) -> BriefWarning:
    if kind != "checkpoint":
        shown = "it is not applied"
    elif isinstance(check.record, Checkpoint):
        shown = f"its {len(check.record.items)} item(s) are shown degraded, never as verbatim"
    else:
        shown = "its items cannot be read"
    return BriefWarning(
        check.problem or "record-failed",
        f"{kind} {check.address[:12]} failed verification ({check.problem}: "
        f"{check.detail}); {shown}. Run `gitmem verify` for details.",
        path,
    )
