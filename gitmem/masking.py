"""Secret masking: every secret in a text becomes ``[redacted:KIND]``.

Capture masks a transcript before any byte of it reaches git (snapshots, item text,
quotes), because memory is pushed with the repository. Pure: a string in, a string out;
no disk, no network, no clock. The kinds, what each keeps and masks, the values that are
never masked and the limits are in ``docs/secrets.md``.

Two families of rules: *shapes* (a token whose format gives it away, like ``ghp_…`` or a
PEM private key block) and *context* (a value whose name says it is secret, like
``DB_PASSWORD=…``, or the password of ``scheme://user:password@host``).

Every pattern is linear on hostile input: each starts with a literal so the regex engine
can jump to candidates, a look-behind placed *after* that literal rejects a candidate in
the middle of a longer run (so a run is tried once, not once per character), quantifiers
are possessive or bounded, and the context scan never rereads a value it has judged.
"""

from __future__ import annotations

import heapq
import re
import string
from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

MASK_PREFIX = "[redacted:"

KINDS = (
    "private-key",
    "openssh-private-key",
    "aws-access-key-id",
    "aws-secret-access-key",
    "github-token",
    "gitlab-token",
    "slack-token",
    "slack-webhook-url",
    "anthropic-api-key",
    "openai-api-key",
    "stripe-secret-key",
    "google-api-key",
    "npm-token",
    "pypi-token",
    "huggingface-token",
    "jwt",
    "bearer-token",
    "url-password",
    "secret-assignment",
)
"""Every kind :func:`mask` emits, most specific first: on a tie the earlier kind wins."""

_PRIORITY = {kind: index for index, kind in enumerate(KINDS)}

_MASK_RE = re.compile(r"\[redacted:[a-z0-9][a-z0-9-]*\]")


@dataclass(frozen=True)
class Finding:
    """One masked span: its kind and its offsets in the *original* text."""

    kind: str
    start: int
    end: int


@dataclass(frozen=True)
class Masked:
    """The masked text and what was masked, in order."""

    text: str
    findings: tuple[Finding, ...]


def mask(text: str) -> Masked:
    """Replace every secret in *text* with ``[redacted:KIND]``. Never raises.

    Overlapping findings merge into one mask over their union, named after the widest
    finding (on equal width, the kind listed first in :data:`KINDS`).

    A mask can complete its neighbour: in ``-----END … KEY-----glpat-…`` the ``-`` hides
    the start of the GitLab token until the key block is masked. So the masked text is
    scanned again, and what that finds is added, until a scan finds nothing new; masking
    the result again therefore finds nothing. A one-line mask between spaces, quotes or
    brackets changes no rule's view of its neighbours; when every mask is such, the scan
    is skipped.
    """
    hits = list(_hits(text))
    while True:
        findings = _merged(hits)
        masked, starts = _render(text, findings)
        if all(_isolated(text, finding) for finding in findings):
            return Masked(masked, tuple(findings))
        secret_starts = [finding.start for finding in findings]
        fresh = []
        for start, end, kind in _hits(masked):
            start, end = (
                _original(start, starts, findings, 0),
                _original(end - 1, starts, findings, 1),
            )
            index = bisect_right(secret_starts, start) - 1
            if index < 0 or end > findings[index].end:  # not inside a finding already made
                fresh.append((start, end, kind))
        if not fresh:
            return Masked(masked, tuple(findings))
        hits += fresh


def kinds() -> tuple[str, ...]:
    """Every kind :func:`mask` can emit."""
    return KINDS


def contains_mask(text: str) -> bool:
    """Whether *text* holds a ``[redacted:KIND]`` token.

    Capture uses this to refuse a quote that overlaps a masked secret: such a quote is
    never verbatim, because the words it claims were not stored.
    """
    return _MASK_RE.search(text) is not None


_NEUTRAL = frozenset(" \t\r\n\v\f\"'`,;(){}<>")


def _isolated(text: str, finding: Finding) -> bool:
    """Bordered by neutral characters, and on one line: masking a key block joins the
    lines around it, which can close a quote that was open before."""
    before = text[finding.start - 1] if finding.start else " "
    after = text[finding.end] if finding.end < len(text) else " "
    one_line = text.find("\n", finding.start, finding.end) < 0
    return before in _NEUTRAL and after in _NEUTRAL and one_line


def _merged(hits: list[tuple[int, int, str]]) -> list[Finding]:
    """Overlapping hits become one finding over their union."""
    findings: list[Finding] = []
    group: list[tuple[int, int, str]] = []
    end = 0
    for hit in sorted(hits):
        if group and hit[0] >= end:
            findings.append(_union(group, end))
            group = []
        end = max(end, hit[1]) if group else hit[1]
        group.append(hit)
    return [*findings, _union(group, end)] if group else findings


def _union(group: list[tuple[int, int, str]], end: int) -> Finding:
    """Named after the widest hit; on equal width, the kind listed first in KINDS."""
    widest = max(group, key=lambda hit: (hit[1] - hit[0], -_PRIORITY[hit[2]]))
    return Finding(widest[2], group[0][0], end)


def _render(text: str, findings: list[Finding]) -> tuple[str, list[int]]:
    """The masked text, and where each finding's mask starts in it."""
    pieces: list[str] = []
    starts: list[int] = []
    pos = length = 0
    for finding in findings:
        kept = text[pos : finding.start]
        token = f"{MASK_PREFIX}{finding.kind}]"
        starts.append(length + len(kept))
        pieces += [kept, token]
        length += len(kept) + len(token)
        pos = finding.end
    pieces.append(text[pos:])
    return "".join(pieces), starts


def _original(pos: int, starts: list[int], findings: list[Finding], side: int) -> int:
    """The offset in the original text of character *pos* of the masked text: its own
    offset, or the start (*side* 0) or end (*side* 1) of the secret a mask stands for."""
    index = bisect_right(starts, pos) - 1
    if index < 0:
        return pos + side
    finding = findings[index]
    token_end = starts[index] + len(MASK_PREFIX) + len(finding.kind) + 1
    if pos < token_end:
        return (finding.start, finding.end)[side]
    return finding.end + pos - token_end + side


def _hits(text: str) -> Iterator[tuple[int, int, str]]:
    yield from _private_keys(text)
    for kind, pattern, check in _SHAPES:
        for match in pattern.finditer(text):
            if check(match.group("s")):
                yield match.start("s"), match.end("s"), kind
    yield from _aws_pairs(text)
    yield from _url_passwords(text)
    yield from _named_values(text, _lowered(text))


def _lowered(text: str) -> str:
    """*text* lower-cased with every offset kept, for the case-insensitive context rules.

    str.lower() is fast but "İ" becomes two characters ("i̇"), the only one that does in
    Python 3.11; it is replaced first. Should a later Unicode version add another, the
    length check falls back to lower-casing ASCII letters only (slower, offsets kept).
    """
    lowered = text.replace("\u0130", "I").lower()
    return lowered if len(lowered) == len(text) else text.translate(_ASCII_LOWER)


# Shapes -----------------------------------------------------------------------------


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


# `scheme://user:password@host`. The password runs to the *last* "@" before the host, so
# an unescaped "@" inside it is masked too; the backtracking is bounded by 256.
_URL_RE = re.compile(
    r"://(?<=[A-Za-z0-9+.-]://)[^\s:/@\[\]\"'<>]{0,256}+:(?P<s>[^\s/\"'<>]{1,256})@"
    r"(?=[A-Za-z0-9\[])",
    re.ASCII,
)


def _url_passwords(text: str) -> Iterator[tuple[int, int, str]]:
    for match in _URL_RE.finditer(text):
        if not _not_secret(match.group("s")):
            yield match.start("s"), match.end("s"), "url-password"


# Context ----------------------------------------------------------------------------


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


_STRONG_WORDS = _set(
    "secret token password passwd passphrase apikey credential credentials auth "
    "authorization privatekey secretkey accesskey authkey authtoken accesstoken"
)
"""A name holding one of these words names a secret: ``DB_PASSWORD``, ``clientSecret``."""

_LAST_WORDS = _set("key pass pwd")
"""These name a secret only as the last word, after a qualifier: ``api_key``, ``db_pass``.
Alone, or after most other words (``sort_key``, ``output_key``), they are ordinary code."""

_SECRET_QUALIFIERS = _set(
    "api secret private priv access signing sign encryption encrypt master client app "
    "application auth license licence ssh deploy session webhook consumer shared hmac jwt "
    "service account storage subscription db database admin root gpg pgp wallet vault kms "
    "aes cipher token smtp mail ftp redis mysql postgres pg"
)
"""Qualifiers that make ``key``, ``pass``, ``pwd`` secret. An all-capital name
(``STRIPE_KEY``, an environment variable) needs only a qualifier that is not in
``_NOT_SECRET_QUALIFIERS["key"]`` (``SORT_KEY``)."""

_NOT_SECRET_QUALIFIERS = {
    "key": _set(
        "sort primary foreign cache partition lookup object dict hash map idempotency public "
        "pub routing row range unique composite index group order search hot shortcut "
        "translation i18n label field column table record item node entry shard sharding "
        "dedup dedupe natural surrogate cluster clustering compound candidate alternate lock "
        "s3 bucket default config setting settings state context local global cursor "
        "secondary first last next prev previous child parent react"
    ),
    "token": _set(
        "next page pagination continuation cancellation cancel sync eos bos pad unk sep cls "
        "mask start end special max min num input output prompt completion total stop "
        "image audio"
    ),
}
"""``sort_key`` and ``page_token`` are not secrets."""

_NOT_SECRET_SUFFIXES = _set(
    "id ids name names url uri urls endpoint path file filename files dir type kind length len "
    "count size ttl timeout expiry expires expiration exp header env var field prefix arn "
    "version policy rotation limit max min enabled required provider method mode host port "
    "user username email label description format scope scopes fingerprint algorithm alg "
    "location manager rule rules param params store sock socket hint range error errors "
    "exception doc docs help message msg text title note comment example schema status state "
    "context scheme backend handler middleware plugin module class factory strategy flow "
    "callback helper mock test tests hdr"
)
"""``token_url`` or ``password_file`` names something about a secret, not the secret."""

_SCHEMES = _set("bearer basic token bot digest negotiate ntlm apikey")

_NOT_SECRET_VALUES = (
    _set(
        "null none nil undefined true false yes no on off enabled disabled lambda self this "
        "redacted required optional str string bytes bytearray int bool boolean number any "
        "unknown object secretstr secretbytes dict list env | > |- >- |+ >+"
    )
    | _SCHEMES
)
"""Literal keywords, type names, YAML block indicators and authorization schemes."""


_WORDS_RE = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+", re.ASCII)
_IDENTIFIER_RE = re.compile(r"[A-Za-z_]\w*", re.ASCII)
_IDENTIFIER_PATH_RE = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+", re.ASCII)
_LETTERS_RE = re.compile(r"[A-Za-z_]+", re.ASCII)
_NAME_LIKE_RE = re.compile(r"[A-Za-z][A-Za-z_.-]*", re.ASCII)
_PLACEHOLDER_RE = re.compile(
    r"<[^<>]*>|\{.*\}|\$\{.*\}|\$\(.*\)|\$[A-Za-z_]\w*|%[A-Za-z_]\w*%|([*xX.#•_-])\1*|…",
    re.ASCII | re.DOTALL,
)
# An unquoted value; a JSON escape (\n, \") ends it like the character it stands for.
# A format string fills the secret in later: "Bearer %s", "%(password)s", f"{token}".
_TEMPLATE_RE = re.compile(r"%[sdr]|%\(\w+\)[sdr]|\{[\w.]*\}", re.ASCII)
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
            or not _names_secret(name)
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
    if flag.group("dash") and _names_secret(name):
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
        if (
            colon >= 0
            and MASK_PREFIX not in text[start : colon + 1]
            and not _not_secret(text[colon + 1 : end])
        ):
            yield colon + 1, end, "secret-assignment"


@lru_cache(maxsize=4096)
def _names_secret(name: str) -> bool:
    words = _words(name)
    if not words or words[-1] in _NOT_SECRET_SUFFIXES:
        return False
    for index, word in enumerate(words):
        before = words[index - 1] if index else ""
        if word in _STRONG_WORDS and before not in _NOT_SECRET_QUALIFIERS.get(word, ()):
            return True
    if len(words) < 2 or words[-1] not in _LAST_WORDS:
        return False
    qualifier = words[-2]
    return qualifier in _SECRET_QUALIFIERS or (
        name.isupper() and qualifier not in _NOT_SECRET_QUALIFIERS["key"]
    )


def _words(name: str) -> list[str]:
    return [w.lower() for w in _WORDS_RE.findall(name) if not w.isdigit()]


def _not_secret(value: str) -> bool:
    """Empty, a literal keyword, a placeholder, a reference, a template, or a mask."""
    value = value.strip()
    return (
        not value
        or value.lower() in _NOT_SECRET_VALUES
        or _PLACEHOLDER_RE.fullmatch(value) is not None
        or _MASK_RE.fullmatch(value) is not None
        or _TEMPLATE_RE.search(value) is not None
    )


def _not_named_secret(value: str, name: str) -> bool:
    """Also too short to matter, the name's own words (UNTRUSTED_KEY = "untrusted key"),
    or itself the name of a secret (token_type_hint="access_token")."""
    return (
        _not_secret(value)
        or len(value.strip()) < 3
        or _words(value) == _words(name)
        or (_NAME_LIKE_RE.fullmatch(value) is not None and _names_secret(value))
    )


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
        if end < 0 or _not_named_secret(text[start:end], name):
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
    if value.lower() in _SCHEMES and _words(name)[-1:] in (["authorization"], ["auth"]):
        return _value(text, lines, end, "", form)  # Authorization: Bearer <credential>
    if _not_named_secret(value, name) or _IDENTIFIER_PATH_RE.fullmatch(value):
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
