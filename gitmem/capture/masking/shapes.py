"""Shapes: secrets whose format gives them away, like ``ghp_…`` or a PEM private key block.

Each pattern starts with a literal so the regex engine can jump to candidates, and a
look-behind placed *after* that literal rejects a candidate in the middle of a longer run
(so a run is tried once, not once per character); quantifiers are possessive or bounded.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator


def shape_hits(text: str) -> Iterator[tuple[int, int, str]]:
    """Every secret in *text* known by its shape, as ``(start, end, kind)``."""
    yield from _private_keys(text)
    for kind, pattern, check in _SHAPES:
        for match in pattern.finditer(text):
            if check(match.group("s")):
                yield match.start("s"), match.end("s"), kind
    yield from _aws_pairs(text)


def _varied(secret: str) -> bool:
    """A placeholder such as ``glpat-XXXXXXXXXXXXXXXXXXXX`` is not a secret."""
    return len(set(secret)) >= 8


def _random(secret: str) -> bool:
    """An ``sk-`` key is random, unlike ``sk-folding-cube-animation-rect12``: mixed case
    with digits, or a run of 20 letters and digits holding a digit (``sk-or-v1-<hex>``)."""
    cases = (str.isdigit, str.isupper, str.islower)
    mixed = all(any(test(c) for c in secret) for test in cases)
    return _varied(secret) and (mixed or _LONG_RUN_RE.search(secret) is not None)


def _alnum(secret: str) -> bool:
    return _varied(secret) and any(c.isdigit() for c in secret) and any(c.isalpha() for c in secret)


_LONG_RUN_RE = re.compile(r"(?=[a-zA-Z]*[0-9])[A-Za-z0-9]{20}", re.ASCII)


def _shape(
    kind: str, pattern: str, check: Callable[[str], bool] = _varied
) -> tuple[str, re.Pattern[str], Callable[[str], bool]]:
    return kind, re.compile(pattern, re.ASCII), check


_AWS_ID = _shape(
    "aws-access-key-id",
    r"(?P<s>A(?:KIA|SIA|BIA|CCA)(?<![A-Za-z0-9]....)[A-Z0-9]{16})(?![A-Za-z0-9])",
)

# Group "s" is the span to mask.
_SHAPES = (
    _AWS_ID,
    _shape(
        "github-token",
        r"(?P<s>gh[pousr]_(?<![A-Za-z0-9_]....)[A-Za-z0-9]{36,251}+)(?![A-Za-z0-9_])",
    ),
    _shape(
        "github-token",
        r"(?P<s>github_pat_(?<![A-Za-z0-9_]github_pat_)[A-Za-z0-9_]{40,244}+)(?![A-Za-z0-9_])",
    ),
    _shape(
        "gitlab-token",
        r"(?P<s>gl(?<![A-Za-z0-9_-]gl)(?:pat|dt|rt|rtr|ptt|cbt|ft|imt|agent|oas|soat|ffct|wt)"
        r"-[A-Za-z0-9_-]{20,300}+(?:\.[0-9a-z]{2}\.?[0-9a-z]{7})?)(?![A-Za-z0-9_-])",
    ),
    _shape(
        "gitlab-token",
        r"(?P<s>GR1348941(?<![A-Za-z0-9_-]GR1348941)[A-Za-z0-9_-]{20,300}+)(?![A-Za-z0-9_-])",
    ),
    _shape(
        "slack-token",
        r"(?P<s>xox(?<![A-Za-z0-9_-]xox)(?:[abeoprs]|e\.xox[bp])-[0-9][A-Za-z0-9-]{9,300}+)"
        r"(?![A-Za-z0-9_-])",
    ),
    _shape(
        "slack-token",
        r"(?P<s>xapp-(?<![A-Za-z0-9_-]xapp-)[0-9]-[A-Za-z0-9-]{10,300}+)(?![A-Za-z0-9_-])",
    ),
    _shape(
        "slack-webhook-url",
        r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<s>[A-Za-z0-9_+/-]{20,300}+)"
        r"(?![A-Za-z0-9_+/-])",
    ),
    _shape(
        "anthropic-api-key",
        r"(?P<s>sk-ant-(?<![A-Za-z0-9_-]sk-ant-)[A-Za-z0-9_-]{20,300}+)(?![A-Za-z0-9_-])",
    ),
    _shape(
        "openai-api-key",
        r"(?P<s>sk-(?<![A-Za-z0-9_-]sk-)[A-Za-z0-9_-]{20,300}+)(?![A-Za-z0-9_-])",
        _random,
    ),
    *(
        _shape(
            "stripe-secret-key",
            rf"(?P<s>{prefix}_(?:live|test)_(?<![A-Za-z0-9_]........)[A-Za-z0-9]{{10,247}}+)"
            r"(?![A-Za-z0-9_])",
        )
        for prefix in ("sk", "rk")
    ),
    _shape(
        "stripe-secret-key",
        r"(?P<s>whsec_(?<![A-Za-z0-9_]whsec_)[A-Za-z0-9+/=]{24,250}+)(?![A-Za-z0-9_+/=])",
    ),
    _shape(
        "google-api-key",
        r"(?P<s>AIza(?<![A-Za-z0-9_-]AIza)[A-Za-z0-9_-]{35})(?![A-Za-z0-9_-])",
    ),
    _shape("npm-token", r"(?P<s>npm_(?<![A-Za-z0-9_]npm_)[A-Za-z0-9]{36})(?![A-Za-z0-9_])"),
    _shape(
        "pypi-token",
        r"(?P<s>pypi-AgE(?<![A-Za-z0-9_-]pypi-AgE)[A-Za-z0-9_-]{40,4000}+)(?![A-Za-z0-9_-])",
    ),
    _shape("huggingface-token", r"(?P<s>hf_(?<![A-Za-z0-9_]hf_)[A-Za-z]{34})(?![A-Za-z0-9_])"),
    _shape(
        "jwt",
        r"(?P<s>eyJ(?<![A-Za-z0-9_-]eyJ)[A-Za-z0-9_-]{8,8000}+\.[A-Za-z0-9_-]{8,65536}+"
        r"(?:\.[A-Za-z0-9_-]{1,8000}+){0,3})(?![A-Za-z0-9_-])",
    ),
    _shape(
        "bearer-token",
        r"earer(?<=[Bb]earer)(?<![A-Za-z0-9_-].earer)[ \t]+(?P<s>[A-Za-z0-9._~+/-]{16,8192}+=*)"
        r"(?![A-Za-z0-9._~+/=-])",
        _alnum,
    ),
)

# A header starts a block only when key material follows it: a base64 line or a header
# line such as "Proc-Type: 4,ENCRYPTED" (a PEM inside a JSON string has "\n" escapes).
# A header quoted in prose or code ("-----BEGIN RSA PRIVATE KEY-----") is not a block.
_PEM_BEGIN_RE = re.compile(
    r"-----BEGIN ([A-Z0-9 ]{0,40})PRIVATE KEY(?: BLOCK)?-----"
    r"(?=(?:[ \t\r\n]|\\[rn])*+(?:[A-Za-z0-9+/=]{16}|[A-Z][A-Za-z-]{0,30}: ))"
)
_PEM_END_RE = re.compile(r"-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")


def _private_keys(text: str) -> Iterator[tuple[int, int, str]]:
    """Whole PEM and OpenSSH private key blocks; an unterminated one runs to the end."""
    pos = 0
    while begin := _PEM_BEGIN_RE.search(text, pos):
        kind = "openssh-private-key" if "OPENSSH" in begin.group(1) else "private-key"
        end = _PEM_END_RE.search(text, begin.end())
        pos = end.end() if end else len(text)
        yield begin.start(), pos, kind


# An id followed, within a few separators, by a 40-character secret (a credentials CSV,
# `aws configure` output, two values pasted together).
_AWS_PAIR_RE = re.compile(r"[\s,;:|\"'=]{1,8}+(?P<s>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])")


def _aws_pairs(text: str) -> Iterator[tuple[int, int, str]]:
    for match in _AWS_ID[1].finditer(text):
        pair = _AWS_PAIR_RE.match(text, match.end())
        if pair and _varied(pair.group("s")):
            yield pair.start("s"), pair.end("s"), "aws-secret-access-key"
