"""The gates of a proposed answer, in code, after the solver and the support call.

``excerpt`` (the cited excerpt was shown), ``quote`` (exact, on word and number
boundaries: :func:`~gitmem.agents.ask.gates.quote_problem`), ``fresh`` (the source
still matches its snapshot, before and after the calls), ``anchor`` (a bounded span of
the quote that keeps its negation: :func:`~gitmem.agents.ask.gates.anchor_problem`),
``row`` (for a quote from a table: condition and outcome from one row,
:mod:`~gitmem.agents.ask.rows`), ``rule`` (for a quote from prose: the question's
condition is the quoted rule's, :mod:`~gitmem.agents.ask.rules`), ``support`` /
``agree`` (the support call answered the same from the quote alone). A changed source
is ``stale_source``; any other failure ``needs_review``, the proposal kept in the
record's ``withheld`` field only.
"""

from __future__ import annotations

from gitmem.agents.ask import NEEDS_REVIEW, STALE_SOURCE, SUPPORTED_ANSWER
from gitmem.agents.ask.blocks import SourceFile
from gitmem.agents.ask.calls import Checker, Run
from gitmem.agents.ask.gates import agree, anchor_problem, locate_quote, quote_problem
from gitmem.agents.ask.result import AskResult, Citation, Excerpt, Gate
from gitmem.agents.ask.rows import row_verdict
from gitmem.agents.ask.rules import rule_verdict
from gitmem.agents.ask.schema import SolverReply, SupportReply


def judge(
    run: Run,
    solver: SolverReply,
    support: SupportReply,
    checker: Checker,
    before: dict[str, str | None],
) -> AskResult:
    """The outcome of the solver's answer and the support's reply."""
    assert solver.answer is not None and solver.quote is not None
    withheld = {
        "answer": solver.answer,
        "quote": solver.quote,
        "excerpt": solver.excerpt,
        "support": support.answer,
    }
    excerpt = next((e for e in run.excerpts if e.id == solver.excerpt), None)
    stale: str | None = None
    span: tuple[int, int] | None = None
    if excerpt is None:
        run.gates.append(Gate("excerpt", False, f"the solver cited {solver.excerpt}, not shown"))
    else:
        problem = quote_problem(solver.quote, excerpt.text)
        run.gates.append(
            Gate("quote", problem is None, problem or f"the quote is in {_where(excerpt)}")
        )
        span = None if problem else locate_quote(solver.quote, excerpt.text)
        stale = before[excerpt.id] or checker(excerpt)
        run.gates.append(
            Gate("fresh", stale is None, stale or "the source still matches its snapshot")
        )
    unanchored = anchor_problem(solver.answer, solver.quote)
    run.gates.append(
        Gate(
            "anchor", unanchored is None, unanchored or "the answer is a bounded span of the quote"
        )
    )
    if excerpt is not None and span is not None:
        run.gates += _binding(run, solver.answer, excerpt, span)
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
    assert excerpt is not None and span is not None  # the quote gate passed
    return run.result(
        SUPPORTED_ANSWER,
        "every gate passed: the quote is in the cited snapshot, the source is unchanged, "
        "the answer is anchored in the quote, and the support call agrees",
        answer=solver.answer,
        citations=(_citation(excerpt, span),),
    )


def _binding(run: Run, answer: str, excerpt: Excerpt, span: tuple[int, int]) -> list[Gate]:
    """The row gate for a quote from a table, else the rule gate for one from prose; a
    file's table or rule block is read from the whole file, a memory quote is its own."""
    source = run.sources.get(excerpt.path) if excerpt.kind == "file" else None
    if source is None:
        source, start = SourceFile(excerpt.path, tuple(excerpt.text.split("\n"))), 1
    else:
        start = excerpt.start
    offset = sum(len(line) + 1 for line in source.lines[: start - 1])
    where = (offset + span[0], offset + span[1])
    shown = [run.sources[e.path] for e in run.excerpts if e.path in run.sources]
    row = row_verdict(run.question, answer, source, where, shown)
    if row is not None:
        return [Gate("row", row.ok, row.detail)]
    rule = rule_verdict(run.question, answer, source, where)
    return [] if rule is None else [Gate("rule", *rule)]


def _where(excerpt: Excerpt) -> str:
    return f"{excerpt.path} (lines {excerpt.start}-{excerpt.end})"


def _citation(excerpt: Excerpt, span: tuple[int, int]) -> Citation:
    """The cited span as the source writes it, with the lines it covers."""
    start, end = span
    text = excerpt.text
    first = excerpt.start + text.count("\n", 0, start)
    last = excerpt.start + text.count("\n", 0, end)
    return Citation(excerpt.kind, excerpt.path, excerpt.blob, first, last, text[start:end])
