"""An ask with a model: solver, then support, then the deterministic gates.

The solver sees the question and the excerpts. When it answers, the support call sees
only the question and the solver's quote (never the answer, the excerpt id or any
other excerpt) and must answer or abstain on its own. When the solver finds nothing,
the support call sees the question and the same excerpts and must abstain too before
"not found" is a finding. Sources are checked before the model calls and again after
them. Precedence of outcomes: a reply that broke its schema (or no reply at all) →
``unsupported_output``; a source that changed → ``stale_source``; any other failed
gate → ``needs_review``; otherwise ``supported_answer`` / ``not_found_in_source``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from gitmem.agents.ask import (
    NEEDS_REVIEW,
    NOT_FOUND_IN_SOURCE,
    STALE_SOURCE,
    SUPPORTED_ANSWER,
    UNSUPPORTED_OUTPUT,
    Outcome,
)
from gitmem.agents.ask.gates import agree, anchored, locate_quote, quote_problem
from gitmem.agents.ask.models import Reply, call
from gitmem.agents.ask.prompts import absence_prompt, solver_prompt, support_prompt
from gitmem.agents.ask.result import AskResult, Citation, Excerpt, Gate
from gitmem.agents.ask.schema import SolverReply, SupportReply, parse_solver, parse_support
from gitmem.llm import ModelBackend, OutputRejected
from gitmem.store.capturelog import CaptureLog

Checker = Callable[[Excerpt], str | None]
"""Why an excerpt's source no longer matches its snapshot now, or None."""
T = TypeVar("T")


class _Run:
    """The state of one model ask while its steps run."""

    def __init__(
        self,
        question: str,
        excerpts: Sequence[Excerpt],
        backend: ModelBackend,
        log: CaptureLog,
        head: str | None,
    ) -> None:
        self.question = question
        self.excerpts = tuple(excerpts)
        self.backend = backend
        self.log = log
        self.head = head
        self.raw: dict[str, str | None] = {}
        self.gates: list[Gate] = []

    def ask(self, role: str, prompt: str, parse: Callable[[bytes], T]) -> T | str:
        """The parsed reply, or one sentence saying why there is none."""
        reply: Reply = call(self.backend, prompt, self.log)
        self.raw[role] = reply.digest
        if reply.failure is not None or reply.raw is None:
            return f"{role}: {reply.failure or 'no reply'}"
        try:
            return parse(reply.raw)
        except OutputRejected as e:
            return f"{role}: {e}"

    def result(
        self,
        outcome: Outcome,
        reason: str,
        answer: str | None = None,
        citations: tuple[Citation, ...] = (),
        withheld: dict[str, Any] | None = None,
    ) -> AskResult:
        return AskResult(
            question=self.question,
            outcome=outcome,
            reason=reason,
            mode="model",
            model=self.backend.label,
            answer=answer,
            citations=citations,
            gates=tuple(self.gates),
            raw=dict(self.raw),
            excerpts=self.excerpts,
            head=self.head,
            withheld=withheld,
        )

    def unsupported(self, problem: str) -> AskResult:
        self.gates.append(Gate("schema", False, problem))
        return self.result(UNSUPPORTED_OUTPUT, f"a model reply broke its schema: {problem}")


def solve(
    question: str,
    excerpts: Sequence[Excerpt],
    backend: ModelBackend,
    log: CaptureLog,
    checker: Checker,
    head: str | None,
) -> AskResult:
    """Run the solver and the support call over *excerpts* and gate the result."""
    run = _Run(question, excerpts, backend, log, head)
    if not excerpts:
        run.gates.append(Gate("retrieval", True, "no excerpt holds a term of the question"))
        return run.result(
            NOT_FOUND_IN_SOURCE,
            "no source holds any term of the question, so no model was asked",
        )
    before = {e.id: checker(e) for e in excerpts}
    solver = run.ask("solver", solver_prompt(question, excerpts), parse_solver)
    if isinstance(solver, str):
        return run.unsupported(solver)
    if not solver.found:
        return _absence(run, checker, before)
    assert solver.quote is not None and solver.answer is not None
    support = run.ask("support", support_prompt(question, solver.quote), parse_support)
    if isinstance(support, str):
        return run.unsupported(support)
    run.gates.append(Gate("schema", True, "every model reply met its schema"))
    return _judge(run, solver, support, checker, before)


def _judge(
    run: _Run,
    solver: SolverReply,
    support: SupportReply,
    checker: Checker,
    before: dict[str, str | None],
) -> AskResult:
    assert solver.answer is not None and solver.quote is not None
    withheld = {
        "answer": solver.answer,
        "quote": solver.quote,
        "excerpt": solver.excerpt,
        "support": support.answer,
    }
    excerpt = next((e for e in run.excerpts if e.id == solver.excerpt), None)
    stale: str | None = None
    if excerpt is None:
        run.gates.append(Gate("excerpt", False, f"the solver cited {solver.excerpt}, not shown"))
    else:
        problem = quote_problem(solver.quote, excerpt.text)
        run.gates.append(
            Gate("quote", problem is None, problem or f"the quote is in {_where(excerpt)}")
        )
        stale = before[excerpt.id] or checker(excerpt)
        run.gates.append(
            Gate("fresh", stale is None, stale or "the source still matches its snapshot")
        )
    bounded = anchored(solver.answer, solver.quote)
    run.gates.append(
        Gate(
            "anchor",
            bounded,
            f"the answer is {'' if bounded else 'not '}a bounded span of the quote",
        )
    )
    if not support.answered or support.answer is None:
        run.gates.append(Gate("support", False, "the support call abstained on the quote"))
    else:
        same = agree(solver.answer, support.answer)
        run.gates.append(
            Gate(
                "agree",
                same,
                "the support call gave the same answer from the quote alone"
                if same
                else "the support call answered differently from the quote alone",
            )
        )
    if stale is not None:
        return run.result(STALE_SOURCE, stale, withheld=withheld)
    failed = [g.detail for g in run.gates if not g.ok]
    if failed:
        return run.result(NEEDS_REVIEW, "answer withheld: " + "; ".join(failed), withheld=withheld)
    assert excerpt is not None
    span = locate_quote(solver.quote, excerpt.text)
    assert span is not None  # the quote gate passed
    return run.result(
        SUPPORTED_ANSWER,
        "every gate passed: the quote is in the cited snapshot, the source is unchanged, "
        "the answer is anchored in the quote, and the support call agrees",
        answer=solver.answer,
        citations=(_citation(excerpt, span),),
    )


def _absence(run: _Run, checker: Checker, before: dict[str, str | None]) -> AskResult:
    support = run.ask("support", absence_prompt(run.question, run.excerpts), parse_support)
    if isinstance(support, str):
        return run.unsupported(support)
    run.gates.append(Gate("schema", True, "every model reply met its schema"))
    changes = [c for c in (before[e.id] or checker(e) for e in run.excerpts) if c is not None]
    run.gates.append(
        Gate(
            "fresh",
            not changes,
            "; ".join(changes) if changes else "every excerpt's source matches its snapshot",
        )
    )
    run.gates.append(
        Gate(
            "absence",
            not support.answered,
            "the support call also found no answer"
            if not support.answered
            else "the support call answered where the solver found nothing",
        )
    )
    if changes:
        return run.result(STALE_SOURCE, changes[0])
    if support.answered:
        return run.result(
            NEEDS_REVIEW,
            "the solver found nothing but the support call answered: absence is not confirmed",
            withheld={"answer": None, "support": support.answer},
        )
    return run.result(
        NOT_FOUND_IN_SOURCE,
        "neither the solver nor the independent support call found an answer in the excerpts",
    )


def _where(excerpt: Excerpt) -> str:
    return f"{excerpt.path} (lines {excerpt.start}-{excerpt.end})"


def _citation(excerpt: Excerpt, span: tuple[int, int]) -> Citation:
    """The cited span as the source writes it, with the lines it covers."""
    start, end = span
    text = excerpt.text
    first = excerpt.start + text.count("\n", 0, start)
    last = excerpt.start + text.count("\n", 0, end)
    return Citation(excerpt.kind, excerpt.path, excerpt.blob, first, last, text[start:end])
