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

This module is the public surface and joins what the rules find into masks. The rules:
:mod:`~gitmem.capture.masking.shapes`, :mod:`~gitmem.capture.masking.context` (reading names
and values out of text) and :mod:`~gitmem.capture.masking.names` (which names and values are
secret);
:mod:`~gitmem.capture.masking.redacted` is the mask token itself.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from gitmem.capture.masking.context import context_hits
from gitmem.capture.masking.escapes import views
from gitmem.capture.masking.redacted import MASK_PREFIX, MASK_RE
from gitmem.capture.masking.shapes import shape_hits

__all__ = ["KINDS", "MASK_PREFIX", "Finding", "Masked", "contains_mask", "kinds", "mask", "masked"]

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


MIN_KNOWN_SECRET = 4
"""The shortest secret masked wherever it stands: shorter "secrets" would mask ordinary words."""


def masked(text: str, known: Sequence[tuple[str, str]] = ()) -> str:
    """*text* with its secrets masked: by shape and name, behind any escaping
    (:func:`mask`), and by the exact secrets already found elsewhere (*known*: each secret
    and its kind, such as those a transcript showed). Raises nothing."""
    text = mask(text).text
    for secret, kind in known:
        if len(secret) >= MIN_KNOWN_SECRET:
            text = text.replace(secret, f"{MASK_PREFIX}{kind}]")
    return text


def kinds() -> tuple[str, ...]:
    """Every kind :func:`mask` can emit."""
    return KINDS


def contains_mask(text: str) -> bool:
    """Whether *text* holds a ``[redacted:KIND]`` token.

    Capture uses this to refuse a quote that overlaps a masked secret: such a quote is
    never verbatim, because the words it claims were not stored.
    """
    return MASK_RE.search(text) is not None


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
    """What every rule finds in *text* and in each of its views (its escapes decoded,
    :mod:`~gitmem.capture.masking.escapes`), as spans of *text*."""
    yield from shape_hits(text)
    yield from context_hits(text)
    for view in views(text):
        for start, end, kind in (*shape_hits(view.text), *context_hits(view.text)):
            yield (*view.span(start, end), kind)
