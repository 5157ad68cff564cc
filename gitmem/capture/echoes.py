"""Echoes of gitmem's own output in a transcript, tagged so they never count as evidence.

The emission ledger (:mod:`gitmem.store.ledger`) remembers what gitmem showed an agent;
this pure half finds those texts, and brief-shaped lines, in a transcript's messages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from gitmem.core.quotes import CLOSE_TAG, ECHO_OPEN, fold
from gitmem.core.transcript import Message
from gitmem.store.ledger import MIN_WORDS, WORD

BADGE = re.compile(
    r"\[(?:✓ verbatim|~ inferred|\? untagged|carried|≈ corroborated|✓ world-checked"
    r"|⚠ verbatim withheld)"
)
"""The badges only gitmem prints: a line carrying one is a brief line, tags or not."""


def tag_echoes(
    messages: Sequence[Message], entries: Mapping[str, float], written_at: float | None
) -> tuple[list[Message], int]:
    """Wrap every echo line in an echo span; count the lines. Pure.

    An echo is a line that carries one of gitmem's badges (``[✓ verbatim]``, ``[~
    inferred]``, …: the shape of a brief line, whoever wrote it), or a line of an agent's
    own message (assistant, tool, system) that holds a text gitmem emitted. A person's
    message (role ``user``, or a plain transcript without roles) saying the same words
    again is evidence (it may corroborate), not an echo. Only entries emitted no later
    than *written_at* (the transcript's modification time; None = unknown, all count)
    apply.
    """
    usable = [t for t, when in entries.items() if written_at is None or when <= written_at]
    anchors: dict[str, list[tuple[str, int]]] = {}
    for text in usable:
        words = list(WORD.finditer(text))
        if len(words) >= MIN_WORDS:
            key = " ".join(w.group() for w in words[:MIN_WORDS])
            anchors.setdefault(key, []).append((text, words[0].start()))
    tagged = 0
    result: list[Message] = []
    for message in messages:
        agent = message.role not in (None, "user")
        if not (agent and anchors) and not BADGE.search(message.text):
            result.append(message)  # nothing to tag: not cut into lines (a long one is big)
            continue
        lines = message.text.split("\n")
        changed = False
        for n, line in enumerate(lines):
            if BADGE.search(line) or (agent and anchors and _holds_entry(fold(line), anchors)):
                lines[n] = f"{ECHO_OPEN}{line}{CLOSE_TAG}"
                tagged += 1
                changed = True
        result.append(replace(message, text="\n".join(lines)) if changed else message)
    return result, tagged


def _holds_entry(folded: str, anchors: Mapping[str, list[tuple[str, int]]]) -> bool:
    """Does *folded* contain an entry? Candidates are found by their first three words
    (punctuation around words does not matter), then compared in full."""
    words = list(WORD.finditer(folded))
    for i in range(len(words) - MIN_WORDS + 1):
        key = " ".join(w.group() for w in words[i : i + MIN_WORDS])
        for text, lead in anchors.get(key, ()):
            start = words[i].start() - lead
            if start >= 0 and folded.startswith(text, start):
                return True
    return False
