"""Select what the brief shows, after checking every record behind it.

Read-only. Every record whose items are rendered is verified in full (address,
receipt signature over the exact bytes, trusted key) on every brief, and the text
rendered comes from those same bytes. A record that fails is never dropped: its
items are shown degraded, and a warning names it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gitmem.integrity import RecordCheck, check_record
from gitmem.model import Checkpoint, Item
from gitmem.signers import AllowedSignersFile
from gitmem.store import StoreContents

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
            # Honest defaults until the lifecycle layer derives them from events.
            "carried": False,
            "corroboration": 1,
            "world_check": None,
            "status": _status(self),
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


def build_brief(contents: StoreContents, roots: Sequence[AllowedSignersFile]) -> Brief:
    """Verify every checkpoint and turn its items into brief items, newest first."""
    warnings: list[BriefWarning] = []
    chosen: dict[str, BriefItem] = {}
    verified = failed = 0
    latest: str | None = None
    for stored in contents.records:
        if stored.type != "checkpoint":
            continue
        check = check_record(stored.address, stored.data, stored.receipt, roots)
        if check.ok:
            verified += 1
        else:
            failed += 1
            warnings.append(_failure_warning(check, stored.path))
        record = check.record
        if not isinstance(record, Checkpoint):
            continue
        if check.ok and (latest is None or record.created > latest):
            latest = record.created
        for item in record.items:
            candidate = _brief_item(item, record, check)
            current = chosen.get(item.id)
            if current is None or _preferred(candidate, current):
                chosen[item.id] = candidate
    for root in roots:
        for problem in root.problems:
            warnings.append(BriefWarning("trust-root", f"{root.source}: {problem}", root.source))
    for stray in contents.strays:
        warnings.append(
            BriefWarning("stray-path", f"{stray} does not belong in the memory store layout", stray)
        )
    # Newest first; a higher importance first within that (sorts are stable).
    items = sorted(chosen.values(), key=lambda i: (i.created, i.id), reverse=True)
    items.sort(key=lambda i: -i.importance)
    return Brief(tuple(items), tuple(warnings), verified + failed, verified, failed, latest)


def _brief_item(item: Item, record: Checkpoint, check: RecordCheck) -> BriefItem:
    importance = item.extra.get("importance")
    label, reason = _degradation(item, check)
    if label is None:
        trust, quote = item.trust, item.quote if item.quote_verified else None
    else:
        # Nothing in a failed record is trusted: not its trust class, not its quote.
        trust, quote = "untagged", None
    return BriefItem(
        id=item.id,
        kind=item.kind,
        text=item.text,
        quote=quote,
        captured_trust=item.trust,
        trust=trust,
        degraded_reason=reason,
        degraded_label=label,
        section=_section(item),
        origin_session=item.origin_session,
        checkpoint=check.address,
        created=record.created,
        writer=record.writer,
        importance=importance
        if isinstance(importance, int) and not isinstance(importance, bool)
        else 0,
    )


def _degradation(item: Item, check: RecordCheck) -> tuple[str | None, str | None]:
    """(badge label, sentence) when the item cannot be shown as captured, else (None, None)."""
    if not check.ok:
        return check.problem, f"{check.problem}: {check.detail}"
    if item.trust == "verbatim" and not (item.quote and item.quote_verified):
        # A genuine record can still claim verbatim without a verified quote (another
        # tool, a bug): the badge is earned by the quote, never by the claim.
        return (
            NO_VERIFIED_QUOTE,
            f"{NO_VERIFIED_QUOTE}: the record claims verbatim but stores no verified quote",
        )
    return None, None


def _preferred(candidate: BriefItem, current: BriefItem) -> bool:
    """A copy from a genuine record beats a degraded one; then the newer copy wins."""
    if (candidate.degraded_reason is None) != (current.degraded_reason is None):
        return candidate.degraded_reason is None
    return (candidate.created, candidate.checkpoint) > (current.created, current.checkpoint)


def _section(item: Item) -> str:
    external = item.extra.get("external_state")
    if external is True or item.extra.get("claims"):
        return "verify"
    if external is None and _EXTERNAL_STATE.search(f"{item.text}\n{item.quote or ''}"):
        return "verify"
    return item.kind


def _status(item: BriefItem) -> str:
    if item.degraded_reason is not None:
        return "QUARANTINED"
    return "REPORTED" if item.trust == "verbatim" else "INFERRED"


def _failure_warning(check: RecordCheck, path: str) -> BriefWarning:
    count = len(check.record.items) if isinstance(check.record, Checkpoint) else None
    shown = (
        "its items cannot be read"
        if count is None
        else f"its {count} item(s) are shown degraded, never as verbatim"
    )
    return BriefWarning(
        check.problem or "record-failed",
        f"checkpoint {check.address[:12]} failed verification ({check.problem}: "
        f"{check.detail}); {shown}. Run `gitmem verify` for details.",
        path,
    )
