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

import json
import os
import re
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from gitmem.core.quotes import fold

LEDGER_FILE = "emitted.jsonl"
MIN_WORDS = 3
"""An entry needs this many folded words: shorter text is too common to call an echo."""
_MAX_ENTRIES = 20_000
WORD = re.compile(r"\w+")


class Ledger:
    def __init__(self, local_dir: Path) -> None:
        self.path = local_dir / LEDGER_FILE

    def load(self) -> dict[str, float]:
        """Folded text → when it was first emitted (Unix time)."""
        entries: dict[str, float] = {}
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return entries
        for line in lines:
            try:
                text, when = json.loads(line)
            except (ValueError, TypeError):
                continue
            if isinstance(text, str) and isinstance(when, int | float):
                entries.setdefault(text, float(when))
        return entries

    def record(self, texts: Iterable[str]) -> int:
        """Remember *texts* as emitted now; returns how many were new. Never raises."""
        try:
            known = self.load()
            now = datetime.now(UTC).timestamp()
            fresh = sorted({f for f in (fold(t) for t in texts) if _worth_keeping(f)} - set(known))
            if not fresh:
                return 0
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.path, "a", encoding="utf-8") as handle:
                for text in fresh:
                    handle.write(json.dumps([text, round(now, 3)], ensure_ascii=False) + "\n")
            if len(known) + len(fresh) > 2 * _MAX_ENTRIES:
                self._compact()
            return len(fresh)
        except OSError:
            return 0

    def _compact(self) -> None:
        entries = sorted(self.load().items(), key=lambda kv: kv[1])[-_MAX_ENTRIES:]
        tmp = self.path.with_name(f".{LEDGER_FILE}.{os.getpid()}")
        tmp.write_text(
            "".join(json.dumps([t, w], ensure_ascii=False) + "\n" for t, w in entries),
            encoding="utf-8",
        )
        os.replace(tmp, self.path)


def _worth_keeping(folded: str) -> bool:
    return len(WORD.findall(folded)) >= MIN_WORDS and len(folded) >= 12
