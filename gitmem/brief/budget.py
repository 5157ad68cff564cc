"""The brief's budget: a hard cap in the reader's own unit, and what fits under it, in
what order.

A budget is a number of bytes (``gitmem brief --budget``, the default 9,000), characters
or tokens (:data:`HOST_BUDGETS`: each agent host's cap in the unit that host counts, so
that a hook's output is never cut to a preview the model reads instead; docs/hooks.md has
the figures and where each comes from), and **no brief is ever longer than its budget**.
Lines are measured one by one, each with its newline (tokens by the conservative estimate
of :mod:`gitmem.core.tokens`), so the sum is the whole text's size. The fixed parts
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
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple

from gitmem.core.items import Kind, Trust
from gitmem.core.tokens import estimate_tokens

if TYPE_CHECKING:
    # Only named here: the commands that ask a host's budget (capture, log) need not
    # load what selects a brief's items.
    from gitmem.brief.select import BriefItem

DEFAULT_BUDGET = 9_000
MIN_BUDGET = 800
"""The smallest byte budget that still holds the opening, one warning line, the note of
what was left out and the closing."""
MIN_TOKENS = 300
"""The same floor in tokens (800 bytes of a brief estimate at about 260)."""


class Unit(StrEnum):
    BYTES = "bytes"
    CHARACTERS = "characters"
    TOKENS = "tokens"


@dataclass(frozen=True)
class Budget:
    """At most *limit* of *unit* (0: no limit)."""

    limit: int
    unit: Unit = Unit.BYTES

    @property
    def unlimited(self) -> bool:
        return self.limit <= 0

    @property
    def minimum(self) -> int:
        return MIN_TOKENS if self.unit == Unit.TOKENS else MIN_BUDGET

    def cost(self, text: str) -> int:
        """*text* measured in this budget's unit. Raises nothing."""
        if self.unit == Unit.TOKENS:
            return estimate_tokens(text)
        if self.unit == Unit.CHARACTERS:
            return len(text)
        return len(text.encode("utf-8"))

    def size(self, lines: Sequence[str]) -> int:
        """*lines* joined with newlines, each line's newline included. Raises nothing."""
        return sum(self.cost(line) + 1 for line in lines)

    def fits(self, text: str) -> bool:
        return self.unlimited or self.cost(text) <= self.limit

    def label(self) -> str:
        """``9,000 bytes``, ``2,300 tokens``. Raises nothing."""
        return f"{self.limit:,} {self.unit}"

    def check(self) -> None:
        """Raises ValueError: a limit between 0 and :attr:`minimum`."""
        if 0 < self.limit < self.minimum:
            raise ValueError(f"a brief needs a budget of at least {self.minimum} {self.unit}, or 0")


HOSTS = ("claude", "codex", "copilot", "gemini")
HOST_BUDGETS = {
    "claude": Budget(9_000, Unit.CHARACTERS),
    "codex": Budget(2_300, Unit.TOKENS),
    "copilot": Budget(9_000, Unit.CHARACTERS),
    "gemini": Budget(9_000, Unit.CHARACTERS),
}
"""The session-start brief's cap for each agent host, in the unit it counts: Claude Code
keeps 10,000 characters of hook output (then a 2,000-character preview), Codex 2,500
tokens (then a file and a head/tail preview); Copilot CLI and Gemini CLI document no cap,
so they get Claude Code's. See docs/hooks.md."""
HOST_CAPS = {
    "claude": Budget(10_000, Unit.CHARACTERS),
    "codex": Budget(2_500, Unit.TOKENS),
    "copilot": Budget(10_000, Unit.CHARACTERS),
    "gemini": Budget(10_000, Unit.CHARACTERS),
}
"""What each host itself keeps before it cuts (what ``gitmem doctor`` checks against)."""
REBRIEF_SHARE = 3
"""After a compaction the re-brief gets a third of the host's budget."""


def host_budget(host: str) -> Budget:
    """The session-start budget of *host*.

    Raises:
        ValueError: an unknown host.
    """
    try:
        return HOST_BUDGETS[host]
    except KeyError:
        raise ValueError(f"unknown host {host!r}; gitmem knows {', '.join(HOSTS)}") from None


def as_budget(budget: int | Budget) -> Budget:
    """A number of bytes as a budget; a budget as it is. Raises nothing."""
    return budget if isinstance(budget, Budget) else Budget(budget)


WARNING_SHARE = 0.4
DEGRADED_SHOWN = 5
SHORTENED = " …[shortened]"
_MIN_TEXT = 40
_SMALLEST_LINE = "- [~ inferred] x (00000000)"
"""Shorter than any item's line: once less room than this is left, nothing more fits."""

LinesOf = Callable[["BriefItem", str | None], list[str]]
SectionCost = Callable[[str], int]
Size = Callable[[Sequence[str]], int]


class Fitted(NamedTuple):
    lines: dict[str, list[str]]
    """Item id → its rendered lines, for the items that fit."""
    dropped: int
    held_back: int = 0
    """Of the dropped, the degraded items past :data:`DEGRADED_SHOWN`, whatever the room."""


def why_left_out(label: str, held_back: int) -> str:
    """What a brief's note of items left out puts in parentheses: the budget (*label*),
    and, when *held_back* degraded items were left out past :data:`DEGRADED_SHOWN`, that
    cap (room alone did not leave them out). Raises nothing."""
    if not held_back:
        return f"budget {label}"
    return f"budget {label}; a brief shows at most {DEGRADED_SHOWN} degraded items"


def size(lines: Sequence[str]) -> int:
    """Bytes of *lines* joined with newlines, each line's newline included."""
    return Budget(0).size(lines)


def fit(
    items: Sequence[BriefItem],
    room: int | None,
    lines_of: LinesOf,
    section_cost: SectionCost,
    measure: Size = size,
) -> Fitted:
    """Choose and render the items that fit in *room* (None: no limit) as *measure*
    counts (default: bytes), a section's heading counted with the first item of that
    section."""
    if room is None:
        return Fitted({i.id: lines_of(i, None) for i in items}, 0)
    chosen: dict[str, list[str]] = {}
    used = 0
    sections: set[str] = set()
    degraded = held_back = 0
    smallest = measure([_SMALLEST_LINE])
    for item in priority(items):
        if room - used < smallest:
            break  # no line can fit any more
        if item.degraded_reason is not None:
            degraded += 1
            if degraded > DEGRADED_SHOWN:
                held_back += 1
                continue
        heading = 0 if item.section in sections else section_cost(item.section)
        lines = lines_of(item, None)
        cost = heading + measure(lines)
        if used + cost > room:
            lines = _shortened(item, room - used - heading, lines_of, measure) or []
            cost = heading + measure(lines)
            if not lines or used + cost > room:
                continue
        chosen[item.id] = lines
        sections.add(item.section)
        used += cost
    return Fitted(chosen, len(items) - len(chosen), held_back)


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


def _shortened(item: BriefItem, room: int, lines_of: LinesOf, measure: Size) -> list[str] | None:
    if item.trust == Trust.VERBATIM or item.quote is not None or item.degraded_reason is not None:
        return None  # verbatim items and quotes are never cut
    if (
        len(item.text) <= _MIN_TEXT
        or measure(lines_of(item, item.text[:_MIN_TEXT] + SHORTENED)) > room
    ):
        return None  # not even the shortest cut fits
    # The longest prefix whose line fits: halving on the text's length, then a word end.
    low, high = 0, len(item.text)
    while low < high:
        middle = (low + high + 1) // 2
        if measure(lines_of(item, item.text[:middle].rstrip() + SHORTENED)) <= room:
            low = middle
        else:
            high = middle - 1
    cut = item.text[:low]
    cut = cut[: cut.rfind(" ")] if " " in cut[_MIN_TEXT // 2 :] else cut
    if len(cut) < _MIN_TEXT or len(cut) >= len(item.text):
        return None
    return lines_of(item, cut.rstrip() + SHORTENED)
