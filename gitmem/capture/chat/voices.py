"""Who said what: the exporting person is ``me``, everyone else speaks in their own name.

A chat becomes a transcript whose messages have their voice as role (``me``, or the
other participant's name), so the snapshot stored records who said each message, and
a quote checked against its own message is checked against what that voice said.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from gitmem.capture.chat.export import ChatExport
from gitmem.capture.masking import mask
from gitmem.core.errors import InputError
from gitmem.core.transcript import Message, Transcript

ME = "me"
"""The voice of the person who exported the chat."""


@dataclass(frozen=True)
class Chat:
    """A chat export with its voices settled, as a transcript."""

    export: ChatExport
    me: str
    """The sender key of the exporting person."""
    transcript: Transcript
    """One message per chat message, its role the voice (not yet masked)."""
    session: str

    def voice(self, index: int) -> str:
        return self.transcript.messages[index].role or ME

    def said_at(self, index: int) -> str | None:
        return self.export.messages[index].said_at

    def voices(self) -> list[str]:
        """Every voice, ``me`` first."""
        others = {self.voice(i) for i in range(len(self.transcript.messages))} - {ME}
        return [ME, *sorted(others)]


def settle_voices(export: ChatExport, me: str | None) -> Chat:
    """The chat with *me* (a participant's name or sender id; else the one the export
    shows) speaking as ``me``.

    Raises:
        InputError: no messages; *me* names no participant; or the export does not show
            who exported it and no *me* is given (the sentence lists the participants).
    """
    people = export.participants()
    if not people:
        raise InputError(f"{export.name} holds no message to import")
    listed = ", ".join(sorted(set(people.values())))
    if me is not None:
        matches = [key for key, name in people.items() if me in (key, name)]
        if len(matches) != 1:
            problem = "names no participant" if not matches else "names several participants"
            raise InputError(f"--me {me!r} {problem} of {export.name} (participants: {listed})")
        chosen = matches[0]
    elif export.me is not None and export.me in people:
        chosen = export.me
    elif export.me is not None:
        matches = [key for key, name in people.items() if name == export.me]
        if len(matches) != 1:
            raise InputError(f"{export.name} names {export.me!r} as me, who sent no message")
        chosen = matches[0]
    else:
        raise InputError(
            f"cannot tell which participant of {export.name} is you; pass --me NAME "
            f"(participants: {listed})"
        )
    messages = [
        Message(ME if m.sender == chosen else _other(m.name), m.text) for m in export.messages
    ]
    material = f"gitmem/chat/1\0{export.format}\0{export.chat}"
    digest = hashlib.sha256(material.encode("utf-8", "surrogatepass")).hexdigest()
    transcript = Transcript.of(export.format, export.name, messages, f"chat-{digest[:16]}")
    return Chat(export, chosen, transcript, f"chat-{digest[:16]}")


def _other(name: str) -> str:
    """Another participant's voice: their name, masked like any text, never ``me``."""
    shown = mask(name).text
    return f"{shown} (participant)" if shown.casefold() == ME else shown
