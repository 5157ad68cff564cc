"""The emission ledger: what gitmem showed an agent, so an echo is never evidence.

Everything gitmem prints for an agent is wrapped in ``<gitmem-context>``, and the
verifier removes those spans. But an agent can echo a brief line without the tags
("as noted: we drop the regex fallback…"). The ledger remembers the folded text of
every item and quote gitmem emitted (``.git/gitmem/emitted.jsonl``, local, never
pushed); before any check, :func:`gitmem.capture.echoes.tag_echoes` wraps a transcript
line holding one of them in ``<gitmem-context source="echo">`` so it counts no more than
the original output.

An entry only applies to transcripts written after it was first emitted (by the
transcript's modification time), so importing old sessions is not affected.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from gitmem.core import boundedjson
from gitmem.core.quotes import fold
from gitmem.store.files import atomic_write

LEDGER_FILE = "emitted.jsonl"
LAST_FILE = "emitted.last"
"""A digest of what the last brief recorded and of the ledger after it (no text): the
same brief again, the usual case at a session start, reads no ledger."""
MIN_WORDS = 3
"""An entry needs this many folded words: shorter text is too common to call an echo."""
_MAX_ENTRIES = 20_000
_LATEST = 1e11  # Unix time far beyond any real emission (year 5138)
WORD = re.compile(r"\w+")


class Shown(Protocol):
    """An item as gitmem showed it: its text and, when it had one, its quote."""

    @property
    def text(self) -> str: ...
    @property
    def quote(self) -> str | None: ...


def shown_texts(items: Iterable[Shown]) -> list[str]:
    """The texts a rendering of *items* put in front of an agent. Raises nothing."""
    texts: list[str] = []
    for item in items:
        texts.append(item.text)
        if item.quote:
            texts.append(item.quote)
    return texts


class Ledger:
    def __init__(self, local_dir: Path) -> None:
        self.path = local_dir / LEDGER_FILE

    def load(self) -> dict[str, float]:
        """Folded text → when it was first emitted (Unix time)."""
        entries: dict[str, float] = {}
        try:
            lines = self.path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return entries
        for line in lines:
            # A line that is not [text, time] is skipped: the ledger is local state, and
            # losing one entry only lets one echo count again.
            try:
                value = boundedjson.loads(line, max_depth=2, max_int_digits=12)
            except ValueError:
                continue
            if not (isinstance(value, list) and len(value) == 2):
                continue
            text, when = value
            if (
                isinstance(text, str)
                and isinstance(when, int | float)
                and not isinstance(when, bool)
                and 0 <= when < _LATEST
            ):
                entries.setdefault(text, float(when))
        return entries

    def record(self, texts: Iterable[str]) -> int:
        """Remember *texts* as emitted now; returns how many were new. Never raises."""
        try:
            folded = {f for f in (fold(t) for t in texts) if _worth_keeping(f)}
            if folded and self._same_as_last(folded):
                return 0  # what the last brief showed, into a ledger untouched since
            known = self._written()
            now = datetime.now(UTC).timestamp()
            fresh = sorted(f for f in folded if _line_head(f) not in known)
            if fresh:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                with open(self.path, "a", encoding="utf-8") as handle:
                    for text in fresh:
                        line = json.dumps([text, round(now, 3)], ensure_ascii=False)
                        handle.write(line + "\n")
                if len(known) + len(fresh) > 2 * _MAX_ENTRIES:
                    self._compact()
            if folded:
                self._remember_last(folded)
            return len(fresh)
        except OSError:
            return 0

    def _last_mark(self, folded: set[str]) -> str | None:
        """What :data:`LAST_FILE` holds after *folded* went into the ledger as it is
        now: their digest and the ledger's identity, size and modification time (a
        compaction, a purge's scrub or a deletion changes those). Raises OSError."""
        try:
            seen = self.path.stat()
        except FileNotFoundError:
            return None
        digest = hashlib.sha256("\n".join(sorted(folded)).encode("utf-8")).hexdigest()
        return f"{digest} {seen.st_ino} {seen.st_size} {seen.st_mtime_ns}"

    def _same_as_last(self, folded: set[str]) -> bool:
        """Whether *folded* is what the last call recorded, into the ledger unchanged
        since: then all of it is there already, without reading it. Raises OSError."""
        mark = self._last_mark(folded)
        try:
            return mark is not None and (self.path.parent / LAST_FILE).read_text() == mark
        except (OSError, UnicodeDecodeError):
            return False  # no mark, or not one of ours: read the ledger

    def _remember_last(self, folded: set[str]) -> None:
        mark = self._last_mark(folded)
        try:
            if mark is not None:
                (self.path.parent / LAST_FILE).write_text(mark)
        except OSError:
            pass  # without a mark the next brief reads the ledger: slower, as correct

    def _written(self) -> set[str]:
        """The head (``["text"``) of every line written so far: what :meth:`record` asks
        of every brief, found without decoding each line (decoding the whole ledger was
        ~10 ms per thousand entries, at every session start). A line that is not one of
        ours matches no head, so its text is written again: harmless, :meth:`load`
        keeps the first time. Raises OSError."""
        try:
            data = self.path.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return set()
        return {line[: line.rfind(", ")] for line in data.splitlines()}

    def _compact(self) -> None:
        entries = sorted(self.load().items(), key=lambda kv: kv[1])[-_MAX_ENTRIES:]
        text = "".join(json.dumps([t, w], ensure_ascii=False) + "\n" for t, w in entries)
        atomic_write(self.path, text.encode("utf-8"), 0o644)


def _line_head(text: str) -> str:
    """How a ledger line holding *text* begins, up to the comma before its time."""
    return json.dumps([text], ensure_ascii=False)[:-1]


def _worth_keeping(folded: str) -> bool:
    return len(WORD.findall(folded)) >= MIN_WORDS and len(folded) >= 12
