"""SSH wire encoding (RFC 4253 §5) and strict base64: the byte-level parts of SSHSIG
and allowed_signers that both :mod:`gitmem.core.receipts` and
:mod:`gitmem.core.allowed_signers` read.
Pure: no disk, no clock.
"""

from __future__ import annotations

import base64
import binascii
import struct

from gitmem.core.errors import FormatError


def string(data: bytes) -> bytes:
    """A length-prefixed SSH string."""
    return struct.pack(">I", len(data)) + data


class Reader:
    """Reads RFC 4253 fields from a byte string; every short read is a FormatError."""

    def __init__(self, data: bytes, what: str) -> None:
        self._data = data
        self._pos = 0
        self._what = what

    def take(self, n: int, field_name: str) -> bytes:
        end = self._pos + n
        if end > len(self._data):
            raise FormatError(f"{self._what} is truncated inside its {field_name}")
        chunk = self._data[self._pos : end]
        self._pos = end
        return chunk

    def uint32(self, field_name: str) -> int:
        value: int = struct.unpack(">I", self.take(4, field_name))[0]
        return value

    def string(self, field_name: str) -> bytes:
        return self.take(self.uint32(field_name), field_name)

    def text(self, field_name: str) -> str:
        raw = self.string(field_name)
        try:
            value = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise FormatError(f"{self._what} has a {field_name} that is not UTF-8") from e
        if "\0" in value:
            raise FormatError(f"{self._what} has a NUL byte in its {field_name}")
        return value

    def end(self) -> None:
        if self._pos != len(self._data):
            raise FormatError(f"{self._what} has {len(self._data) - self._pos} trailing bytes")


def b64decode(text: bytes | str, what: str) -> bytes:
    """Strict base64: alphabet only, padded, and canonical (so encodings are not malleable)."""
    data = text.encode("ascii", "replace") if isinstance(text, str) else text
    try:
        out = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError) as e:
        raise FormatError(f"{what} is not valid base64") from e
    if base64.b64encode(out) != data:
        raise FormatError(f"{what} is not canonical base64")
    return out
