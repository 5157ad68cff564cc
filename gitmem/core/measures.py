"""Numbers an item's text may not change in its quote: their unit, magnitude or words.

A quote can verify while its item's text measures its number in another unit ("The
timeout is 5 s" on "the timeout is 5 ms"), adds or drops a magnitude ("5k users" on "5
users"), or says another number in words ("six times" on "5 times"). A number written in
words is read as its digits for its unit too: "thirty minutes" on "30 seconds", "five
seconds" on "five minutes". Each function here says why, or None; a false alarm costs only
the item's wording (:func:`gitmem.core.support.unsupported`). Pure, on folded text; never
raises.
"""

from __future__ import annotations

import re

from gitmem.core.numbers import NUMBER_RE
from gitmem.core.patterns import lazy_pattern

_PIECE_RE = lazy_pattern(r"[^\W_]+")
_UNITS = {
    **dict.fromkeys(("ns", "nanosecond", "nanoseconds"), "ns"),
    **dict.fromkeys(("us", "µs", "microsecond", "microseconds"), "us"),
    **dict.fromkeys(("ms", "msec", "msecs", "millisecond", "milliseconds"), "ms"),
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), "s"),
    **dict.fromkeys(("m", "min", "mins", "minute", "minutes"), "min"),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), "h"),
    **dict.fromkeys(("d", "day", "days"), "d"),
    **dict.fromkeys(("w", "wk", "week", "weeks"), "w"),
    **dict.fromkeys(("month", "months"), "month"),
    **dict.fromkeys(("y", "yr", "yrs", "year", "years"), "y"),
    **dict.fromkeys(("b", "byte", "bytes"), "b"),
    **dict.fromkeys(("kb", "kib", "kilobyte", "kilobytes"), "kb"),
    **dict.fromkeys(("mb", "mib", "megabyte", "megabytes"), "mb"),
    **dict.fromkeys(("gb", "gib", "gigabyte", "gigabytes"), "gb"),
    **dict.fromkeys(("tb", "tib", "terabyte", "terabytes"), "tb"),
    **dict.fromkeys(("%", "percent", "pct"), "%"),
    **dict.fromkeys(("x", "times"), "x"),
    **dict.fromkeys(("k", "thousand", "thousands"), "k"),
    **dict.fromkeys(("million", "millions"), "million"),
    **dict.fromkeys(("bn", "billion", "billions"), "billion"),
    **dict.fromkeys(("px", "em", "rem", "pt"), "px"),
}
# A number and the unit right after it ("5 ms", "5ms", "40%"), in folded text: a unit
# that ends its word, but for dots ("5 ms."; not "5 ms.x"). "(?!\.*\w)" says what
# "(?![\w.]*\w)" said, without reading a long word after the unit once for each of its
# letters.
_MEASURE_RE = lazy_pattern(r"(" + NUMBER_RE.pattern + r")[ ]?([a-zµ%]+)(?!\.*\w)")


_MAGNITUDES = frozenset(("k", "million", "billion", "%"))
"""Units that scale the number they follow: "5k" is not "5", nor "80%" "80"."""


def other_unit(text: str, quote: str) -> str | None:
    """Why *text* (folded) measures a number of *quote* (folded) in another unit: "5 s"
    where the quote says "5 ms" and never "5 s"; or adds or drops a magnitude the quote
    does not have, or has, on every mention of the number ("5k users" on "5 users", "5
    rows" on "5k rows"). A number in words before a unit is read as its digits
    (:func:`in_digits`): "thirty minutes" where the quote says "30 seconds". Raises
    nothing."""
    text, quote = in_digits(text), in_digits(quote)
    said = _measures(quote)
    for token in NUMBER_RE.finditer(text):  # not _MEASURE_RE.findall: it read a long
        measure = _MEASURE_RE.match(text, token.start())  # number once from each digit
        if measure is None:
            continue
        number, unit = measure.groups()
        units = said.get(number, {""}) - {""}
        if unit in _UNITS and units and _UNITS[unit] not in units:
            return (
                f'the item\'s text says "{number} {unit}" where its quote measures '
                f"{number} in another unit"
            )
    for number, units in _measures(text).items():
        if number not in said:
            continue  # a number the quote lacks: gitmem.core.support says so
        for unit in sorted(units & _MAGNITUDES - said[number]):
            return (
                f'the item\'s text says "{number} {unit}" where its quote says {number} without it'
            )
        scaled = sorted(said[number] & _MAGNITUDES)
        if "" in units and scaled and "" not in said[number]:
            return f'the item\'s text says "{number}" where its quote says "{number} {scaled[0]}"'
    return None


def _measures(folded: str) -> dict[str, set[str]]:
    """Each number token of *folded* with the units it is measured in ("" for a mention
    with no unit :data:`_UNITS` knows)."""
    found: dict[str, set[str]] = {}
    for token in NUMBER_RE.finditer(folded):
        measure = _MEASURE_RE.match(folded, token.start())
        unit = measure.group(2) if measure and measure.group(1) == token.group() else ""
        found.setdefault(token.group(), set()).add(_UNITS.get(unit, ""))
    return found


_NUMBER_WORDS = {
    word: value
    for value, word in enumerate(
        (
            *("zero", "one", "two", "three", "four", "five", "six", "seven", "eight"),
            *("nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen"),
            *("sixteen", "seventeen", "eighteen", "nineteen", "twenty"),
        )
    )
} | {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80}
_NUMBER_WORDS |= {"ninety": 90, "hundred": 100, "thousand": 1000, "twice": 2, "dozen": 12}
_AMBIGUOUS = frozenset({"zero", "one"})
"""Number words also used as other words ("no one", "the one that"): never counted as a
number the text adds."""


def number_words(folded: str) -> set[str]:
    """The values, as digits, of the number words of *folded* ("three" is "3",
    "twenty-five" "25"). Raises nothing."""
    pieces = _PIECE_RE.findall(_compounded(folded))
    return {
        p if p in _COMPOUNDS else str(_NUMBER_WORDS[p])
        for p in pieces
        if p in _NUMBER_WORDS or p in _COMPOUNDS
    }


def other_number(text: str, quote: str) -> str | None:
    """Why *text* (folded) says a number in words that *quote* (folded) does not hold, in
    words or digits ("six times" where the quote says "5 times"; "twenty-five" is 25).
    Raises nothing."""
    said = {n.replace(",", "") for n in NUMBER_RE.findall(quote)} | number_words(quote)
    for piece in _PIECE_RE.findall(_compounded(text)):
        known = piece in _NUMBER_WORDS and piece not in _AMBIGUOUS
        if known and str(_NUMBER_WORDS[piece]) not in said:
            return f'the item\'s text says "{piece}", a number its quote does not hold'
        if piece in _COMPOUNDS and piece not in said:
            return f'the item\'s text says "{_COMPOUNDS[piece]}", a number its quote does not hold'
    return None


_TENS = "|".join(word for word, value in _NUMBER_WORDS.items() if 20 <= value <= 90)
_ONES = "|".join(word for word, value in _NUMBER_WORDS.items() if 1 <= value <= 9)
_ALL = "|".join(w for w in _NUMBER_WORDS if w not in ("hundred", "thousand", "dozen"))
_COMPOUND_RE = lazy_pattern(rf"\b({_TENS})[ -]({_ONES})\b")
_COMPOUNDS = {
    str(_NUMBER_WORDS[tens] + _NUMBER_WORDS[ones]): f"{tens}-{ones}"
    for tens in _TENS.split("|")
    for ones in _ONES.split("|")
}
"""Each number a tens word and a ones word make ("25": "twenty-five")."""
# A number in words ("thirty", "twenty-five" once compounded) right before a unit.
_SPELT_RE = lazy_pattern(rf"\b({_ALL})\b(?=[ -]([a-zµ%]+)\b)")


def _compounded(folded: str) -> str:
    """*folded* with each tens word and ones word after it ("twenty-five", "twenty five")
    written as one number in digits ("25")."""
    return _COMPOUND_RE.sub(
        lambda m: str(_NUMBER_WORDS[m.group(1)] + _NUMBER_WORDS[m.group(2)]), folded
    )


def in_digits(folded: str) -> str:
    """*folded* with each number in words that a unit follows written in digits ("thirty
    minutes" is "30 minutes", "twenty-five ms" "25 ms"; a tens word and a ones word are
    one number wherever they stand), so that its unit is read as a number's. "One" and
    "zero" count here: before a unit they are numbers. Raises nothing."""

    def digits(match: re.Match[str]) -> str:
        if match.group(2) not in _UNITS:
            return match.group()
        return str(_NUMBER_WORDS[match.group(1)])

    return _SPELT_RE.sub(digits, _compounded(folded))


def same_unit(word: str, other: str) -> bool:
    """Are *word* and *other* two names of one unit ("ms", "milliseconds")? Raises
    nothing."""
    return word in _UNITS and _UNITS[word] == _UNITS.get(other)


_CHANGE_RE = lazy_pattern(r"\b(to|by)\s+(" + NUMBER_RE.pattern + r")")
"""A change's number: where it goes ("raise the limit to 10") or by how much ("by 10")."""


def other_change(text: str, quote: str) -> str | None:
    """Why *text* (folded) says a change goes "to" a number where *quote* (folded) says
    it goes "by" it, or the other way round: "Raise the limit by 10" on "raise the limit
    to 10", "Increase the pool to 5" on "increase the pool by 5". Raises nothing."""
    said: dict[str, set[str]] = {}
    for word, number in _CHANGE_RE.findall(quote):
        said.setdefault(number, set()).add(word)
    for word, number in _CHANGE_RE.findall(text):
        if said.get(number) and word not in said[number]:
            other = min(said[number])
            return (
                f'the item\'s text says "{word} {number}" where its quote says "{other} {number}"'
            )
    return None


_RANGE_RE = lazy_pattern(
    r"\b(?:between\s+)?(" + NUMBER_RE.pattern + r")\s*(?:[a-zµ%]+\s+)?"
    r"(and|to|through|thru|or|–)\s+(" + NUMBER_RE.pattern + r")(?![\w.])"
)
_CHANGE_BEFORE_RE = lazy_pattern(
    r"\b(?:from|upgrad\w*|downgrad\w*|bump\w*|rais\w*|increas\w*|lower\w*|reduc\w*"
    r"|decreas\w*|chang\w*|mov\w*|went|go|goes|set|sets|migrat\w*|switch\w*)\b"
)
"""Before "N to M", a word that makes it a change, not a range ("from 3.10 to 3.11",
"bump the limit 5 to 10")."""
"""A range of numbers: "between 3 and 5", "30 to 90 days", "16 through 18", "3 or 4" (not
a change: "from 3.10 to 3.11")."""


def one_end(text: str, quote: str) -> str | None:
    """Why *text* (folded) states as the number one end of a range of *quote* (folded),
    without the other: "Retry 5 times" on "retry between 3 and 5 times", "Keep 30 days of
    logs" on "keep 30 to 90 days of logs". Raises nothing."""
    said = set(NUMBER_RE.findall(text))
    for match in _RANGE_RE.finditer(quote):
        low, joint, high = match.groups()
        ahead = quote[max(0, match.start() - 40) : match.start()]
        if low == high or (joint == "to" and _CHANGE_BEFORE_RE.search(ahead)):
            continue
        for end, other in ((low, high), (high, low)):
            if end in said and other not in said:
                return (
                    f'the item\'s text says "{end}" where its quote says a range, {low} to {high}'
                )
    return None
