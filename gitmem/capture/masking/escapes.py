"""Text as a reader of its escapes sees it: the views every masking rule also reads.

A secret is spelled differently each time a JSON encoder or a shell wraps it: the line
breaks of a key block written into a JSON file become ``\\n``, and ``\\\\n`` once that
file is written by a double-quoted ``echo``, and ``\\\\\\\\n`` inside a tool call's JSON
arguments; ``SECRET_KEY="…"`` in ``echo "SECRET_KEY=\\"…\\""`` loses the quotes the
rules look for. A rule that matches one spelling is one escaping level away from missing
the secret. So masking reads, beside the text as written, its **views**, and every rule
runs on every view; what a rule finds in a view is mapped back to the characters of the
text that spell it, so it is masked in the stored bytes whatever the spelling.

The views of a text, level by level (level 0 is the text as written):

1. **decoded**: level *k* with one level of backslash escapes decoded is level *k + 1*,
   up to :data:`MAX_LEVELS`. One decoding serves JSON strings and shell quoting alike:
   the JSON escapes (``\\"``, ``\\\\``, ``\\/``, ``\\b``, ``\\f``, ``\\n``, ``\\r``,
   ``\\t``, ``\\uXXXX``) and those of shell double quotes and unquoted words (``\\$``,
   ``\\```, ``\\'``, and a backslash before a line break, which joins two lines), and
   ``'\\''``, the shell's quote inside single quotes; any other backslash is kept.
   Decoding the whole text, not only the inside of its strings, is what finds a JSON
   document held in a string (a file's contents, arguments passed as a string): one
   level down it reads as plain JSON, names and values side by side.
2. **shell words**: each level read as a shell reads its words. Every double-quoted
   string is unwrapped and its escapes decoded, and what it held is read as shell words
   in turn (the command a tool call holds in a JSON string is a command); outside, single
   quotes are dropped with nothing decoded between them, and an escaped character stands
   for itself. ``echo "SECRET_KEY=\\"…\\""`` reads ``echo SECRET_KEY=…``.

Escapes never span lines (a JSON string holds no line break; a shell continuation is a
backslash and the break it joins), so a view holds only the lines of its level that hold
a backslash: ordinary prose and code cost one search for a backslash. A view's text is
built by the regex engine; where each of its characters came from is worked out only for
a view in which a rule found something. Each level is linear in the one before, so
hostile text costs at most :data:`MAX_LEVELS` times two more reads. Pure; raises nothing.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterator

MAX_LEVELS = 6
"""Escaping levels decoded: a key block in a JSON file written by a shell ``echo`` inside
a tool call's JSON arguments is three; each level doubles the backslashes, so no real
text needs more."""

_ESCAPE = re.compile(r"'\\''|\\(?:u[0-9A-Fa-f]{4}|'(?!\\'')|[\"\\/`$bfnrt\n])")
"""One escape: a backslash escape of JSON or the shell, or ``'\\''`` (a quote inside single
quotes), which wins over a ``\\'`` whose quote begins one (a quoted text quoted again)."""
_STRING = re.compile(r'(?P<double>"(?:[^"\\]++|\\[\s\S])*+")|(?:\\[\s\S])++')
"""A double-quoted string, or escapes outside one (so that the quote of ``\\"`` never
opens a string: each quote is tried once, and the scan stays linear)."""
_SHELL = re.compile(
    r"""(?P<double>"(?:[^"\\]++|\\[\s\S])*+")|'[^']*+'|(?P<escapes>(?:\\[\s\S])++)"""
)
_DECODED = {
    '"': '"',
    "\\": "\\",
    "/": "/",
    "'": "'",
    "`": "`",
    "$": "$",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "\n": "",
}

_SIMPLE = tuple((f"\\{code}", char) for code, char in _DECODED.items() if code != "\\")
"""Each escape but ``\\\\`` and ``\\uXXXX``, as ``str.replace`` applies it."""

Piece = tuple[int, int, str]
"""``text[start:end]`` reads as this string (empty for a dropped quote)."""


class View:
    """Some lines of a text read one level down, and where each character came from."""

    __slots__ = ("_pieces", "_reader", "_source", "_spans", "parent", "text")

    def __init__(
        self, source: str, spans: list[tuple[int, int]], reader: _Reader, parent: View | None
    ) -> None:
        self.parent = parent
        """The view this one reads; None when it reads the text as written."""
        self._source, self._spans, self._reader = source, spans, reader
        self.text = "\n".join(reader.read(source[start:end]) for start, end in spans)
        """The lines read, one line break for each run of lines left out between them."""
        self._pieces: _Pieces | None = None

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The span of the text as written that characters *start* to *end* of this view
        (exclusive, *start* < *end*) stand for."""
        view: View | None = self
        while view is not None:
            start, end = view._start(start), view._end(end)
            view = view.parent
        return start, end

    def _start(self, pos: int) -> int:
        at, first, _ = self._map()
        k = bisect_right(at, pos) - 1
        return first[k] + (pos - at[k] if self._copied(k) else 0)

    def _end(self, pos: int) -> int:
        at, first, last = self._map()
        k = bisect_right(at, pos - 1) - 1
        return first[k] + pos - at[k] if self._copied(k) else last[k]

    def _copied(self, k: int) -> bool:
        """Whether piece *k* is a copy (as long here as in the parent), not an escape."""
        at, first, last = self._map()
        end = at[k + 1] if k + 1 < len(at) else len(self.text)
        return last[k] - first[k] == end - at[k]

    def _map(self) -> _Pieces:
        """Where each piece of the view starts here, and starts and ends in the parent; a
        piece is a copied run or one escape, never empty. Worked out on first use."""
        if self._pieces is not None:
            return self._pieces
        at, first, last = array("q"), array("q"), array("q")
        length = 0

        def add(start: int, end: int, reads: str) -> None:
            nonlocal length
            if reads:
                at.append(length)
                first.append(start)
                last.append(end)
                length += len(reads)

        previous = -1
        for start, end in self._spans:
            if previous >= 0:
                add(previous, start, "\n")
            pos = start
            for one, two, reads in self._reader.pieces(self._source, start, end):
                add(pos, one, self._source[pos:one])
                add(one, two, reads)
                pos = two
            add(pos, end, self._source[pos:end])
            previous = end
        self._pieces = (at, first, last)
        return self._pieces


_Pieces = tuple["array[int]", "array[int]", "array[int]"]


class _Reader:
    """One way to read a line one level down: its text fast (by the regex engine), and
    its pieces for mapping the characters back."""

    def __init__(
        self, read: Callable[[str], str], pieces: Callable[[str, int, int], Iterator[Piece]]
    ) -> None:
        self.read, self.pieces = read, pieces


def views(text: str) -> Iterator[View]:
    """Every view of *text* (module docstring); none when it holds no backslash. Raises
    nothing."""
    source, parent = text, None
    for _ in range(MAX_LEVELS):
        spans = _backslash_lines(source)
        if not spans:
            return
        lines = "\n".join(source[start:end] for start, end in spans)
        unwrapped = View(source, spans, _UNWRAP, parent)
        words = View(unwrapped.text, [(0, len(unwrapped.text))], _WORDS, unwrapped)
        if words.text != lines:
            yield words
        decoded = View(source, spans, _DECODE, parent)
        if decoded.text == lines:
            return  # nothing decoded: the next level would read the same
        yield decoded
        source, parent = decoded.text, decoded


def unescaped(text: str) -> str:
    """*text* with every level of escapes decoded (up to :data:`MAX_LEVELS`): how a
    secret spelled with escapes reads. Raises nothing."""
    for _ in range(MAX_LEVELS):
        decoded = _decode(text)
        if decoded == text:
            break
        text = decoded
    return text


def _backslash_lines(text: str) -> list[tuple[int, int]]:
    """The runs of lines of *text* that hold a backslash, each from the start of its first
    line to the end of its last (a continuation joins two lines)."""
    spans: list[tuple[int, int]] = []
    pos = text.find("\\")
    while pos >= 0:
        start = text.rfind("\n", 0, pos) + 1
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end
        if spans and start <= spans[-1][1] + 1:
            start = spans.pop()[0]
        spans.append((start, end))
        pos = text.find("\\", end)
    return spans


def _char(escape: str) -> str:
    if escape[0] == "'":  # the shell's way to write a quote inside single quotes: '\''
        return "'"
    if escape[1] == "u":
        return chr(int(escape[2:], 16))
    return _DECODED[escape[1]]


def _decode(text: str) -> str:
    """What :data:`_ESCAPE` decodes, without a call per escape: cut at each escaped
    backslash, every other backslash in a part starts an escape of its own."""
    if "\\" not in text:
        return text
    return "\\".join([_decode_part(p) if "\\" in p else p for p in text.split("\\\\")])


def _decode_part(part: str) -> str:
    if "\\u" in part or "'\\''" in part:  # they overlap others: decoded in one scan
        return _ESCAPE.sub(lambda match: _char(match.group()), part)
    for escape, char in _SIMPLE:
        part = part.replace(escape, char)
    return part


def _decode_pieces(text: str, start: int, end: int) -> Iterator[Piece]:
    for match in _ESCAPE.finditer(text, start, end):
        yield match.start(), match.end(), _char(match.group())


def _unwrap(text: str) -> str:
    return _STRING.sub(_unwrapped, text)


def _unwrapped(match: re.Match[str]) -> str:
    token = match.group()
    return token if match.group("double") is None else _decode(token[1:-1])


def _unwrap_pieces(text: str, start: int, end: int) -> Iterator[Piece]:
    """Each double-quoted string: its quotes dropped, its escapes decoded."""
    for match in _STRING.finditer(text, start, end):
        if match.group("double") is None:
            continue
        first, last = match.span()
        yield first, first + 1, ""
        yield from _decode_pieces(text, first + 1, last - 1)
        yield last - 1, last, ""


def _words(text: str) -> str:
    return _SHELL.sub(_word, text)


def _word(match: re.Match[str]) -> str:
    token = match.group()
    if match.group("escapes") is not None:
        return token[1::2].replace("\n", "")  # a shell drops the backslash, and a continuation
    return _decode(token[1:-1]) if match.group("double") is not None else token[1:-1]


def _words_pieces(text: str, start: int, end: int) -> Iterator[Piece]:
    for match in _SHELL.finditer(text, start, end):
        first, last = match.span()
        if match.group("escapes") is not None:
            for pos in range(first, last, 2):
                yield pos, pos + 2, text[pos + 1].replace("\n", "")
            continue
        yield first, first + 1, ""
        if match.group("double") is not None:
            yield from _decode_pieces(text, first + 1, last - 1)
        yield last - 1, last, ""


_DECODE = _Reader(_decode, _decode_pieces)
_UNWRAP = _Reader(_unwrap, _unwrap_pieces)
_WORDS = _Reader(_words, _words_pieces)
