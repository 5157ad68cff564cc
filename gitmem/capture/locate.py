"""Where each draft's quote stands in the session: as written, respelt, or read without
what a model leaves out.

:func:`locate_quotes` checks each draft's quote in its own message when it names one,
else in any one message (:func:`gitmem.core.quotes.check_quote`); a verbatim check
carries the transcript's own span, which is what is stored. A quote is checked without
the quotation marks an extractor put around it (:func:`unwrapped`).

A model asked to copy a sentence of the session into an item's quote writes what it read
a little otherwise: a dash as " -- ", an arrow as "->", a full stop the line did not have,
a line break as the two characters ``\\n`` (its JSON escaped twice), ``&`` as ``&amp;``,
accents composed otherwise; and it leaves out what it does not read as words: a link's
target (``[the guide](https://…)`` copied as "the guide"), an emoji between words. Those
are spellings, not meanings, so a quote that failed as written is tried again:

* :data:`RESPELLINGS` turn the quote back into what the session wrote, each tried in turn
  on the quote as the extractor gave it;
* :func:`reading` reads a message without its links' markdown and its emoji, with a map
  back to the message's own offsets: a quote (or a respelling of it) found in a reading
  gives way to the message's own span (link and emoji included), which is then checked
  again as any quote is.

Either way what verifies and is stored is the transcript's own span, held to every rule a
quote without the respelling is ("The parser is fast enough." from "…fast enough unless
the corpus grows." is still refused). Nothing here widens what a quote may say: a cross
mark, a thumbs-down, a warning, a question mark or a "not done" box is never read away,
since each says something about the words beside it (:data:`KEPT_MARKS`), and a number is
never respelt ("10⁶" is not "106").
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import NamedTuple

from gitmem.core.folding import UNSPACED, fold
from gitmem.core.items import Draft
from gitmem.core.negation import CROSS_MARKS
from gitmem.core.quotes import SPAN_JOIN, QuoteCheck, check_quote, check_quotes, split_fragments


def locate_quotes(drafts: Sequence[Draft], texts: Sequence[str]) -> list[QuoteCheck | None]:
    """The check of each draft's quote in *texts* (what the session's people said, one
    text a message; None: the draft has no quote), respelt and read again when it fails
    as written (the module's text)."""
    return _located([d.quote for d in drafts], [d.message for d in drafts], texts)


def locate_quote(quote: str, texts: Sequence[str]) -> QuoteCheck:
    """:func:`locate_quotes` of one quote that may lie in any one message."""
    (check,) = _located([quote], [None], texts)
    assert check is not None  # every quote that is not None gets a check
    return check


def _located(
    given: Sequence[str | None], places: Sequence[int | None], texts: Sequence[str]
) -> list[QuoteCheck | None]:
    quotes = [None if quote is None else unwrapped(quote) for quote in given]
    checks = _checked(quotes, places, texts)
    failed = [
        n
        for n, (q, c) in enumerate(zip(quotes, checks, strict=True))
        if q and c and not _verbatim(c)
    ]
    if not failed:
        return checks
    spelt = {n: [quotes[n] or "", *spellings(quotes[n] or "")] for n in failed}
    _take([(n, q) for n in failed for q in spelt[n][1:]], places, checks, texts, None)
    readings = [reading(text) for text in texts]
    if any(readings):
        left = [n for n in failed if not _verbatim(checks[n])]
        tries = [(n, read) for n in left for read in dict.fromkeys(map(_as_read, spelt[n]))]
        _take(tries, places, checks, texts, readings)
    return checks


def spellings(quote: str) -> list[str]:
    """*quote* as the session may have written what a model respelt: each of
    :data:`RESPELLINGS`, on the quote and on the quote without a full stop it added."""
    bases = dict.fromkeys((quote, _ADDED_STOP_RE.sub("", quote)))
    spelt = dict.fromkeys([*bases, *(respell(base) for base in bases for respell in RESPELLINGS)])
    return [s for s in spelt if s != quote]


def _verbatim(check: QuoteCheck | None) -> bool:
    return check is not None and check.verbatim


def _take(
    tries: Sequence[tuple[int, str]],
    places: Sequence[int | None],
    checks: list[QuoteCheck | None],
    texts: Sequence[str],
    readings: Sequence[Reading | None] | None,
) -> None:
    """Each try (a draft's number, a spelling of its quote) checked in one pass, in *texts*
    or, with *readings*, in the messages as read (only those read otherwise); the first
    that verifies takes the draft's check (*checks* updated in place). A check made in a
    reading gives way to the message's own span, checked again in *texts*."""
    read = texts if readings is None else [r.text if r else "" for r in readings]
    said = _skeleton("\n".join(text for text in read if text))
    tries = [(n, spelt) for n, spelt in tries if _may_match(spelt, said)]
    found = _checked([spelt for _, spelt in tries], [places[n] for n, _ in tries], read)
    for (n, _), check in zip(tries, found, strict=True):
        if check is None or not check.verbatim or _verbatim(checks[n]):
            continue
        if readings is not None and check.message_index is not None:
            index = check.message_index
            own = _own_span(check, readings[index], texts[index])
            check = None if own is None else _checked([own], [places[n]], texts)[0]
        if _verbatim(check):
            checks[n] = check


def _may_match(spelt: str, said: str) -> bool:
    """Whether *spelt* can verify in the messages whose :func:`_skeleton` is *said*: each
    of its fragments' words must be said in a row there (on word boundaries, in a script
    that spaces its words). A check message by message costs each try a pass over the
    whole session: one that cannot verify is not made. (A script that does not space its
    words may start a quote inside what reads here as one word.)"""
    for fragment in split_fragments(spelt):
        words = _skeleton(fragment)
        if not words.strip():
            continue  # only a number ("… 37."): nothing to look for
        if (words.strip() if _UNSPACED_RE.search(fragment) else words) not in said:
            return False
    return True


def _skeleton(text: str) -> str:
    """The words of *text* folded, one space between them and around them: what a
    respelling never changes. A bare number is left out, since folding drops a list's
    marker ("2.") at a line's start and keeps it in a reflowed line."""
    return " " + " ".join(w for w in _WORD_RE.findall(fold(text)) if not w.isdigit()) + " "


_WORD_RE = re.compile(r"[^\W_]+")
_UNSPACED_RE = re.compile(f"[{UNSPACED}]")


def _own_span(check: QuoteCheck, read: Reading | None, message: str) -> str | None:
    """The message's own span of a verbatim *check* made in its reading *read*: each
    fragment's matched text found in turn in the reading and mapped back."""
    if read is None:
        return None
    spans: list[str] = []
    at = 0
    for fragment in check.fragments:
        said = fragment.said
        start = -1 if not said else read.text.find(said, at)
        if said is None or start < 0:
            return None
        spans.append(read.own(message, start, start + len(said)))
        at = start + len(said)
    return SPAN_JOIN.join(spans) if spans else None


def _checked(
    quotes: Sequence[str | None], places: Sequence[int | None], texts: Sequence[str]
) -> list[QuoteCheck | None]:
    """Each quote checked in the message at its place when it names one, else in any one
    message. The whole transcript is folded once (and each matched message's offset map
    built once), for the quotes that name no message and those not found in their own
    (to say where they are)."""
    checks: list[QuoteCheck | None] = [None] * len(quotes)
    wider: list[int] = []
    for n, (quote, index) in enumerate(zip(quotes, places, strict=True)):
        if quote is None:
            continue
        if index is not None and 0 <= index < len(texts):
            own = check_quote(quote, [texts[index]], with_span=True)
            if own.verbatim:
                reason = f"found in its own message {index}"
                checks[n] = own._replace(reason=reason, message_index=index)
                continue
        wider.append(n)
    found = check_quotes([quotes[n] or "" for n in wider], texts, with_span=True)
    for n, anywhere in zip(wider, found, strict=True):
        index = places[n]
        checks[n] = anywhere
        if index is not None and anywhere.verbatim:
            reason = (
                f"found in message {anywhere.message_index}, not in its own message {index}: "
                "a quote must be the words of the message it comes from"
            )
            checks[n] = QuoteCheck(False, reason, anywhere.fragments, None)
    return checks


_APOSTROPHE_RE = re.compile(r"(?<=\w)['’](?=\w)")
_QUOTE_MARKS = {'"': '"', "“": "”", "„": "“", "'": "'", "‘": "’", "«": "»", "「": "」", "『": "』"}


def unwrapped(quote: str) -> str:
    """*quote* without the quotation marks an extractor put around the whole of it
    ("\"we keep requests\"" for the words we keep requests): they are not the
    transcript's (what is stored is the transcript's own span). Kept when the marks are
    the quote's own ("\"a\" and \"b\"", an inner closing mark). Raises nothing."""
    inner = quote.strip()
    closing = _QUOTE_MARKS.get(inner[:1])
    if closing is None or len(inner) < 3 or not inner.endswith(closing):
        return quote
    body = inner[1:-1]
    marks = _APOSTROPHE_RE.sub("", body) if closing in "'’" else body  # "'don't stop'"
    return body if body.strip() and closing not in marks and inner[0] not in marks else quote


Respelling = Callable[[str], str]


def _unescaped(quote: str) -> str:
    """Backslash escapes written out (``\\n``, ``\\t``, ``\\"``, ``\\\\``) read as the
    characters they stand for: what a model that escapes its JSON twice writes."""
    return _ESCAPE_RE.sub(lambda m: _ESCAPES[m.group(1)], quote)


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "/": "/"}
_ESCAPE_RE = re.compile(r"\\([nt\"\\/])")
_ENTITY_RE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def _sub(pattern: str, said: str) -> Respelling:
    compiled = re.compile(pattern)
    return lambda quote: compiled.sub(said, quote)


_ADDED_STOP_RE = re.compile(r"(?<=\w)\.\Z")
"""A full stop at a quote's end, after a word ("…after deploys." where the line had none)."""

RESPELLINGS: tuple[Respelling, ...] = (
    _sub(r"(?<=\s)--(?=\s)", "—"),  # "at 3 -- enough": a dash in ASCII
    _sub(r"(?<=\s)->(?=\s)", "→"),  # "ValueError -> VoiceNotFoundError"
    _sub(r"(?<=\s)[—–](?=\s)", "--"),  # the other way: the session wrote " -- "
    _sub(r"(?<=\s)→(?=\s)", "->"),  # and "->"
    _unescaped,  # "line one\\nline two"
    lambda quote: _ENTITY_RE.sub(lambda m: html.unescape(m.group()), quote),  # "&amp;"
    lambda quote: unicodedata.normalize("NFC", quote),  # "e" + U+0301 for "é"
    lambda quote: unicodedata.normalize("NFD", quote),  # the session's was decomposed
)
"""How a model respells what it copies, each turned back into what the session wrote:
tried on a quote that failed, each on the quote as the extractor gave it and on the quote
without a full stop it added (:func:`spellings`)."""


class Reading(NamedTuple):
    """A message read without what a model leaves out of what it copies."""

    text: str
    """The message as read."""
    starts: list[int]
    """For each offset of :attr:`text`, the message's own offset where a span that starts
    there starts: a link's opening bracket for any character of the link's text."""
    ends: list[int]
    """For each offset of :attr:`text`, the message's own offset where a span that ends
    with it ends: past a link's target for any character of the link's text."""

    def own(self, message: str, start: int, end: int) -> str:
        """The message's own span for the reading's span *start*:*end* (not empty)."""
        return message[self.starts[start] : self.ends[end - 1]]


# A link's text and target: [text](target), ![alt](source); an autolink <https://…>.
_LINK_RE = re.compile(
    r"!?\[(?P<text>[^\[\]\n]{1,500})\]\([^()\s]{1,2000}(?:[ ]+\"[^\"\n]{0,200}\")?\)"
    r"|<(?P<url>https?://[^<>\s]{1,2000})>"
)
_EMOJI_RE = re.compile(
    "[ ]?[\U0001f300-\U0001faff\u2600-\u27bf\u2b50\u2b55][\ufe0e\ufe0f\U0001f3fb-\U0001f3ff]*"
    "(?:\u200d[\U0001f300-\U0001faff\u2600-\u27bf][\ufe0e\ufe0f]*)*"
)
KEPT_MARKS = frozenset(CROSS_MARKS + "👎⚠❓❔❗❕☐☒🚧⏳⌛⏸🔴🟠🟡🟥🟧🟨⭕🛑")
"""Symbols that say something about the words beside them (not, bad, careful, is it?,
not done, not yet, failing): never read away."""


_ROW_RE = re.compile(r"[^\n]*\|[^\n]*\|[^\n]*")
_DELIMITER_RE = re.compile(r"[ \t]*\|?(?:[ \t]*:?-+:?[ \t]*\|)+(?:[ \t]*:?-+:?[ \t]*)?")
_PIPE_RE = re.compile(r"(?<!\\)\|")
_BREAK_RE = re.compile(r"<br\s*/?>", re.IGNORECASE)


def _table_cuts(message: str) -> list[tuple[int, int, str]]:
    """The cuts that read a markdown table's rows as words: each cell's pipe a space (a
    line with two pipes or more), each delimiter row (``|---|:--:|``) nothing."""
    cuts: list[tuple[int, int, str]] = []
    for row in _ROW_RE.finditer(message):
        if _DELIMITER_RE.fullmatch(row.group()):
            cuts.append((row.start(), row.end(), ""))
            continue
        cuts += [
            (row.start() + m.start(), row.start() + m.end(), " ")
            for m in _PIPE_RE.finditer(row.group())
        ]
    return cuts


def _joins(message: str, start: int, end: int) -> bool:
    """Whether reading *message* without its *start*:*end* would join two words or numbers
    ("3🚀5" is not "35")."""
    return (
        start > 0 and end < len(message) and message[start - 1].isalnum() and message[end].isalnum()
    )


def reading(message: str) -> Reading | None:
    """*message* read without its links' markdown (a link's text stays, its target goes),
    its tables' markup (a row's cells parted by spaces, the delimiter row gone), its
    ``<br>`` tags (a space) and its emoji (not those of :data:`KEPT_MARKS`); None when it
    has none of them."""
    cuts = _cuts(message)
    if not cuts:
        return None
    parts: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    at = 0
    for start, end, kept in cuts:
        parts.append(message[at:start])
        starts.extend(range(at, start))
        ends.extend(range(at + 1, start + 1))
        parts.append(kept)
        starts.extend([start] * len(kept))
        ends.extend([end] * len(kept))
        at = end
    parts.append(message[at:])
    starts.extend(range(at, len(message)))
    ends.extend(range(at + 1, len(message) + 1))
    return Reading("".join(parts), starts, ends)


def _as_read(quote: str) -> str:
    """*quote* read as :func:`reading` reads a message (a quote that kept a link or a
    table's pipes the message is read without): the text only, no map back."""
    parts: list[str] = []
    at = 0
    for start, end, kept in _cuts(quote):
        parts += [quote[at:start], kept]
        at = end
    return "".join(parts) + quote[at:] if parts else quote


def _cuts(message: str) -> list[tuple[int, int, str]]:
    """What :func:`reading` cuts from *message*, in order and not overlapping: (start, end,
    what stands in its place)."""
    cuts: list[tuple[int, int, str]] = []
    if "](" in message or "<http" in message:
        cuts += [
            (m.start(), m.end(), m.group("text") or m.group("url"))
            for m in _LINK_RE.finditer(message)
        ]
    if "|" in message:
        cuts += _table_cuts(message)
    if "<br" in message or "<BR" in message:
        cuts += [(m.start(), m.end(), " ") for m in _BREAK_RE.finditer(message)]
    if not message.isascii():
        cuts += [
            (m.start(), m.end(), "")
            for m in _EMOJI_RE.finditer(message)
            if not KEPT_MARKS.intersection(m.group()) and not _joins(message, m.start(), m.end())
        ]
    kept: list[tuple[int, int, str]] = []
    for cut in sorted(cuts):
        if (
            not kept or cut[0] >= kept[-1][1]
        ):  # an emoji inside a link's text: the link's cut holds it
            kept.append(cut)
    return kept
