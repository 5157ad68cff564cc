"""A user's message that rejects the proposal before it: rule 4 of
:mod:`gitmem.capture.extract.lastword`.

A user's message **rejects** the reply before it when it begins "No", "Nope", "Don't do
that" (not "no problem", not "No, that's fine, go ahead"), or says no to a thing ("no
Redis", "no to the Redis cache", "The Prometheus exporter, no", "Rate limiting, not
now"); the last two reject only the reply's decisions that name the thing.

Pure; raises nothing.
"""

from __future__ import annotations

import re

from gitmem.capture.extract.reports import SENTENCES
from gitmem.capture.extract.turning import CHOOSING, stems
from gitmem.lifecycle.sameclaim import content_words

_LEAD_IN = r"(?:(?:actually|hm+|well|wait|sorry|oh|ah|um+)\b[\s,.!—–-]*)?"
_NOT_REJECTING = r"(?:problem|worries|need|rush|doubt|wonder|kidding|longer|more|idea|way)\b"
_REJECTS = re.compile(
    rf"{_LEAD_IN}(?:(?:no|nope|nah|nein|non|não|nao|нет)\b(?![ -]{_NOT_REJECTING})"
    r"(?:\s*[,.!:;—–-]|\s*$)"
    r"|(?:don't|do not) do (?:that|this)\b|not like that\b"
    r"|that's (?:wrong|not (?:it|right|what i)))"
)
"""How a user's message that rejects the reply before it begins ("No.", "Actually, no —",
"Nein,", "Non,", "Não,", "Нет,")."""
_APPROVES = re.compile(
    r"[\s,.!—–-]*(?:(?:that's|that is|it's|it is|this is|all)\s+)?"
    r"(?:fine|good|ok|okay|great|perfect|go ahead|ship it|looks good|sounds good|lgtm|"
    r"nothing (?:to add|else)|proceed|carry on|that works)\b"
)
"""What right after a "no" says the reply is fine ("No, that's fine, go ahead.")."""
_REJECTS_THING = re.compile(
    rf"{_LEAD_IN}(?:no|not)\s+(?!{_NOT_REJECTING}|(?:yet|now|sure|really|quite|bad)\b)"
    r"(?:to\s+)?(?=[\w`])"
)
"""How a user's message that rejects a thing the reply chose begins ("Actually no Redis,
…", "No to the Redis cache"): it rejects only the reply's decisions that name the thing."""
_THING_THEN_NO = re.compile(
    r"([^,.;:!?—–()\n]{1,60}?)\s*[,:—–-]+\s*(?:no|nope|nah|not now|not yet|not for now|later)\b"
    r"(?=\s*[,.!;:—–-]|\s*$)"
)
"""A sentence that names a thing, then says no to it ("The Prometheus exporter, no, …",
"Rate limiting, not now.")."""
_FIRST_CLAUSE = re.compile(r"[^,;—–]*")
_THING_RE = re.compile(r"[^,.;:!?—–()\n]*")
_THING_WORDS = 3
"""What such a message says no to: its words up to the first stop, at most this many
("no Redis, ops won't run it": "redis"; "no Memcached either, Redis is fine": not Redis)."""


def rejection(folded: str) -> tuple[frozenset[str], bool] | None:
    """When a user's message (*folded*) begins by rejecting the reply before it, the words
    of its first sentence (besides the rejection and the choosing), and whether it rejects
    only the decisions that name one of them (it says no to a thing); else None."""
    folded = folded.lstrip(" *_>\n")
    match = _REJECTS.match(folded)
    if match is not None and _APPROVES.match(folded, match.end()):
        return None  # "No, that's fine, go ahead."
    thing = None if match is not None else _REJECTS_THING.match(folded)
    if (match := match or thing) is None:
        return _thing_then_no(folded)
    first = SENTENCES.split(folded[match.end() :].lstrip(), maxsplit=1)[0]
    if thing is None:
        # what it names is in its first clause: "No, not the timeout bump, batching alone"
        # names the bump, not the batching it keeps
        clause = _FIRST_CLAUSE.match(first)
        return stems(content_words(clause.group() if clause else first) - CHOOSING), False
    if first.rstrip().endswith("?"):
        return None  # "no tests for this?" asks
    return _named(first), True


def _thing_then_no(folded: str) -> tuple[frozenset[str], bool] | None:
    """A sentence of *folded* that names a thing and then says no to it, or a clause of its
    that says no to a thing ("Only the index, no cache.")."""
    named: set[str] = set()
    for sentence in SENTENCES.split(folded):
        said = sentence.strip(" *_>")
        match = _THING_THEN_NO.fullmatch(said) or _THING_THEN_NO.match(said)
        if match is not None and not _APPROVES.match(said, match.end()):
            named |= _named(match.group(1))
        elif not said.rstrip().endswith("?"):
            for clause in _CLAUSE.finditer(said):
                if thing := _REJECTS_THING.match(clause.group(1)):
                    named |= _named(clause.group(1)[thing.end() :])
    return (frozenset(named), True) if named else None


_CLAUSE = re.compile(r"(?<=[,;])\s*([^,;]*)")
"""A clause after the first of a sentence."""


def _named(first: str) -> frozenset[str]:
    """What a rejection says no to: the words up to the first stop, at most three."""
    named = _THING_RE.match(first)
    words = named.group().split()[:_THING_WORDS] if named is not None else []
    return stems(content_words(" ".join(words)) - CHOOSING)
