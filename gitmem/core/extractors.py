"""The extractors by name, spelled once: the command line's choices, the ``extractor``
setting's check, the capture pipeline and the model backends all read these lists."""

from __future__ import annotations

from gitmem.core.errors import InputError

EXTRACTORS = ("heuristic", "command", "openai", "claude", "codex")
"""The extractors."""

MODEL_EXTRACTORS = ("command", "openai", "claude", "codex")
"""The extractors that ask a model (:mod:`gitmem.llm`)."""

HOST_EXTRACTORS = ("claude", "codex")
"""The extractors that ask the model of an agent host's own CLI (Claude Code's print mode,
Codex's exec mode): opt-in, windowed, and falling back to the heuristic when the CLI
cannot answer."""

CHOICES = (*EXTRACTORS, "none")
"""What ``--extractor`` and the ``extractor`` setting take: ``none`` extracts nothing, so
only the items an agent gives are stored."""


def chosen(name: str) -> str:
    """*name*, when it is one of :data:`CHOICES`.

    Raises:
        InputError: it is not.
    """
    if name not in CHOICES:
        raise InputError(f"unknown extractor {name!r}; choose one of {', '.join(CHOICES)}")
    return name


def host_model_offer(host: str) -> str:
    """The sentence that offers the model of *host* (one of :data:`HOST_EXTRACTORS`) to a
    user whose captures run the heuristic: what it leaves out, and how to turn the host's
    model on. Raises nothing."""
    return (
        "the heuristic keeps what a session marks or reports at its end (a "
        '"Decision:", a "TODO:", the closing summary) and misses most of what a careful '
        "reader would carry (docs/heuristic.md); "
        f"`gitmem config extractor {host}` lets {host}'s model propose items too, in the "
        "background after a session, every quote still checked here (docs/extractors.md)"
    )
