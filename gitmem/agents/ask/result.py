"""What one ask found: excerpts, gates, citations and the outcome. Plain data."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gitmem.agents.ask import Outcome

ASK_FORMAT = "gitmem/ask/1"


@dataclass(frozen=True)
class Excerpt:
    """A passage shown to the solver, with the immutable snapshot it was cut from."""

    id: str
    """``E1``, ``E2``, … in the order retrieval ranked them."""
    kind: str
    """``file`` (a blob at HEAD) or ``memory`` (a verbatim item's verified quote)."""
    path: str
    """The repository path, or ``memory:<item id>``."""
    blob: str
    """The git blob id of the file at HEAD, or the SHA-256 of the checkpoint that stores
    the memory item."""
    start: int
    end: int
    """First and last line (1-based, inclusive) of the excerpt in its snapshot."""
    text: str
    """The excerpt's lines, secrets masked: the only text a quote may come from."""
    note: str | None = None
    """Context shown beside a memory excerpt (the item's text); never quotable."""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "path": self.path,
            "blob": self.blob,
            "lines": [self.start, self.end],
        }


@dataclass(frozen=True)
class Citation:
    """The source of a released answer: path, snapshot id, lines and the exact quote."""

    kind: str
    path: str
    blob: str
    start: int
    end: int
    quote: str

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "path": self.path,
            "blob": self.blob,
            "lines": [self.start, self.end],
            "quote": self.quote,
        }


@dataclass(frozen=True)
class Gate:
    """One deterministic check and what it found."""

    name: str
    ok: bool
    detail: str

    def to_json(self) -> dict[str, Any]:
        return {"gate": self.name, "ok": self.ok, "detail": self.detail}


@dataclass(frozen=True)
class AskResult:
    question: str
    outcome: Outcome
    reason: str
    """One sentence: why this outcome."""
    mode: str
    """``model`` (solver and support calls) or ``verbatim`` (no model configured)."""
    model: str | None
    """The backend's label (safe to show: no arguments, no key), or None."""
    answer: str | None
    """The released answer; None whenever the outcome withholds it."""
    citations: tuple[Citation, ...] = ()
    gates: tuple[Gate, ...] = ()
    raw: dict[str, str | None] = field(default_factory=dict)
    """Role (``solver``, ``support``) → SHA-256 of the model's raw reply bytes."""
    excerpts: tuple[Excerpt, ...] = ()
    head: str | None = None
    withheld: dict[str, Any] | None = None
    """What the solver proposed when it was not released (kept in the event only)."""
    event: str | None = None
    """The address of the signed event that records this ask."""

    def to_json(self) -> dict[str, Any]:
        """The ``ask --json`` document (a withheld answer is never in it)."""
        return {
            "format": ASK_FORMAT,
            "question": self.question,
            "outcome": self.outcome,
            "reason": self.reason,
            "mode": self.mode,
            "model": self.model,
            "answer": self.answer,
            "citations": [c.to_json() for c in self.citations],
            "gates": [g.to_json() for g in self.gates],
            "raw": dict(self.raw),
            "excerpts": [e.to_json() for e in self.excerpts],
            "head": self.head,
            "event": self.event,
        }
