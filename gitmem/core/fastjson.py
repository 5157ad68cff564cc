"""orjson, for a process with enough JSON to make its import worth it.

orjson reads and writes JSON several times faster than :mod:`json` (a 4 KB checkpoint
encoded in ~1 µs where :mod:`json` takes ~12; a transcript line read in ~0.4 µs where the
bounded decoder takes ~1.8), but importing it takes ~3 ms (it loads ``uuid`` and
``platform``): what ~250 encodes of a checkpoint cost. A warm brief, a hook or a capture
handles a few dozen records; a ``verify`` or a rebuild handles tens of thousands. So a
process asks :func:`module` each time it has JSON to handle, and gets orjson from its
:data:`LOAD_AFTER`-th question on (None before, and where orjson is not installed: the
caller then uses :mod:`json`, as it would have anyway).

Every caller takes orjson's answer only where it is the one :mod:`json` gives
(``gitmem.core.canonical``, ``gitmem.core.transcript``), and asks :mod:`json` whenever
orjson refuses. Pure: no file, no clock.
"""

from __future__ import annotations

from typing import Any

LOAD_AFTER = 256
"""The questions a process asks before orjson is loaded."""


class Lazy:
    """orjson, once :meth:`module` has been asked :data:`LOAD_AFTER` times."""

    def __init__(self) -> None:
        self.loaded: Any = None
        self._asked = 0
        self._tried = False

    def module(self) -> Any:
        """orjson, or None: before the :data:`LOAD_AFTER`-th question, or where it is not
        installed. Raises nothing."""
        if self.loaded is not None:
            return self.loaded
        self._asked += 1
        if self._asked >= LOAD_AFTER and not self._tried:  # once, even if threads race
            self._tried = True
            self.loaded = installed()
        return self.loaded


def installed() -> Any:
    """The orjson module, or None where it is not installed. Raises nothing."""
    try:
        import orjson
    except ImportError:  # pragma: no cover - a platform orjson has no wheel for
        return None
    return orjson


_LAZY = Lazy()
module = _LAZY.module
"""This process's :meth:`Lazy.module`."""
