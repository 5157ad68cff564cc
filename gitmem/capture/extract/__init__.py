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

import functools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from gitmem.capture.extract.lastword import last_word
from gitmem.core.extractors import HOST_EXTRACTORS, chosen
from gitmem.core.items import Draft
from gitmem.core.transcript import Message, held
from gitmem.llm import ModelSettings
from gitmem.llm.call import Usage
from gitmem.store.capturelog import CaptureLog
from gitmem.store.config import Settings


@dataclass(frozen=True)
class ModelOverrides:
    """Command-line values that win over the settings for one run."""

    command: str | None = None
    base_url: str | None = None
    model: str | None = None


NO_OVERRIDES = ModelOverrides()


def model_settings(
    settings: Settings, overrides: ModelOverrides = NO_OVERRIDES, name: str = "openai"
) -> ModelSettings:
    """What the model backend *name* is given: the settings, with the command line's
    values first (a host CLI's model is its own setting, and so is its timeout). Raises
    nothing."""
    host = name in HOST_EXTRACTORS
    return ModelSettings(
        command=overrides.command or settings.text("command"),
        base_url=overrides.base_url or settings.text("openai.base_url"),
        model=overrides.model or settings.text(f"{name}.model" if host else "openai.model"),
        api_key=settings.text("openai.api_key"),
        timeout=float(settings.get("host.timeout" if host else "timeout")),
    )


@dataclass(frozen=True)
class Extraction:
    """What an extractor found, and how: what ran, what its model calls cost, and why a
    host CLI's items were not used (it fell back to the heuristic)."""

    drafts: list[Draft]
    extractor: str
    usage: Usage | None = None
    fallback: str | None = None
    by_rules: int = 0
    """How many windows of the session the heuristic read instead of the host CLI: the
    earliest of a session too long for ``host.calls``, and those from the one the CLI
    failed on (*fallback* says why) to the end."""

    def log_fields(self) -> dict[str, Any]:
        """The capture log's fields for it. Raises nothing."""
        fields: dict[str, Any] = {"extractor": self.extractor}
        if self.usage is not None:
            fields["model_usage"] = self.usage.to_json()
        if self.fallback is not None:
            fields["fallback"] = self.fallback
        if self.by_rules:
            fields["heuristic_windows"] = self.by_rules
        return fields


def run_extractor(
    name: str,
    messages: Sequence[Message],
    settings: Settings,
    log: CaptureLog,
    source: str,
    overrides: ModelOverrides = NO_OVERRIDES,
    project: str | None = None,
) -> Extraction:
    """What the named extractor finds in *messages* (cleaned of gitmem's own output and
    masked), with the session's last word on each claim
    (:func:`~gitmem.capture.extract.lastword.last_word`). A model's reply is kept raw
    before it is parsed; a failure is logged. A host CLI (``claude``, ``codex``) reads
    the session in windows (at most ``host.calls``, the newest; the heuristic reads
    what comes before them) and falls back to the heuristic when it cannot answer: for
    the whole session when it answered no window, else for the window it failed and
    those after it.
    *project* (the repository's ``owner/name``, :func:`gitmem.core.claims.project_of`)
    tells the heuristic which PRs and issues are the session's own; a model reads them
    from the session.

    Raises:
        InputError: an unknown extractor or missing settings.
        ModelError: the ``command`` or ``openai`` model failed or its reply broke the
            schema (logged).
    """
    if chosen(name) == "none":
        return Extraction([], name)
    if name == "heuristic":
        return Extraction(last_word(_by_rules(messages, project), messages), name)
    from gitmem.capture.extract.prompt import SYSTEM_PROMPT, build_prompt
    from gitmem.capture.extract.schema import ITEMS_JSON_SCHEMA, parse_output
    from gitmem.llm import backend_for
    from gitmem.llm.call import call_model

    host = name in HOST_EXTRACTORS
    wanted = replace(model_settings(settings, overrides, name), schema=ITEMS_JSON_SCHEMA)
    backend = backend_for(name, wanted)
    usage = Usage() if host else None
    found: list[Draft] = []
    rules = functools.cache(lambda: _by_rules(messages, project))  # found once, if needed

    def by_rules_in(read: Sequence[list[Message]]) -> list[Draft]:
        """The heuristic's drafts whose quotes lie in the windows *read*."""
        return _said_in(rules(), [m for p in read for m in p])

    parts = windows(messages) if host else [list(messages)]
    # A host CLI reads at most host.calls windows, the newest: the session's end has its
    # last word. What comes before them is read by the heuristic, and merged below.
    early = parts[: -int(settings.get("host.calls"))] if host else []
    if early:
        parts = parts[len(early) :]
        found += by_rules_in(early)
    for answered, part in enumerate(parts):
        k = len(early) + answered + 1
        reply = call_model(
            backend,
            build_prompt(part, part=(k, len(early) + len(parts)), listed=_listed(found)),
            system=SYSTEM_PROMPT,
            parse=parse_output,
            log=log,
            source=source,
            usage=usage,
            extractor=name,
            **({"fallback": "heuristic"} if host else {}),
        )
        if host and reply.error is not None:
            reason = f"{name}: {reply.error}"
            if not answered:  # nothing of the model's: the heuristic reads it all
                return Extraction(last_word(rules(), messages), "heuristic", usage, reason)
            # what the model answered stays; the heuristic reads this window and the rest
            # (a CLI that failed once is not asked again for this session)
            found += by_rules_in(parts[answered:])
            read = len(early) + len(parts) - answered
            return Extraction(last_word(found, messages), name, usage, reason, read)
        found += reply.result()
    return Extraction(last_word(found, messages), name, usage, by_rules=len(early))


WINDOW_CHARS = 150_000
"""The most transcript one host CLI call reads (about 40,000 tokens: well inside every
current model's context, beside the instructions)."""


def windows(messages: Sequence[Message], limit: int = WINDOW_CHARS) -> list[list[Message]]:
    """*messages* cut into consecutive windows of at most about *limit* characters (a
    longer message is a window of its own; the prompt keeps its end). Raises nothing."""
    parts: list[list[Message]] = []
    size = 0
    for message in messages:
        if not parts or size + len(message.text) > limit:
            parts.append([])
            size = 0
        parts[-1].append(message)
        size += len(message.text)
    return parts or [[]]


def _said_in(drafts: Sequence[Draft], messages: Sequence[Message]) -> list[Draft]:
    """Those of *drafts* whose quote lies in one of *messages*."""
    return [d for d in drafts if d.quote and held(messages, d.quote)]


def _listed(found: Sequence[Draft]) -> list[tuple[str, str]]:
    """What the earlier windows gave, each (kind, text) once, in order."""
    return list(dict.fromkeys((str(d.kind), d.text) for d in found))


def _by_rules(messages: Sequence[Message], project: str | None) -> list[Draft]:
    from gitmem.capture.extract.heuristic import extract

    return extract(messages, project=project)
