"""Regular expressions compiled the first time they are used.

A module-level ``re.compile`` runs whenever its module is imported; the brief and recall
import the claim, negation and folding rules for the few items they render, and compiling
every pattern of those modules up front was ~15 ms of a 0.2 s brief. A
:class:`LazyPattern` has the methods of :class:`re.Pattern` that gitmem uses and compiles
on the first call. Pure: no disk, no clock.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

__all__ = ["LazyPattern", "lazy_pattern"]


class LazyPattern:
    """A pattern and its flags, compiled on first use (then kept). The source may be a
    function that makes it, called then too: for a pattern whose source costs more to
    build than the module that holds it does to import (the negation words of twenty
    languages, each read in capitals, without accents and with look-alike letters)."""

    __slots__ = ("_compiled", "_flags", "_source")

    def __init__(self, source: str | Callable[[], str], flags: int = 0) -> None:
        self._source, self._flags = source, flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern. Raises re.error for a bad pattern (a bug, found by the
        tests of the module that holds it)."""
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self._flags)
        return self._compiled

    @property
    def pattern(self) -> str:
        if not isinstance(self._source, str):
            self._source = self._source()
        return self._source

    @property
    def groupindex(self) -> Mapping[str, int]:
        return self.compiled.groupindex

    def search(self, string: str, *bounds: int) -> re.Match[str] | None:
        return self.compiled.search(string, *bounds)

    def match(self, string: str, *bounds: int) -> re.Match[str] | None:
        return self.compiled.match(string, *bounds)

    def fullmatch(self, string: str, *bounds: int) -> re.Match[str] | None:
        return self.compiled.fullmatch(string, *bounds)

    def finditer(self, string: str, *bounds: int) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(string, *bounds)

    def findall(self, string: str, *bounds: int) -> list[Any]:
        return self.compiled.findall(string, *bounds)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        return self.compiled.sub(repl, string, count)

    def subn(
        self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0
    ) -> tuple[str, int]:
        return self.compiled.subn(repl, string, count)

    def split(self, string: str, maxsplit: int = 0) -> list[str | Any]:
        return self.compiled.split(string, maxsplit)


def lazy_pattern(source: str | Callable[[], str], flags: int = 0) -> LazyPattern:
    """``re.compile(source, flags)`` (*source* a string, or a function that makes it),
    done when the pattern is first used."""
    return LazyPattern(source, flags)
