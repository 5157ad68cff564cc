"""A transcript as capture sees it: echoes of gitmem's own output tagged, secrets masked.

The one preparation every reader of a transcript applies before anything is checked
or stored — a capture (:mod:`gitmem.capture.run`), a quote or evidence check
(:mod:`gitmem.capture.evidence`), an import deciding whether a file is already stored:

1. lines echoing what gitmem emitted (the emission ledger) are wrapped in echo spans,
   so they count no more than ``<gitmem-context>`` output (:mod:`gitmem.capture.echoes`);
2. every secret in every message is masked (:mod:`gitmem.capture.masking`), a JSON
   document (a tool call's arguments) after decoding it
   (:mod:`gitmem.capture.masking.documents`), and so are the transcript's name and
   session id; the snapshot stored is the masked text, so no secret byte reaches git.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from gitmem.capture.echoes import tag_echoes
from gitmem.capture.masking.documents import mask_label, mask_message
from gitmem.core.quotes import strip_gitmem_context
from gitmem.core.transcript import Message, Transcript


@dataclass(frozen=True)
class Prepared:
    """A transcript ready to store: echoes tagged, secrets masked."""

    transcript: Transcript
    echo_lines: int
    masked: int
    secrets: tuple[tuple[str, str], ...] = ()
    """(secret text, kind) found in the transcript, longest first; in memory only, so that
    the same secret given in an item (where its name may not show) is masked too."""

    @property
    def snapshot(self) -> bytes:
        return self.transcript.snapshot.encode("utf-8")

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
        result = mask_message(message.text, tool_call=message.role == "tool_use")
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
    return Prepared(named.with_messages(masked), echoes, count, tuple(known))
