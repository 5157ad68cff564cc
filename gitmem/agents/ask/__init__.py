"""``gitmem ask``: evidence-gated answers over memory and the repository's files at HEAD.

retrieval (:mod:`~gitmem.agents.ask.retrieve`, sources in :mod:`~gitmem.agents.ask.sources`) →
solver (a model answers with an exact quote from one excerpt, or "not found") →
a separate support call that sees only the question and the quote →
deterministic gates (:mod:`~gitmem.agents.ask.gates`) → one of five outcomes, every one of
them recorded as a signed event (:mod:`~gitmem.agents.ask.record`). Without a model, answers
come from verbatim memory items and exact text matches only
(:mod:`~gitmem.agents.ask.verbatim`). The whole flow: :mod:`~gitmem.agents.ask.run`; the
model side: :mod:`~gitmem.agents.ask.solve`, :mod:`~gitmem.agents.ask.prompts`,
:mod:`~gitmem.agents.ask.schema`, :mod:`~gitmem.agents.ask.models`. Described in docs/ask.md.
"""

from __future__ import annotations

from enum import StrEnum


class Outcome(StrEnum):
    """How an ask ends; each has its own exit code (:data:`EXIT_CODES`)."""

    SUPPORTED_ANSWER = "supported_answer"
    NOT_FOUND_IN_SOURCE = "not_found_in_source"
    NEEDS_REVIEW = "needs_review"
    UNSUPPORTED_OUTPUT = "unsupported_output"
    STALE_SOURCE = "stale_source"


SUPPORTED_ANSWER, NOT_FOUND_IN_SOURCE, NEEDS_REVIEW, UNSUPPORTED_OUTPUT, STALE_SOURCE = Outcome
OUTCOMES = tuple(Outcome)

EXIT_CODES = {
    SUPPORTED_ANSWER: 0,
    NOT_FOUND_IN_SOURCE: 10,
    NEEDS_REVIEW: 11,
    UNSUPPORTED_OUTPUT: 12,
    STALE_SOURCE: 13,
}
"""One exit code per outcome, clear of the codes every command shares (1 a failure,
2 bad input, 3 integrity), so a script can tell "asked, and this is the verdict" from
"could not ask"."""

EVENT_ASK = "ask"
"""The event every ask writes (``item`` null): see docs/ask.md for its fields."""
