"""The deterministic gates of an answer: pure string checks, no model, no disk.

1. **Quote in snapshot** (:func:`locate_quote`): the quote must occur in the cited
   excerpt *exactly*: same characters, same case, same punctuation. The one allowance:
   a run of whitespace in the quote matches any run of whitespace in the source (a
   quote that spans lines loses its indentation). It must start and end on word
   boundaries ("7 seconds" is not a quote of "17 seconds") and never inside a number
   ("capacity is 37" is not a quote of "capacity is 37.5 litres", "-20 kg" not of
   "10-20 kg"), hold at least :data:`MIN_QUOTE_CHARS` characters besides whitespace,
   and contain no ellipsis: a quote is one contiguous passage. This is stricter than
   the transcript verifier, which folds case and markdown; source code is compared as
   written.
2. **Anchor** (:func:`anchor_problem`): the answer must occur inside the quote as a
   bounded span: after folding both (case, curly quote marks, dashes, whitespace runs;
   nothing else) and trimming sentence punctuation from the answer, the answer appears
   in the quote neither starting nor ending inside a word or a number ("37" is not
   anchored in "port 137", "37.5 litres", "37,500 litres" or "-37 ms"), and it does not
   drop a negation the quote puts on its words ("shipped" is not an answer from "not
   shipped").
3. **Agreement** (:func:`agree`): the solver's and the support's answers, folded the
   same way, are equal; or the shorter is a bounded span of the longer and both hold
   the same number tokens and the same negations ("37" agrees with "37 seconds", not
   with "137", "37.5" or "-37", and "cached" does not agree with "not cached").

Numbers are whole tokens with their sign, decimals and thousands separators: the
verifier's rule, :mod:`gitmem.core.numbers`. Freshness of the source, the schema of
every reply and the binding of a table row (:mod:`gitmem.agents.ask.rows`) are checked
elsewhere.
"""

from __future__ import annotations

import re

from gitmem.core.negation import polarity_conflict
from gitmem.core.numbers import cuts_number, hyphen_as_sign, is_word_char, number_tokens

MIN_QUOTE_CHARS = 8
_ELLIPSIS = re.compile(r"…|\.\.\.")
BOUND = re.compile(
    r"\b(?:no|not|cannot|can't|(?:must|may|should|shall|does|do|will) not|mustn't|won't)"
    r"\s+(?:more|less|fewer|later|earlier|longer|shorter|over|under|exceed|exceeding|exceeds"
    r"|above|below|before|after)\b"
)
"""A bound ("no more than 3", "cannot exceed 5 MB") states a limit; it does not negate
the number, so an answer "3" or "5 MB" keeps the quote's meaning."""
_NEGATIONS = frozenset({"not", "no", "never", "none", "nothing", "without", "cannot", "nor"})
_WORD = re.compile(r"[^\W_]+|_")
_TRIM = " \t\n.,;:!?\"'()[]{}"
_FOLDS = str.maketrans(
    {**dict.fromkeys("‘’‚‛", "'"), **dict.fromkeys("“”„‟", '"'), **dict.fromkeys("‐‑‒–—―−", "-")}
)


def locate_quote(quote: str, snapshot: str) -> tuple[int, int] | None:
    """Where *quote* occurs in *snapshot* under rule 1 (start, end offsets), or None."""
    parts = quote.split()
    if not parts or sum(len(p) for p in parts) < MIN_QUOTE_CHARS or _ELLIPSIS.search(quote):
        return None
    pattern = r"\s+".join(re.escape(part) for part in parts)
    if is_word_char(parts[0][0]):
        pattern = r"(?<!\w)" + pattern
    if is_word_char(parts[-1][-1]):
        pattern += r"(?!\w)"
    plain = snapshot.translate(_FOLDS)  # one character for one: offsets still hold
    for found in re.finditer(pattern, snapshot):
        start, end = found.start(), found.end()
        if not (cuts_number(plain, start) or cuts_number(plain, end)) and not hyphen_as_sign(
            plain, start
        ):
            return start, end
    return None


def quote_problem(quote: str, snapshot: str) -> str | None:
    """Why *quote* is not a quote of *snapshot* under rule 1, or None when it is."""
    if _ELLIPSIS.search(quote):
        return "the quote holds an ellipsis; a quote must be one contiguous passage"
    if sum(len(p) for p in quote.split()) < MIN_QUOTE_CHARS:
        return f"the quote has fewer than {MIN_QUOTE_CHARS} characters besides whitespace"
    if locate_quote(quote, snapshot) is None:
        return "the quote does not occur exactly (on word boundaries) in the cited excerpt"
    return None


def fold(text: str) -> str:
    """Case, curly quote marks, dashes and whitespace runs folded; nothing else."""
    return " ".join(text.casefold().translate(_FOLDS).split())


def normalise_answer(answer: str) -> str:
    """An answer folded for comparison, sentence punctuation trimmed."""
    return fold(answer).strip(_TRIM)


def bounded_find(needle: str, haystack: str) -> bool:
    """*needle* occurs in *haystack* neither starting nor ending inside a word or a
    number token (:func:`gitmem.core.numbers.cuts_number`); both already folded."""
    if not needle:
        return False
    start = haystack.find(needle)
    while start >= 0:
        end = start + len(needle)
        before_ok = not (
            is_word_char(needle[0]) and start > 0 and is_word_char(haystack[start - 1])
        )
        after_ok = not (
            is_word_char(needle[-1]) and end < len(haystack) and is_word_char(haystack[end])
        )
        whole = not (
            cuts_number(haystack, start)
            or cuts_number(haystack, end)
            or hyphen_as_sign(haystack, start)
        )
        if before_ok and after_ok and whole:
            return True
        start = haystack.find(needle, start + 1)
    return False


def anchored(answer: str, quote: str) -> bool:
    """Rule 2: the answer is a bounded span of the quote that keeps its negation."""
    return anchor_problem(answer, quote) is None


def anchor_problem(answer: str, quote: str) -> str | None:
    """Why *answer* is not anchored in *quote* under rule 2, or None when it is."""
    if not bounded_find(normalise_answer(answer), fold(quote)):
        return "the answer is not a bounded span of the quote (whole words, whole numbers)"
    dropped = polarity_conflict(answer, BOUND.sub("bound", fold(quote)))
    if dropped is not None and not _negations(fold(answer)):
        return f"the answer drops a negation of the quote ({dropped.split(' but ')[0]})"
    return None


def agree(first: str, second: str) -> bool:
    """Rule 3: two answers say the same thing, by the deterministic rule above."""
    a, b = normalise_answer(first), normalise_answer(second)
    if not a or not b:
        return False
    if a == b:
        return True
    if number_tokens(a) != number_tokens(b) or _negations(a) != _negations(b):
        return False
    shorter, longer = sorted((a, b), key=len)
    return bounded_find(shorter, longer)


def _negations(text: str) -> frozenset[str]:
    words = set(_WORD.findall(text))
    found = words & _NEGATIONS
    if "n't" in text or "n’t" in text:
        found |= {"not"}
    return frozenset(found)
