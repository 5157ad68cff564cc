"""Distinct names for distinct identifiers.

A hex SHA-256 of stored bytes, a git object id and an SSH key fingerprint are all
strings, but they are never interchangeable; the type checker keeps them apart.
"""

from __future__ import annotations

import re
from typing import NewType, cast

Sha256Hex = NewType("Sha256Hex", str)
"""Lowercase hex SHA-256 (64 chars) of the exact stored bytes of a record or snapshot."""

GitOid = NewType("GitOid", str)
"""Hex git object id (a commit, tree or blob)."""

Fingerprint = NewType("Fingerprint", str)
"""OpenSSH key fingerprint, ``SHA256:`` followed by unpadded base64."""

_SHA256_RE = re.compile(r"[0-9a-f]{64}")


def is_sha256_hex(value: object) -> bool:
    """True when *value* is a string holding a lowercase hex SHA-256. Raises nothing."""
    return isinstance(value, str) and bool(_SHA256_RE.fullmatch(value))


_HEX_DIGITS = b"0123456789abcdef"


def are_sha256_hex(values: list[object]) -> bool:
    """:func:`is_sha256_hex` of every one of *values*, in one pass over their bytes (a
    checkpoint names ~50 addresses, and a rebuild reads thousands of checkpoints; deleting
    the hex digits in C is several times faster than a regular expression over the same
    characters). Raises nothing."""
    try:
        joined = "".join(values).encode("ascii")  # type: ignore[arg-type]  # TypeError: not str
    except (TypeError, UnicodeEncodeError):
        return False
    strings = cast(list[str], values)  # "".join took them all: every one is a str
    return {64}.issuperset(map(len, strings)) and not joined.translate(None, _HEX_DIGITS)
