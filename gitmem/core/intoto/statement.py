"""in-toto Statement v1 and ResourceDescriptor (in-toto/attestation spec/v1), as gitmem
writes and reads them.

A Statement binds a predicate to its subjects, each named by a DigestSet::

    {"_type": "https://in-toto.io/Statement/v1",
     "subject": [{"name": …, "digest": {"sha256": …, "gitBlob": …}}, …],
     "predicateType": "<TypeURI>", "predicate": {…}}

It travels as the payload of a DSSE envelope whose type is
``application/vnd.in-toto+json``. The payload is gitmem's canonical JSON (sorted keys,
no insignificant whitespace): readers never need it, but one statement has one byte form.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from gitmem.core import boundedjson, canonical
from gitmem.core.errors import FormatError, InputError
from gitmem.core.intoto.dsse import b64decode

STATEMENT_TYPE = "https://in-toto.io/Statement/v1"
PAYLOAD_TYPE = "application/vnd.in-toto+json"
"""The DSSE payload type of an in-toto Statement in JSON."""

JSON_MEDIA = "application/json"
SSHSIG_MEDIA = "application/x.sshsig"
"""An armored OpenSSH signature (``ssh-keygen -Y sign``'s output)."""


def git_blob_id(data: bytes) -> str:
    """The git blob id of *data* (SHA-1 over ``blob <size>\\0<data>``, git's default object
    format), the ``gitBlob`` digest. Raises nothing."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def descriptor(
    name: str,
    data: bytes | None,
    *,
    digest: str | None = None,
    media: str | None = None,
    git_blob: bool = False,
) -> dict[str, Any]:
    """A ResourceDescriptor of stored bytes: *name*, the ``sha256`` of *data* (or the
    given *digest* when the bytes do not travel), ``gitBlob`` too with *git_blob*, the
    bytes themselves as ``content`` when given, and *media* as ``mediaType``. Raises
    nothing."""
    digests: dict[str, str] = {"sha256": canonical.sha256_hex(data) if data else digest or ""}
    if data is not None and git_blob:
        digests["gitBlob"] = git_blob_id(data)
    found: dict[str, Any] = {"name": name, "digest": digests}
    if data is not None:
        found["content"] = base64.b64encode(data).decode("ascii")
    if media is not None:
        found["mediaType"] = media
    return found


def statement(
    subjects: Sequence[Mapping[str, Any]], predicate_type: str, predicate: Mapping[str, Any]
) -> dict[str, Any]:
    """A Statement v1. Raises nothing."""
    return {
        "_type": STATEMENT_TYPE,
        "subject": [dict(s) for s in subjects],
        "predicateType": predicate_type,
        "predicate": dict(predicate),
    }


def payload_of(value: Mapping[str, Any]) -> bytes:
    """The bytes a statement travels as: sorted keys, no insignificant whitespace, UTF-8
    (canonical JSON's form; a statement is built of strings, integers, booleans, lists
    and objects only, so it is not walked again to prove it, as a stored record is).

    Raises:
        InputError: a value JSON cannot hold (a lone surrogate, NaN, another type).
    """
    try:
        text = json.dumps(
            value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
        )
        return text.encode("utf-8")
    except (TypeError, ValueError) as e:  # UnicodeEncodeError is a ValueError
        raise InputError(f"the statement cannot be written as JSON: {e}") from e


def parse_statement(payload: bytes) -> dict[str, Any]:
    """The Statement v1 a payload holds (its predicate unchecked).

    Raises:
        InputError: not JSON, not an object, or not an in-toto Statement v1 (its
            ``_type``, a ``subject`` list of objects each with a ``digest`` object of
            strings, a string ``predicateType``, an object ``predicate``).
    """
    try:
        value = boundedjson.loads(payload)
    except ValueError as e:
        raise InputError(f"the payload is not JSON ({e})") from e
    if not isinstance(value, dict) or value.get("_type") != STATEMENT_TYPE:
        raise InputError(f"the payload is not an in-toto Statement ({STATEMENT_TYPE})")
    subjects = value.get("subject")
    if not isinstance(subjects, list) or not all(_is_subject(s) for s in subjects):
        raise InputError("the statement's subject is not a list of descriptors with digests")
    if not isinstance(value.get("predicateType"), str):
        raise InputError("the statement has no predicateType")
    if not isinstance(value.get("predicate", {}), dict):
        raise InputError("the statement's predicate is not an object")
    return value


def _is_subject(value: object) -> bool:
    if not isinstance(value, dict):
        return False
    digest = value.get("digest")
    return isinstance(digest, dict) and all(isinstance(v, str) for v in digest.values())


def content_of(found: object, what: str) -> bytes | None:
    """The bytes a ResourceDescriptor carries as ``content`` (None when it only points),
    after checking them against its ``sha256`` digest.

    Raises:
        FormatError: not a descriptor with a ``sha256`` digest, content that is not
            base64, or content whose SHA-256 is not the digest.
    """
    digest = sha256_of(found, what)
    assert isinstance(found, dict)
    if "content" not in found:
        return None
    try:
        data = b64decode(found["content"], f"{what}'s content")
    except InputError as e:
        raise FormatError(str(e).removeprefix("not a DSSE envelope: ")) from e
    actual = canonical.sha256_hex(data)
    if actual != digest:
        raise FormatError(
            f"{what}'s content hashes to {actual[:12]}…, not to its digest {digest[:12]}…"
        )
    blob = found["digest"].get("gitBlob")
    if blob is not None and blob != git_blob_id(data):
        raise FormatError(f"{what}'s content is not the git blob its gitBlob digest names")
    return data


def sha256_of(found: object, what: str) -> str:
    """The ``sha256`` digest a ResourceDescriptor names.

    Raises:
        FormatError: not a descriptor, or no lowercase hex SHA-256 in its digest.
    """
    digest = found.get("digest") if isinstance(found, dict) else None
    value = digest.get("sha256") if isinstance(digest, dict) else None
    if not isinstance(value, str) or len(value) != 64 or value.strip("0123456789abcdef"):
        raise FormatError(f"{what} is not a descriptor with a sha256 digest")
    return value
