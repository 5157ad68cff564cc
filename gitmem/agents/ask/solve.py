"""An ask with a model: solver, then support, then the deterministic gates.

The solver sees the question and the excerpts. When it answers, the support call sees
only the question and the solver's quote (never the answer, the excerpt id or any
other excerpt) and must answer or abstain on its own; the answer's gates are
:mod:`~gitmem.agents.ask.judge`. When the solver finds nothing, or retrieval found no
excerpt to show it, absence must be confirmed independently
(:mod:`~gitmem.agents.ask.absence`). Sources are checked before the model calls and
again after them.

Precedence of outcomes: no usable reply (the backend failed, the reply was cut off, or
it broke its schema) → ``unsupported_output``, with the true reason and never a
fallback; a source that changed → ``stale_source``; any other failed gate →
``needs_review``; otherwise ``supported_answer`` / ``not_found_in_source``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gitmem.agents.ask.absence import confirm_absence
from gitmem.agents.ask.blocks import SourceFile
from gitmem.agents.ask.calls import Checker, Failure, Run
from gitmem.agents.ask.judge import judge
from gitmem.agents.ask.prompts import solver_prompt, support_prompt
from gitmem.agents.ask.result import AskResult, Excerpt, Gate
from gitmem.agents.ask.schema import parse_solver, parse_support
from gitmem.llm import ModelBackend
from gitmem.store.capturelog import CaptureLog


def solve(
    question: str,
    excerpts: Sequence[Excerpt],
    candidates: Sequence[Excerpt],
    sources: Mapping[str, SourceFile],
    backend: ModelBackend,
    log: CaptureLog,
    checker: Checker,
    head: str | None,
    any_source: bool = True,
) -> AskResult:
    """Run the solver and the support call over *excerpts* and gate the result;
    *candidates* are the widened passages an absence check reads, *sources* the files
    (for the row gate), *any_source* whether there was anything to read at all."""
    run = Run(question, excerpts, candidates, sources, backend, log, head)
    if not excerpts:
        run.gates.append(
            Gate("retrieval", True, "no excerpt holds a term of the question; no solver call")
        )
        return confirm_absence(run, checker, {}, any_source)
    before = {e.id: checker(e) for e in excerpts}
    solver = run.ask("solver", solver_prompt(question, excerpts), parse_solver)
    if isinstance(solver, Failure):
        return run.unsupported(solver)
    if not solver.found:
        return confirm_absence(run, checker, before, any_source)
    assert solver.quote is not None and solver.answer is not None
    support = run.ask("support", support_prompt(question, solver.quote), parse_support)
    if isinstance(support, Failure):
        return run.unsupported(support)
    run.gates.append(Gate("schema", True, "every model reply met its schema"))
    return judge(run, solver, support, checker, before)
