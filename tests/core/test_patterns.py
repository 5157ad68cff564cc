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
