"""Which model answers an ask, and why a call to it gave no usable reply.

The backend is the one configured for model extraction (docs/extractors.md): the
``extractor`` setting when it names a model extractor (``command`` or ``openai``);
otherwise ``command`` when a command is set, else ``openai`` when both
``openai.base_url`` and ``openai.model`` are set; otherwise none, and ``ask`` answers
from verbatim memory and exact text matches only. Every call sends the ask's own system
prompt (:data:`gitmem.agents.ask.prompts.SYSTEM_PROMPT`), never the extraction's. Every
reply's raw bytes are kept by hash in the capture log's ``raw/`` folder before anything
parses them (:func:`gitmem.llm.call.call_model`). A call that gives no usable reply says
which of three things happened (:class:`ReplyProblem`): the backend failed (no reply), the
reply was cut off (truncated), or it broke its schema (the caller's parser says so).
"""

from __future__ import annotations

import hashlib
from enum import StrEnum

from gitmem.capture.extract import model_settings
from gitmem.core.extractors import MODEL_EXTRACTORS
from gitmem.llm import BackendFailed, ModelBackend, ModelError, ReplyTruncated, backend_for
from gitmem.store.config import Settings


class ReplyProblem(StrEnum):
    """Why a model call gave no usable reply."""

    BACKEND = "backend"
    """The backend failed: a timeout, an exit status, an HTTP error, no connection."""
    TRUNCATED = "truncated"
    """The reply stopped before its end (``finish_reason`` ``"length"``, or bytes that
    end inside the JSON object)."""
    SCHEMA = "schema"
    """The reply is whole but not exactly one object in its schema."""


def problem_of(error: ModelError) -> ReplyProblem:
    """The kind of *error*. Raises nothing."""
    if isinstance(error, ReplyTruncated):
        return ReplyProblem.TRUNCATED
    if isinstance(error, BackendFailed):
        return ReplyProblem.BACKEND
    return ReplyProblem.SCHEMA


def backend_name(settings: Settings) -> str | None:
    """The model extractor an ask uses, or None when none is configured."""
    chosen = settings.get("extractor")
    if chosen in MODEL_EXTRACTORS:
        return str(chosen)
    if settings.text("command"):
        return "command"
    if settings.text("openai.base_url") and settings.text("openai.model"):
        return "openai"
    return None


def backend_identity(settings: Settings) -> str | None:
    """A digest of everything that picks the model (the backend, its command line, or
    its endpoint and model name), or None without one: two asks with different models
    are different asks, and the digest shows no argument or key."""
    name = backend_name(settings)
    if name is None:
        return None
    if name == "command":
        chosen = [name, settings.text("command") or ""]
    else:
        chosen = [name, settings.text("openai.base_url") or "", settings.text("openai.model") or ""]
    return hashlib.sha256("\0".join(chosen).encode("utf-8", "surrogatepass")).hexdigest()


def configured_backend(settings: Settings) -> ModelBackend | None:
    """The configured backend, or None.

    Raises:
        InputError: the configured backend's settings are missing or unusable.
    """
    name = backend_name(settings)
    return None if name is None else backend_for(name, model_settings(settings, name=name))
