"""The brief's byte budget: a hard cap, and what fits under it, in what order.

Sized by default to sit under what agent hosts inject from a hook (Claude Code and Codex
both cut hook output at about 10,000 characters and then show only a preview), so the
default is 9,000 bytes and **no brief is ever longer than its budget**. The fixed parts
(the opening, the closing tag, the notes) are reserved first; the warnings then take at
most :data:`WARNING_SHARE` of the budget, at the most detailed level of
:mod:`gitmem.brief.alarms` that fits; the items fill the rest. Items are taken in this
order: degraded ones (the most recent :data:`DEGRADED_SHOWN`; the rest are counted by
their warning), VERIFY BEFORE TRUSTING, the newest decisions, then everything else by
rank. An item that does not fit is dropped whole, except that an inferred or untagged
item's *text* may be shortened with a visible marker. A verbatim item is never
shortened, and a quote is never cut or reworded. Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from gitmem.brief.select import BriefItem
from gitmem.core.items import Kind, Trust

DEFAULT_BUDGET = 9_000
MIN_BUDGET = 800
"""The smallest budget that still holds the opening, one warning line and the closing."""
WARNING_SHARE = 0.4
DEGRADED_SHOWN = 5
SHORTENED = " …[shortened]"
_MIN_TEXT = 40

LinesOf = Callable[[BriefItem, str | None], list[str]]
SectionCost = Callable[[str], int]


class Fitted(NamedTuple):
    lines: dict[str, list[str]]
    """Item id → its rendered lines, for the items that fit."""
    dropped: int


def size(lines: Sequence[str]) -> int:
    """Bytes of *lines* joined with newlines, each line's newline included."""
    return sum(len(line.encode("utf-8")) + 1 for line in lines)


def fit(
    items: Sequence[BriefItem], room: int | None, lines_of: LinesOf, section_cost: SectionCost
) -> Fitted:
    """Choose and render the items that fit in *room* bytes (None: no limit), a section's
    heading counted with the first item of that section."""
    if room is None:
        return Fitted({i.id: lines_of(i, None) for i in items}, 0)
    chosen: dict[str, list[str]] = {}
    used = 0
    sections: set[str] = set()
    degraded = 0
    for item in priority(items):
        if item.degraded_reason is not None:
            degraded += 1
            if degraded > DEGRADED_SHOWN:
                continue
        heading = 0 if item.section in sections else section_cost(item.section)
        lines = lines_of(item, None)
        cost = heading + size(lines)
        if used + cost > room:
            lines = _shortened(item, room - used - heading, lines_of) or []
            cost = heading + size(lines)
            if not lines or used + cost > room:
                continue
        chosen[item.id] = lines
        sections.add(item.section)
        used += cost
    return Fitted(chosen, len(items) - len(chosen))


def priority(items: Sequence[BriefItem]) -> list[BriefItem]:
    """Degraded (the newest first), then VERIFY BEFORE TRUSTING, then the newest
    decisions, then by rank."""

    def key(pair: tuple[int, BriefItem]) -> tuple[int, str, int]:
        rank, item = pair
        if item.degraded_reason is not None:
            group = 0
        elif item.section == "verify":
            group = 1
        elif item.section == Kind.DECISION:
            group = 2
        else:
            group = 3
        newest_first = "" if group == 3 else _inverse(item.created)
        return (group, newest_first, rank)

    return [item for _, item in sorted(enumerate(items), key=key)]


def _inverse(created: str) -> str:
    """Sort key that puts the newest timestamp first."""
    return "".join(chr(0x10FFFF - ord(c)) for c in created)


def _shortened(item: BriefItem, room: int, lines_of: LinesOf) -> list[str] | None:
    if item.trust == Trust.VERBATIM or item.quote is not None or item.degraded_reason is not None:
        return None  # verbatim items and quotes are never cut
    overhead = size(lines_of(item, "")) + len(SHORTENED.encode())
    keep = room - overhead
    if keep < _MIN_TEXT:
        return None
    cut = item.text.encode()[:keep].decode("utf-8", "ignore")
    cut = cut[: cut.rfind(" ")] if " " in cut[_MIN_TEXT // 2 :] else cut
    if len(cut) < _MIN_TEXT or len(cut) >= len(item.text):
        return None
    return lines_of(item, cut.rstrip() + SHORTENED)
