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

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Excerpt:
        """An excerpt as a record keeps it (its text is not kept: it is the blob's)."""
        first, last = data["lines"]
        return cls(data["id"], data["kind"], data["path"], data["blob"], first, last, "")


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

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Citation:
        first, last = data["lines"]
        return cls(data["kind"], data["path"], data["blob"], first, last, data["quote"])


@dataclass(frozen=True)
class Gate:
    """One deterministic check and what it found."""

    name: str
    ok: bool
    detail: str

    def to_json(self) -> dict[str, Any]:
        return {"gate": self.name, "ok": self.ok, "detail": self.detail}


@dataclass(frozen=True)
class RecordInfo:
    """Where an ask's outcome is recorded: a signed event in the shared memory, or a
    local record (``--no-record``); and whether this ask reused it."""

    kind: str
    """``signed`` or ``local``."""
    address: str
    """The SHA-256 of the record's bytes."""
    created: str
    """When the record was written (the record's own timestamp)."""
    reused: bool = False
    """True when an identical ask within the reuse window wrote it, and this one
    reused it instead of writing another."""

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "address": self.address,
            "created": self.created,
            "reused": self.reused,
        }


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
    candidates: tuple[Excerpt, ...] = ()
    """The passages the absence check read (a widened second retrieval), if it ran."""
    head: str | None = None
    withheld: dict[str, Any] | None = None
    """What the solver proposed when it was not released (kept in the event only)."""
    event: str | None = None
    """The address of the signed event that records this ask (None for a local record)."""
    record: RecordInfo | None = None

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
            "candidates": [e.to_json() for e in self.candidates],
            "head": self.head,
            "event": self.event,
            "record": None if self.record is None else self.record.to_json(),
        }

    @classmethod
    def from_record(cls, data: dict[str, Any]) -> AskResult:
        """The result an outcome record holds (:func:`gitmem.agents.ask.record.event_extra`).

        Raises:
            KeyError, TypeError, ValueError: *data* is not an ask record.
        """
        raw = data["raw"]
        if not isinstance(raw, dict):
            raise TypeError("raw")
        return cls(
            question=str(data["question"]),
            outcome=Outcome(data["outcome"]),
            reason=str(data["reason"]),
            mode=str(data["mode"]),
            model=data["model"],
            answer=data["answer"],
            citations=tuple(Citation.from_json(c) for c in data["citations"]),
            gates=tuple(Gate(g["gate"], bool(g["ok"]), g["detail"]) for g in data["gates"]),
            raw={str(k): v for k, v in raw.items()},
            excerpts=tuple(Excerpt.from_json(e) for e in data["excerpts"]),
            candidates=tuple(Excerpt.from_json(e) for e in data.get("candidates", [])),
            head=data["head"],
            withheld=data.get("withheld"),
        )
