"""A number is one token: digits with their sign, decimal point, thousands separators and
version dots.

"5" is not "2.5", "37" is not "37.5", "-37", "+37" or "37,500", and "12.0" is not
"1.12.0": a quote that pins a number pins that whole number. The verifier uses
:func:`cuts_number` so that a match never starts or ends inside one; :func:`number_tokens`
and :func:`has_number` serve anything else that compares numbers in text.

What joins into one token, in text already folded (``gitmem.core.folding.fold``):

- digits: ``37``, ``1200``;
- a ``.`` or ``,`` *between two digits*: ``2.5``, ``37,500``, ``1.12.0``, ``192.168.1.1``
  (so a sentence-final ``37.`` and a listing ``37, 500`` are two tokens' worth of text);
  so do a ``:``, ``/`` or ``^`` between two digits (a time ``10:30``, a ratio ``16:9``,
  a fraction or date ``3/4``, ``2026/01/02``, a power ``10^6``): "10" said of ``10:30``
  or ``10^6`` is another number; and so does a ``_`` or an apostrophe between two digits
  (``1_000_000``, the Swiss ``1'500``; folding straightens ``1’500``);
- an exponent: an ``e`` or ``E`` between two digits, with or without a sign (``1e6``,
  ``1E-3``, ``2.5e+10``): "3 s" said of ``1e-3 s`` is another number;
- superscript digits and the superscript minus (``10⁶``, ``10⁻³``), and vulgar fractions
  (``1½``), are digits of the token they touch;
- a leading decimal point: ``.5``, unless the ``.`` follows a word character or another
  ``.`` (``end.5``, ``wait...5``);
- a sign ``-`` or ``+``, a comparison ``<``, ``>``, ``<=``, ``>=``, ``≤``, ``≥`` or an
  approximation ``~`` right before the digits (or before a leading decimal point),
  unless it follows a word character (">500 ms" is not "500 ms"): ``-37`` and ``+5``
  are signed, while the ``-`` of the range ``10-20`` or of ``v-2`` is not a sign, so
  ``20`` is a whole token there;
- hyphens in a chain of runs of digits (a date ``2026-01-15``, a phone number
  ``555-123-4567``), or before a zero-padded run (``12-05``): "15 users" said of
  "2026-01-15 users" is another number, while a range ``10-20`` stays two.

Letters do not join: in ``v1.2`` the number is ``1.2``. Pure; never raises.
"""

from __future__ import annotations

import re

_MORE_DIGIT_RANGES = (
    *((0x00B2, 0x00B3), (0x00B9, 0x00B9), (0x00BC, 0x00BE), (0x2070, 0x2070)),
    *((0x2074, 0x2079), (0x2080, 0x2089), (0x2150, 0x215E)),
)
"""Digits ``\\d`` leaves out: superscripts and subscripts, vulgar fractions (first and
last code point of each run)."""
_MORE_DIGITS = "".join(f"{chr(first)}-{chr(last)}" for first, last in _MORE_DIGIT_RANGES)
_D = rf"[\d{_MORE_DIGITS}]"
_JOIN = r"(?:[.,:/^_'\u207b]|[eE][-+]?)"
"""What joins two runs of digits into one number: a separator, or an exponent's ``e``."""
_HYPHENS = rf"(?:-{_D}+){{2,}}|-(?=0{_D}){_D}+"
"""Hyphens that join runs of digits: two or more in a chain (a date ``2026-01-15``, a
phone number ``555-123-4567``), or one before a zero-padded run (``12-05``). One hyphen
between plain runs is a range (``10-20``): two numbers."""
NUMBER_RE = re.compile(
    rf"(?:(?<!\w)(?:[<>]=|[-+<>≤≥~]))?"
    rf"(?>{_D}+(?:{_JOIN}{_D}+|{_HYPHENS})*|(?<![\w.])\.{_D}+(?:{_JOIN}{_D}+|{_HYPHENS})*)"
)
"""One number token, as this module's docstring defines it. Its digits are one atomic
group: a chain of hyphens ("1-2-3-…") splits into runs of two or more in exponentially many
ways, and a pattern that embeds this one and fails after it (a unit that must follow,
:mod:`gitmem.core.measures`) would try each (a teammate's 100-character text took 22 s).
Matched alone the token is the same: the longest, found first; embedded, a shorter
piece of a token is never a number, which it never was (what follows a token is no digit
and no separator)."""

_SEPARATORS = ".,:/^_'\u207b"
_SIGNS = "-+<>≤≥~"
"""A sign, or a comparison or approximation that binds the number it stands before
(">500 ms" is not "500 ms", nor "~5 ms" "5 ms")."""
_EXTRA_DIGITS = frozenset(
    chr(code) for first, last in _MORE_DIGIT_RANGES for code in range(first, last + 1)
)


def _digit(char: str) -> bool:
    """A digit of a number token: a decimal digit, a superscript or subscript digit or a
    vulgar fraction (the empty string is none)."""
    return char.isdecimal() or char in _EXTRA_DIGITS


def number_tokens(text: str) -> list[str]:
    """Every number token in *text*, in order, as written ("-37", "37,500", "1.12.0").

    Never raises.
    """
    return NUMBER_RE.findall(text)


def has_number(text: str, number: str) -> bool:
    """True when *number* occurs in *text* as a whole number token.

    ``has_number("took 37.5 ms", "37")`` is False, and so is ``has_number("37,500",
    "37")`` or ``has_number("-37 ms", "37")``; ``has_number("see 37.", "37")`` and
    ``has_number("pages 10-37", "37")`` are True. Tokens are compared as written, so
    "37,500" and "37500" differ. Never raises.
    """
    return number in number_tokens(text)


def cuts_number(text: str, pos: int) -> bool:
    """True when offset *pos* of *text* falls strictly inside a number token, that is,
    ``text[pos - 1]`` and ``text[pos]`` belong to the same token.

    It is the same rule as :data:`NUMBER_RE` (a test holds them equal), checked on the
    few characters around *pos* so the verifier can call it on every candidate match.
    Offsets at or past either end never cut. Never raises.
    """
    if pos <= 0 or pos >= len(text):
        return False
    before, after = text[pos - 1], text[pos]
    two_before = text[pos - 2] if pos >= 2 else ""
    next_is_digit = pos + 1 < len(text) and _digit(text[pos + 1])
    if _digit(before):
        # "3|7", and "2|.5", "37|,500", "10|:30" where the separator leads to a digit;
        # "1|e6", "1|e-3" where an exponent does.
        if after == "-":  # "2026|-01-15"
            return _joining_hyphen(text, pos)
        return _digit(after) or (after in _SEPARATORS and next_is_digit) or _exponent(text, pos)
    if before in "eE" and _digit(two_before):
        # "1e|6", "1e|-3".
        return _digit(after) or (after in "-+" and next_is_digit)
    if before in "-+" and two_before in "eE" and pos >= 3 and _digit(text[pos - 3]):
        # "1e-|3"; "1e-" before anything else is "1" and a sign or a hyphen.
        return _digit(after)
    if _digit(after) and before in _SEPARATORS:
        # "2.|5", "37,|500", "10:|30"; or a leading decimal point ".|5" on its own.
        if _digit(two_before):
            return True
        return before == "." and not is_word_char(two_before) and two_before != "."
    if before == "-" and _digit(two_before) and _digit(after):  # "2026-|01-15"
        return _joining_hyphen(text, pos - 1)
    starts_number = _digit(after) or (after == "." and next_is_digit)
    if before in _SIGNS and not is_word_char(two_before):
        # "-|37", "+|5", "-|.5", ">|500"; a sign after a word character is a hyphen
        # ("10-20"); and ">|=5", "<|=5".
        return starts_number or (before in "<>" and after == "=" and next_is_digit)
    if before == "=" and two_before in ("<", ">"):
        # ">=|500", unless the ">" follows a word character.
        return starts_number and not is_word_char(text[pos - 3] if pos >= 3 else "")
    return False


def _exponent(text: str, pos: int) -> bool:
    """Does an exponent (``e6``, ``E-3``, ``e+10``) start at *pos*?"""
    if text[pos] not in "eE" or pos + 1 >= len(text):
        return False
    if _digit(text[pos + 1]):
        return True
    return text[pos + 1] in "-+" and pos + 2 < len(text) and _digit(text[pos + 2])


def _joining_hyphen(text: str, at: int) -> bool:
    """Does the hyphen at *at* join the runs of digits on either side of it into one
    number (:data:`_HYPHENS`): is the run after it zero-padded, or does another hyphen
    chain the run after it or the run before it to a further run of digits?"""
    after = at + 1
    while after < len(text) and _digit(text[after]):
        after += 1
    if after == at + 1 or at == 0 or not _digit(text[at - 1]):
        return False
    if text[at + 1] == "0" and after - at > 2:
        return True
    if after + 1 < len(text) and text[after] == "-" and _digit(text[after + 1]):
        return True
    before = at
    while before > 0 and _digit(text[before - 1]):
        before -= 1
    return before >= 2 and text[before - 1] == "-" and _digit(text[before - 2])


def hyphen_as_sign(text: str, pos: int) -> bool:
    """True when *text* has a hyphen or plus at *pos*, right before a number, that is not
    a sign because it follows a word character ("10-20" at the ``-``): a quote that
    starts there ("-20") would read it as a signed number. Never raises."""
    if pos <= 0 or pos + 1 >= len(text) or text[pos] not in _SIGNS:
        return False
    after = text[pos + 1]
    starts_number = _digit(after) or (
        after == "." and pos + 2 < len(text) and _digit(text[pos + 2])
    )
    return starts_number and is_word_char(text[pos - 1])


def is_word_char(char: str) -> bool:
    """A letter, a digit or ``_`` (the empty string is none)."""
    return char.isalnum() or char == "_"
