"""Model backends: one prompt and one system prompt in, the model's reply bytes out.

Shared by model extraction (:mod:`gitmem.capture.extract`) and ``gitmem ask``. The caller
owns every word the model sees: it builds the prompt and passes its own system prompt
(:meth:`ModelBackend.complete`), so a backend never knows what it is asked for. A backend
returns the reply unparsed, so that the caller can keep the raw bytes before anything
reads them; the caller's strict parser then accepts the reply or raises
:class:`OutputRejected`. The backends, named by the ``extractor`` setting: ``command``
(:mod:`gitmem.llm.command`), ``openai`` (:mod:`gitmem.llm.openai`), and the agent hosts'
own CLIs ``claude`` and ``codex`` (:mod:`gitmem.llm.host`)::

    raw = backend_for(name, settings).complete(prompt, system=SYSTEM_PROMPT)

One call, as every caller makes it (keep the raw reply, parse, log a failure), is
:func:`~gitmem.llm.call.call_model`.

Errors form one family, :class:`ModelError` (an expected negative, exit status 1): the
model could not be asked (:class:`BackendFailed`), or it answered outside the caller's
schema (:class:`OutputRejected`; :class:`ReplyTruncated` when the reply was cut off).

This module stays free of heavy imports: the backends load only when asked for.
"""

from __future__ import annotations

import math
import shlex
from urllib.parse import urlsplit

from gitmem.core.errors import InputError
from gitmem.core.extractors import EXTRACTORS, MODEL_EXTRACTORS
from gitmem.llm.backend import (
    MAX_OUTPUT_BYTES,
    BackendFailed,
    ModelBackend,
    ModelError,
    ModelSettings,
    OutputRejected,
    ReplyTruncated,
)

__all__ = [
    "EXTRACTORS",
    "MAX_OUTPUT_BYTES",
    "MODEL_EXTRACTORS",
    "BackendFailed",
    "ModelBackend",
    "ModelError",
    "ModelSettings",
    "OutputRejected",
    "ReplyTruncated",
    "backend_for",
]


def backend_for(name: str, settings: ModelSettings) -> ModelBackend:
    """The model backend for extractor *name* (``command`` or ``openai``).

    Raises:
        InputError: an unknown extractor, one that uses no model, or settings
            that are missing or unusable.
    """
    if name not in EXTRACTORS:
        raise InputError(f"unknown extractor {name!r}; known: {', '.join(EXTRACTORS)}")
    if name not in MODEL_EXTRACTORS:
        raise InputError(f"the {name} extractor does not use a model")
    if not (isinstance(settings.timeout, int | float) and math.isfinite(settings.timeout)):
        raise InputError("the model timeout must be a number of seconds")
    if settings.timeout <= 0:
        raise InputError("the model timeout must be positive")
    if name == "command":
        return _command_backend(settings)
    if name == "openai":
        return _openai_backend(settings)
    from gitmem.llm.host import HostBackend

    return HostBackend(name, settings.model or None, float(settings.timeout), settings.schema)


def _command_backend(settings: ModelSettings) -> ModelBackend:
    if not (settings.command and settings.command.strip()):
        raise InputError("the command extractor needs --command or `command` in config")
    try:
        argv = shlex.split(settings.command)
    except ValueError as e:
        raise InputError(f"the extractor command is not a valid command line: {e}") from e
    from gitmem.llm.command import CommandBackend

    return CommandBackend(argv, timeout=float(settings.timeout))


def _openai_backend(settings: ModelSettings) -> ModelBackend:
    if not (settings.base_url and settings.base_url.strip()):
        raise InputError("the openai extractor needs --base-url or `openai.base_url` in config")
    if not (settings.model and settings.model.strip()):
        raise InputError("the openai extractor needs --model or `openai.model` in config")
    parts = urlsplit(settings.base_url.strip())
    try:
        parts.port  # noqa: B018 - parsing the port is the check
    except ValueError as e:
        raise InputError(f"the openai base URL has an invalid port: {e}") from e
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InputError("the openai base URL must be an http:// or https:// URL with a host")
    if parts.username is not None or parts.password is not None:
        raise InputError("the openai base URL must not hold a user name or password")
    from gitmem.llm.openai import OpenAIBackend

    return OpenAIBackend(
        settings.base_url.strip(),
        settings.model.strip(),
        api_key=settings.api_key or None,
        timeout=float(settings.timeout),
    )
