"""One model call, written once: complete, keep the raw reply, parse, log a failure.

Extraction, a chat's proposals, the chat audit and ``gitmem ask`` all call a model
through :func:`call_model`: the raw reply is kept by its SHA-256 (the capture log's
``raw/`` folder) **before** the caller's strict parser reads it, and a failure (no
reply, or one the parser refuses) is one ``failed`` line of the capture log, unless the
caller keeps its own record (``ask`` puts it in its event). The failure is returned in
the :class:`Reply`, never raised: whether it stops the caller (extraction) or is an
answer in itself (an audit's ``failed`` verdict) is the caller's to say.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, Generic, Protocol, TypeVar

from gitmem.llm.backend import ModelBackend, ModelError

T = TypeVar("T")


class RawLog(Protocol):
    """Where replies are kept and failures written (the capture log)."""

    def keep_raw(self, raw: bytes) -> str: ...

    def write(self, outcome: str, source: str, **detail: Any) -> None: ...


@dataclass(frozen=True)
class Reply(Generic[T]):
    """One model call: the parsed reply, or the failure; and the hash of the raw bytes
    kept (None: the model side gave none)."""

    value: T | None
    digest: str | None
    error: ModelError | None = None

    def result(self) -> T:
        """The parsed reply.

        Raises:
            ModelError: the call failed (already in the capture log when it was logged).
        """
        if self.error is not None:
            raise self.error
        return self.value  # type: ignore[return-value]  # set whenever error is None


@dataclass
class Usage:
    """What model calls cost: counted here (calls, seconds, bytes sent and received) and,
    when the model side reports them, its tokens and dollars."""

    calls: int = 0
    seconds: float = 0.0
    input_bytes: int = 0
    output_bytes: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    usd: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The non-zero counts, seconds to the tenth. Raises nothing."""
        shown = {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name)}
        if "seconds" in shown:
            shown["seconds"] = round(self.seconds, 1)
        if "usd" in shown:
            shown["usd"] = round(self.usd, 4)
        return shown


def call_model(
    backend: ModelBackend,
    prompt: str,
    *,
    system: str,
    parse: Callable[[bytes], T],
    log: RawLog,
    source: str | None = None,
    usage: Usage | None = None,
    **detail: Any,
) -> Reply[T]:
    """Ask *backend* once and parse the reply with *parse* (see the module). A failure is
    logged for *source* with *detail* (which extractor, which item), unless *source* is
    None; what the call cost is added to *usage*. Raises nothing for a model failure: it
    is the reply's ``error``."""
    digest: str | None = None
    began = time.monotonic()
    raw: bytes | None = None
    try:
        raw = backend.complete(prompt, system=system)
        digest = log.keep_raw(raw)
        return Reply(parse(raw), digest)
    except ModelError as e:
        raw = raw if raw is not None else e.raw
        if digest is None and raw is not None:
            digest = log.keep_raw(raw)
        if source is not None:
            log.write("failed", source, kind=e.kind, error=str(e), raw=digest, **detail)
        return Reply(None, digest, e)
    finally:
        if usage is not None:
            _count(usage, backend, prompt, raw, time.monotonic() - began)


def _count(
    usage: Usage, backend: ModelBackend, prompt: str, raw: bytes | None, seconds: float
) -> None:
    usage.calls += 1
    usage.seconds += seconds
    usage.input_bytes += len(prompt.encode("utf-8", "replace"))
    usage.output_bytes += len(raw or b"")
    reported = backend.reported
    if reported is not None:
        usage.input_tokens += reported.input_tokens
        usage.output_tokens += reported.output_tokens
        usage.usd += reported.usd or 0.0
