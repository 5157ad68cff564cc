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

import heapq
from collections.abc import Iterator, Sequence
from dataclasses import replace

from gitmem.capture.extract.heuristic.choice import picks
from gitmem.capture.extract.heuristic.item import (
    FORGE_IMPORTANCE,
    IMPORTANCE,
    MAX_QUOTE_CHARS,
    MAX_TEXT_CHARS,
)
from gitmem.capture.extract.heuristic.lastword import last_word
from gitmem.capture.extract.heuristic.plan import plan_decisions
from gitmem.capture.extract.heuristic.report import pending_request, report_items
from gitmem.capture.extract.heuristic.scan import Scan
from gitmem.capture.extract.heuristic.select import Candidate, kept, rank
from gitmem.capture.extract.heuristic.turns import (
    asks_with_tool,
    host_text,
    merged_away,
    pasted_document,
    pending_index,
    plan_text,
    readings,
    report_index,
    spoken,
    wrapped_report,
)
from gitmem.core.claims import forge_numbers
from gitmem.core.items import Draft, Kind
from gitmem.core.transcript import ANSWER, NOT_SAID, USER_ROLES, Message

__all__ = [
    "FORGE_IMPORTANCE",
    "IMPORTANCE",
    "MAX_QUOTE_CHARS",
    "MAX_TEXT_CHARS",
    "SKIPPED_ROLES",
    "explain",
    "extract",
]

SKIPPED_ROLES = NOT_SAID
"""Messages whose role starts with one of these are not read (see docs/heuristic.md)."""
READ = 4096
"""How many candidates the session's last word reads at most: the strongest by
:func:`~gitmem.capture.extract.heuristic.select.rank`, taken as they come, so a transcript
that marks hundreds of thousands of things is read in bounded memory and time (a real
session marks tens; the most in the corpus is 70)."""


SESSION_ITEMS = 8
"""How many items a conversation (the user and the assistant both speak) keeps at most,
the strongest by :func:`~gitmem.capture.extract.heuristic.select.rank`: a labelled session
holds about five to eight. Chosen on the development split
(``benchmarks/extract_rules.py --loo``): the smallest cap that loses no credited item in
any repository (7 loses one in entireio/skills); fitted on four repositories by F0.5, the
cap was 8 for four held-out repositories and 4 for entireio/skills. A commit message, a
user's notes or a lone reply keep *max_items*."""


def extract(
    messages: Sequence[Message], max_items: int = 40, project: str | None = None
) -> list[Draft]:
    """Find explicitly marked decisions, open loops, uncertainties and facts.

    Every draft is ``verbatim`` and its quote is a substring of one message's text that
    :func:`gitmem.core.quotes.check_quote` accepts. Identical (kind, text) pairs are kept
    once (the latest). At most *max_items* are returned (at most :data:`SESSION_ITEMS`
    from a conversation): what the session marks first, then the most important, then a
    user's before an assistant's, then the latest
    (:func:`~gitmem.capture.extract.heuristic.select.rank`); in transcript order.

    *project* is the repository the session worked on (``owner/name`` or
    ``host/owner/name``, as :func:`gitmem.core.claims.project_of` reads a remote's URL):
    a PR or issue of another repository ("https://github.com/other/tool/issues/12") is not
    an item of its own. Unknown (None), every PR and issue counts.

    Raises:
        ValueError: *max_items* is negative.
    """
    return [c.draft() for c in _kept(messages, max_items, SESSION_ITEMS, project)]


def explain(
    messages: Sequence[Message],
    max_items: int = 40,
    session_items: int = SESSION_ITEMS,
    project: str | None = None,
) -> list[tuple[Draft, str]]:
    """What :func:`extract` returns, each draft with the rule family that found it
    ("label-decision", "report-first", "forge" …): for the benchmark's provenance
    breakdown (``benchmarks/extract_rules.py``, which also varies *session_items*); the
    family is never stored.

    Raises:
        ValueError: *max_items* or *session_items* is negative.
    """
    return [(c.draft(), c.rule) for c in _kept(messages, max_items, session_items, project)]


def _kept(
    messages: Sequence[Message], max_items: int, session_items: int, project: str | None
) -> list[Candidate]:
    if max_items < 0 or session_items < 0:
        raise ValueError(f"max_items must be 0 or more (got {min(max_items, session_items)})")
    read = [
        index
        for index, message in enumerate(messages)
        if not (message.role or "").casefold().startswith(SKIPPED_ROLES) and not host_text(message)
    ]
    report = report_index(messages, read)
    found = heapq.nlargest(READ, _candidates(messages, read, report, project), key=rank)
    settled = _first_of_report(_unmerged(last_word(found, report), merged_away(messages, read)))
    return kept(settled, min(max_items, session_items) if _session(messages, read) else max_items)


def _unmerged(items: list[Candidate], merges: dict[int, frozenset[int]]) -> list[Candidate]:
    """*items* without the open loops on PRs a later message said were merged
    (:func:`~gitmem.capture.extract.heuristic.turns.merged_away`): "PR #44 is open: <link>"
    is stale once the user answers "merged"."""
    if not merges:
        return items
    return [
        c
        for c in items
        if c.kind != Kind.OPEN_LOOP
        or not (numbers := forge_numbers(c.quote))
        or not any(at > c.position[0] and numbers <= prs for at, prs in merges.items())
    ]


def _session(messages: Sequence[Message], read: Sequence[int]) -> bool:
    """Do the user and the assistant both speak (not a commit message, a user's notes or
    a lone reply)?"""
    roles = {(messages[i].role or "").casefold() for i in read}
    return bool(roles & set(USER_ROLES)) and bool(roles - {"", *USER_ROLES, ANSWER})


def _first_of_report(items: list[Candidate]) -> list[Candidate]:
    """*items* with the first unit of a short report named "report-first": it ranks with
    what the session marks (on the development split the first unit was credited 11 times
    in 15, the later ones 7 in 17)."""
    units = [n for n, c in enumerate(items) if c.rule == "report-short"]
    if units:
        first = min(units, key=lambda n: items[n].position)
        items = [*items[:first], replace(items[first], rule="report-first"), *items[first + 1 :]]
    return items


def _candidates(
    messages: Sequence[Message], read: Sequence[int], report: int | None, project: str | None
) -> Iterator[Candidate]:
    pending = pending_index(messages, read)
    wrapped = wrapped_report(messages, read)
    asking = asks_with_tool(messages, read)
    # A user's pick among the options the reply before offered: a decision in their words.
    chosen = {c.position[0]: c for c in picks(messages, read)}
    for index, reading in readings(messages, read).items():
        role = (messages[index].role or "").casefold()
        if role == ANSWER or index in asking:
            # A question tool's answer, or the reply that asks it: the text after them says
            # what was decided.
            continue
        if plan_text(messages[index]):
            role = "assistant"  # an approved plan: the assistant's words, not the user's rules
            yield from plan_decisions(index, spoken(messages[index]))
        text = spoken(messages[index])
        if role in USER_ROLES and (document := pasted_document(text)) is not None:
            text = text[:document]  # a roadmap or a draft the user pasted: not their words
        # Each candidate is passed on as it is found, keeping only what the two readings
        # below need: a long plain transcript is one message of hundreds of thousands of
        # candidates, and a list of them costs several times the text.
        decided = index in chosen
        if decided:
            yield chosen[index]
        taken: list[tuple[int, int]] = []
        for c in Scan(index, text, role, reading).items():
            if c.rule == "forge" and project is not None and not forge_numbers(c.quote, project):
                continue  # another project's PR or issue, read or linked to in passing
            if index in chosen and c.quote in chosen[index].quote:
                continue  # "let's go with option 1.": the pick says it, naming the option
            decided = decided or c.kind == Kind.DECISION
            if index in (report, wrapped) and (at := text.find(c.quote)) >= 0:
                taken.append((at, at + len(c.quote)))
            yield c
        if index == pending and not decided and role != "assistant":
            # A last word that states a rule ("no, we keep `requests`") is that decision.
            yield from pending_request(index, text)
        if index in (report, wrapped):
            yield from report_items(index, text, taken, wrapped=index == wrapped)
