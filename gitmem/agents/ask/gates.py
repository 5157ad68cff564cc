"""The deterministic gates of an answer: pure string checks, no model, no disk.

1. **Quote in snapshot** (:func:`locate_quote`): the quote must occur in the cited
   excerpt *exactly*: same characters, same case, same punctuation. The one allowance:
   a run of whitespace in the quote matches any run of whitespace in the source (a
   quote that spans lines loses its indentation). It must start and end on word
   boundaries ("7 seconds" is not a quote of "17 seconds"), hold at least
   :data:`MIN_QUOTE_CHARS` characters besides whitespace, and contain no ellipsis: a
   quote is one contiguous passage. This is stricter than the transcript verifier,
   which folds case and markdown; source code is compared as written.
2. **Anchor** (:func:`anchored`): the answer must occur inside the quote as a bounded
   span: after folding both (case, curly quote marks, dashes, whitespace runs; nothing
   else) and trimming sentence punctuation from the answer, the answer appears in the
   quote neither starting nor ending inside a word ("37" is not anchored in "port 137").
3. **Agreement** (:func:`agree`): the solver's and the support's answers, folded the
   same way, are equal; or the shorter is a bounded span of the longer and both hold
   the same numbers and the same negations ("37" agrees with "37 seconds", not with
   "137", and "cached" does not agree with "not cached").

Freshness of the source and the schema of every reply are checked by the caller.
"""

from __future__ import annotations

import re

MIN_QUOTE_CHARS = 8
_ELLIPSIS = re.compile(r"…|\.\.\.")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
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
    if _is_word_char(parts[0][0]):
        pattern = r"(?<!\w)" + pattern
    if _is_word_char(parts[-1][-1]):
        pattern += r"(?!\w)"
    found = re.search(pattern, snapshot)
    return None if found is None else (found.start(), found.end())


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
    """*needle* occurs in *haystack* neither starting nor ending inside a word."""
    if not needle:
        return False
    start = haystack.find(needle)
    while start >= 0:
        end = start + len(needle)
        before_ok = not (
            _is_word_char(needle[0]) and start > 0 and _is_word_char(haystack[start - 1])
        )
        after_ok = not (
            _is_word_char(needle[-1]) and end < len(haystack) and _is_word_char(haystack[end])
        )
        if before_ok and after_ok:
            return True
        start = haystack.find(needle, start + 1)
    return False


def anchored(answer: str, quote: str) -> bool:
    """Rule 2: the answer is a bounded span of the quote."""
    return bounded_find(normalise_answer(answer), fold(quote))


def agree(first: str, second: str) -> bool:
    """Rule 3: two answers say the same thing, by the deterministic rule above."""
    a, b = normalise_answer(first), normalise_answer(second)
    if not a or not b:
        return False
    if a == b:
        return True
    if _NUMBER.findall(a) != _NUMBER.findall(b) or _negations(a) != _negations(b):
        return False
    shorter, longer = sorted((a, b), key=len)
    return bounded_find(shorter, longer)


def _negations(text: str) -> frozenset[str]:
    words = set(_WORD.findall(text))
    found = words & _NEGATIONS
    if "n't" in text or "n’t" in text:
        found |= {"not"}
    return frozenset(found)


def _is_word_char(char: str) -> bool:
    return char.isalnum() or char == "_"
