"""Masking with the secrets it found, and masking labels (session ids, file names).

Capture keeps every secret it masked in a transcript (in memory only) so that the same
secret given later in an item, where neither its shape nor its name may show, is masked
too. A secret found through an escaped spelling (:mod:`~gitmem.capture.masking.escapes`)
is kept as written and as it reads with its escapes decoded. Pure; raises nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from gitmem.capture.masking import mask
from gitmem.capture.masking.escapes import unescaped

_SEPARATORS = frozenset("-_./:= \t")
"""What separates the parts of a label (see :func:`mask_label`)."""
_MAX_LABEL = 4096


@dataclass(frozen=True)
class MaskedText:
    """The masked text and each secret found, as it appeared where it was found."""

    text: str
    secrets: tuple[tuple[str, str], ...] = ()
    """(secret text, kind), in the order found; an escaped secret also as it reads."""


def mask_text(text: str) -> MaskedText:
    """*text* masked (every spelling of a secret, :func:`~gitmem.capture.masking.mask`),
    with the secrets found. Raises nothing."""
    secrets: list[tuple[str, str]] = []
    return MaskedText(_masked(text, secrets), tuple(secrets))


def mask_label(text: str) -> MaskedText:
    """*text*, a session id, a file name or a path, masked as text and then each part
    after a separator (``-``, ``_``, ``.``, ``/``, ``:``, ``=``, a space) on its own: in
    ``s-AIza…`` or ``deploy_sk-ant-…`` the key is a word of the label, though in prose a
    token glued to a longer run is not a token. Raises nothing."""
    secrets: list[tuple[str, str]] = []
    masked = _masked(text, secrets)
    if len(masked) > _MAX_LABEL:
        return MaskedText(masked, tuple(secrets))  # not a label: masked as text
    pos = 0
    while (pos := _next_part(masked, pos)) < len(masked):
        tail = mask(masked[pos:])
        if tail.findings:
            secrets += [(masked[pos + f.start : pos + f.end], f.kind) for f in tail.findings]
            masked = masked[:pos] + tail.text
    return MaskedText(masked, tuple(secrets))


def _next_part(text: str, pos: int) -> int:
    """Where the next part of a label starts after *pos* (the length when none does)."""
    pos += 1
    while pos < len(text) and text[pos - 1] not in _SEPARATORS:
        pos += 1
    return pos


def _masked(text: str, secrets: list[tuple[str, str]]) -> str:
    result = mask(text)
    for finding in result.findings:
        spelled = text[finding.start : finding.end]
        secrets.append((spelled, finding.kind))
        if "\\" in spelled and (reads := unescaped(spelled)) != spelled:
            secrets.append((reads, finding.kind))
    return result.text
