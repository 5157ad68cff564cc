"""Trust roots: ssh-keygen(1) ``allowed_signers`` files, parsed and consulted.

Pure: text in, entries and verdicts out. The time a key must be valid at is always a
parameter (the record's creation time), never the clock. See ``docs/receipts.md``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import NamedTuple

from gitmem.core import sshwire
from gitmem.core.errors import FormatError
from gitmem.core.receipts import ED25519, PublicKey

_WS = " \t\r"
MAX_LINE = 16_384
"""The longest line read (an Ed25519 entry with every option is a few hundred characters);
a longer one is skipped and reported, so the work per line stays bounded."""
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@functools.lru_cache(maxsize=512)
def _pattern(pattern: str) -> re.Pattern[str]:
    # ssh_config(5) PATTERNS: '*' is any run of characters, '?' exactly one.
    text = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)
    return re.compile(text, re.DOTALL)


def _match_list(value: str, patterns: Sequence[str]) -> bool:
    # match_pattern_list: a match of any "!pattern" vetoes; otherwise one positive match
    # is needed.
    positive = False
    for item in patterns:
        negated = item.startswith("!")
        if _pattern(item[1:] if negated else item).fullmatch(value):
            if negated:
                return False
            positive = True
    return positive


def _floor_seconds(when: datetime) -> datetime:
    if when.tzinfo is None or when.utcoffset() is None:
        raise ValueError("a verification time must be timezone-aware")
    return when.replace(microsecond=0)


def _ssh_time(when: datetime) -> str:
    when = when.astimezone(UTC)
    if when.time() == datetime.min.time():
        return when.strftime("%Y%m%dZ")
    return when.strftime("%Y%m%d%H%MZ" if when.second == 0 else "%Y%m%d%H%M%SZ")


def _human_time(when: datetime) -> str:
    when = when.astimezone(UTC)
    if when.time() == datetime.min.time():
        return when.strftime("%Y-%m-%d")
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def _quote_principals(principals: str) -> str:
    if '"' in principals or "\n" in principals or "\0" in principals:
        raise ValueError(f"principals {principals!r} cannot be written in allowed_signers")
    if not principals or principals.startswith("#") or any(c in principals for c in _WS):
        return f'"{principals}"'
    return principals


@dataclass(frozen=True)
class AllowedSigner:
    """One line of an allowed_signers file: who may sign with which key, for what, when."""

    principals: tuple[str, ...]
    key: PublicKey
    namespaces: tuple[str, ...] | None
    valid_after: datetime | None
    valid_before: datetime | None
    cert_authority: bool
    source: str
    line: int
    comment: str = ""

    def matches_principal(self, principal: str) -> bool:
        """True when *principal* matches the pattern list (``*``, ``?``, ``!``). Raises nothing."""
        return _match_list(principal, self.principals)

    def allows_namespace(self, namespace: str) -> bool:
        """True when no ``namespaces=`` was given or *namespace* matches it. Raises nothing."""
        return self.namespaces is None or _match_list(namespace, self.namespaces)

    def valid_at(self, when: datetime) -> bool:
        """True when valid-after <= *when* <= valid-before (whole seconds, as ssh-keygen).

        Raises ValueError when *when* is a naive datetime.
        """
        when = _floor_seconds(when)
        if self.valid_after is not None and when < self.valid_after:
            return False
        return self.valid_before is None or when <= self.valid_before

    def to_line(self) -> str:
        """This entry in allowed_signers syntax (times in UTC with ``Z``).

        Raises ValueError when a principal holds a double quote or a newline, which the
        format cannot express.
        """
        options = ["cert-authority"] if self.cert_authority else []
        if self.namespaces is not None:
            value = ",".join(self.namespaces).replace('"', '\\"')
            options.append(f'namespaces="{value}"')
        if self.valid_after is not None:
            options.append(f'valid-after="{_ssh_time(self.valid_after)}"')
        if self.valid_before is not None:
            options.append(f'valid-before="{_ssh_time(self.valid_before)}"')
        fields = [_quote_principals(",".join(self.principals))]
        fields += [",".join(options)] if options else []
        fields.append(self.key.openssh())
        fields += [self.comment] if self.comment else []
        return " ".join(fields)


class AllowedSignersFile(NamedTuple):
    """A parsed trust root: its usable entries and one sentence per skipped line."""

    entries: tuple[AllowedSigner, ...]
    problems: tuple[str, ...]
    source: str = ""
    """Where the file came from, for messages."""


class _LineError(Exception):
    """A malformed allowed_signers line; the message completes "line N: ..."."""


def _split_token(text: str) -> tuple[str, str]:
    end = next((i for i, c in enumerate(text) if c in _WS), len(text))
    return text[:end], text[end:].lstrip(_WS)


def _looks_like_key(key_type: str, rest: str) -> bool:
    # As ssh-keygen: the field after the principals is a key when it is a key type
    # followed by base64 whose blob names that same type; otherwise it is options.
    b64, _ = _split_token(rest)
    try:
        blob = sshwire.b64decode(b64, "key")
        return sshwire.Reader(blob, "key").string("key type") == key_type.encode()
    except FormatError:
        return False


def _split_options(text: str) -> tuple[str, str]:
    quoted = False
    i = 0
    while i < len(text) and (quoted or text[i] not in _WS):
        if text.startswith('\\"', i):
            i += 1
        elif text[i] == '"':
            quoted = not quoted
        i += 1
    if quoted:
        raise _LineError("an option value has no closing quote")
    return text[:i], text[i:].lstrip(_WS)


def _dequote(text: str, pos: int, name: str) -> tuple[str, int]:
    if not text.startswith('"', pos):
        raise _LineError(f'the {name} value must be in double quotes, as {name}="..."')
    out: list[str] = []
    pos += 1
    while pos < len(text) and text[pos] != '"':
        if text.startswith('\\"', pos):
            pos += 1
        out.append(text[pos])
        pos += 1
    if pos >= len(text):
        raise _LineError(f"the {name} value has no closing quote")
    return "".join(out), pos + 1


def _parse_time(value: str, name: str) -> datetime:
    # YYYYMMDD[Z] or YYYYMMDDHHMM[SS][Z]; a Z (or UTC) suffix means UTC. ssh-keygen reads
    # the rest as local time; a pure core has no local zone, so gitmem reads them as UTC.
    digits = value
    if len(digits) > 1 and digits[-1] in "Zz":
        digits = digits[:-1]
    elif len(digits) > 3 and digits[-3:].upper() == "UTC":
        digits = digits[:-3]
    if len(digits) not in (8, 12, 14) or not (digits.isascii() and digits.isdigit()):
        raise _LineError(f"{name} {value!r} is not YYYYMMDD[HHMM[SS]][Z]")
    digits = digits.ljust(14, "0")
    try:
        when = datetime(
            int(digits[:4]),
            int(digits[4:6]),
            int(digits[6:8]),
            int(digits[8:10]),
            int(digits[10:12]),
            int(digits[12:14]),
            tzinfo=UTC,
        )
    except ValueError as e:
        raise _LineError(f"{name} {value!r} is not a real date and time") from e
    if when <= _EPOCH:
        raise _LineError(f"{name} {value!r} is not after 1970-01-01")
    return when


_Options = tuple[bool, tuple[str, ...] | None, datetime | None, datetime | None]
_NO_OPTS: _Options = (False, None, None, None)


def _unknown(text: str) -> str:
    word = text.split(",")[0]
    return f"{word!r} is neither a known option nor a key type followed by a valid key"


def _parse_options(text: str) -> _Options:
    ca = False
    values: dict[str, str] = {}
    pos = 0
    while True:
        lower = text[pos:].lower()
        if lower.startswith("cert-authority"):
            ca, pos = True, pos + len("cert-authority")
        else:
            name = next(
                (
                    n
                    for n in ("namespaces", "valid-after", "valid-before")
                    if lower.startswith(n + "=")
                ),
                None,
            )
            if name is None:
                raise _LineError(_unknown(text[pos:]))
            if name in values:
                raise _LineError(f"{name} is given twice")
            values[name], pos = _dequote(text, pos + len(name) + 1, name)
        if pos == len(text):
            break
        if text[pos] != ",":
            raise _LineError(_unknown(text[pos:]))
        pos += 1
        if pos == len(text):
            raise _LineError("the options end with a comma")
    namespaces = tuple(values["namespaces"].split(",")) if "namespaces" in values else None
    after = _parse_time(values["valid-after"], "valid-after") if "valid-after" in values else None
    before = (
        _parse_time(values["valid-before"], "valid-before") if "valid-before" in values else None
    )
    if after is not None and before is not None and before <= after:
        raise _LineError("valid-before is not later than valid-after")
    return ca, namespaces, after, before


def _parse_line(text: str, source: str, number: int) -> AllowedSigner:
    # Field 1: the principals, a comma list, optionally in double quotes.
    if text.startswith('"'):
        end = text.find('"', 1)
        if end < 0:
            raise _LineError("the principals have no closing quote")
        principals, rest = text[1:end], text[end + 1 :]
        if rest and rest[0] not in _WS:
            raise _LineError("the principals' closing quote is not followed by a space")
        rest = rest.lstrip(_WS)
    else:
        principals, rest = _split_token(text)
        if '"' in principals:
            raise _LineError("the principals have a stray double quote")
    if not principals:
        raise _LineError("the principals are empty")
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in principals):
        raise _LineError("the principals hold a control character (a NUL byte, say)")
    # Field 2 (optional): options; then the key type, base64 key and comment.
    first, after_first = _split_token(rest)
    options = ""
    if not _looks_like_key(first, after_first):
        options, rest = _split_options(rest)
    ca, namespaces, valid_after, valid_before = _parse_options(options) if options else _NO_OPTS
    key_type, rest = _split_token(rest)
    b64, comment = _split_token(rest)
    if not key_type or not b64:
        raise _LineError("there is no key after the principals and options")
    try:
        blob = sshwire.b64decode(b64, "the key")
        blob_type = sshwire.Reader(blob, "the key").string("key type").decode("ascii", "replace")
    except FormatError as e:
        raise _LineError(str(e)) from e
    if blob_type != key_type:
        raise _LineError(f"the key is labelled {key_type} but is a {blob_type} key")
    if key_type != ED25519:
        raise _LineError(f"{key_type} keys are not supported (gitmem accepts {ED25519} only)")
    try:
        key = PublicKey.from_blob(blob)
    except FormatError as e:
        raise _LineError(str(e)) from e
    return AllowedSigner(
        principals=tuple(principals.split(",")),
        key=key,
        namespaces=namespaces,
        valid_after=valid_after,
        valid_before=valid_before,
        cert_authority=ca,
        source=source,
        line=number,
        comment=comment.rstrip(_WS),
    )


def parse_allowed_signers(text: str, source: str) -> AllowedSignersFile:
    """Parse an ssh-keygen(1) ALLOWED SIGNERS file; *source* names it in messages.

    Each malformed or non-Ed25519 line is skipped and reported as one sentence in
    ``problems`` ("line 3: ..."); later lines still count. Times
    without a ``Z`` suffix are read as UTC (ssh-keygen reads them as local time).
    Raises nothing.
    """
    entries: list[AllowedSigner] = []
    problems: list[str] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip(_WS)
        if not line or line.startswith("#"):
            continue
        if len(line) > MAX_LINE:
            problems.append(f"line {number}: longer than {MAX_LINE} characters; line skipped")
            continue
        try:
            entries.append(_parse_line(line, source, number))
        except _LineError as e:
            problems.append(f"line {number}: {e}; line skipped")
    return AllowedSignersFile(tuple(entries), tuple(problems), source)


def allowed_signers_line(
    principal: str,
    key: PublicKey,
    namespaces: Sequence[str] | None = ("gitmem",),
    comment: str = "",
) -> str:
    """One allowed_signers line that trusts *key* for *principal* in *namespaces*.

    ``namespaces=None`` allows every namespace. Raises ValueError for an empty
    principal or namespace, or one holding a comma, double quote or control character,
    and for a comment holding a newline.
    """
    for value in (principal, *(namespaces or ())):
        if not value or any(c in value for c in ',"') or any(ord(c) < 32 for c in value):
            raise ValueError(f"{value!r} cannot be a principal or namespace in allowed_signers")
    if "\n" in comment or "\r" in comment:
        raise ValueError("an allowed_signers comment must be a single line")
    entry = AllowedSigner(
        principals=(principal,),
        key=key,
        namespaces=None if namespaces is None else tuple(namespaces),
        valid_after=None,
        valid_before=None,
        cert_authority=False,
        source="",
        line=0,
        comment=comment.strip(),
    )
    return entry.to_line()


# --- trust decisions -------------------------------------------------------------------


class TrustVerdict(NamedTuple):
    """Whether a key may sign for a principal; ``reason`` is one sentence for the user.

    ``principals`` holds the principal patterns of the fully matching entries when
    trusted, otherwise those of every plain entry that lists this key (who the key is).
    """

    trusted: bool
    principals: tuple[str, ...]
    reason: str


def _plain_entries(roots: Sequence[AllowedSignersFile], key: PublicKey) -> list[AllowedSigner]:
    # A cert-authority entry trusts certificates signed by that key, never the key itself.
    return [e for root in roots for e in root.entries if e.key == key and not e.cert_authority]


def _patterns(entries: Sequence[AllowedSigner]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(p for e in entries for p in e.principals))


def check_trust(
    roots: Sequence[AllowedSignersFile],
    key: PublicKey,
    principal: str,
    namespace: str,
    when: datetime,
) -> TrustVerdict:
    """Is *key* trusted to sign for *principal* in *namespace* at *when*?

    Trusted iff some entry of some root has this exact key (not as cert-authority),
    matches the principal, allows the namespace and is valid at *when* (pass the
    record's creation time). Raises ValueError when *when* is naive.
    """
    at = _floor_seconds(when)
    verdict, owners, in_namespace = _timeless(roots, key, principal, namespace)
    if verdict is not None:
        return verdict
    fp = key.fingerprint()
    valid = [e for e in in_namespace if e.valid_at(when)]
    if not valid:
        shown = _human_time(at)
        ends = [e.valid_before for e in in_namespace if e.valid_before and at > e.valid_before]
        if ends:
            limit = _human_time(max(ends))
            reason = f"key {fp} expired (valid-before {limit}) before the record's time {shown}"
        else:
            start = min(e.valid_after for e in in_namespace if e.valid_after is not None)
            reason = f"key {fp} was not yet valid (valid-after {_human_time(start)}) at {shown}"
        return TrustVerdict(False, owners, reason)
    return _trusted(principal, fp, valid)


def _trusted(principal: str, fp: str, valid: Sequence[AllowedSigner]) -> TrustVerdict:
    entry = valid[0]
    reason = f"signed by {principal} ({fp}) per {entry.source} line {entry.line}"
    return TrustVerdict(True, _patterns(valid), reason)


_Timeless = tuple[TrustVerdict | None, tuple[str, ...], tuple[AllowedSigner, ...]]
"""What :func:`check_trust` decides for a key, principal and namespace at any time: the
verdict (None when validity windows make it the time's), the key's owners, the entries."""

_memo: dict[tuple[PublicKey, str, str], _Timeless] = {}
_memo_roots: list[object] = [None]  # the roots _memo answers under, kept alive


def _timeless(
    roots: Sequence[AllowedSignersFile], key: PublicKey, principal: str, namespace: str
) -> _Timeless:
    """:func:`_decide`, remembered under a tuple of roots (which cannot change): a verify
    asks under one, for a handful of keys and writers, record after record."""
    if type(roots) is not tuple:
        return _decide(roots, key, principal, namespace)
    if _memo_roots[0] is not roots or len(_memo) >= 1024:
        _memo.clear()
        _memo_roots[0] = roots
    asked = (key, principal, namespace)
    if asked not in _memo:
        _memo[asked] = _decide(roots, key, principal, namespace)
    return _memo[asked]


def _decide(
    roots: Sequence[AllowedSignersFile], key: PublicKey, principal: str, namespace: str
) -> _Timeless:
    """Steps of :func:`check_trust` that do not depend on the time. Raises nothing."""
    fp = key.fingerprint()
    held = _plain_entries(roots, key)
    if not held:
        if any(e.key == key for root in roots for e in root.entries):
            reason = f"key {fp} is listed only as a cert-authority, which trusts no plain key"
        else:
            reason = f"untrusted key: {fp} is in no allowed_signers trust root"
        return TrustVerdict(False, (), reason), (), ()
    owners = _patterns(held)
    for_principal = [e for e in held if e.matches_principal(principal)]
    if not for_principal:
        listed = ",".join(owners)
        reason = f"key {fp} is not valid for principal {principal} (it is listed for {listed})"
        return TrustVerdict(False, owners, reason), owners, ()
    in_namespace = tuple(e for e in for_principal if e.allows_namespace(namespace))
    if not in_namespace:
        reason = f"key {fp} not allowed for namespace {namespace}"
        return TrustVerdict(False, owners, reason), owners, ()
    if all(e.valid_after is None and e.valid_before is None for e in in_namespace):
        return _trusted(principal, fp, in_namespace), owners, in_namespace
    return None, owners, in_namespace


def find_principals(
    roots: Sequence[AllowedSignersFile],
    key: PublicKey,
    namespace: str,
    when: datetime,
) -> tuple[str, ...]:
    """Principal patterns of every entry that trusts *key* in *namespace* at *when*.

    In file order, without duplicates; empty when the key is trusted nowhere. Unlike
    ``ssh-keygen -Y find-principals`` this checks the namespace and collects every
    matching line, not only the first. Raises ValueError when *when* is naive.
    """
    _floor_seconds(when)
    held = _plain_entries(roots, key)
    return _patterns([e for e in held if e.allows_namespace(namespace) and e.valid_at(when)])
