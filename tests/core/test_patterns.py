"""A lazy pattern answers as the compiled pattern does, and compiles only when used."""

from __future__ import annotations

import re

import pytest

from gitmem.core.patterns import lazy_pattern

SOURCE, FLAGS = r"(?P<word>re\w+)", re.IGNORECASE
TEXT = "Retry, then reopen; RETRIES are rare."


def test_every_method_answers_as_the_compiled_pattern() -> None:
    lazy, real = lazy_pattern(SOURCE, FLAGS), re.compile(SOURCE, FLAGS)
    assert lazy.search(TEXT).group("word") == real.search(TEXT).group("word")  # type: ignore[union-attr]
    assert lazy.search(TEXT, 5).span() == real.search(TEXT, 5).span()  # type: ignore[union-attr]
    assert lazy.match(TEXT) is not None and lazy.fullmatch("reopen") is not None
    assert lazy.fullmatch(TEXT) is None
    assert [m.span() for m in lazy.finditer(TEXT)] == [m.span() for m in real.finditer(TEXT)]
    assert lazy.findall(TEXT) == real.findall(TEXT)
    assert lazy.sub("X", TEXT) == real.sub("X", TEXT)
    upper = lambda m: m.group(0).upper()  # noqa: E731
    assert lazy.sub(upper, TEXT, 1) == real.sub(upper, TEXT, 1) != TEXT
    assert lazy.subn("X", TEXT) == real.subn("X", TEXT)
    assert lazy.split(TEXT) == real.split(TEXT)
    assert lazy.pattern == SOURCE and dict(lazy.groupindex) == {"word": 1}


def test_nothing_is_compiled_until_first_use() -> None:
    broken = lazy_pattern(r"(unclosed")  # a bad pattern fails where it is used, not here
    with pytest.raises(re.error):
        broken.search("x")


def test_a_source_made_by_a_function_is_made_on_first_use_and_once() -> None:
    made: list[int] = []

    def source() -> str:
        made.append(1)
        return SOURCE

    lazy = lazy_pattern(source, FLAGS)
    assert not made
    assert lazy.findall(TEXT) == re.compile(SOURCE, FLAGS).findall(TEXT)
    assert lazy.pattern == SOURCE and lazy.search("rest") is not None
    assert made == [1]


def test_importing_the_negation_rules_reads_no_word_until_one_is_looked_for() -> None:
    # a brief imports them for the few quotes it may check; reading ~130 words of twenty
    # languages in every case and accent cost ~4 ms of each brief that checked none
    import subprocess
    import sys

    script = (
        "import gitmem.core.negation as n\n"
        "assert n._negations.cache_info().currsize == 0\n"
        "from gitmem.core.folding import fold\n"
        "assert n.NEGATION_RE.search(fold('we will ΔΕΝ deploy'))\n"
        "assert n._negations.cache_info().currsize == 1\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True)
