"""The brief's warnings, summarised per cause with the fix, so an alarm never floods it.

A clone that does not yet trust a teammate's key can hold hundreds of records that fail
the same way; listing each one would push everything else out of the brief (and past the
~10,000 bytes agent hosts inject). Warnings are therefore grouped by cause — one kind of
integrity failure, keys no trust root knows, revoked keys, one trust root's bad lines,
paths outside the layout — and each group is one sentence: how many, what it means for
the items, and what fixes it, followed by the most recent few examples. Three levels of
detail let the budget choose: examples, then one line per cause, then one line in all.
Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from gitmem.brief.select import QUOTE_NOT_IN_TRANSCRIPT, BriefWarning
from gitmem.core.integrity import (
    ITEM_EDITED,
    ITEM_MISSING,
    ITEM_UNREADABLE,
    OTHER_REPOSITORY,
    UNTRUSTED_KEY,
)
from gitmem.core.shown import shown_text_line

EXAMPLES = 3
"""Records (or, for a cause of the store itself, paths) named under a cause at the most
detailed level (the most recent first)."""
LEVELS = (EXAMPLES, 0, -1)
"""Detail levels, most detailed first: examples per cause, one line per cause, one line."""

_ITEM_CAUSES = frozenset({ITEM_EDITED, ITEM_MISSING, ITEM_UNREADABLE, QUOTE_NOT_IN_TRANSCRIPT})
"""Causes whose warnings are one per item (naming the record that holds it), not one per
record: counted as items of so many records."""

_RECORD_FIX = (
    "their items are shown degraded, never as verbatim; `gitmem verify` lists them, "
    "`gitmem restore` from a replica repairs them"
)
_UNTRUSTED_FIX = (
    "their items are shown degraded until their keys are trusted: commit the writers' "
    "allowed_signers lines (each prints theirs with `gitmem keys export`) to "
    ".gitmem/allowed_signers on the trust branch"
)
_REVOKED_FIX = "a revoked key vouches for nothing it ever signed; their items stay degraded"
_FOREIGN_FIX = (
    "signed, but for a repository whose history is not this one's (copied here by someone "
    "who can push): their items are never shown as verbatim; `gitmem verify` lists them"
)


class _Cause(NamedTuple):
    key: str
    headline: str
    members: tuple[BriefWarning, ...]


def alarm_lines(warnings: Sequence[BriefWarning], examples: int) -> list[str]:
    """The warning lines at one level of detail: with *examples* > 0, each cause and its
    most recent *examples* records; 0, one line per cause; below 0, one line in all.
    Raises nothing."""
    causes = _causes(warnings)
    if not causes:
        return []
    if examples < 0:
        total = sum(len(c.members) for c in causes)
        kinds = ", ".join(f"{len(c.members)} {c.key}" for c in causes)
        return [
            f"⚠ {total} warning(s) ({kinds}); degraded items are never shown as verbatim. "
            "`gitmem brief --budget 0` shows them all, `gitmem verify` explains each."
        ]
    lines: list[str] = []
    for cause in causes:
        # A headline and an example name what a pushed record or tree claims (a writer,
        # a key, a path): one line each, with no terminal escape, as an item's text.
        lines.append(f"⚠ {shown_text_line(cause.headline)}")
        if examples and len(cause.members) > 1:
            recent = sorted(cause.members, key=lambda w: w.created or "", reverse=True)
            lines += [f"  · {shown_text_line(_example(w))}" for w in recent[:examples]]
            if len(recent) > examples:
                lines.append(f"  · … and {len(recent) - examples} more")
    return lines


def _causes(warnings: Sequence[BriefWarning]) -> list[_Cause]:
    groups: dict[str, list[BriefWarning]] = {}
    for warning in warnings:
        groups.setdefault(_cause_key(warning), []).append(warning)
    return [_Cause(key, _headline(key, members), tuple(members)) for key, members in groups.items()]


def _cause_key(warning: BriefWarning) -> str:
    if warning.record is None:
        return warning.code if warning.code != "trust-root" else f"trust-root {warning.path}"
    if warning.code == UNTRUSTED_KEY:
        return "revoked" if " is revoked " in (warning.detail or "") else "untrusted"
    return warning.code


def _headline(key: str, members: list[BriefWarning]) -> str:
    n = len(members)
    first = members[0]
    if first.record is None:
        if n == 1:
            return first.message
        return f"{n} × {first.code}: {first.message} (and {n - 1} more like it)"
    if key == "untrusted":
        # A failed record's writer is whatever its bytes claim: keys are counted, and
        # each is named with the writers its records claim.
        claims: dict[str, set[str]] = {}
        for w in members:
            claims.setdefault(w.key or "an unnamed key", set()).add(w.writer or "no writer")
        keys = [f"{k} ({', '.join(sorted(claims[k]))})" for k in sorted(claims)]
        named = ", ".join(keys[:3]) + (f" and {len(keys) - 3} more" if len(keys) > 3 else "")
        return (
            f"{n} record(s) by {len(keys)} key(s) no trust root of this clone knows "
            f"({named}): {_UNTRUSTED_FIX}."
        )
    if key == "revoked":
        return f"{n} record(s) signed by revoked keys: {_REVOKED_FIX}."
    if key == OTHER_REPOSITORY:
        return f"{n} record(s) written for another repository: {_FOREIGN_FIX}."
    if n == 1:
        return first.message
    if key in _ITEM_CAUSES:
        records = len({w.record for w in members})
        return f"{n} item(s) of {records} record(s) failed verification ({key}): {_RECORD_FIX}."
    return f"{n} record(s) failed verification ({key}): {_RECORD_FIX}."


def _example(warning: BriefWarning) -> str:
    if warning.record is None:  # a path of the store (a stray, an odd entry), no record
        return warning.path or warning.message
    when = (warning.created or "")[:10]
    who = warning.writer or "unknown writer"
    return f"{(warning.record or '')[:12]} by {who}{', ' + when if when else ''}"
