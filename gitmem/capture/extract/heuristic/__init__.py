"""The heuristic extractor: explicit markers in, verbatim item drafts out.

Built in, deterministic, no model: what a fresh install captures with. It looks for
explicit markers ("Decision:", "TODO:", "- [ ]", "I'm not sure…", "PR #12", "branch
`x`" …) and emits one item per marked sentence, whose quote is copied from one message,
so that every quote it emits passes :func:`gitmem.core.quotes.check_quote`. It misses
whatever is said without a marker; a model extractor finds more. The markers, what each
produces and what is skipped are listed in ``docs/heuristic.md``.

Pure: no disk, no git, no clock, no model.

This module is the public surface; the modules beside it are internal. ``scan`` reads
one message: ``sentences`` gives its layout, ``markers`` what marks a sentence, ``claims``
what a sentence references, ``item`` turns a marked span into an item. ``select`` then
keeps each item once and applies the cap.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from gitmem.capture.extract.heuristic.answers import answer_items
from gitmem.capture.extract.heuristic.item import (
    FORGE_IMPORTANCE,
    IMPORTANCE,
    MAX_QUOTE_CHARS,
    MAX_TEXT_CHARS,
)
from gitmem.capture.extract.heuristic.scan import Scan
from gitmem.capture.extract.heuristic.select import Candidate, select
from gitmem.capture.extract.heuristic.turns import host_text, readings
from gitmem.core.items import Draft
from gitmem.core.transcript import ANSWER, Message

__all__ = [
    "FORGE_IMPORTANCE",
    "IMPORTANCE",
    "MAX_QUOTE_CHARS",
    "MAX_TEXT_CHARS",
    "SKIPPED_ROLES",
    "extract",
]

SKIPPED_ROLES = ("tool", "function", "system", "developer")
"""Messages whose role starts with one of these are not read (see docs/heuristic.md)."""


def extract(messages: Sequence[Message], max_items: int = 40) -> list[Draft]:
    """Find explicitly marked decisions, open loops, uncertainties and facts.

    Every draft is ``verbatim`` and its quote is a substring of one message's text that
    :func:`gitmem.core.quotes.check_quote` accepts. Identical (kind, text) pairs are kept
    once (the latest). At most *max_items* are returned: the most important, then a
    user's before an assistant's, then the latest; in transcript order.

    Raises:
        ValueError: *max_items* is negative.
    """
    if max_items < 0:
        raise ValueError(f"max_items must be 0 or more (got {max_items})")
    return select(_candidates(messages), max_items)


def _candidates(messages: Sequence[Message]) -> Iterator[Candidate]:
    read = [
        index
        for index, message in enumerate(messages)
        if not (message.role or "").casefold().startswith(SKIPPED_ROLES) and not host_text(message)
    ]
    for index, reading in readings(messages, read).items():
        role = (messages[index].role or "").casefold()
        if role == ANSWER:
            yield from answer_items(index, messages)
        else:
            yield from Scan(index, messages[index].text, role, reading).items()
