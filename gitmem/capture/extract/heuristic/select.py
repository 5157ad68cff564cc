"""What the scan found, and which of it is kept: each (kind, text) once, then the cap."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from gitmem.core.items import Draft, Kind, Trust
from gitmem.core.quotes import fold


@dataclass(frozen=True)
class Candidate:
    """An item of one unit, with where it stands and whether a user said it."""

    kind: Kind
    text: str
    quote: str
    importance: int
    extra: dict[str, Any]
    position: tuple[int, int, int]
    """(message, first line of its unit, offset in the unit): transcript order."""
    by_user: bool

    def draft(self) -> Draft:
        extra = {"importance": self.importance, **self.extra}
        return Draft(self.kind, self.text, Trust.VERBATIM, self.quote, extra)


def select(items: Iterable[Candidate], max_items: int) -> list[Draft]:
    """Drafts of *items*, in transcript order: identical (kind, text) pairs once (the
    latest, ranked as a user's if a user said it too), and at most *max_items* of them:
    the most important, then a user's before an assistant's, then the latest."""
    found: dict[tuple[str, str], Candidate] = {}
    for item in items:
        key = (item.kind, fold(item.text))
        earlier = found.get(key)
        if earlier is not None and earlier.by_user and not item.by_user:
            item = replace(item, by_user=True)
        found[key] = item
    ranked = sorted(found.values(), key=lambda f: (f.importance, f.by_user, f.position))
    kept = ranked[len(ranked) - max_items :] if max_items else []
    return [f.draft() for f in sorted(kept, key=lambda f: f.position)]
