"""A transcript as capture sees it: echoes of gitmem's own output tagged, secrets masked.

The one preparation every reader of a transcript applies before anything is checked
or stored — a capture (:mod:`gitmem.capture.run`), a quote or evidence check
(:mod:`gitmem.capture.evidence`), an import deciding whether a file is already stored:

1. lines echoing what gitmem emitted (the emission ledger) are wrapped in echo spans,
   so they count no more than ``<gitmem-context>`` output (:mod:`gitmem.capture.echoes`);
2. every secret in every message is masked (:mod:`gitmem.capture.masking`), whatever
   escaping spells it (a tool call's JSON arguments, a shell command's quotes:
   :mod:`gitmem.capture.masking.escapes`), and so are the transcript's name and
   session id; the snapshot stored is the masked text, so no secret byte reaches git.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from gitmem.capture.echoes import tag_echoes
from gitmem.capture.masking.labels import mask_label, mask_text
from gitmem.core.errors import FormatError
from gitmem.core.quotes import strip_gitmem_context
from gitmem.core.records import parse_time
from gitmem.core.transcript import Message, Transcript
from gitmem.core.types import Sha256Hex

_SLICE = 1 << 20


@dataclass(frozen=True)
class Prepared:
    """A transcript ready to store: echoes tagged, secrets masked."""

    transcript: Transcript
    echo_lines: int
    masked: int
    secrets: tuple[tuple[str, str], ...] = ()
    """(secret text, kind) found in the transcript, longest first; in memory only, so that
    the same secret given in an item (where its name may not show) is masked too."""
    written_at: float | None = None
    """When the transcript's file was last written (Unix time), when it has one."""
    said_at: str | None = None
    """When its latest message was said, when its source knows better than its
    messages do (a chat export's own times)."""

    def session_time(self, now: datetime) -> datetime:
        """When the session said what this transcript holds: its host's latest message
        time, else :attr:`said_at`, else its file's time, else *now*; never after *now*.
        Raises nothing."""
        for text in (self.transcript.last_time, self.said_at):
            if text is not None:
                with contextlib.suppress(FormatError):
                    return min(parse_time(text), now)
        if self.written_at is not None:
            with contextlib.suppress(ValueError, OverflowError, OSError):
                return min(datetime.fromtimestamp(self.written_at, UTC), now)
        return now

    @property
    def snapshot(self) -> bytes:
        """The snapshot's bytes, encoded anew at each use: hold them only to store them."""
        return self.transcript.snapshot.encode("utf-8")

    @functools.cached_property
    def snapshot_address(self) -> Sha256Hex:
        """The address of :attr:`snapshot`, hashed a megabyte of text at a time, so that
        finding it does not encode a long transcript whole."""
        return self._digest[0]

    @property
    def snapshot_size(self) -> int:
        """How many bytes :attr:`snapshot` holds."""
        return self._digest[1]

    @functools.cached_property
    def _digest(self) -> tuple[Sha256Hex, int]:
        digest, size = hashlib.sha256(), 0
        text = self.transcript.snapshot
        for start in range(0, len(text), _SLICE):
            data = text[start : start + _SLICE].encode("utf-8")
            digest.update(data)
            size += len(data)
        return Sha256Hex(digest.hexdigest()), size

    def clean_messages(self) -> list[Message]:
        """The messages without gitmem's own output, for extractors."""
        return [replace(m, text=strip_gitmem_context(m.text)) for m in self.transcript.messages]


def prepare(
    transcript: Transcript, emitted: Mapping[str, float], written_at: float | None
) -> Prepared:
    """Tag echoes of earlier gitmem output (*emitted*, for a transcript last written at
    *written_at*), then mask every secret in every message, in the transcript's name and
    in its session and agent ids. Raises nothing."""
    messages, echoes = tag_echoes(transcript.messages, emitted, written_at)
    masked: list[Message] = []
    found: dict[str, str] = {}
    count = 0
    for message in messages:
        result = mask_text(message.text)
        count += len(result.secrets)
        for secret, kind in result.secrets:
            found.setdefault(secret, kind)
        masked.append(replace(message, text=result.text) if result.secrets else message)
    name = mask_label(transcript.name)
    session, agent = (
        None if v is None else mask_label(v) for v in (transcript.session, transcript.agent)
    )
    for label in (name, session, agent):
        for secret, kind in () if label is None else label.secrets:
            count += 1
            found.setdefault(secret, kind)
    named = replace(
        transcript,
        name=name.text,
        session=None if session is None else session.text,
        agent=None if agent is None else agent.text,
    )
    known = sorted(found.items(), key=lambda pair: -len(pair[0]))
    return Prepared(named.with_messages(masked), echoes, count, tuple(known), written_at)
