"""The token estimate charges each piece at least what a byte-level BPE tokenizer does.
The real tokenizers are measured by benchmarks/bench_tokens.py (they are not gitmem's
dependencies); these tests hold the rules of the estimate itself."""

from __future__ import annotations

import pytest

from gitmem.core.tokens import estimate_lines, estimate_tokens


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("", 0),
        ("review", 2),  # a word: one token per 4 letters
        ("a3f9c2d1", 8),  # a 3 f 9 c 2 d 1: eight pieces
        ("cfcbd", 4),  # not a word: one per 10/7 letters
        ("1234567", 3),  # digits: one per 3
        ("src/mod.py", 3 + 1 + 1 + 1 + 1),  # src (no vowel: not a word) / mod . py
        ("a b", 2),  # the space joins the next word
        ("PR 42", 3),  # but not a number
        ("✓ ≈ ⚠", 3),  # the brief's own marks: one each
        ("中文", 6),  # any other non-ASCII character: its UTF-8 bytes
        ("\n\n", 2),
    ],
)
def test_each_piece_is_charged_by_its_kind(text: str, tokens: int) -> None:
    assert estimate_tokens(text) == tokens


def test_lines_add_up_with_their_newlines() -> None:
    lines = ["- [✓ verbatim] keep it — “we keep it” (3d53f2a3, 1 d)", "", "DECISIONS"]
    assert estimate_lines(lines) == sum(estimate_tokens(line) + 1 for line in lines)
    assert estimate_lines(lines) >= estimate_tokens("\n".join(lines) + "\n")


def test_a_case_change_starts_a_new_piece() -> None:
    """``camelCase`` is cut where the tokenizers cut it, so random mixed case is dear."""
    assert estimate_tokens("parseTokenStream") == estimate_tokens("parse Token Stream")
    assert estimate_tokens("qXzWvBnM") >= 4
