"""What the MCP tools return besides their text: structured content an MCP client can read
without parsing prose, each item a resource (``gitmem://item/<id>``).

Every item carries ``trust`` (its class after this call's checks: ``verbatim`` only with a
quote that verified), ``verified`` (whether its record, receipt, bytes and quote all held
just now) and ``degraded_reason`` (why not, else null). The output schemas the tools
advertise are made from these models (pydantic, which the MCP SDK brings; this module is
imported only when serving). The transcript a tool is asked to read must lie in this
repository or in a folder where an agent host keeps its transcripts
(:func:`allowed_transcript`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from pydantic import BaseModel, Field

from gitmem.agents.recall.search import RecallHit
from gitmem.brief.select import BriefItem
from gitmem.capture.sessions import transcript_roots
from gitmem.core.errors import InputError

SCHEME = "gitmem"
URI_TEMPLATE = "gitmem://item/{id}"


def item_uri(item_id: str) -> str:
    return f"{SCHEME}://item/{item_id}"


class ItemOut(BaseModel):
    """One memory item as a tool shows it."""

    id: str = Field(description="the item's id (SHA-256 of its stored bytes)")
    uri: str = Field(description="the item as a resource: gitmem://item/<id>")
    kind: str
    text: str
    quote: str | None = Field(description="the transcript's own words, only when verified")
    trust: str = Field(description="verbatim, inferred or untagged, after this call's checks")
    verified: bool = Field(description="its record, receipt, bytes and quote held just now")
    degraded_reason: str | None = Field(description="why it is shown degraded, else null")
    status: str | None = Field(default=None, description="open, resolved, superseded, stale")
    session: str | None = Field(default=None, description="the session it came from")


class BriefOut(BaseModel):
    items: list[ItemOut] = Field(description="the items the brief shows, in its order")
    omitted: int = Field(description="items the budget left out (`gitmem brief --budget 0`)")
    checkpoints: int
    failed: int = Field(description="records that failed their checks (see warnings)")
    warnings: list[str]


class RecallOut(BaseModel):
    items: list[ItemOut]
    total: int = Field(description="matching items, of which `items` are the best")
    match: str = Field(description="all: every term; any: some term; none")


class RememberOut(BaseModel):
    written: bool = Field(description="whether a new item was stored")
    item: ItemOut | None
    quote_verified: bool | None = Field(description="null when no quote was given")
    message: str


class ResolveOut(BaseModel):
    item: ItemOut
    event: str = Field(description="the address of the signed resolve event")


class QuoteOut(BaseModel):
    verbatim: bool
    reason: str
    transcript: str


def from_brief_item(item: BriefItem, status: str | None) -> ItemOut:
    """A brief's line as an item, checked as the brief checks it; *status* is where it
    stands (a brief shows open items). Raises nothing."""
    return ItemOut(
        id=item.id,
        uri=item_uri(item.id),
        kind=str(item.kind),
        text=item.text,
        quote=item.quote,
        trust=str(item.trust),
        verified=item.degraded_reason is None,
        degraded_reason=item.degraded_reason,
        status=status,
        session=item.origin_session,
    )


def from_recall_hit(hit: RecallHit) -> ItemOut:
    """A recall hit as an item. Raises nothing."""
    return ItemOut(
        id=hit.id,
        uri=item_uri(hit.id),
        kind=hit.kind,
        text=hit.text,
        quote=hit.quote,
        trust=hit.trust,
        verified=hit.degraded is None,
        degraded_reason=hit.degraded,
        status=hit.status,
        session=hit.session,
    )


def allowed_transcript(path: Path, workdir: Path, environ: Mapping[str, str] | None = None) -> Path:
    """*path*, when it lies in the repository's working tree or in a folder where an
    agent host keeps its transcripts (symbolic links followed first): a prompt-injected
    agent must not make gitmem read ``~/.ssh`` or any other file the user can read.

    Raises:
        InputError: *path* lies anywhere else (nothing about it is said or read).
    """
    env = os.environ if environ is None else environ
    roots = [workdir, *transcript_roots(env)]
    real = Path(os.path.realpath(path))
    if any(real.is_relative_to(os.path.realpath(root)) for root in roots):
        return real
    where = ", ".join(str(root) for root in roots)
    raise InputError(
        f"transcript {path} is outside the folders gitmem reads transcripts from ({where}): "
        "give a transcript there"
    )


def shown_ids(items: Sequence[BriefItem], text: str) -> list[BriefItem]:
    """The items a rendered brief *text* shows (each line ends with its id's first eight
    hex characters, a JSON brief names the whole id). Raises nothing."""
    return [i for i in items if f"({i.id[:8]}" in text or f'"{i.id}"' in text]
