"""Items proposed from a chat: each one from one message, with that message's voice and date.

The heuristic reads the chat one message at a time (an item of another participant's
says so in its text: "Alice: …", since a brief shows the text without the chat); a model
reads it in parts
(:mod:`gitmem.capture.chat.prompt`), and every item it proposes names its message. Either
way the item's voice and date come from its message, by code, and its quote will be
checked against that message alone (``Draft.message``). A model's raw reply is kept in
the capture log before it is parsed; a reply outside the schema is a recorded
``unsupported_output``, never a guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import partial

from gitmem.capture.chat.prompt import SYSTEM_PROMPT, PromptMessage, build_parts, parse_chat_output
from gitmem.capture.chat.voices import ME, Chat
from gitmem.capture.extract import ModelOverrides, model_settings
from gitmem.capture.prepare import Prepared
from gitmem.core.extractors import chosen
from gitmem.core.items import Draft
from gitmem.core.transcript import Message
from gitmem.store.capturelog import CaptureLog
from gitmem.store.config import Settings

VOICE = "voice"
"""The item field naming who said it: ``me`` or the other participant's name."""
SAID_AT = "said_at"
"""The item field holding the date of the message it comes from."""
CHAT_MESSAGE = "chat_message"
"""The item field holding the export's own id of its message."""


def propose(
    chat: Chat,
    prepared: Prepared,
    extractor: str,
    settings: Settings,
    log: CaptureLog,
    source: str,
    overrides: ModelOverrides,
) -> list[Draft]:
    """Drafts for the (masked) chat from *extractor*, each naming its message, voice and
    date.

    Raises:
        InputError: an unknown extractor or missing model settings.
        ModelError: the model failed or broke the schema (logged with its raw reply).
    """
    messages = prepared.clean_messages()
    if chosen(extractor) == "none":
        found: list[tuple[int, Draft]] = []
    elif extractor == "heuristic":
        found = _heuristic(messages)
    else:
        found = _model(chat, messages, extractor, settings, log, source, overrides)
    return [_attributed(chat, index, draft) for index, draft in found]


def _heuristic(messages: Sequence[Message]) -> list[tuple[int, Draft]]:
    from gitmem.capture.extract.heuristic import extract

    found: list[tuple[int, Draft]] = []
    for index, message in enumerate(messages):
        # The heuristic knows hosts' roles only; a participant's name (say "System")
        # must not read as a role it skips.
        role = "user" if message.role == ME else "participant"
        for draft in extract([Message(role, message.text)]):
            if message.role != ME:  # the text is read without the chat: say who said it
                draft = replace(draft, text=f"{message.role}: {draft.text}")
            found.append((index, draft))
    return found


def _model(
    chat: Chat,
    messages: Sequence[Message],
    extractor: str,
    settings: Settings,
    log: CaptureLog,
    source: str,
    overrides: ModelOverrides,
) -> list[tuple[int, Draft]]:
    from gitmem.llm import backend_for
    from gitmem.llm.call import call_model

    backend = backend_for(extractor, model_settings(settings, overrides, extractor))
    shown = [PromptMessage(m.role or ME, chat.said_at(i), m.text) for i, m in enumerate(messages)]
    found: list[tuple[int, Draft]] = []
    for part in build_parts(shown):
        reply = call_model(
            backend,
            part.prompt,
            system=SYSTEM_PROMPT,
            parse=partial(parse_chat_output, part=part),
            log=log,
            source=source,
            extractor=extractor,
        )
        found += reply.result()
    return found


def _attributed(chat: Chat, index: int, draft: Draft) -> Draft:
    extra = dict(draft.extra)
    extra[VOICE] = chat.voice(index)
    said_at = chat.said_at(index)
    if said_at is not None:
        extra[SAID_AT] = said_at
    ref = chat.export.messages[index].ref
    if ref is not None:
        extra[CHAT_MESSAGE] = ref
    return replace(draft, extra=extra, message=index)
