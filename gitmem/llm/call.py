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

from collections.abc import Callable
from dataclasses import dataclass
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


def call_model(
    backend: ModelBackend,
    prompt: str,
    *,
    system: str,
    parse: Callable[[bytes], T],
    log: RawLog,
    source: str | None = None,
    **detail: Any,
) -> Reply[T]:
    """Ask *backend* once and parse the reply with *parse* (see the module). A failure is
    logged for *source* with *detail* (which extractor, which item), unless *source* is
    None. Raises nothing for a model failure: it is the reply's ``error``."""
    digest: str | None = None
    try:
        raw = backend.complete(prompt, system=system)
        digest = log.keep_raw(raw)
        return Reply(parse(raw), digest)
    except ModelError as e:
        if digest is None and e.raw is not None:
            digest = log.keep_raw(e.raw)
        if source is not None:
            log.write("failed", source, kind=e.kind, error=str(e), raw=digest, **detail)
        return Reply(None, digest, e)
