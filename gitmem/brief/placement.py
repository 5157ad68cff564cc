"""Where each brief line stands in time and among branches.

Every line shows its age: the time since its session last said it (session time, see
docs/lifecycle.md), never since it was captured. An item captured on a branch whose work
is not in the one checked out carries ``[on BRANCH]`` and ranks after the current
branch's; one from a branch deleted without being merged is hidden once its age passes
``unmerged_branch_days``, and the brief says so in a notice.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import NamedTuple

from gitmem.core.errors import FormatError
from gitmem.core.records import parse_time
from gitmem.lifecycle.replay import ItemState
from gitmem.store.branches import Place

PlaceProbe = Callable[[ItemState], Place | None]

DAY = 86_400


class Placement(NamedTuple):
    """What the brief needs to place its lines: the time now, and where an item's
    captures stand against the branch checked out."""

    now: datetime
    place: PlaceProbe
    hide_after_days: int = 14

    def locate(self, state: ItemState) -> Located:
        """The age and place of *state*'s item. Raises nothing."""
        age = self.age(state.last_seen)
        where = self.place(state)
        hidden = (
            where is not None
            and where.deleted
            and age is not None
            and age > self.hide_after_days * DAY
        )
        return Located(age, where, hidden)

    def age(self, when: str) -> int | None:
        """Whole seconds from *when* (a record time) to now; None when unreadable."""
        try:
            return max(0, int((self.now - parse_time(when)).total_seconds()))
        except FormatError:
            return None


class Located(NamedTuple):
    age: int | None
    """Seconds since its session last said it."""
    place: Place | None
    """None: on the current branch's line."""
    hidden: bool
    """From a branch deleted unmerged, older than the limit: not shown, but counted."""


def age_label(seconds: int) -> str:
    """``now``, ``12 min``, ``5 h``, ``3 d``: the unit a reader needs, rounded down.
    Raises nothing."""
    if seconds < 60:
        return "now"
    if seconds < 3600:
        return f"{seconds // 60} min"
    if seconds < 2 * DAY:
        return f"{seconds // 3600} h"
    return f"{seconds // DAY} d"


def hidden_notice(hidden: dict[str, int], days: int) -> str:
    """The one line that says which items the brief hid, and why. Raises nothing."""
    where = ", ".join(f"{branch} ({count})" for branch, count in sorted(hidden.items()))
    total = sum(hidden.values())
    return (
        f"{total} item(s) captured on branches deleted without being merged are hidden, "
        f"older than {days} d: {where}. `gitmem show ID` still has them; "
        "`gitmem config unmerged_branch_days N` changes the limit."
    )
