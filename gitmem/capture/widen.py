"""A quote cut from what its sentence puts on it keeps its evidence: the sentence is the item.

A model that quotes "use Redis for the cache" from "Don't use Redis for the cache.", or "we
revert the parser change" from "If the benchmark regresses, we revert the parser change.",
copied true words and cut them from the negation or the condition that governs them
(:func:`gitmem.capture.standing.standing` says so). Rather than fall to inferred with its
quote thrown away, such an item keeps the transcript's own words: its quote is widened to
its sentence (from the sentence's start to the end of the quote's clause, the negation or
condition included), and that sentence becomes the item's text, the model's summary kept
as ``summary``. The reader sees what was said, badged; never the cut words.

Only when all of these hold (else the item falls to inferred, as before):

- the quote is one piece: an ellipsis is an alteration, never widened;
- the item is a decision or a fact, and what its sentence puts on it is a negation word
  or a condition (:data:`WIDENED_FROM`): not a heading over its list, a cross mark, an
  option's label, a possibility or another's words, which a sentence cannot carry into
  a decision;
- the sentence is at most :data:`MAX_WIDENED` characters, with no cross mark (and, the
  capture checks, no masked secret: it would show the mask as said);
- the sentence stands as said itself (:func:`~gitmem.capture.standing.standing` gives no
  reason: a condition in a nested list item, a negating heading or a struck word still
  refuses it) and is no question (:func:`~gitmem.capture.questions.rests_on_question`).

Pure; never raises.
"""

from __future__ import annotations

import re

from gitmem.capture.questions import DECIDING, rests_on_question
from gitmem.capture.standing import CONDITION, clause_stop, sentence_start, standing
from gitmem.core.negation import CROSS_MARKS
from gitmem.core.quotes import SPAN_JOIN

WIDENED_FROM = (CONDITION,)
"""The reasons :func:`~gitmem.capture.standing.standing` gives that a whole sentence can
carry: the condition it puts on the quote."""
MAX_WIDENED = 300
"""The longest sentence (in characters) a quote is widened to: an item's text is a
statement, not a paragraph."""
WIDENED = "the quote was widened to its sentence, which holds what the quote left out"
_FULL_STOPS = (".", "!", "。", "！")
_LEAD_RE = re.compile(
    r"(?:[ \t>]*(?:[-+*]|\d{1,3}[.)])[ \t]+|[ \t>]+)*"
    r"(?:(?:\*\*|__)[^*_\n]{1,40}?:(?:\*\*|__)[ \t]+|(?:\*\*|__)[^*_\n]{1,40}?(?:\*\*|__):[ \t]+)?"
)
"""What opens a sentence's line before its words: a list or quote marker, a bold run-in
label ("**Rollback plan:**", a plain transcript's "**Assistant:**"). The widened sentence
starts after it; what it says is still read by the check of the sentence, which sees the
message before it ("**Option A:** …" still decides nothing)."""


def widened(span: str, message: str, kind: str, why: str) -> str | None:
    """The sentence of *message* that the verified *span* was cut from, when *why* (the
    reason :func:`~gitmem.capture.standing.standing` gave) is one a whole sentence can
    carry and the sentence stands as said (the module's text); else None."""
    if why not in WIDENED_FROM or kind not in DECIDING or SPAN_JOIN in span or not span.strip():
        return None
    start = message.find(span)
    if start < 0:
        return None
    end = start + len(span)
    first = sentence_start(message, start)
    lead = _LEAD_RE.match(message, first, start)
    first = lead.end() if lead is not None else first
    stop = max(end, clause_stop(message, start, end))
    if message[stop : stop + 1] in _FULL_STOPS:
        stop += 1  # the sentence's own full stop
    sentence = message[first:stop].strip()
    if len(sentence) > MAX_WIDENED or sentence == span.strip():
        return None
    if any(mark in sentence for mark in CROSS_MARKS):
        return None  # a mark a reader may pass over is no negation to carry
    if standing(sentence, message, kind) is not None:
        return None
    if rests_on_question(sentence, sentence, message) is not None:
        return None
    return sentence
