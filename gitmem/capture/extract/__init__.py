"""Extractors: turn a (cleaned, masked) transcript into item drafts.

``heuristic`` is built in and deterministic; ``command`` and ``openai`` ask a model
(through :mod:`gitmem.llm`), whose output must match a strict schema before anything
is stored.

A model extraction is one model call (:func:`gitmem.llm.call.call_model`), so that the
raw bytes are kept in the capture log before anything parses them::

    prompt = build_prompt(messages)          # gitmem.capture.extract.prompt
    call_model(backend, prompt, system=SYSTEM_PROMPT, parse=parse_output, …)
                                             # gitmem.capture.extract.schema

The extraction's own words (the prompt and its ``SYSTEM_PROMPT``) and its schema live
here; the backends know nothing of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gitmem.core.extractors import chosen
from gitmem.core.items import Draft
from gitmem.core.transcript import Message
from gitmem.llm import ModelSettings
from gitmem.store.capturelog import CaptureLog
from gitmem.store.config import Settings


@dataclass(frozen=True)
class ModelOverrides:
    """Command-line values that win over the settings for one run."""

    command: str | None = None
    base_url: str | None = None
    model: str | None = None


NO_OVERRIDES = ModelOverrides()


def model_settings(settings: Settings, overrides: ModelOverrides = NO_OVERRIDES) -> ModelSettings:
    """What a model backend is given: the settings, with the command line's values first.
    Raises nothing."""
    return ModelSettings(
        command=overrides.command or settings.text("command"),
        base_url=overrides.base_url or settings.text("openai.base_url"),
        model=overrides.model or settings.text("openai.model"),
        api_key=settings.text("openai.api_key"),
        timeout=float(settings.get("timeout")),
    )


def run_extractor(
    name: str,
    messages: Sequence[Message],
    settings: Settings,
    log: CaptureLog,
    source: str,
    overrides: ModelOverrides = NO_OVERRIDES,
) -> list[Draft]:
    """Drafts from the named extractor, for *messages* cleaned of gitmem's own output and
    masked. A model's reply is kept raw before it is parsed; a failure is logged.

    Raises:
        InputError: an unknown extractor or missing settings.
        ModelError: the model failed or its reply broke the schema (logged).
    """
    if chosen(name) == "none":
        return []
    if name == "heuristic":
        from gitmem.capture.extract.heuristic import extract

        return extract(messages)
    from gitmem.capture.extract.prompt import SYSTEM_PROMPT, build_prompt
    from gitmem.capture.extract.schema import parse_output
    from gitmem.llm import backend_for
    from gitmem.llm.call import call_model

    backend = backend_for(name, model_settings(settings, overrides))
    prompt = build_prompt(messages)
    reply = call_model(
        backend,
        prompt,
        system=SYSTEM_PROMPT,
        parse=parse_output,
        log=log,
        source=source,
        extractor=name,
    )
    return reply.result()
