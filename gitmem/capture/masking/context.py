"""Context: secrets known by where they stand, not by their shape.

A value whose name says it is secret (``DB_PASSWORD=…``, ``"client_secret": "…"``,
``--password …``, ``curl -u user:password``), an AWS secret key named as one, and the
password of ``scheme://user:password@host``. Which names and values count is in
:mod:`gitmem.capture.masking.names`; this module reads them out of text.

Every pattern starts with a literal, quantifiers are possessive or bounded, and the scan
never rereads a value it has judged, so hostile input stays linear.
"""

from __future__ import annotations

import heapq
import re
import string
from collections.abc import Iterator

from gitmem.capture.masking.names import (
    SCHEMES,
    name_words,
    names_secret,
    not_named_secret,
    not_secret,
)
from gitmem.capture.masking.redacted import MASK_PREFIX


def context_hits(text: str) -> Iterator[tuple[int, int, str]]:
    """Every secret in *text* known by its context, as ``(start, end, kind)``."""
    yield from _url_passwords(text)
    yield from _named_values(text, _lowered(text))


# `scheme://user:password@host`. The password runs to the *last* "@" before the host, so
# an unescaped "@" inside it is masked too; the backtracking is bounded by 256.
_URL_RE = re.compile(
    r"://(?<=[A-Za-z0-9+.-]://)[^\s:/@\[\]\"'<>]{0,256}+:(?P<s>[^\s/\"'<>]{1,256})@"
    r"(?=[A-Za-z0-9\[])",
    re.ASCII,
)


def _url_passwords(text: str) -> Iterator[tuple[int, int, str]]:
    for match in _URL_RE.finditer(text):
        if not not_secret(match.group("s")):
            yield match.start("s"), match.end("s"), "url-password"


def _lowered(text: str) -> str:
    """*text* lower-cased with every offset kept, for the case-insensitive context rules.

    str.lower() is fast but "İ" becomes two characters ("i̇"), the only one that does in
    Python 3.11; it is replaced first. Should a later Unicode version add another, the
    length check falls back to lower-casing ASCII letters only (slower, offsets kept).
    """
    lowered = text.replace("\u0130", "I").lower()
    return lowered if len(lowered) == len(text) else text.translate(_ASCII_LOWER)


_IDENTIFIER_RE = re.compile(r"[A-Za-z_]\w*", re.ASCII)
_IDENTIFIER_PATH_RE = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+", re.ASCII)
_LETTERS_RE = re.compile(r"[A-Za-z_]+", re.ASCII)
# An unquoted value; a JSON escape (\n, \") ends it like the character it stands for.
_CODE_RUN_RE = re.compile(r"(?:[^\s\"'`,;&|<>(){}\[\]\\]++|\\\\|\\(?![nrt\"'\\]))++")
_WIDE_RUN_RE = re.compile(r"(?:[^\s\"'`\\]++|\\\\|\\(?![nrt\"'\\]))++")
_QUOTED_RE = {q: re.compile(f"(?:[^{q}\\\\\\n]++|\\\\.)*+{q}") for q in "\"'`"}
# What may follow a value given as "name: value" on its line: nothing, a comment, or the
# punctuation that closes a structure.
_REST_RE = re.compile(r"[ \t]*+(?:[#\"',;)\]}]|//|\r?$)", re.MULTILINE)

_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
_MAX_NAME = 64

# A keyword, the rest of the name, an optional closing quote or bracket, an operator; one
# pattern per keyword, so that each starts with a literal. Run on lower-cased text; the
# name is then widened to the left on the original text.
_CONTEXT_RES = tuple(
    re.compile(
        rf"(?P<name>{keyword}[a-z0-9_.-]{{0,64}}+)"
        r"(?P<close>(?:\\?[\"'\]]){0,2})[ \t]*(?P<op>:=|=>|=(?![=~])|:(?![:/=]))",
        re.ASCII,
    )
    for keyword in ("secret", "token", "pass", "pwd", "key", "credential", "auth")
)
_AWS_CONTEXT = (
    r"secret[ _.-]?access[ _.-]?key(?:[ \t]*\[[^\]\n]{0,32}\])?[\"']?[ \t]*(?::=|=>|=|:)?[ \t]*"
    r"[\"']?(?P<s>[a-z0-9/+]{40})(?![a-z0-9/+=])"
)
_AWS_CONTEXT_RE = re.compile(_AWS_CONTEXT, re.ASCII)
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
# The user of `-u user:password`: a name, not a format (`date -u +%Y-%m-%dT%H:%M:%SZ`).
_USER_RE = re.compile(r"[A-Za-z0-9_][\w.@+-]{0,127}", re.ASCII)
_FLAG_RE = re.compile(
    r"-(?<![A-Za-z0-9_-]-)(?P<dash>-?)(?P<name>[A-Za-z][A-Za-z0-9_-]{0,63}+)(?:[ \t]+|=)"
)


class _Lines:
    """Where the line holding a position ends. Callers move forward, so a stretch of text
    is searched for a newline once, even when the whole text is a single line."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._from = self._to = -1

    def end(self, pos: int) -> int:
        if not self._from <= pos <= self._to:
            found = self._text.find("\n", pos)
            self._from, self._to = pos, len(self._text) if found < 0 else found
        return self._to


def _named_values(text: str, lowered: str) -> Iterator[tuple[int, int, str]]:
    """Values whose name says they are secret: ``NAME=value``, ``name: value``,
    ``"name": "value"``, ``--password value``, ``curl -u user:password``.

    Names are found in *lowered* (see :func:`_lowered`); everything else is read from
    *text*, at the same offsets.
    """
    for aws in _AWS_CONTEXT_RE.finditer(lowered):
        yield aws.start("s"), aws.end("s"), "aws-secret-access-key"
    lines, pos = _Lines(text), 0
    candidates = (pattern.finditer(lowered) for pattern in _CONTEXT_RES)
    for match in heapq.merge(*candidates, key=lambda match: match.start()):
        if match.start() < pos:
            continue  # inside a name or value already judged
        pos, start = match.end(), match.start()
        while start > 0 and match.start() - start < _MAX_NAME and text[start - 1] in _NAME_CHARS:
            start -= 1
        name = text[start : match.end("name")].strip(".-")
        if (
            text[max(0, start - 2) : start].endswith(("$", "${"))
            or text.endswith(MASK_PREFIX, 0, start)  # the kind inside a mask
            or not names_secret(name)
        ):
            continue
        op, after = match.group("op"), text[pos : pos + 1]
        if op == ":" and after not in (" ", "\t", '"', "'", "\\"):
            continue  # "name:value" with no space is a URL, a path or a label, not YAML
        tight = match.end("close") == match.start("op") and after not in (" ", "\t")
        quote = text[start - 1 : start] if text[start - 1 : start] in ("'", '"') else ""
        if op == ":":
            # A quoted name is JSON or a dict literal, where a bare word is a variable.
            form = "code" if quote and quote in match.group("close") else "colon"
        elif op == "=" and tight and name == name.upper():
            form = "env"
        else:
            form = "code"
        opened_string = "" if quote in match.group("close") else quote
        found = _value(text, lines, pos, name, form, opened_string)
        if found:
            pos = max(pos, found[1])
            yield found[0], found[1], "secret-assignment"
    lines = _Lines(text)
    for flag in _FLAG_RE.finditer(text):
        yield from _flag_value(text, lines, flag)


def _flag_value(text: str, lines: _Lines, flag: re.Match[str]) -> Iterator[tuple[int, int, str]]:
    name = flag.group("name")
    if flag.group("dash") and names_secret(name):
        found = _value(text, lines, flag.end(), name, "flag")
        if found:
            yield found[0], found[1], "secret-assignment"
    elif name in ("u", "user") and (name == "user") == bool(flag.group("dash")):
        start, quote = flag.end(), text[flag.end() : flag.end() + 1]
        if quote in ("'", '"'):
            end = max(start, text.find(quote, start + 1, lines.end(start)))
        else:
            run = _WIDE_RUN_RE.match(text, start)
            end = run.end() if run else start
        colon = text.find(":", start, end)
        user = text[start + (quote in ("'", '"')) : colon]
        if (
            colon >= 0
            and MASK_PREFIX not in text[start : colon + 1]
            and _USER_RE.fullmatch(user) is not None
            and not not_secret(text[colon + 1 : end])
            and not (user.isdigit() and text[colon + 1 : end].isdigit())
        ):
            yield colon + 1, end, "secret-assignment"


def _value(
    text: str, lines: _Lines, pos: int, name: str, form: str, opened_string: str = ""
) -> tuple[int, int] | None:
    """The span of the value at *pos*, or None when there is no secret value there.

    *form* is how the value was introduced: ``env`` (``NAME=value``, upper-case name, no
    spaces: the value runs to the next space or quote), ``colon`` (``name: value``: the
    same, but it must be the last word on its line), ``code`` (any other ``=``, ``:=``,
    ``=>``: the value stops at punctuation) or ``flag`` (``--password value``).
    """
    while text[pos : pos + 1] in (" ", "\t"):
        pos += 1
    line_end = lines.end(pos)
    quote = text[pos : pos + 1 + text.startswith(('\\"', "\\'"), pos)]
    if quote[-1:] in ('"', "'", "`"):
        if quote[-1] == opened_string:
            return None  # the quote closes a string the name sits in: "Password: "
        start = pos + len(quote)
        if len(quote) == 2:
            end = text.find(quote, start, line_end)
        else:
            closing = _QUOTED_RE[quote].match(text, start, line_end)
            end = closing.end() - 1 if closing else -1
        if end < 0 or not_named_secret(text[start:end], name):
            return None  # an unterminated quote is more often prose than a value
        return start, end
    run = (_CODE_RUN_RE if form in ("code", "flag") else _WIDE_RUN_RE).match(text, pos, line_end)
    if not run:
        return None
    start, end = run.span()
    while form == "colon" and end > start and text[end - 1] in ",;:)]}":
        end -= 1  # punctuation that closes a structure: "pin": 1234}, f(password: bytes):
    value = text[start:end]
    if not value or value[0] in "([{<$%" or value.startswith(("/", "~/", "./")):
        return None  # a structure, a placeholder, a reference or a path
    if form in ("code", "flag") and text[end : end + 1] in ("(", "["):
        return None  # a call or a subscript: input(), os.environ["X"]
    if form == "colon" and ("(" in value or "[" in value):
        return None  # code: Optional[str], f(x)
    if value.lower() in SCHEMES and name_words(name)[-1:] in (["authorization"], ["auth"]):
        return _value(text, lines, end, "", form)  # Authorization: Bearer <credential>
    if not_named_secret(value, name) or _IDENTIFIER_PATH_RE.fullmatch(value):
        return None
    if form == "flag" and value[0] == "-":
        return None  # the next flag
    if _LETTERS_RE.fullmatch(value) and (form == "code" or (form == "flag" and value.islower())):
        return None  # a variable (token = get_token), prose ("the --password option")
    if form == "colon" and (value[0] in "!&*" or not _REST_RE.match(text, end)):
        return None  # a YAML tag, anchor or alias; prose: "Password: changed it today"
    if form == "colon" and text[end : end + 1] in (",", ")") and _IDENTIFIER_RE.fullmatch(value):
        return None  # a type annotation: def sign(private_key: PrivateKeyTypes, ...)
    return start, end
