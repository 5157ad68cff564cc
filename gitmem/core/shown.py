"""How an item's words are shown in one line of gitmem's output (the brief, recall,
``show``, a capture's summary, a review's markdown, the MCP server's replies): a text that
a teammate or a model wrote may not break its line, carry a terminal's escapes or a
bidirectional control, or close gitmem's context; a verified quote keeps its words as said;
and a text that only restates its quote is not shown twice. Pure; never raises.
"""

from __future__ import annotations

import re

from gitmem.core.folding import fold
from gitmem.core.quotes import ELLIPSIS_RE, MIN_PIN_CHARS


def quoted_line(text: str, quote: str | None) -> str:
    """An item as one line of gitmem's output: its text, then its verified quote in
    quotation marks (the quote alone when the text only restates it: see
    :func:`restates`). A quote keeps its words, case and punctuation as said; only its
    line breaks and runs of spaces (a list quoted across lines) become one space, as the
    verifier folds them, and a control character, which a terminal would act on rather
    than show (ESC, CSI), is shown as U+FFFD. The text is shown by
    :func:`shown_text_line`. Raises nothing."""
    if quote is None:
        return shown_text_line(text)
    said = shown_quote_line(quote)
    return f'"{said}"' if restates(text, quote) else f'{shown_text_line(text)} — "{said}"'


_UNSHOWN_RE = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
"""What an item's text may not carry into gitmem's output: control characters (a
terminal's escapes: ESC, CSI), bidirectional controls, and lone surrogates (a pushed
path's or author's bytes that are not UTF-8, as git and pygit2 read them: no output
could encode them)."""
_TAG_RE = re.compile(r"<(?=/?gitmem-context)", re.IGNORECASE)
_CONTROL_RE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""Control characters but tabs and line breaks: a terminal acts on them."""


def shown_text_line(text: str) -> str:
    """An item's *text* (a teammate's words, or a model's: not a quote) as it is shown in
    one line of gitmem's output: its line breaks and runs of spaces one space (a line
    break would start a line of the brief's own, "- [✓ verbatim] …"), each control
    character and bidirectional control shown as U+FFFD (a terminal's escapes would
    rewrite what the reader sees), and the "<" of a gitmem tag as "‹" (a
    "</gitmem-context>" would end gitmem's output early, and what follows would read as
    the session's own words when echoed). A verified quote holds no bidirectional control
    and no gitmem tag (the verifier refuses them). Raises nothing."""
    shown = _UNSHOWN_RE.sub("\ufffd", " ".join(text.split()))
    return _TAG_RE.sub("‹", shown)


def shown_quote_line(quote: str) -> str:
    """A verified *quote* as it is shown in one line of gitmem's output: its words, case
    and punctuation as said, its line breaks and runs of spaces one space (as the
    verifier folds them), and each control character but tabs and line breaks shown as
    U+FFFD (a terminal acts on them). Raises nothing."""
    return _CONTROL_RE.sub("\ufffd", " ".join(quote.split()))


def escaped_name(name: str) -> str:
    """A pushed tree's entry name as text every output and SQLite can hold: a byte that
    is not UTF-8 (git and pygit2 read it as a lone surrogate) as ``\\xNN``. Raises
    nothing."""
    try:
        data = name.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        data = name.encode("utf-8", "surrogatepass")
    return data.decode("utf-8", "backslashreplace")


def json_escaped(text: str) -> str:
    """JSON *text* with each lone surrogate as JSON's escape for it (``\\udcff``): a
    pushed name's bytes that are not UTF-8 are read as lone surrogates, which no output
    can encode. Raises nothing."""
    return _SURROGATE_RE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


_SURROGATE_RE = re.compile("[\ud800-\udfff]")
_CUT_MARKS = ("…", "...")
_LABEL_RE = re.compile(r"[^\W\d_][\w'’ -]{0,30}: ")
"""A label a quote may open with, folded: "decision: ", "todo: ", "next step: "."""


def restates(text: str, quote: str) -> bool:
    """Whether *text* says nothing its *quote* does not: the same words once both are
    folded as the verifier folds them (case, markdown, quotes and spacing aside), or the
    quote's start cut off with an ellipsis; either with the quote's opening label
    ("Decision:", "TODO:") left out. Shown beside its quote, such a text repeats it (half
    of a brief's line spent twice). Three dots and "…" are one ellipsis (a verified
    quote's elisions are stored as "…", as in "ln -s … ~/x"). Raises nothing."""
    if text == quote:
        return True
    folded_text = fold(ELLIPSIS_RE.sub("…", text))
    folded_quote = fold(ELLIPSIS_RE.sub("…", quote))
    label = _LABEL_RE.match(folded_quote)
    quotes = (folded_quote, folded_quote[label.end() :]) if label else (folded_quote,)
    return any(_says_again(folded_text, said) for said in quotes)


def _says_again(folded_text: str, folded_quote: str) -> bool:
    if folded_text == folded_quote:
        return True
    for mark in _CUT_MARKS:
        if folded_text.endswith(mark):
            start = folded_text.removesuffix(mark).rstrip(" ")
            return len(start) >= MIN_PIN_CHARS and folded_quote.startswith(start)
    return False
