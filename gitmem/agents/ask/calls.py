"""One model ask while it runs: its calls, the raw reply of each, its gates, and the
result it ends with. A call that gives no usable reply is a :class:`Failure` that says
which (the backend failed, the reply was cut off, or it broke its schema), and its
result is ``unsupported_output`` with that true reason: never a fallback.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from gitmem.agents.ask import UNSUPPORTED_OUTPUT, Outcome
from gitmem.agents.ask.blocks import SourceFile
from gitmem.agents.ask.models import ReplyProblem, problem_of
from gitmem.agents.ask.prompts import SYSTEM_PROMPT
from gitmem.agents.ask.result import AskResult, Citation, Excerpt, Gate
from gitmem.llm import ModelBackend, ModelError
from gitmem.llm.call import call_model
from gitmem.store.capturelog import CaptureLog

Checker = Callable[[Excerpt], str | None]
"""Why an excerpt's source no longer matches its snapshot now, or None."""
T = TypeVar("T")


@dataclass(frozen=True)
class Failure:
    """A call that gave no usable reply: which kind of failure, and one sentence."""

    problem: ReplyProblem
    role: str
    detail: str


_GATE_OF = {
    ReplyProblem.BACKEND: "backend",
    ReplyProblem.TRUNCATED: "complete",
    ReplyProblem.SCHEMA: "schema",
}


class Run:
    """The state of one model ask while its steps run."""

    def __init__(
        self,
        question: str,
        excerpts: Sequence[Excerpt],
        candidates: Sequence[Excerpt],
        sources: Mapping[str, SourceFile],
        backend: ModelBackend,
        log: CaptureLog,
        head: str | None,
    ) -> None:
        self.question = question
        self.excerpts = tuple(excerpts)
        self.candidates = tuple(candidates)
        self.sources = sources
        self.backend = backend
        self.log = log
        self.head = head
        self.raw: dict[str, str | None] = {}
        self.gates: list[Gate] = []
        self.asked_absence = False

    def ask(self, role: str, prompt: str, parse: Callable[[bytes], T]) -> T | Failure:
        """The parsed reply, or why there is none (the ask's record keeps it: nothing is
        logged)."""
        reply = call_model(self.backend, prompt, system=SYSTEM_PROMPT, parse=parse, log=self.log)
        self.raw[role] = reply.digest
        try:
            return reply.result()
        except ModelError as e:
            return Failure(problem_of(e), role, e.detail)

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
            candidates=self.candidates if self.asked_absence else (),
            head=self.head,
            withheld=withheld,
        )

    def unsupported(self, failure: Failure) -> AskResult:
        """The ``unsupported_output`` result of *failure*, with its true reason."""
        self.gates.append(
            Gate(_GATE_OF[failure.problem], False, f"{failure.role}: {failure.detail}")
        )
        if failure.problem is ReplyProblem.BACKEND:
            reason = f"the model backend failed on the {failure.role} call: {failure.detail}"
        elif failure.problem is ReplyProblem.TRUNCATED:
            reason = (
                f"the {failure.role} call's reply was cut off before its end (truncated), "
                f"so it was not read: {failure.detail}"
            )
        else:
            reason = f"a model reply broke its schema: {failure.role}: {failure.detail}"
        return self.result(UNSUPPORTED_OUTPUT, reason)
