"""The emission ledger: what gitmem showed an agent, so an echo is never evidence.

Everything gitmem prints for an agent is wrapped in ``<gitmem-context>``, and the
verifier removes those spans. But an agent can echo a brief line without the tags
("as noted: we drop the regex fallback…"). The ledger remembers the folded text of
every item and quote gitmem emitted (``.git/gitmem/emitted.jsonl``, local, never
pushed); before any check, a transcript line holding one of them is wrapped in
``<gitmem-context source="echo">`` so it counts no more than the original output.

An entry only applies to transcripts written after it was first emitted (by the
transcript's modification time), so importing old sessions is not affected.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from gitmem.transcripts import Message
from gitmem.verifier import fold

LEDGER_FILE = "emitted.jsonl"
MIN_WORDS = 3
"""An entry needs this many folded words: shorter text is too common to call an echo."""
_MAX_ENTRIES = 20_000
_WORD = re.compile(r"\w+")
BADGE = re.compile(
    r"\[(?:✓ verbatim|~ inferred|\? untagged|carried|≈ corroborated|✓ world-checked"
    r"|⚠ verbatim withheld)"
)
"""The badges only gitmem prints: a line carrying one is a brief line, tags or not."""
ECHO_OPEN = '<gitmem-context source="echo">'
ECHO_CLOSE = "</gitmem-context>"


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


def tag_echoes(
    messages: Sequence[Message], entries: Mapping[str, float], written_at: float | None
) -> tuple[list[Message], int]:
    """Wrap every echo line in an echo span; count the lines. Pure.

    An echo is a line that carries one of gitmem's badges (``[✓ verbatim]``, ``[~
    inferred]``, …: the shape of a brief line, whoever wrote it), or a line of an agent's
    own message (assistant, tool, system) that holds a text gitmem emitted. A person's
    message (role ``user``, or a plain transcript without roles) restating the same
    words is a witness, not an echo. Only entries emitted no later than *written_at*
    (the transcript's modification time; None = unknown, all count) apply.
    """
    usable = [t for t, when in entries.items() if written_at is None or when <= written_at]
    anchors: dict[str, list[tuple[str, int]]] = {}
    for text in usable:
        words = list(_WORD.finditer(text))
        if len(words) >= MIN_WORDS:
            key = " ".join(w.group() for w in words[:MIN_WORDS])
            anchors.setdefault(key, []).append((text, words[0].start()))
    tagged = 0
    result: list[Message] = []
    for message in messages:
        agent = message.role not in (None, "user")
        lines = message.text.split("\n")
        changed = False
        for n, line in enumerate(lines):
            if BADGE.search(line) or (agent and anchors and _holds_entry(fold(line), anchors)):
                lines[n] = f"{ECHO_OPEN}{line}{ECHO_CLOSE}"
                tagged += 1
                changed = True
        result.append(replace(message, text="\n".join(lines)) if changed else message)
    return result, tagged


def _holds_entry(folded: str, anchors: Mapping[str, list[tuple[str, int]]]) -> bool:
    """Does *folded* contain an entry? Candidates are found by their first three words
    (punctuation around words does not matter), then compared in full."""
    words = list(_WORD.finditer(folded))
    for i in range(len(words) - MIN_WORDS + 1):
        key = " ".join(w.group() for w in words[i : i + MIN_WORDS])
        for text, lead in anchors.get(key, ()):
            start = words[i].start() - lead
            if start >= 0 and folded.startswith(text, start):
                return True
    return False


def _worth_keeping(folded: str) -> bool:
    return len(_WORD.findall(folded)) >= MIN_WORDS and len(folded) >= 12
