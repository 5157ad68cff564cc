"""Capture as commands and hooks run it: settings, extractor, ledger and log together.

:mod:`gitmem.capture.checkpoint` writes a checkpoint; this module decides what goes into it
(explicit items, or an extractor's), applies the emission ledger, and records every
attempt in the capture log — including a model's raw bytes, kept before parsing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from gitmem.capture.checkpoint import (
    CaptureResult,
    Prepared,
    default_session,
    log_result,
    prepare,
    write_checkpoint,
)
from gitmem.core.errors import GitmemError, InputError
from gitmem.core.integrity import TrustRoots
from gitmem.core.records import Draft
from gitmem.core.transcript import Transcript
from gitmem.lifecycle.memory import load
from gitmem.lifecycle.replay import MemoryState, replay
from gitmem.store.capturelog import CaptureLog
from gitmem.store.config import Settings, load_settings
from gitmem.store.home import gitmem_home
from gitmem.store.keys import Identity, load_identity
from gitmem.store.ledger import Ledger
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots

CHOICES = ("heuristic", "command", "openai", "none")


@dataclass
class Context:
    """Everything a capture needs besides its transcript."""

    store: Store
    identity: Identity
    settings: Settings
    log: CaptureLog
    emitted: dict[str, float]
    roots: TrustRoots = field(default_factory=TrustRoots)
    _memory: MemoryState | None = None

    def memory(self) -> MemoryState:
        """The current memory (records verified through the local cache), to carry from."""
        if self._memory is None:
            self._memory = load(self.store, self.roots, use_cache=True).state
        return self._memory

    @classmethod
    def open(cls, store: Store, home: Path | None = None) -> Context:
        """Raises KeyError_ (no key yet) or InputError (a malformed config)."""
        home = gitmem_home() if home is None else home
        local = store.local_dir
        return cls(
            store=store,
            identity=load_identity(home),
            settings=load_settings(home, local),
            log=CaptureLog(local),
            emitted=Ledger(local).load(),
            roots=load_trust_roots(home, store),
        )


@dataclass(frozen=True)
class ModelOverrides:
    """Command-line values that win over the settings for one run."""

    command: str | None = None
    base_url: str | None = None
    model: str | None = None


NO_OVERRIDES = ModelOverrides()


def run_extractor(
    name: str,
    prepared: Prepared,
    settings: Settings,
    log: CaptureLog,
    source: str,
    overrides: ModelOverrides = NO_OVERRIDES,
) -> list[Draft]:
    """Drafts from the named extractor. Model replies are logged raw before parsing.

    Raises:
        InputError: an unknown extractor or missing settings.
        ModelError: the model failed or its reply broke the schema (logged).
    """
    if name not in CHOICES:
        raise InputError(f"unknown extractor {name!r}; choose one of {', '.join(CHOICES)}")
    if name == "none":
        return []
    messages = prepared.clean_messages()
    if name == "heuristic":
        from gitmem.capture.extract.heuristic import extract

        return extract(messages)
    from gitmem.capture.extract.prompt import SYSTEM_PROMPT, build_prompt
    from gitmem.capture.extract.schema import parse_output
    from gitmem.llm import ModelError, ModelSettings, OutputRejected, backend_for

    backend = backend_for(
        name,
        ModelSettings(
            command=overrides.command or settings.text("command"),
            base_url=overrides.base_url or settings.text("openai.base_url"),
            model=overrides.model or settings.text("openai.model"),
            api_key=settings.text("openai.api_key"),
            timeout=float(settings.get("timeout")),
        ),
    )
    raw: bytes | None = None
    try:
        raw = backend.complete(build_prompt(messages), system=SYSTEM_PROMPT)
        log.keep_raw(raw)
        return parse_output(raw)
    except ModelError as e:
        kept = raw if raw is not None else e.raw
        # DESIGN: a reply that breaks the schema is a recorded unsupported_output.
        kind = "unsupported_output" if isinstance(e, OutputRejected) else "backend_failed"
        log.write(
            "failed",
            source,
            extractor=name,
            kind=kind,
            error=str(e),
            raw=None if kept is None else log.keep_raw(kept),
        )
        raise


def capture_transcript(
    ctx: Context,
    transcript: Transcript,
    path: Path | None,
    *,
    source: str,
    drafts: Sequence[Draft] | None = None,
    extractor: str | None = None,
    overrides: ModelOverrides = NO_OVERRIDES,
    session: str | None = None,
    commit: str | None = None,
    written_at: float | None = None,
) -> CaptureResult:
    """Capture one transcript: explicit *drafts*, or the extractor's (settings default).

    With explicit drafts and no explicit extractor, nothing is extracted: the agent
    said what to remember. With both, both are stored.

    Raises:
        GitmemError: bad input, a model failure, or a store that cannot be written;
            every failure is also in the capture log.
    """
    prepared = prepare(transcript, ctx.emitted, written_at)
    return capture_prepared(
        ctx,
        prepared,
        path,
        source=source,
        drafts=drafts,
        extractor=extractor,
        overrides=overrides,
        session=session,
        commit=commit,
    )


def capture_prepared(
    ctx: Context,
    prepared: Prepared,
    path: Path | None,
    *,
    source: str,
    drafts: Sequence[Draft] | None = None,
    extractor: str | None = None,
    overrides: ModelOverrides = NO_OVERRIDES,
    session: str | None = None,
    commit: str | None = None,
) -> CaptureResult:
    """:func:`capture_transcript` for a transcript already prepared (echoes, masks)."""
    transcript = prepared.transcript
    chosen = extractor or ("none" if drafts is not None else ctx.settings.get("extractor"))
    try:
        found = run_extractor(chosen, prepared, ctx.settings, ctx.log, source, overrides)
        result = write_checkpoint(
            ctx.store,
            ctx.identity,
            prepared,
            [*(drafts or []), *found],
            session or default_session(transcript, path),
            datetime.now(UTC),
            commit,
            ctx.memory(),
        )
        if ctx._memory is not None:  # keep the state current without replaying it all
            replay(result.records, onto=ctx._memory)
    except GitmemError as e:
        if not _logged(e):
            ctx.log.write("failed", source, extractor=chosen, error=str(e))
        raise
    log_result(ctx.log, source, result, prepared, chosen)
    return result


def _logged(error: GitmemError) -> bool:
    from gitmem.llm import ModelError

    return isinstance(error, ModelError)
