"""The extractors' guarantee, checked once for every test of drafts."""

from __future__ import annotations

from gitmem.core.items import KINDS, Draft
from gitmem.core.quotes import check_quote
from gitmem.core.transcript import Message


def assert_verbatim(drafts: list[Draft], messages: list[Message]) -> None:
    """Every draft is verbatim, of a known kind, and its quote is a copy of one message
    that passes the verifier."""
    texts = [m.text for m in messages]
    for draft in drafts:
        assert draft.trust == "verbatim"
        assert draft.kind in KINDS
        assert draft.quote is not None
        assert any(draft.quote in text for text in texts), draft.quote
        check = check_quote(draft.quote, texts)
        assert check.verbatim, (draft.quote, check.reason)


def user(text: str) -> Message:
    return Message("user", text)


def assistant(text: str) -> Message:
    return Message("assistant", text)


def kinds_and_quotes(drafts: list[Draft]) -> list[tuple[str, str | None]]:
    """Each draft's kind and quote, in order: what most extractor tests compare."""
    return [(d.kind, d.quote) for d in drafts]
