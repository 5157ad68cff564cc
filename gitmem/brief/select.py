"""Select what the brief shows, from memory whose every record was checked.

Pure: replayed item state (:mod:`gitmem.lifecycle.replay`), the verdict on every record
and what the world said in, ranked brief items out; :mod:`gitmem.brief.emit` reads and
verifies. The text rendered comes from the verified bytes. A record that fails is never
dropped: its items are shown degraded (unless a genuine copy of the same item exists),
and a warning names it.

Four axes, never mixed: the trust class (how it was captured), corroboration
(independent sessions), world-check (the world agreed during this brief) and the
epistemic status. A contradiction on any axis suppresses the positive badges.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from gitmem.brief.placement import Placement, age_label, hidden_notice
from gitmem.core.claims import WorldStatus, mentions_external_state
from gitmem.core.integrity import RecordCheck, describe
from gitmem.core.items import Item, Kind, Trust
from gitmem.core.records import Checkpoint, sortable_time
from gitmem.core.types import Sha256Hex
from gitmem.lifecycle.governance.status import Status
from gitmem.lifecycle.index import FailedItem, FailedRecord
from gitmem.lifecycle.replay import ItemState, MemoryState, current_status

if TYPE_CHECKING:
    from gitmem.store.asof import AsOf

NO_VERIFIED_QUOTE = "no verified quote"

SECTIONS = (
    ("verify", "VERIFY BEFORE TRUSTING"),
    (Kind.DECISION, "DECISIONS"),
    (Kind.OPEN_LOOP, "OPEN LOOPS"),
    (Kind.BELIEF, "BELIEFS"),
    (Kind.UNCERTAINTY, "UNCERTAINTIES"),
    (Kind.FACT, "FACTS"),
)


class WorldView(NamedTuple):
    """What the world said about one item during this brief."""

    status: str | None  # "confirmed" | "contradicted" | None
    summary: str | None  # what changed, for the ⚠ line
    hint: str | None  # the command that resolves or reopens it


WorldProbe = Callable[[ItemState], WorldView | None]


class BriefItem(NamedTuple):
    id: str
    kind: Kind
    text: str
    quote: str | None
    captured_trust: Trust
    trust: Trust
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
    status: Status = Status.INFERRED
    contradiction: str | None = None
    """What contradicts the item right now (a note, a likely superseder, the world)."""
    age: int | None = None
    """Seconds since its session last said it (None: not placed in time)."""
    branch: str | None = None
    """The branch it was captured on, when that work is not in the current branch."""
    branch_deleted: bool = False

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
            "age": None if self.age is None else age_label(self.age),
            "branch": self.branch,
        }


class BriefWarning(NamedTuple):
    code: str
    """The cause: a check's label ("record edited", "untrusted key", …), "trust-root",
    "trust-branch" or "stray-path"."""
    message: str
    path: str | None = None
    record: str | None = None
    """The failed record's address, for a record that failed its check."""
    writer: str | None = None
    key: str | None = None
    created: str | None = None
    detail: str | None = None
    """The check's own sentence, for a record that failed its check."""

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "path": self.path}


class PurgedItem(NamedTuple):
    """An item the newest checkpoint names that a trusted purge removed: it renders as
    ``[purged by WRITER on DATE]``, never with its text (nothing of it is left)."""

    id: str
    label: str
    event: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "purged": self.label, "event": self.event}


class Brief(NamedTuple):
    items: tuple[BriefItem, ...]
    warnings: tuple[BriefWarning, ...]
    checkpoints: int
    verified: int
    failed: int
    latest: str | None
    stale: int = 0
    """Open items that aged out (not shown; `gitmem show` has them)."""
    purged: tuple[PurgedItem, ...] = ()
    as_of: AsOf | None = None
    """The moment this is memory as of (None: as it is now)."""
    stored: int | None = None
    """Set when the index was not whole yet: how many checkpoints the store holds, of
    which it was read from the newest :attr:`checkpoints` (:mod:`gitmem.lifecycle.head`)."""


def build_brief(
    state: MemoryState,
    checks: Mapping[Sha256Hex, RecordCheck],
    checkpoints: int,
    failed: Sequence[FailedRecord] = (),
    notices: Sequence[BriefWarning] = (),
    world: WorldProbe | None = None,
    failed_items: Sequence[FailedItem] = (),
    stale: int | None = None,
    latest: str | None = None,
    placement: Placement | None = None,
    only_current: bool = True,
) -> Brief:
    """Turn replayed state into brief items, ranked. *checks* holds the verdict on every
    record, *checkpoints* counts the stored checkpoints, *failed* lists the records that
    failed (their items shown degraded), *notices* are warnings found while reading;
    with a *placement*, every line gets its age and other branches' lines their branch
    (:mod:`gitmem.brief.placement`). Only the current items of *state* are shown, unless
    not *only_current* (a review shows what a range captured, resolved or not). Raises
    nothing."""
    warnings: list[BriefWarning] = []
    shown: dict[str, BriefItem] = {}
    hidden: dict[str, int] = {}
    for item_state in state.items.values():
        if only_current and not item_state.current:
            continue
        line = _from_state(item_state, checks, world)
        if placement is not None:
            where = placement.locate(item_state)
            if where.hidden and where.place is not None:
                hidden[where.place.branch] = hidden.get(where.place.branch, 0) + 1
                continue
            line = line._replace(
                age=where.age,
                branch=None if where.place is None else where.place.branch,
                branch_deleted=where.place is not None and where.place.deleted,
            )
        shown[item_state.id] = line
    if hidden and placement is not None:
        notice = hidden_notice(hidden, placement.hide_after_days)
        warnings.append(BriefWarning("unmerged-branch", notice))
    for failure in failed:
        check = failure.check
        warnings.append(_failure_warning(failure))
        record = check.record
        if isinstance(record, Checkpoint):
            for item in failure.items:
                if item.id not in state.items and item.id not in shown:  # a genuine copy wins
                    shown[item.id] = _degraded(item, record, check.address, check)
    for bad in failed_items:
        if bad.check.address in state.purged:
            continue  # removed on purpose by a purge this reader trusts: not a failure
        problem = bad.check.problem or "item failed"
        label = RecordCheck(bad.check.address, problem, bad.check.detail, None)
        warnings.append(
            BriefWarning(
                problem,
                f"item {bad.check.address[:12]} named by checkpoint {bad.checkpoint[:12]} "
                f"failed verification ({label.summary}); it is shown degraded, never as "
                "verbatim. Run `gitmem verify` for details.",
                record=bad.checkpoint,
                writer=bad.record.writer,
                key=bad.record.key,
                created=sortable_time(bad.record.created),
                detail=bad.check.detail,
            )
        )
        if bad.check.address not in state.items:
            shown.setdefault(bad.check.address, _degraded_blob(bad, label))
    warnings += notices
    verified = checkpoints - sum(1 for f in failed if f.type == "checkpoint")
    if latest is None:
        latest = max((s.last_seen for s in state.items.values()), default=None)
    if stale is None:
        stale = sum(1 for s in state.items.values() if s.active and not s.current)
    # Newest first; a higher importance first within that (sorts are stable). Corroboration
    # never enters the ranking.
    # Then the current branch's lines before other branches'.
    items = sorted(shown.values(), key=lambda i: (i.created, i.id), reverse=True)
    items.sort(key=lambda i: -i.importance)
    items.sort(key=lambda i: i.branch is not None)
    return Brief(
        tuple(items),
        tuple(warnings),
        checkpoints,
        verified,
        checkpoints - verified,
        latest,
        stale,
        _purged(state, checks),
    )


def _purged(state: MemoryState, checks: Mapping[Sha256Hex, RecordCheck]) -> tuple[PurgedItem, ...]:
    """The purged items the newest checkpoint still names, each by a purge event that
    holds: where they would have been current, they render as purged (after the next
    capture, which cannot carry them, they are gone from the brief; `gitmem show ID`
    still says who purged them)."""
    latest = state.latest_checkpoint
    newest = None if latest is None else checks.get(Sha256Hex(latest))
    record = None if newest is None or not newest.ok else newest.record
    if not isinstance(record, Checkpoint):
        return ()
    shown = []
    for address in dict.fromkeys(record.named):
        mark = state.purged.get(address)
        event = None if mark is None else checks.get(mark.address)
        if mark is not None and event is not None and event.ok:
            shown.append(PurgedItem(address, mark.label, mark.address))
    return tuple(shown)


def _from_state(
    state: ItemState, checks: Mapping[Sha256Hex, RecordCheck], world: WorldProbe | None
) -> BriefItem:
    item = state.item
    label, reason = _claim_problem(state)
    origin = checks.get(Sha256Hex(state.origin_checkpoint))
    record = origin.record if origin is not None else None
    view = world(state) if world is not None and label is None else None
    contradiction = _contradiction(state, view)
    return BriefItem(
        id=item.id,
        kind=item.kind,
        text=item.text,
        quote=None if label else state.quote,
        captured_trust=item.trust,
        trust=Trust.UNTAGGED if label else state.trust,
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
        status=Status.QUARANTINED if label else current_status(state),
        contradiction=contradiction,
    )


def _claim_problem(state: ItemState) -> tuple[str | None, str | None]:
    """A genuine record can still claim verbatim without a verified quote (another tool,
    a bug): the badge is earned by the quote, never by the claim."""
    if state.trust == Trust.VERBATIM and not state.quote:
        return NO_VERIFIED_QUOTE, (
            f"{NO_VERIFIED_QUOTE}: the record claims verbatim but stores no verified quote"
        )
    return None, None


def _contradiction(state: ItemState, view: WorldView | None) -> str | None:
    if state.likely_superseded_by is not None:
        return f"likely superseded by {state.likely_superseded_by[:8]}"
    if state.notes:
        return f"state changed: {state.notes[-1]}"
    if view is not None and view.status == WorldStatus.CONTRADICTED:
        return view.summary or "the world disagrees"
    return None


def _degraded_blob(bad: FailedItem, check: RecordCheck) -> BriefItem:
    address = bad.check.address
    item = bad.item or Item(Kind.FACT, f"(unreadable item {address[:12]})", Trust.UNTAGGED, "?")
    return _degraded(item, bad.record, bad.checkpoint, check)._replace(id=address)


def _degraded(item: Item, record: Checkpoint, where: Sha256Hex, check: RecordCheck) -> BriefItem:
    return BriefItem(
        id=item.id,
        kind=item.kind,
        text=item.text,
        quote=None,  # nothing in a failed record is trusted: not its trust, not its quote
        captured_trust=item.trust,
        trust=Trust.UNTAGGED,
        degraded_reason=check.summary,
        degraded_label=check.problem,
        section=_section(item),
        origin_session=item.origin_session,
        checkpoint=where,
        created=sortable_time(record.created),
        writer=record.writer,
        importance=_importance(item),
        corroboration=0,
        status=Status.QUARANTINED,
    )


def _importance(item: Item) -> int:
    value = item.extra.get("importance")
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _section(item: Item) -> str:
    external = item.extra.get("external_state")
    if external is True or item.extra.get("claims"):
        return "verify"
    if external is None and mentions_external_state(f"{item.text}\n{item.quote or ''}"):
        return "verify"
    return item.kind


def _failure_warning(failure: FailedRecord) -> BriefWarning:
    """The warning for a record that failed its check, from what the index keeps of it
    (its bytes are parsed only for the few whose items are shown)."""
    check, kind = failure.check, failure.type
    if kind != "checkpoint":
        shown = "it is not applied"
    elif failure.named is not None:
        shown = f"its {failure.named} item(s) are shown degraded, never as verbatim"
    else:
        shown = "its items cannot be read"
    return BriefWarning(
        check.problem or "record-failed",
        f"{kind} {check.address[:12]} failed verification ({check.summary}); {shown}. "
        "Run `gitmem verify` for details.",
        failure.path,
        record=check.address,
        writer=failure.writer,
        key=failure.key,
        created=failure.created or None,
        detail=check.detail,
    )


QUOTE_NOT_IN_TRANSCRIPT = "quote not in its transcript"


def withhold_quotes(brief: Brief, failures: Mapping[str, str]) -> Brief:
    """*brief* with the verbatim items whose quote did not check out against its stored
    snapshot degraded (item id → why). Raises nothing."""
    return degrade(
        brief,
        {ident: (QUOTE_NOT_IN_TRANSCRIPT, why) for ident, why in failures.items()},
        "'s quote is not in its stored transcript",
    )


TEXT_NOT_SUPPORTED = "text not supported by its quote"


def quote_for_text(brief: Brief, refused: Mapping[str, tuple[str, str]]) -> Brief:
    """*brief* with each verbatim item in *refused* (item id → (its quote, why its quote
    does not support its text): :mod:`gitmem.lifecycle.wording`) shown by its quote
    instead, and one warning each: a record another version of gitmem or a teammate
    wrote may hold a text beside the badge that this version refuses. Raises nothing."""
    refused = {
        item.id: refused[item.id]
        for item in brief.items
        if item.id in refused and item.trust == Trust.VERBATIM and item.quote is not None
    }
    if not refused:
        return brief
    return _changed(
        brief,
        {ident: (TEXT_NOT_SUPPORTED, why) for ident, (_, why) in refused.items()},
        lambda item: item._replace(text=refused[item.id][0]),
        "'s text says what its quote does not ({}); its quote is shown instead.",
    )


def degrade(
    brief: Brief, failures: Mapping[str, tuple[str, str]], what: str = " failed verification"
) -> Brief:
    """*brief* with the items in *failures* (item id → (label, why)) degraded — no quote,
    no badge but the alarm, quarantined — and one warning each. Raises nothing."""
    return _changed(
        brief,
        failures,
        lambda item: item._replace(
            quote=None,
            trust=Trust.UNTAGGED,
            degraded_reason=describe(*failures[item.id]),
            degraded_label=failures[item.id][0],
            corroboration=0,
            status=Status.QUARANTINED,
        ),
        what + " ({}); it is shown degraded. Run `gitmem verify` for details.",
    )


def _changed(
    brief: Brief,
    found: Mapping[str, tuple[str, str]],
    change: Callable[[BriefItem], BriefItem],
    says: str,
) -> Brief:
    """*brief* with each item in *found* (item id → (label, why)) *change*d, and one
    warning each: "item ID" then *says*, its "{}" filled with why. Raises nothing."""
    if not found:
        return brief
    items = tuple(change(item) if item.id in found else item for item in brief.items)
    warnings = tuple(
        BriefWarning(
            found[item.id][0],
            f"item {item.id[:8]}" + says.format(found[item.id][1]),
            record=item.checkpoint,
            writer=item.writer,
            created=item.created,
            detail=found[item.id][1],
        )
        for item in brief.items
        if item.id in found
    )
    return brief._replace(items=items, warnings=brief.warnings + warnings)
