"""Masking JSON as a reader would see it: every string decoded, JSON inside strings too.

A tool call is stored as its name and its arguments re-encoded as compact JSON. Masking
that text alone misses what the escaping hides: a service-account file written by a tool
is a JSON string inside the arguments, so the ``\\n`` of its private key becomes
``\\\\n`` and ``"password": "…"`` inside it becomes ``\\"password\\": \\"…\\"``, and no
rule sees a key block or a quoted value any more. So:

1. A message whose text is a JSON object or list (for a tool call: the text after the
   tool's name on its first line) is masked as a *document*.
2. A document: every key and every string value is masked as a *string* (rule 3); then
   the document, re-encoded as compact JSON, is masked as text, which catches a name and
   a value that sit in separate strings (``{"password": "…"}``).
3. A string is masked as the text it holds; when that text is itself a JSON object or
   list (a file's contents, arguments passed as a string), it is masked as a document
   (rule 2), and when that masked anything the string becomes the masked document,
   re-encoded. So a secret is caught at any depth of escaping.

Text in which nothing is masked is kept byte for byte. Pure; raises nothing.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from gitmem.capture.masking import mask
from gitmem.core import boundedjson

_MAX_LEVELS = 8
"""JSON inside a string inside JSON … is decoded this many levels deep (each level
doubles the escapes, so real text never comes close)."""
_OPENS_DOCUMENT = re.compile(r"[ \t\r\n]*+[\[{]")
_SEPARATORS = frozenset("-_./:= \t")
"""What separates the parts of a label (see :func:`mask_label`)."""
_MAX_LABEL = 4096


@dataclass(frozen=True)
class MaskedText:
    """The masked text and each secret found, as it appeared where it was found."""

    text: str
    secrets: tuple[tuple[str, str], ...] = ()
    """(secret text, kind), in the order found; the same secret may appear escaped."""


def mask_message(text: str, tool_call: bool = False) -> MaskedText:
    """*text* masked; a JSON document (after the first line of a *tool_call*) as a
    document, by the rules above. Raises nothing."""
    head, newline, body = text.partition("\n") if tool_call else ("", "", text)
    if not newline and tool_call:
        head, body = "", text
    document = _document(body, 0)
    if document is None:
        return mask_text(text)
    secrets: list[tuple[str, str]] = []
    changed, encoded = _mask_document(document, secrets, 0)
    if not changed and encoded != body:
        return mask_text(text)  # not compact JSON and nothing hidden: masked as written
    masked_body = _masked(encoded, secrets)
    if not secrets:
        return MaskedText(text)
    masked_head = _masked(head, secrets) if head else ""
    return MaskedText(masked_head + newline + masked_body, tuple(secrets))


def mask_string(text: str) -> MaskedText:
    """*text* masked as a string of a document (rule 3): as text, and as a document when
    it is one. Raises nothing."""
    secrets: list[tuple[str, str]] = []
    return MaskedText(_mask_string(text, secrets, 0), tuple(secrets))


def mask_text(text: str) -> MaskedText:
    """*text* masked as plain text, with the secrets found. Raises nothing."""
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
    secrets += [(text[f.start : f.end], f.kind) for f in result.findings]
    return result.text


def _document(text: str, level: int) -> Any:
    """The JSON object or list *text* holds, or None."""
    if level >= _MAX_LEVELS or not _OPENS_DOCUMENT.match(text):
        return None
    try:
        value = boundedjson.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict | list) else None


def _mask_document(document: Any, secrets: list[tuple[str, str]], level: int) -> tuple[bool, str]:
    """Rule 2 before the final pass: whether a key or string changed, and the document
    with its strings masked, re-encoded as compact JSON."""
    found = len(secrets)
    masked = _mask_value(document, secrets, level)
    encoded = json.dumps(masked, ensure_ascii=False, separators=(",", ":"))
    return len(secrets) > found, encoded


def _mask_string(text: str, secrets: list[tuple[str, str]], level: int) -> str:
    document = _document(text, level + 1)
    if document is not None:
        inner: list[tuple[str, str]] = []
        _, encoded = _mask_document(document, inner, level + 1)
        masked = _masked(encoded, inner)
        if inner:
            secrets += inner
            return masked
    return _masked(text, secrets)


def _mask_value(value: Any, secrets: list[tuple[str, str]], level: int) -> Any:
    # Iterative would be longer; the depth is bounded by boundedjson.MAX_DEPTH.
    if isinstance(value, str):
        return _mask_string(value, secrets, level)
    if isinstance(value, list):
        return [_mask_value(v, secrets, level) for v in value]
    if isinstance(value, dict):
        return {
            _mask_string(k, secrets, level): _mask_value(v, secrets, level)
            for k, v in value.items()
        }
    return value
