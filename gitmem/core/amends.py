"""Follow commits through amends and rebases, from the signed rewrite events.

A checkpoint records the commit it was captured at, and records are never edited.
When ``git commit --amend`` or a rebase replaces that commit, the post-rewrite hook
stores a ``commits-rewritten`` event; readers map the old id to the new one here.
Pure: records in, a mapping out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from gitmem.core.records import REWRITE, Event, Record

_MAX_HOPS = 100


def rewrite_map(records: Iterable[Record]) -> dict[str, str]:
    """old commit → new commit, from every (verified) rewrite event, oldest first."""
    events = sorted(
        (r for r in records if isinstance(r, Event) and r.event == REWRITE),
        key=lambda e: e.created,
    )
    mapping: dict[str, str] = {}
    for event in events:
        pairs = event.extra.get("rewrites")
        if not isinstance(pairs, list):
            continue
        for pair in pairs:
            if (
                isinstance(pair, list)
                and len(pair) == 2
                and all(isinstance(x, str) for x in pair)
                and pair[0] != pair[1]
            ):
                mapping[pair[0]] = pair[1]
    return mapping


def resolve(commit: str | None, mapping: Mapping[str, str]) -> str | None:
    """The commit *commit* became after every recorded rewrite (itself if none)."""
    seen = 0
    while commit is not None and commit in mapping and seen < _MAX_HOPS:
        commit = mapping[commit]
        seen += 1
    return commit
