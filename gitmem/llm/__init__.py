"""Model backends: one prompt and one system prompt in, the model's reply bytes out.

Shared by model extraction (:mod:`gitmem.capture.extract`) and ``gitmem ask``. The caller
owns every word the model sees: it builds the prompt and passes its own system prompt
(:meth:`ModelBackend.complete`), so a backend never knows what it is asked for. A backend
returns the reply unparsed, so that the caller can keep the raw bytes before anything
reads them; the caller's strict parser then accepts the reply or raises
:class:`OutputRejected`. Two backends, named by the ``extractor`` setting: ``command``
(:mod:`gitmem.llm.command`) and ``openai`` (:mod:`gitmem.llm.openai`)::

    raw = backend_for(name, settings).complete(prompt, system=SYSTEM_PROMPT)

Errors form one family, :class:`ModelError` (an expected negative, exit status 1): the
model could not be asked (:class:`BackendFailed`), or it answered outside the caller's
schema (:class:`OutputRejected`).

This module stays free of heavy imports: the backends load only when asked for.
"""

from __future__ import annotations

import math
import shlex
from dataclasses import dataclass, field
from typing import ClassVar, Protocol
from urllib.parse import urlsplit

from gitmem.core.errors import InputError, NegativeResult

EXTRACTORS = ("heuristic", "command", "openai")
"""The values of the ``extractor`` setting."""

MODEL_EXTRACTORS = ("command", "openai")
"""The extractors that ask a model: the backends :func:`backend_for` makes."""

MAX_OUTPUT_BYTES = 4 * 1024 * 1024
"""The most model output gitmem reads (command stdout, or an HTTP answer's content)."""


class ModelError(NegativeResult):
    """A model gave no usable reply. The message is one sentence after the kind's prefix.

    ``raw`` holds bytes the model side produced that the caller has not otherwise
    seen (the HTTP body of a malformed answer, a failing command's stdout, a rejected
    reply), so they can be kept in the capture log; None when there are none.
    """

    prefix: ClassVar[str] = "model failed"

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


class ModelBackend(Protocol):
    """Something that sends a prompt to a model and returns its answer's bytes."""

    name: str
    """The extractor name: ``command`` or ``openai``."""

    label: str
    """A one-line description safe to log: no command arguments, no key, no password."""

    def complete(self, prompt: str, *, system: str) -> bytes:
        """The model's answer to *prompt*, unparsed; *system* is the caller's system prompt.

        Raises:
            BackendFailed: the model could not be asked (never any other exception).
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
    return _openai_backend(settings)


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
