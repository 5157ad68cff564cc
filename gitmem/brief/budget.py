"""The brief's byte budget: what fits, in what order, and how an item may shrink.

Sized by default to fit an agent host's context injection (about 10 KB). Items are
taken in this order: degraded ones (always: an alarm is never cut), VERIFY BEFORE
TRUSTING, the newest decisions, then everything else by rank. An item that does not
fit is dropped whole, except that an inferred or untagged item's *text* may be
shortened with a visible marker. A verbatim item is never shortened, and a quote is
never cut or reworded. Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gitmem.brief.select import BriefItem

DEFAULT_BUDGET = 10_240
SHORTENED = " …[shortened]"
_MIN_TEXT = 40
_HEADINGS = 240  # six section headings, blank lines and the "more items" note

LinesOf = Callable[[BriefItem, str | None], list[str]]


@dataclass(frozen=True)
class Fitted:
    lines: dict[str, list[str]]
    """Item id → its rendered lines, for the items that fit."""
    dropped: int


def fit(items: Sequence[BriefItem], budget: int, fixed: int, lines_of: LinesOf) -> Fitted:
    """Choose and render the items that fit in *budget* bytes (0: no limit)."""
    if budget <= 0:
        return Fitted({i.id: lines_of(i, None) for i in items}, 0)
    chosen: dict[str, list[str]] = {}
    used = fixed + _HEADINGS
    for item in _priority(items):
        lines = lines_of(item, None)
        cost = _size(lines)
        if item.degraded_reason is not None or used + cost <= budget:
            chosen[item.id] = lines
            used += cost
            continue
        shorter = _shortened(item, budget - used, lines_of)
        if shorter is not None:
            chosen[item.id] = shorter
            used += _size(shorter)
    return Fitted(chosen, len(items) - len(chosen))


def _priority(items: Sequence[BriefItem]) -> list[BriefItem]:
    """Degraded, then VERIFY BEFORE TRUSTING, then the newest decisions, then by rank."""

    def key(pair: tuple[int, BriefItem]) -> tuple[int, str, int]:
        rank, item = pair
        if item.degraded_reason is not None:
            group = 0
        elif item.section == "verify":
            group = 1
        elif item.section == "decision":
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
    if item.trust == "verbatim" or item.quote is not None or item.degraded_reason is not None:
        return None  # verbatim items and quotes are never cut
    overhead = _size(lines_of(item, "")) + len(SHORTENED.encode())
    keep = room - overhead
    if keep < _MIN_TEXT:
        return None
    cut = item.text.encode()[:keep].decode("utf-8", "ignore")
    cut = cut[: cut.rfind(" ")] if " " in cut[_MIN_TEXT // 2 :] else cut
    if len(cut) < _MIN_TEXT or len(cut) >= len(item.text):
        return None
    return lines_of(item, cut.rstrip() + SHORTENED)


def _size(lines: list[str]) -> int:
    return sum(len(line.encode("utf-8")) + 1 for line in lines)
