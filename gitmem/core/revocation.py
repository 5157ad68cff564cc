"""Revoked keys: a list of public keys that no trust root may vouch for, ever.

Pure: text in, a set of key blobs out. The format is the plain-text revocation list
``ssh-keygen -Y verify -r FILE`` and sshd's ``RevokedKeys`` accept: one public key per
line (``ssh-ed25519 AAAA… comment``), ``#`` comments and blank lines ignored. So the
same file revokes a key for gitmem and for stock ssh-keygen.

Revocation is not bounded in time. A record's ``created`` time is its signer's claim,
and a stolen key can sign records dated inside its validity window, so a revoked key
vouches for nothing it ever signed (``valid-before`` is the tool for an orderly
rotation, where the old records stay trusted).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from gitmem.core import sshwire
from gitmem.core.allowed_signers import MAX_LINE, AllowedSignersFile
from gitmem.core.errors import FormatError
from gitmem.core.receipts import fingerprint_of_blob, receipt_key


def parse_key_line(text: str, what: str) -> tuple[str, bytes]:
    """``TYPE BASE64 [comment]`` → (type, wire blob), for any SSH key type.

    Raises:
        FormatError: not a key line, invalid base64, or a blob of another type.
    """
    parts = text.split()
    if len(parts) < 2:
        raise FormatError(f"{what} is not a public key line (TYPE BASE64 [comment])")
    blob = sshwire.b64decode(parts[1], what)
    inner = sshwire.Reader(blob, what).string("key type").decode("ascii", "replace")
    if inner != parts[0]:
        raise FormatError(f"{what} is labelled {parts[0]} but holds a {inner} key")
    return parts[0], blob


class Revocations(NamedTuple):
    """Revoked key blobs, where each came from, and one sentence per skipped line."""

    keys: frozenset[bytes] = frozenset()
    lines: tuple[str, ...] = ()
    """The revoking lines as given (for ``ssh-keygen -r``)."""
    problems: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()

    def revokes(self, blob: bytes) -> bool:
        """True when the key with this wire blob is revoked. Raises nothing."""
        return blob in self.keys

    def text(self) -> str:
        """The list as one file, in the format ``ssh-keygen -r`` reads. Raises nothing."""
        return "".join(line + "\n" for line in self.lines)


def parse_revoked_keys(text: str, source: str) -> Revocations:
    """Parse a revocation list; *source* names it in messages. Malformed lines are
    skipped and reported ("line 3: …"); they never stop the rest from counting.
    Raises nothing."""
    keys: set[bytes] = set()
    lines: list[str] = []
    problems: list[str] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if len(line) > MAX_LINE:
            problems.append(f"{source} line {number}: longer than {MAX_LINE} characters; skipped")
            continue
        try:
            _, blob = parse_key_line(line, f"{source} line {number}")
        except FormatError as e:  # its sentence names the line already
            problems.append(f"{e}; line skipped")
            continue
        keys.add(blob)
        lines.append(line)
    return Revocations(frozenset(keys), tuple(lines), tuple(problems), (source,))


def combine(lists: Iterable[Revocations]) -> Revocations:
    """One revocation list holding every key any of *lists* revokes. Raises nothing."""
    keys: set[bytes] = set()
    lines: list[str] = []
    problems: list[str] = []
    sources: list[str] = []
    for item in lists:
        keys |= item.keys
        lines += item.lines
        problems += item.problems
        sources += item.sources
    return Revocations(frozenset(keys), tuple(lines), tuple(problems), tuple(sources))


def without_revoked(root: AllowedSignersFile, revoked: Revocations) -> AllowedSignersFile:
    """*root* minus every entry whose key is revoked; each removal is reported in
    ``problems`` ("line 2: key SHA256:… is revoked …; line skipped"). Raises nothing."""
    if not revoked.keys:
        return root
    kept = []
    problems = list(root.problems)
    for entry in root.entries:
        blob = entry.key.blob()
        if revoked.revokes(blob):
            where = ", ".join(revoked.sources)
            problems.append(
                f"line {entry.line}: key {entry.key.fingerprint()} is revoked ({where}); "
                "line skipped"
            )
        else:
            kept.append(entry)
    return root._replace(entries=tuple(kept), problems=tuple(problems))


def revoked_reason(receipt: bytes | None, revoked: Revocations) -> str | None:
    """ "untrusted key: SHA256:… is revoked (…)" when the key inside *receipt* is
    revoked, else None. A precise reason for a check that failed on trust (the trust
    roots no longer list the key at all once it is revoked). Raises nothing."""
    if receipt is None or not revoked.keys:
        return None
    try:
        _, blob = receipt_key(receipt)
    except FormatError:
        return None
    if not revoked.revokes(blob):
        return None
    where = ", ".join(revoked.sources)
    return f"untrusted key: {fingerprint_of_blob(blob)} is revoked ({where})"
