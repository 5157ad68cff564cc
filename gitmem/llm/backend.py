"""What every model backend shares: the protocol, its settings and its errors."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from gitmem.core.errors import NegativeResult

MAX_OUTPUT_BYTES = 4 * 1024 * 1024
"""The most model output gitmem reads (command stdout, or an HTTP answer's content)."""


class ModelError(NegativeResult):
    """A model gave no usable reply. The message is one sentence after the kind's prefix.

    ``raw`` holds bytes the model side produced that the caller has not otherwise
    seen (the HTTP body of a malformed answer, a failing command's stdout, a rejected
    reply), so they can be kept in the capture log; None when there are none.
    """

    prefix: ClassVar[str] = "model failed"
    kind: ClassVar[str] = "backend_failed"
    """How the capture log records this failure."""

    def __init__(self, detail: str, raw: bytes | None = None) -> None:
        super().__init__(f"{self.prefix}: {detail}")
        self.detail = detail
        self.raw = raw


class BackendFailed(ModelError):
    """The model could not be asked: timeout, non-zero exit, HTTP error, no connection."""

    prefix = "model backend failed"


class OutputRejected(ModelError):
    """The model answered, but not with exactly one object in the strict schema its
    caller requires (the caller's parser raises it)."""

    prefix = "model output rejected"
    kind = "unsupported_output"  # DESIGN: a reply that breaks the schema is recorded, never guessed


class ReplyTruncated(OutputRejected):
    """The reply stopped before its end: the endpoint said so (``finish_reason``
    ``"length"``), or the bytes end inside the JSON object (how a ``command`` backend's
    cut-off shows, since a command has no finish reason). Never parsed, never used."""


@dataclass(frozen=True)
class Reported:
    """What the model side said one call cost, when it says (the host CLIs do)."""

    input_tokens: int
    output_tokens: int
    usd: float | None = None


class ModelBackend(Protocol):
    """Something that sends a prompt to a model and returns its answer's bytes."""

    name: str
    """The extractor name (:data:`gitmem.core.extractors.MODEL_EXTRACTORS`)."""

    label: str
    """A one-line description safe to log: no command arguments, no key, no password."""

    reported: Reported | None
    """What the model side reported of the last call (None: it reports nothing)."""

    def complete(self, prompt: str, *, system: str) -> bytes:
        """The model's answer to *prompt*, unparsed; *system* is the caller's system prompt.

        Raises:
            BackendFailed: the model could not be asked.
            ReplyTruncated: the endpoint says the reply was cut off (never any other
                exception).
        """
        ...


@dataclass(frozen=True)
class ModelSettings:
    """What a model backend needs; ``None`` where the user set nothing."""

    command: str | None = None
    base_url: str | None = None
    model: str | None = None
    api_key: str | None = field(default=None, repr=False)
    timeout: float = 60.0
    schema: Mapping[str, Any] | None = None
    """The JSON Schema the caller's parser holds replies to, for a backend that can
    constrain its model to one (the host CLIs); the parser stays the authority."""
