"""What the scan found, and which of it is kept: each claim once (:func:`claim_key`), the
latest, then the cap."""

from __future__ import annotations

import heapq
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from gitmem.core.claims import forge_numbers
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
    rule: str = ""
    """The rule family that found it: read by the benchmark's provenance breakdown
    (:func:`~gitmem.capture.extract.heuristic.explain`), never stored."""

    def draft(self) -> Draft:
        extra = {"importance": self.importance, **self.extra}
        return Draft(self.kind, self.text, Trust.VERBATIM, self.quote, extra)


HELD = 8
"""How many times *max_items* candidates :func:`select` holds at most (and never fewer
than :data:`MIN_HELD`): what a long transcript marks is weighed as it comes, so memory
stays bounded however many candidates a transcript holds."""
MIN_HELD = 256


def select(items: Iterable[Candidate], max_items: int) -> list[Draft]:
    """Drafts of the candidates :func:`kept` keeps of *items*, in transcript order."""
    return [c.draft() for c in kept(items, max_items)]


def kept(items: Iterable[Candidate], max_items: int) -> list[Candidate]:
    """*items* in transcript order: each claim once (:func:`claim_key`: the latest
    statement of it, ranked as a user's if a user said it too; a bare link,
    :func:`bare_link`, never replaces a statement), and at most *max_items*
    of them, the strongest by :func:`rank`: a marked family's first, then the most
    important, then a user's before an assistant's, then the latest.

    The candidates are weighed as they come: at most ``HELD * max_items`` (at least
    :data:`MIN_HELD`) are held, the lowest ranked let go first, and a claim let go that
    comes again later is weighed again as the latest (still ranked as a user's when a
    user said it). A held claim replaced by a lower-ranked later statement of it cannot
    call back one let go meanwhile; with the held margin far above the cap, that only
    matters for a transcript saying thousands of things at one importance.
    """
    limit = max(HELD * max_items, MIN_HELD)
    held: dict[tuple[str, str], tuple[int, Candidate]] = {}
    """Each claim held: the number of its latest statement, and that statement."""
    ranks: list[tuple[tuple[int, int, bool, tuple[int, int, int]], int, tuple[str, str]]] = []
    by_users: set[int] = set()
    """The hash of every claim a user said that was let go."""
    for number, item in enumerate(items):
        key = claim_key(item)
        earlier = held.get(key)
        if earlier is not None and bare_link(item) and not bare_link(earlier[1]):
            continue  # "PR: <link>" after what the reply says of that PR says nothing more
        said_by_user = earlier[1].by_user if earlier is not None else hash(key) in by_users
        if said_by_user and not item.by_user:
            item = replace(item, by_user=True)
        held[key] = (number, item)
        heapq.heappush(ranks, (rank(item), number, key))
        while len(held) > limit:
            _, stated, lowest = heapq.heappop(ranks)
            entry = held.get(lowest)
            current = entry is not None and entry[0] == stated  # else a rank replaced since
            if current and held.pop(lowest)[1].by_user:
                by_users.add(hash(lowest))
        if len(ranks) > 4 * limit:  # replaced statements leave their old ranks behind
            ranks = [(rank(c), n, k) for k, (n, c) in held.items()]
            heapq.heapify(ranks)
    ranked = sorted((c for _, c in held.values()), key=rank)
    best = ranked[max(0, len(ranked) - max_items) :] if max_items else []
    return sorted(best, key=lambda f: f.position)


_LINK_RE = re.compile(r"https?://\S+|\[[^\]\n]*\]\([^)\n]*\)")
_BARE_RE = re.compile(
    r"[\W\d_]*(?:(?:pr|pull\s+request|mr|merge\s+request|issue|link|url|see|here)\b[\W\d_]*)*",
    re.IGNORECASE,
)


def bare_link(candidate: Candidate) -> bool:
    """Is *candidate* only a PR's or issue's link under a label ("PR: <link>", "**PR:**
    <link>", "See <link>."), saying nothing of it?"""
    quote = candidate.quote
    return "://" in quote and _BARE_RE.fullmatch(_LINK_RE.sub(" ", quote)) is not None


def claim_key(candidate: Candidate) -> tuple[str, str]:
    """What *candidate* is a statement of, so that a later statement of it replaces it: the
    PRs and issues it names, for one the forge rule found or an open loop ("PR #12: <link>",
    "PR #12 still fails on CI", then "PR #12 is merged": its latest state wins, whatever its
    kind or the rule that found it); else its kind and folded text."""
    if candidate.rule == "forge" or candidate.kind == Kind.OPEN_LOOP:
        numbers = forge_numbers(candidate.quote)
        if numbers:
            return "forge", " ".join(f"#{n}" for n in sorted(numbers))
    return candidate.kind, fold(candidate.text)


MARKED = frozenset(
    (
        *("label-decision", "label-open_loop", "label-uncertainty", "section-decision"),
        *("section-open_loop", "section-uncertainty", "taskbox", "user-rule", "pending"),
        *("decision-start", "phrase-decision", "phrase-open_loop", "awaiting", "forge"),
        *("report-first", "pick", ""),
    )
)
"""The rule families whose items rank first under the cap: what the session itself marks
as a decision, a loop or a rule (a label, a status section, a task box, the user's rule or
unanswered request, a decision or open-loop phrase, a PR or issue), and the first unit of
the closing report. On the development split they were credited 35 times in 47 items; the
others — a report's later units, a long report's lead and status sections, a choice made
"instead", a file, branch or commit, an uncertainty phrase or open question — 14 in 32
(docs/heuristic.md, "Rule families"). A candidate made without a family ranks with the
marked ones; a family not named here ranks with the others until it is measured."""


def tier(rule: str) -> int:
    """1 for a :data:`MARKED` family, else 0."""
    return 1 if rule in MARKED else 0


def rank(candidate: Candidate) -> tuple[int, int, bool, tuple[int, int, int]]:
    """How strong *candidate* is: a marked family's first (:func:`tier`), then the most
    important, then a user's, then the latest."""
    return (tier(candidate.rule), candidate.importance, candidate.by_user, candidate.position)
