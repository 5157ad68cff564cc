"""An ask without a model: verbatim memory items and exact text matches only.

Nothing is interpreted. A source matches when it holds every term of the question
(:func:`gitmem.agents.ask.retrieve.exact_lines`): a current memory item with a verified
verbatim quote, or a single line of a file at HEAD. The matches are the answer, cited
exactly as written; a match whose file changed in the working tree is not cited. The
result says that no model was asked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gitmem.agents.ask import NOT_FOUND_IN_SOURCE, STALE_SOURCE, SUPPORTED_ANSWER, Outcome
from gitmem.agents.ask.result import AskResult, Citation, Excerpt, Gate
from gitmem.agents.ask.retrieve import exact_lines
from gitmem.agents.ask.sources import Document

MAX_MATCHES = 5
MODE = "verbatim"
"""The ``mode`` of an ask answered without a model."""
NO_MODEL = (
    "no model is configured, so this is not an interpretation: verbatim memory items and "
    "exact text matches only"
)


def answer_verbatim(
    question: str,
    documents: Sequence[Document],
    checker: Callable[[Excerpt], str | None],
    head: str | None,
) -> AskResult:
    """Cite the sources that hold every term of *question*, exactly as written."""
    matches = exact_lines(question, documents, limit=4 * MAX_MATCHES)
    fresh: list[Excerpt] = []
    changed: list[str] = []
    for excerpt in matches:
        change = checker(excerpt)
        if change is None:
            fresh.append(excerpt)
        else:
            changed.append(change)
    fresh = fresh[:MAX_MATCHES]
    gates = [
        Gate("exact", bool(matches), f"{len(matches)} source(s) hold every term of the question"),
        Gate(
            "fresh",
            not changed,
            "; ".join(changed) if changed else "every match still matches its snapshot",
        ),
    ]
    citations = tuple(Citation(e.kind, e.path, e.blob, e.start, e.end, e.text) for e in fresh)

    def result(outcome: Outcome, reason: str, answer: str | None = None) -> AskResult:
        return AskResult(
            question=question,
            outcome=outcome,
            reason=reason,
            mode=MODE,
            model=None,
            answer=answer,
            citations=citations,
            gates=tuple(gates),
            excerpts=tuple(fresh),
            head=head,
        )

    if fresh:
        return result(SUPPORTED_ANSWER, NO_MODEL, answer=fresh[0].text)
    if changed:
        return result(STALE_SOURCE, f"{NO_MODEL}; every match is stale: {changed[0]}")
    return result(
        NOT_FOUND_IN_SOURCE,
        f"{NO_MODEL}; no verbatim memory item or line of a file at HEAD holds every term "
        "of the question",
    )
