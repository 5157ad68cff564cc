"""A tokenizer-free, conservative count of the tokens a text costs a model.

Codex puts hook text over 2,500 tokens into a file and shows the model only a preview, so
the brief for Codex is measured in tokens. No tokenizer ships with gitmem: this estimate
follows the way byte-level BPE tokenizers (``o200k_base``, ``cl100k_base``) first cut text
into pieces, and charges each piece at least what such a tokenizer does:

* a run of ASCII letters is cut where its case changes (``camelCase`` is two pieces, as
  the tokenizers cut it); a piece that reads like an English word (one capital at most,
  a vowel ratio of a quarter to two thirds, no four consonants or three vowels in a row,
  at most 12 letters) costs one token per 4 letters, any other piece (hex, base64,
  abbreviations, gibberish) one per 10/7 letters; one or two letters cost 1;
* digits cost one token per 3 (the tokenizers never join more);
* ASCII punctuation costs 1 per character, a newline 1, a space nothing when a letter or
  a symbol follows it (it joins that piece) and 1 otherwise;
* a non-ASCII character costs its UTF-8 length (no BPE token is shorter than a byte),
  except the few typographic marks the brief itself prints (``✓ ≈ × ⚠ — – … · ’ ‘ “ ”``),
  which cost 1.

``benchmarks/bench_tokens.py`` measures the estimate against ``o200k_base`` and
``cl100k_base`` on real briefs and on adversarial text (hex ids, SHA-256s, paths, base64,
random letters, CJK, emoji): docs/hooks.md has the figures. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

__all__ = ["estimate_lines", "estimate_tokens"]

_LETTERS = re.compile(r"[A-Z]*[a-z]+|[A-Z]+(?![a-z])")
_DIGITS = re.compile(r"[0-9]+")
_PUNCTUATION = re.compile(r"[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e\r\n]")
_SPACE_RUNS = re.compile(r"[ \t]{2,}")
_LONE_SPACES = re.compile(r"(?<![ \t])[ \t](?=[0-9\s]|$)")
"""A lone space joins the piece after it, unless a digit, a space or the end follows."""
_WORDLIKE = re.compile(r"[A-Z]?[a-z]+")
_UNWORDLIKE = re.compile(r"[^aeiouy]{4,}|[aeiouy]{3,}")
_VOWELS = frozenset("aeiouy")
_MARKS = frozenset("✓≈×⚠—–…·’‘“”")
"""Marks the brief prints on every line, one token each in both encodings (measured)."""
_MARK_SAVINGS = {mark: len(mark.encode("utf-8")) - 1 for mark in _MARKS}
_WORD_LETTERS = 4
_MAX_WORD = 12


@lru_cache(maxsize=8192)
def estimate_tokens(text: str) -> int:
    """An upper estimate of the tokens *text* costs (see the module). Raises nothing."""
    total = sum(map(_letters, _LETTERS.findall(text)))
    total += sum(-(-len(run) // 3) for run in _DIGITS.findall(text))
    total += len(_PUNCTUATION.findall(text))
    total += sum(map(len, _SPACE_RUNS.findall(text))) + len(_LONE_SPACES.findall(text))
    ascii_chars = len(text.encode("ascii", "ignore"))
    if ascii_chars < len(text):  # non-ASCII: its UTF-8 bytes, a mark of the brief's 1
        total += len(text.encode("utf-8")) - ascii_chars
        total -= sum(_MARK_SAVINGS[mark] * text.count(mark) for mark in _MARKS)
    return total


def estimate_lines(lines: Iterable[str]) -> int:
    """:func:`estimate_tokens` of *lines* each followed by a newline: additive, so a
    budget can add lines one by one. Raises nothing."""
    return sum(estimate_tokens(line) + 1 for line in lines)


@lru_cache(maxsize=65536)
def _letters(piece: str) -> int:
    size = len(piece)
    if size <= 2:
        return 1
    low = piece.lower()
    vowels = sum(c in _VOWELS for c in low) / size
    wordlike = (
        size <= _MAX_WORD
        and _WORDLIKE.fullmatch(piece) is not None
        and 0.25 <= vowels <= 0.65
        and _UNWORDLIKE.search(low) is None
    )
    if wordlike:
        return -(-size // _WORD_LETTERS)
    return -(-size * 7 // 10)
