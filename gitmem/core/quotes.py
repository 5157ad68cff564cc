"""The quote verifier: is a quote an exact quote of a transcript?

Mechanical and deliberately dumber than what it checks: pure string operations, no
model, no disk, no git, no clock. Quote and transcript are folded the same way
(:func:`fold`), the quote is cut into fragments at ellipses, and every fragment must
appear, in order, without overlap and on word boundaries, inside one message.
The rules, with examples, are in ``docs/verifier.md``.

A passing check says the words are *present* in the transcript; it says nothing about
whether they are true.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

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

# Step 1, as (old, new) pairs for str.replace, which is several times faster than a
# regex or str.translate on non-ASCII text. Every character str.isspace() knows becomes
# a space or a newline, so that step 2 sees every line start.
_REPLACEMENTS = (
    ("\r\n", "\n"),
    *((char, "'") for char in "‘’‚‛"),
    *((char, '"') for char in "“”„‟"),
    *((char, "-") for char in "‐‑‒–—―−"),
    *((char, "\n") for char in "\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"),
    *((char, " ") for char in "\t\x1f\xa0\u1680\u202f\u205f\u3000"),
    *((chr(code), " ") for code in range(0x2000, 0x200B)),
)

# Step 3. An underscore run is emphasis unless it sits between two word characters
# (snake_case_name). The pattern starts with a literal "_" so the regex engine can skip
# ahead to it; "(?<!__)" anchors it at the start of a run, and the possessive "_*+"
# judges the run as a whole, so "a__b" keeps both underscores and "__bold__" loses all
# four. Underscores are judged once "*" and backticks are gone ("snake_`case`" keeps its
# underscore); tilde runs go last, since removing an underscore can join two tildes.
_EMPHASIS_UNDERSCORE_RE = re.compile(r"_(?<!__)(?:(?<![^\W_]_)_*+|_*+(?![^\W_]))")
_STRIKE_RE = re.compile(r"~~+")

# Step 2: block markers at the start of a line, after optional indentation, possibly
# stacked ("> - item"): list bullets "-" and "+" ("*" is already gone in step 3), ordered
# list numbers "12." and "12)", ATX headings "#" to "######", and the blockquote ">".
# A marker must be followed by a space or end the line, so "2.0" and "#60" stay text.
_LINE_MARKERS_RE = re.compile(
    r"^[ ]*(?:(?:(?:[-+]|[0-9]+[.)]|\#{1,6})(?=[ ]|$)|>)[ ]*)+", re.MULTILINE
)

_SPACES_RE = re.compile("  +")

_ELLIPSIS_RE = re.compile(r"…|\.{3,}")


def strip_gitmem_context(text: str) -> str:
    """Remove every ``<gitmem-context …>`` … ``</gitmem-context>`` span from one message.

    gitmem's own output (a brief echoed into a session) never counts as evidence. Tags
    match case-insensitively and the open tag may carry attributes. Nested spans are
    counted, an unterminated span runs to the end of *text*, a stray close tag and a
    self-closing tag are removed on their own. Each removed span becomes a newline, so
    the words on either side do not join. Never raises.
    """
    pieces: list[str] = []
    depth = 0
    pos = 0
    for tag in _CONTEXT_TAG_RE.finditer(text):
        closing = bool(tag.group(1))
        self_closing = not closing and tag.group(0).endswith("/>")
        if depth == 0:
            pieces.append(text[pos : tag.start()])
            pieces.append("\n")
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


def fold(text: str) -> str:
    """Fold *text* for comparison (steps 1 to 5 of ``docs/verifier.md``; not step 0).

    Case folding (step 5) is applied first: it never creates a character the other steps
    act on, and doing it first keeps :func:`fold` idempotent for characters such as
    "İ", whose fold adds a combining mark next to a possible underscore. Step 3 runs
    before step 2, so that a list marker hidden behind emphasis ("`-` item") is judged
    the same way on the first fold and on a second one. Never raises.
    """
    # 5. Case.
    text = text.casefold()
    # 1. Quotes, dashes, spaces and line breaks.
    for old, new in _REPLACEMENTS:
        if old in text:
            text = text.replace(old, new)
    # 3. Emphasis and code markers.
    text = text.replace("*", "").replace("`", "")
    text = _EMPHASIS_UNDERSCORE_RE.sub("", text)
    text = _STRIKE_RE.sub("", text)
    # 2. Block markers at the start of a line.
    text = _LINE_MARKERS_RE.sub("", text)
    # 4. Whitespace runs to one space, trimmed (only " " and "\n" are left after step 1).
    return _SPACES_RE.sub(" ", text.replace("\n", " ")).strip(" ")


def split_fragments(quote: str) -> list[str]:
    """Cut *quote* at each ``…`` or run of three or more dots.

    Returns the raw fragments as written, stripped, leaving out those that fold to
    nothing. Never raises.
    """
    pieces = (piece.strip() for piece in _ELLIPSIS_RE.split(quote))
    return [piece for piece in pieces if fold(piece)]


@dataclass(frozen=True)
class FragmentResult:
    """Where one fragment of a quote was found in the folded text of one message."""

    text: str
    """The raw fragment as written in the quote (stripped)."""
    folded: str
    pins: bool
    """True when the folded fragment has at least :data:`MIN_PIN_CHARS` characters."""
    found: bool
    offset: int | None
    """Offset in the folded message text; None when not found."""

    def to_dict(self) -> dict[str, object]:
        return {
            "text": self.text,
            "folded": self.folded,
            "pins": self.pins,
            "found": self.found,
            "offset": self.offset,
        }


@dataclass(frozen=True)
class QuoteCheck:
    """The outcome of checking one quote against one transcript."""

    verbatim: bool
    reason: str
    """One human sentence saying why the quote is or is not verbatim."""
    fragments: tuple[FragmentResult, ...]
    """Results in the message that verified, or else in the one that got furthest."""
    message_index: int | None
    """Index of the message where the quote verified; None when it did not."""

    def to_dict(self) -> dict[str, object]:
        return {
            "verbatim": self.verbatim,
            "reason": self.reason,
            "fragments": [fragment.to_dict() for fragment in self.fragments],
            "message": self.message_index,
        }


def check_quote(quote: str, messages: Sequence[str]) -> QuoteCheck:
    """Check whether *quote* is an exact quote of one of *messages*.

    *messages* is the transcript as a sequence of message texts; a plain ``str`` is one
    message. Never raises: odd input (empty, only dots, a lone ellipsis) gives a check
    that is not verbatim, with its reason.
    """
    return _Transcript(messages).check(quote)


def check_quotes(quotes: Iterable[str], messages: Sequence[str]) -> list[QuoteCheck]:
    """:func:`check_quote` for many quotes of one transcript, folding it only once.

    Never raises.
    """
    transcript = _Transcript(messages)
    return [transcript.check(quote) for quote in quotes]


class _Transcript:
    """Folded messages, plus the views needed only to explain a failure (built lazily)."""

    def __init__(self, messages: Sequence[str]) -> None:
        self._raw = [messages] if isinstance(messages, str) else list(messages)
        self._folded = [fold(strip_gitmem_context(message)) for message in self._raw]
        self._joined: str | None = None
        self._with_context: list[str] | None = None

    def check(self, quote: str) -> QuoteCheck:
        raw = split_fragments(strip_gitmem_context(quote))
        if not raw:
            if split_fragments(quote):
                reason = "the quote is only gitmem's own output (<gitmem-context>), "
                reason += "which never counts as evidence"
            else:
                reason = "the quote is empty"
            return QuoteCheck(False, reason, (), None)
        folded = [fold(fragment) for fragment in raw]

        # 1. The first message holding every fragment wins; else the one that got furthest.
        best_index: int | None = None
        best: list[int] = []
        for index, text in enumerate(self._folded):
            offsets = _locate(folded, text)
            if len(offsets) > len(best) or best_index is None:
                best_index, best = index, offsets
            if len(offsets) == len(folded):
                break
        results = tuple(
            FragmentResult(
                text=fragment,
                folded=folded_fragment,
                pins=len(folded_fragment) >= MIN_PIN_CHARS,
                found=n < len(best),
                offset=best[n] if n < len(best) else None,
            )
            for n, (fragment, folded_fragment) in enumerate(zip(raw, folded, strict=True))
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
        # 3. Verified inside one message.
        if len(best) == len(folded):
            if len(folded) == 1:
                reason = f"found in message {best_index}"
            else:
                reason = f"all {len(folded)} fragments found in order in message {best_index}"
            return QuoteCheck(True, reason, results, best_index)
        # 4. Not verified: say the most specific thing that is true.
        reason = self._failure_reason(folded, results, best_index)
        return QuoteCheck(False, reason, results, None)

    def _failure_reason(
        self, folded: list[str], results: tuple[FragmentResult, ...], closest: int | None
    ) -> str:
        if any(len(_locate(folded, text)) == len(folded) for text in self._context_views()):
            return (
                "found only inside gitmem's own output (<gitmem-context>), "
                "which never counts as evidence"
            )
        if len(self._folded) > 1 and len(_locate(folded, self._joined_view())) == len(folded):
            return "found only by joining two messages; a quote must lie inside one message"
        found = sum(result.found for result in results)
        missing = _shorten(results[found].text)
        if len(results) == 1:
            return f'not found in any message: "{missing}"'
        if found == 0:
            return f'fragment 1 of {len(results)} not found: "{missing}"'
        reason = f"fragment {found + 1} of {len(results)} not found after fragment {found}: "
        reason += f'"{missing}"'
        if len(self._folded) > 1:
            reason += f" (closest: message {closest})"
        return reason

    def _context_views(self) -> list[str]:
        """Messages that hold gitmem-context tags, folded with the tags removed but the
        text inside them kept: what would have matched had gitmem's output counted."""
        if self._with_context is None:
            self._with_context = [
                fold(_CONTEXT_TAG_RE.sub("\n", message))
                for message in self._raw
                if _CONTEXT_TAG_RE.search(message)
            ]
        return self._with_context

    def _joined_view(self) -> str:
        if self._joined is None:
            self._joined = " ".join(text for text in self._folded if text)
        return self._joined


def _locate(fragments: Sequence[str], text: str) -> list[int]:
    """Offsets of the leading fragments found in *text* in order, without overlap.

    Greedy leftmost search is enough: taking the earliest valid match of each fragment
    leaves the most room for the ones after it.
    """
    offsets: list[int] = []
    start = 0
    for fragment in fragments:
        offset = _find_on_word_boundaries(fragment, text, start)
        if offset < 0:
            break
        offsets.append(offset)
        start = offset + len(fragment)
    return offsets


def _find_on_word_boundaries(fragment: str, text: str, start: int) -> int:
    """First offset >= *start* where *fragment* occurs without starting or ending inside
    a word ("port 37" must not match inside "port 137"); -1 when there is none."""
    check_start = _is_word_char(fragment[0])
    check_end = _is_word_char(fragment[-1])
    offset = text.find(fragment, start)
    while offset >= 0:
        end = offset + len(fragment)
        if not (check_start and offset > 0 and _is_word_char(text[offset - 1])) and not (
            check_end and end < len(text) and _is_word_char(text[end])
        ):
            return offset
        offset = text.find(fragment, offset + 1)
    return -1


def _is_word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def _shorten(text: str) -> str:
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 1].rstrip() + "…"
