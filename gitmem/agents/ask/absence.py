"""Confirmed absence: "not found" is a finding only when an independent check agrees.

It runs when the solver found nothing in its excerpts, or when retrieval found no
excerpt to show it. The check:

1. a **second retrieval with the question's terms widened**
   (:func:`gitmem.agents.ask.widen.candidates`): more and looser matches, or every
   source in full when the sources are small;
2. an **absence check**: a support call (the support checker's framing, with the
   question and the candidate excerpts, and no passage) that must abstain too;
3. ``fresh``: every excerpt's and candidate's source still matches its snapshot.

``not_found_in_source`` only when the absence check abstained over a non-empty set of
candidates (or there is no source at all). When it answers, or when there is nothing it
could be shown (no candidate even widened, and the sources too large to read whole),
absence is not confirmed: ``needs_review``.
"""

from __future__ import annotations

from gitmem.agents.ask import NEEDS_REVIEW, NOT_FOUND_IN_SOURCE, STALE_SOURCE
from gitmem.agents.ask.calls import Checker, Failure, Run
from gitmem.agents.ask.prompts import absence_prompt
from gitmem.agents.ask.result import AskResult, Excerpt, Gate
from gitmem.agents.ask.schema import parse_support


def confirm_absence(
    run: Run, checker: Checker, before: dict[str, str | None], any_source: bool
) -> AskResult:
    """The outcome of "nothing found" after the independent check."""
    if not any_source:
        run.gates.append(
            Gate("absence", True, "there is no source at all: nothing holds an answer")
        )
        return run.result(
            NOT_FOUND_IN_SOURCE,
            "there is no source to answer from: no file at HEAD and no verbatim memory",
        )
    if not run.candidates:
        run.gates.append(
            Gate(
                "absence",
                False,
                "no passage holds a term of the question even with its terms widened, and the "
                "sources are too large to read whole: no independent check could be shown anything",
            )
        )
        return run.result(
            NEEDS_REVIEW,
            "absence not confirmed: nothing matched the question even widened, so no "
            "independent check could read the sources; phrase the question with the "
            "source's words",
        )
    run.asked_absence = True
    run.gates.append(
        Gate(
            "widened",
            True,
            f"the second retrieval, with the question's terms widened, gave "
            f"{len(run.candidates)} candidate passage(s) for the absence check",
        )
    )
    shown: dict[tuple[str, str], Excerpt] = {}
    for excerpt in (*run.excerpts, *run.candidates):
        shown.setdefault((excerpt.path, excerpt.blob), excerpt)
    earlier = {e.id: before.get(e.id) for e in run.excerpts}
    first = {
        key: earlier.get(e.id) if e in run.excerpts else checker(e) for key, e in shown.items()
    }
    support = run.ask("support", absence_prompt(run.question, run.candidates), parse_support)
    if isinstance(support, Failure):
        return run.unsupported(support)
    run.gates.append(Gate("schema", True, "every model reply met its schema"))
    changes = [c for c in (first[k] or checker(e) for k, e in shown.items()) if c is not None]
    run.gates.append(
        Gate(
            "fresh",
            not changes,
            "; ".join(changes)
            if changes
            else "every excerpt's and candidate's source matches its snapshot",
        )
    )
    run.gates.append(
        Gate(
            "absence",
            not support.answered,
            "the independent absence check also found no answer in the candidates"
            if not support.answered
            else "the independent absence check answered where nothing was found",
        )
    )
    if changes:
        return run.result(STALE_SOURCE, changes[0])
    if support.answered:
        return run.result(
            NEEDS_REVIEW,
            "absence not confirmed: the independent absence check answered from the "
            "widened candidates",
            withheld={"answer": None, "support": support.answer},
        )
    return run.result(
        NOT_FOUND_IN_SOURCE,
        "not found, and confirmed: the independent absence check, shown the widened "
        "candidates, found no answer either",
    )
