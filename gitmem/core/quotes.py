"""The quote verifier: is a quote an exact quote of a transcript?

Mechanical and deliberately dumber than what it checks: pure string operations, no
model, no disk, no git, no clock. Quote and transcript are folded the same way
(:func:`fold`, in :mod:`gitmem.core.folding`), the quote is cut into fragments at
ellipses, and every fragment must appear, in order, without overlap, on word boundaries
and whole numbers, inside one message; an ellipsis may not skip a negation, and a list
the transcript wrote one item per line may be quoted on one line (the matching is in
:mod:`gitmem.core.align`). A verbatim check can also give back the transcript's own
text of the match (:attr:`QuoteCheck.span`), which is what to store and show.
The rules, with examples, are in ``docs/verifier.md``.

A passing check says the words are *present* in the transcript; it says nothing about
whether they are true.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

from gitmem.core.align import Alignment, Fragment, MessageView, View, align, parse_fragment
from gitmem.core.canonical import Unread, sha256_hex
from gitmem.core.errors import InputError
from gitmem.core.folding import BIDI_STAND_IN, fold_inline
from gitmem.core.folding import fold as fold
from gitmem.core.negation import elision_rule
from gitmem.core.numbers import NUMBER_RE
from gitmem.core.transcript import snapshot_texts

MIN_PIN_CHARS = 8
"""A fragment needs this many folded characters before it can pin a quote by itself."""

_SHOWN_CHARS = 60
"""A fragment quoted inside a reason is shortened to this many characters."""

OPEN_TAG = "<gitmem-context>"
"""Everything gitmem prints for an agent opens with this tag …"""
CLOSE_TAG = "</gitmem-context>"
"""… and closes with this one; :func:`strip_gitmem_context` removes such spans."""
ECHO_OPEN = '<gitmem-context source="echo">'
"""The tag a transcript line gets when it echoes what gitmem emitted (the ledger)."""


def wrap_context(lines: Sequence[str]) -> str:
    """*lines* as one text inside gitmem's own tags, newline-terminated. Raises nothing."""
    return "\n".join([OPEN_TAG, *lines, CLOSE_TAG]) + "\n"


# Step 0: an open or close tag of gitmem's own output. Attributes may not contain "<" or
# ">", which keeps a failed match from scanning past the next "<" (linear time).
_CONTEXT_TAG_RE = re.compile(r"<(/?)gitmem-context(?=[\s/>])[^<>]*>", re.IGNORECASE)

ELLIPSIS_RE = re.compile(r"…|\.{3,}")

COVERED = f"\n{BIDI_STAND_IN}\n"
"""What a ``<gitmem-context>`` span of a message becomes before its quotes are checked:
the stand-in that no quote holds and no ellipsis skips (as a bidirectional control's).
gitmem's output stood between the words on either side, which were shown apart: "we ship
the parser" is not said by "we ship<gitmem-context>…</gitmem-context> the parser", nor
"we will… deploy" by "we will <gitmem-context>not</gitmem-context> deploy"."""


def strip_gitmem_context(text: str, stand_in: str = "\n") -> str:
    """Remove every ``<gitmem-context …>`` … ``</gitmem-context>`` span from one message.

    gitmem's own output (a brief echoed into a session) never counts as evidence. Tags
    match case-insensitively and the open tag may carry attributes. Nested spans are
    counted, an unterminated span runs to the end of *text*, a stray close tag and a
    self-closing tag are removed on their own. Each removed span becomes *stand_in*: a
    newline, so the words on either side do not run together; the verifier's
    :data:`COVERED`, so that no quote matches across it. Never raises.
    """
    if "<" not in text:  # no tag can open (most messages): not searched for one
        return text
    pieces: list[str] = []
    depth = 0
    pos = 0
    for tag in _CONTEXT_TAG_RE.finditer(text):
        closing = bool(tag.group(1))
        self_closing = not closing and tag.group(0).endswith("/>")
        if depth == 0:
            pieces.append(text[pos : tag.start()])
            pieces.append(stand_in)
            pos = tag.end()
            if not closing and not self_closing:
                depth = 1
        elif closing:
            depth -= 1
            if depth == 0:
                pos = tag.end()
        elif not self_closing:
            depth += 1
    if not pieces:
        return text
    if depth == 0:
        pieces.append(text[pos:])
    return "".join(pieces)


def split_fragments(quote: str) -> list[str]:
    """Cut *quote* at each ``…`` or run of three or more dots.

    Returns the raw fragments as written, stripped, leaving out those that fold to
    nothing; a fragment that is only a number ("… 37.") is kept, though at the start of
    a line it would read as a list marker. Never raises.
    """
    return [piece for piece, _ in _folded_fragments(quote)]


def _folded_fragments(quote: str) -> list[tuple[str, str]]:
    """:func:`split_fragments` of *quote*, each fragment with its :func:`fold` (which
    that split works out to judge it, and the check of the quote then compares)."""
    if "…" in quote or "..." in quote:
        pieces: Iterable[str] = (piece.strip() for piece in ELLIPSIS_RE.split(quote))
    else:  # no ellipsis (most quotes): one fragment, the quote (not cut by a pattern)
        pieces = (quote.strip(),)
    folded = ((piece, fold(piece)) for piece in pieces)
    return [(piece, body) for piece, body in folded if body or NUMBER_RE.search(fold_inline(piece))]


class FragmentResult(NamedTuple):
    """Where one fragment of a quote was found in the folded text of one message."""

    text: str
    """The raw fragment as written in the quote (stripped)."""
    folded: str
    pins: bool
    """True when the folded fragment has at least :data:`MIN_PIN_CHARS` characters."""
    found: bool
    offset: int | None
    """Offset in the folded message text; None when not found."""
    said: str | None = None
    """The message's own text that the fragment matched (case, punctuation, spacing and
    line breaks as said); only for a verbatim check asked for its span."""

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {
            "text": self.text,
            "folded": self.folded,
            "pins": self.pins,
            "found": self.found,
            "offset": self.offset,
        }
        if self.said is not None:
            data["said"] = self.said
        return data


class QuoteCheck(NamedTuple):
    """The outcome of checking one quote against one transcript."""

    verbatim: bool
    reason: str
    """One human sentence saying why the quote is or is not verbatim."""
    fragments: tuple[FragmentResult, ...]
    """Results in the message that verified, or else in the one that got furthest."""
    message_index: int | None
    """Index of the message where the quote verified; None when it did not."""
    span: str | None = None
    """The matched span in the message's own text: each fragment's :attr:`FragmentResult.said`
    joined with " … ". It is what to store and show as the quote, and it verifies against
    the same message again. Only for a verbatim check asked for it (``with_span=True``)."""

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {
            "verbatim": self.verbatim,
            "reason": self.reason,
            "fragments": [fragment.to_dict() for fragment in self.fragments],
            "message": self.message_index,
        }
        if self.span is not None:
            data["span"] = self.span
        return data


BIDI_QUOTE = (
    "the quote holds a bidirectional control (or U+FFFD), which can show its words "
    "in another order than they are written"
)
NUL_QUOTE = "the quote holds a NUL character, which stands for text nobody said"
SPAN_JOIN = " … "
"""What joins the fragments of a matched span."""


def check_quote(quote: str, messages: Sequence[str], *, with_span: bool = False) -> QuoteCheck:
    """Check whether *quote* is an exact quote of one of *messages*.

    *messages* is the transcript as a sequence of message texts; a plain ``str`` is one
    message. With *with_span*, a verbatim check also carries the transcript's own text of
    the match (:attr:`QuoteCheck.span`); that costs a second, offset-mapping fold of the
    one message that matched, so a caller that needs only yes or no leaves it off. Never
    raises: odd input (empty, only dots, a lone ellipsis) gives a check that is not
    verbatim, with its reason.
    """
    return _Transcript(messages).check(quote, with_span)


def check_quotes(
    quotes: Iterable[str], messages: Sequence[str], *, with_span: bool = False
) -> list[QuoteCheck]:
    """:func:`check_quote` for many quotes of one transcript, folding it only once.

    Never raises.
    """
    transcript = _Transcript(messages)
    return [transcript.check(quote, with_span) for quote in quotes]


SNAPSHOT_MISSING = "snapshot missing"
QUOTE_NOT_IN_SNAPSHOT = "quote not in snapshot"


class StoredQuote(NamedTuple):
    """Whether a stored quote still holds against its stored snapshot."""

    problem: str | None
    """None when it holds; :data:`SNAPSHOT_MISSING` when the snapshot is not stored;
    else :data:`QUOTE_NOT_IN_SNAPSHOT` (the reason says whether the snapshot was edited,
    cannot be read, or does not hold the quote)."""
    reason: str


def stored_messages(
    snapshot: bytes | None,
    format: str | None,
    digest: str | None = None,
    name: str = "snapshot",
    *,
    hashed: bool = False,
) -> tuple[list[str] | None, StoredQuote]:
    """The message texts of a stored *snapshot* (None: not stored), read by the one rule
    every stored quote is checked by; or None and the verdict every quote against it
    gets. With *digest*, the bytes must hash to it (*hashed*: the caller found they do).

    The rule: the transcript format its record names decides
    (:func:`gitmem.core.transcript.parse_snapshot`: plain text for ``text``, gitmem's
    ``messages`` encoding for every structured format). A record that names no format,
    one this version does not know, or bytes not in that format: the snapshot cannot be
    read, and no quote holds against it. Nothing is guessed. Raises nothing.
    """
    shown = "its snapshot" if digest is None else f"its snapshot {digest[:12]}…"
    if snapshot is None:
        return None, StoredQuote(SNAPSHOT_MISSING, f"{shown} is not stored")
    if isinstance(snapshot, Unread):
        reason = f"{shown} cannot be read: {snapshot.reason}"
        return None, StoredQuote(QUOTE_NOT_IN_SNAPSHOT, reason)
    if digest is not None and not hashed and sha256_hex(snapshot) != digest:
        return None, StoredQuote(QUOTE_NOT_IN_SNAPSHOT, f"{shown} was edited")
    try:
        if not format:
            raise InputError("its record names no transcript format")
        return snapshot_texts(snapshot, name, format), StoredQuote(None, "")
    except InputError as e:
        return None, StoredQuote(QUOTE_NOT_IN_SNAPSHOT, f"{shown} cannot be read: {e}")


def check_stored_quotes(
    quotes: Sequence[str],
    snapshot: bytes | None,
    format: str | None,
    digest: str | None = None,
    name: str = "snapshot",
    *,
    hashed: bool = False,
) -> list[StoredQuote]:
    """Each of *quotes* checked again against the stored *snapshot* (read as
    :func:`stored_messages` reads it, *hashed* as there), as ``verify``, the brief and
    ``purge`` all check one. Raises nothing."""
    messages, failed = stored_messages(snapshot, format, digest, name, hashed=hashed)
    if messages is None:
        return [failed] * len(quotes)
    transcript = _Transcript(messages)
    checks = (transcript.check(quote, False, lean=True) for quote in quotes)
    return [
        StoredQuote(None if check.verbatim else QUOTE_NOT_IN_SNAPSHOT, check.reason)
        for check in checks
    ]


class _Transcript:
    """Folded messages, plus the views needed only to explain a failure (built lazily)."""

    def __init__(self, messages: Sequence[str]) -> None:
        self._raw = [messages] if isinstance(messages, str) else list(messages)
        self._folded: list[MessageView] = []
        """The views of the first messages, folded as a check first reaches each: a
        quote found in message 3 of 9 folds four (most quotes of a long session lie
        before its end), and the rest are folded only for a quote that goes further."""
        self._joined: View | None = None
        self._with_context: list[View] | None = None

    def check(self, quote: str, with_span: bool, lean: bool = False) -> QuoteCheck:
        """The check of *quote*; *lean*: a verbatim one without its fragments' results
        (a stored quote's check keeps only the verdict and its reason)."""
        pairs = _folded_fragments(strip_gitmem_context(quote))
        raw = [piece for piece, _ in pairs]
        if not raw:
            if split_fragments(quote):
                reason = "the quote is only gitmem's own output (<gitmem-context>), "
                reason += "which never counts as evidence"
            else:
                reason = "the quote is empty"
            return QuoteCheck(False, reason, (), None)
        fragments = [parse_fragment(fragment, body) for fragment, body in pairs]
        if any(BIDI_STAND_IN in fragment.folded for fragment in fragments):
            return QuoteCheck(False, BIDI_QUOTE, (), None)
        if any("\0" in fragment.folded for fragment in fragments):
            return QuoteCheck(False, NUL_QUOTE, (), None)

        # 1. The first message holding every fragment wins; else the one that got furthest.
        best_index: int | None = None
        best = Alignment(())
        for index, view in enumerate(self._views()):
            found = align(fragments, view)
            if len(found.placed) > len(best.placed) or best_index is None:
                best_index, best = index, found
            if len(found.placed) == len(fragments):
                break
        verified = best_index is not None and len(best.placed) == len(fragments)
        if lean and verified and any(len(f.folded) >= MIN_PIN_CHARS for f in fragments):
            return QuoteCheck(True, _found_in(len(fragments), best_index), (), best_index)
        results = tuple(
            FragmentResult(
                text=text,
                folded=fragment.folded,
                pins=len(fragment.folded) >= MIN_PIN_CHARS,
                found=n < len(best.placed),
                offset=best.placed[n][0] if n < len(best.placed) else None,
            )
            for n, (text, fragment) in enumerate(zip(raw, fragments, strict=True))
        )
        # 2. Some fragment must be long enough to pin the quote to this transcript.
        if not any(result.pins for result in results):
            if len(results) == 1:
                reason = f"too generic: the quote has fewer than {MIN_PIN_CHARS} characters "
                reason += "after folding"
            else:
                reason = f"too generic: no fragment has {MIN_PIN_CHARS} or more characters "
                reason += "after folding"
            return QuoteCheck(False, reason, results, None)
        # 3. Verified inside one message; the span only when asked (it costs a fold).
        if best_index is not None and verified:
            reason = _found_in(len(fragments), best_index)
            if not with_span:
                return QuoteCheck(True, reason, results, best_index)
            map_ = self._folded[best_index].fold_map()
            said = [map_.raw_span(start, end) for start, end in best.placed]
            results = tuple(r._replace(said=s) for r, s in zip(results, said, strict=True))
            return QuoteCheck(True, reason, results, best_index, SPAN_JOIN.join(said))
        # 4. Not verified: say the most specific thing that is true.
        reason = self._failure_reason(fragments, results, best_index, best.skipped)
        return QuoteCheck(False, reason, results, None)

    def _failure_reason(
        self,
        fragments: list[Fragment],
        results: tuple[FragmentResult, ...],
        closest: int | None,
        skipped: str | None,
    ) -> str:
        whole = len(fragments)
        if any(len(align(fragments, view).placed) == whole for view in self._around_context()):
            return (
                "found only by joining the words on either side of gitmem's own output "
                "(<gitmem-context>); a quote may not run across it"
            )
        if any(len(align(fragments, view).placed) == whole for view in self._context_views()):
            return (
                "found only inside gitmem's own output (<gitmem-context>), "
                "which never counts as evidence"
            )
        if len(self._raw) > 1 and len(align(fragments, self._joined_view()).placed) == whole:
            return "found only by joining two messages; a quote must lie inside one message"
        found = sum(result.found for result in results)
        where = f" (closest: message {closest})" if len(self._raw) > 1 else ""
        if skipped is not None:
            shown = "a bidirectional control" if skipped == BIDI_STAND_IN else f'"{skipped}"'
            reason = f"the ellipsis before fragment {found + 1} of {whole} skips {shown}; "
            return reason + f"{elision_rule(skipped)}{where}"
        missing = _shorten(results[found].text)
        if len(results) == 1:
            return f'not found in any message: "{missing}"'
        if found == 0:
            return f'fragment 1 of {len(results)} not found: "{missing}"'
        reason = f"fragment {found + 1} of {len(results)} not found after fragment {found}: "
        return reason + f'"{missing}"{where}'

    def _context_views(self) -> list[View]:
        """Messages that hold gitmem-context tags, folded with the tags removed but the
        text inside them kept: what would have matched had gitmem's output counted."""
        if self._with_context is None:
            self._with_context = [
                View(fold(_CONTEXT_TAG_RE.sub("\n", message)))
                for message in self._raw
                if _CONTEXT_TAG_RE.search(message)
            ]
        return self._with_context

    def _around_context(self) -> list[View]:
        """Messages that hold gitmem-context spans, folded with each span a line break, as
        if the words on either side of it had been said together."""
        return [
            View(fold(strip_gitmem_context(message)))
            for message in self._raw
            if _CONTEXT_TAG_RE.search(message)
        ]

    def _views(self) -> Iterator[MessageView]:
        """Each message's view in order, folded the first time a check reaches it."""
        folded = self._folded
        for at, message in enumerate(self._raw):
            if at == len(folded):
                folded.append(MessageView(strip_gitmem_context(message, COVERED)))
            yield folded[at]

    def _joined_view(self) -> View:
        if self._joined is None:
            self._joined = View(" ".join(view.text for view in self._views() if view.text))
        return self._joined


def _found_in(fragments: int, message: int | None) -> str:
    """Why a quote of so many *fragments*, all placed in *message*, is verbatim."""
    if fragments == 1:
        return f"found in message {message}"
    return f"all {fragments} fragments found in order in message {message}"


def _shorten(text: str) -> str:
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 1].rstrip() + "…"
