"""How far a user's own words reach past the turn they are said in.

A user's first-person words say where the user stands, and that holds after the reply: the
work they keep for themselves ("I'll handle renaming folder", "I will add it later"), what
they will not have ("I don't want a runner at this time"), the principle or standard they
set ("my philosophy is to implement the full api", "going forward kebab-case H1 is the
standard", "Make that standard in your workflow"). A "don't" that only bounds how the
assistant does the task at hand ("Don't change anything, just tell me") reaches no further
than the reply, and is no rule the project keeps.

Read from the user only (see docs/heuristic.md, *Markers*: a user's rule and the work a user
keeps); the assistant's "I'll …" is narration.
"""

from __future__ import annotations

import re

_A = "['’]"  # an apostrophe, straight or curly
_OPENING = (
    r"(?:\*\*|__|\*|_)?(?:(?:ok(?:ay)?|yes|yeah|no|and|also|but|so|then|actually|anyway)\b"
    r"[,.!:;]?\s+)*"
)

WORDS = frozenset(("i'll", "i’ll", "philosophy", "preference", "standard", "standards"))
"""Trigger words (lowercase) one of which a line must hold for these forms to be read; the
others ("want", "forward") are the markers' own already."""
NEEDLES = ("i will ", "i'm going to ", "i’m going to ", "i am going to ")
"""Trigger needles for the forms written in more than one word."""

_KEPT_WORK = (
    r"handle|take\s+care\s+of|do|add|fix|revisit|rename|deal\s+with|look\s+into|review|merge|"
    r"push|deploy|release|update|create|write|set\s+up|remove|delete|move|file|open|finish"
)
KEEPS_RE = re.compile(
    rf"{_OPENING}(?:i{_A}ll|i\s+will|i{_A}m\s+going\s+to|i\s+am\s+going\s+to)\s+"
    rf"(?:(?:just|also|then|probably|later|myself)\s+)?(?:{_KEPT_WORK})\b",
    re.IGNORECASE,
)
"""The user keeping a piece of the work for themselves, at the start of the sentence: "I'll
handle renaming folder", "I will add it later", "ok, I'm going to merge it myself". Work left
undone at the end, whoever does it (an open loop); a later report that it is done closes it
as any loop is closed."""

SETS_RE = re.compile(
    rf"^{_OPENING}i\s+(?:don{_A}?t|do\s+not)\s+want\b(?!\s+to\s+(?:see|know|ask|bother)\b)"
    rf"|\bmy\s+(?:philosophy|preference|approach|rule|standard)\s+(?:here\s+)?is\b"
    rf"|\bgoing\s+forward\b"
    rf"|\bmake\s+(?:that|this|it)\s+(?:the\s+|a\s+)?(?:standard|default|rule)\b",
    re.IGNORECASE,
)
"""The user saying where they stand: what they will not have ("I don't want a runner at this
time", not "I don't want to bother you"), their principle ("For the server, my philosophy is
to implement the full api"), a standard set for what comes after ("Fix this so that going
forward kebab-case H1 is the standard", "Make that standard in your workflow"). A rule the
user keeps, as "I'd rather …" and "from now on" are."""

_THIS_TURN_RE = re.compile(
    rf"(?:don{_A}t|do\s+not|never)\s+(?:(?:edit|modify|change|touch|fix|stash|delete)\s+"
    r"(?:any(?:thing|\s+files?|\s+code)?|files?|the\s+files?|code)|run\s+(?:any\s+)?"
    r"(?:tests?|commands?|linters?|formatters?|builds?|anything|the\s+tests?))\b",
    re.IGNORECASE,
)
"""A user's "don't" that bounds what the assistant does for the task at hand ("Don't change
anything, just tell me", "Do not edit files", "do not run tests or commands"): how to do
this turn's work, not a rule the project keeps."""


def this_turn(sentence: str, rule: re.Match[str]) -> bool:
    """Is the user's rule *rule* of *sentence* one that bounds this turn's task only?"""
    scope = _THIS_TURN_RE.search(sentence)
    return scope is not None and scope.start() < rule.end() <= scope.end()
