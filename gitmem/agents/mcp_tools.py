"""What each MCP tool does, on a store opened afresh for every call: the text an agent
reads and the structured content a client reads (:mod:`gitmem.agents.mcp_items`).

Imported only when the server starts (it needs the SDK's pydantic).
"""

from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel

from gitmem.agents.mcp_items import (
    BriefOut,
    ItemOut,
    QuoteOut,
    RecallOut,
    RememberOut,
    ResolveOut,
    allowed_transcript,
    from_brief_item,
    from_recall_hit,
    item_uri,
    shown_ids,
)
from gitmem.core.errors import InputError
from gitmem.core.items import Trust, badge_of
from gitmem.core.shown import shown_text_line
from gitmem.store.ledger import Ledger
from gitmem.store.repo import Store

if TYPE_CHECKING:
    from gitmem.capture.run import CaptureResult

BRIEF_FORMATS = ("text", "markdown", "json")
MAX_TEXT_CHARS = 500
"""The longest item ``remember`` stores: the limit a model extractor's items have
(:data:`gitmem.capture.extract.schema.MAX_TEXT_CHARS`; a test holds them equal)."""


@dataclass(frozen=True)
class Reply:
    """A tool's answer: the text, the structured content, the items to link."""

    text: str
    out: BaseModel | None = None
    items: tuple[ItemOut, ...] = ()


def _not_written(said: str) -> Reply:
    return Reply(said, RememberOut(written=False, item=None, quote_verified=None, message=said))


class Tools:
    """The tools' work for one server run."""

    def __init__(self, repo: str | None, home: Path, problem: str | None = None) -> None:
        self.repo = repo or "."
        self.problem = problem
        """Why there is no repository to serve (every call says so), or None."""
        self.home = home
        seed = f"{os.getpid()}:{time.time_ns()}".encode()
        self.session = f"mcp-{hashlib.sha256(seed).hexdigest()[:12]}"
        """Events and items without a transcript of their own belong to this server's run."""

    def store(self) -> Store:
        if self.problem is not None:
            raise InputError(self.problem)
        return Store.discover(self.repo)

    def brief(self, fmt: str, budget: int | None) -> Reply:
        if fmt not in BRIEF_FORMATS:
            raise InputError(f"format must be one of {', '.join(BRIEF_FORMATS)}")
        if budget is not None and budget < 0:
            raise InputError("budget must be 0 (no limit) or a number of bytes")
        from gitmem.brief.emit import brief_and_text
        from gitmem.core.shown import escaped_name

        text, brief = brief_and_text(self.store(), self.home, fmt, budget)
        shown = [from_brief_item(i, "open") for i in shown_ids(brief.items, text)]
        out = BriefOut(
            items=shown,
            omitted=len(brief.items) - len(shown),
            checkpoints=brief.checkpoints,
            failed=brief.failed,
            # A pushed path's bytes that are not UTF-8 (lone surrogates) could not be sent:
            # the reply never came.
            warnings=[escaped_name(w.message) for w in brief.warnings],
        )
        return Reply(text, out, tuple(shown))

    def recall(self, query: str, limit: int) -> Reply:
        from gitmem.agents.recall import recall
        from gitmem.agents.recall.render import render_text
        from gitmem.store.ledger import shown_texts

        store = self.store()
        result = recall(store, self.home, [query], limit)
        Ledger(store.local_dir).record(shown_texts(result.hits))
        items = [from_recall_hit(hit) for hit in result.hits]
        out = RecallOut(items=items, total=result.total, match=result.match)
        return Reply(render_text(result), out, tuple(items))

    def ask(self, question: str) -> Reply:
        from gitmem.agents.ask.render import emit_ask

        output, _ = emit_ask(self.store(), self.home, question, session=self.session)
        return Reply(output)

    def remember(
        self, kind: str, text: str, trust: str, quote: str | None, transcript: str | None
    ) -> Reply:
        from gitmem.capture.items import to_drafts
        from gitmem.capture.run import CaptureResult, remember

        if len(text) > MAX_TEXT_CHARS:
            raise InputError(
                f"text is {len(text):,} characters; an item holds at most {MAX_TEXT_CHARS}: "
                "remember one decision, open loop or fact per call, in its own words"
            )
        fields = {"kind": kind, "text": text, "trust": trust, "quote": quote}
        (draft,) = to_drafts([fields], "remember")
        store = self.store()
        path = self._transcript(store, transcript)
        done = remember(store, self.home, draft, path, self.session, "mcp remember")
        if not isinstance(done, CaptureResult):
            said = f"already remembered: {shown_text_line(done.item.text)} (id {done.id[:8]}); "
            said += "nothing written"
            return _not_written(said)
        if done.checkpoint is None or done.skipped is not None:
            said = f"nothing written: {done.skipped}"
            return _not_written(said)
        if not done.items:
            holders = ", ".join(i[:8] for i in done.corroborated) or "an open item"
            said = f"nothing new: {holders} already says this (checkpoint {done.checkpoint[:12]})"
            return _not_written(said)
        item = done.items[0]
        # Only the item's text is shown (and so recorded): the quote stays what it is, the
        # words of the transcript, usable as evidence again.
        Ledger(store.local_dir).record([item.text])
        said = self._remembered(done, quote, path)
        out_item = ItemOut(
            id=item.id,
            uri=item_uri(item.id),
            kind=str(item.kind),
            text=item.text,
            quote=None,
            trust=str(item.trust),
            verified=True,  # written and signed just now, its quote checked as a capture does
            degraded_reason=None,
            status="open",
            session=done.session,
        )
        verified = None if quote is None or path is None else bool(item.quote_verified)
        out = RememberOut(written=True, item=out_item, quote_verified=verified, message=said)
        return Reply(said, out, (out_item,))

    def _remembered(self, done: CaptureResult, quote: str | None, path: Path | None) -> str:
        item = done.items[0]
        said = f"remembered {badge_of(item.trust)} {shown_text_line(item.text)} (checkpoint "
        said += f"{(done.checkpoint or '')[:12]}, session {done.session}, id {item.id[:8]})"
        if item.trust == Trust.VERBATIM:
            return f"{said}; its quote verified ({item.quote_reason})."
        if quote is None:
            return said
        if path is None:
            return (
                f"{said}. The quote was NOT checked: no transcript was given and none was found "
                "for this working tree, so it is stored as inferred and never shown as said."
            )
        if item.quote_verified:
            return (
                f"{said}; its quote verified ({item.quote_reason}) and is kept with it, the "
                "item stays inferred as asked."
            )
        return (
            f"{said}. The quote did NOT verify ({item.quote_reason}), so it is stored as "
            "inferred and never shown as said."
        )

    def resolve(
        self, prefix: str, evidence: str, transcript: str | None, note: str | None
    ) -> Reply:
        from gitmem.agents.viewer.content import item_of
        from gitmem.capture.evidence import evidence_in_file
        from gitmem.lifecycle.commands import resolve as run
        from gitmem.lifecycle.workspace import Workspace

        store = self.store()
        ws = Workspace(store, self.home)
        ws.item(prefix)  # an unknown id is the first thing to say, before any transcript
        path = self._require_transcript(store, transcript)
        address = run(ws, prefix, note, evidence_in_file(evidence, path, None, store))
        line = item_of(store, self.home, prefix).line
        item = from_brief_item(line, "resolved")
        said = f"resolved {prefix} (event {address[:12]}); the evidence verified in {path.name}"
        Ledger(store.local_dir).record([line.text])
        return Reply(said, ResolveOut(item=item, event=address), (item,))

    def verify_quote(self, quote: str, transcript: str | None) -> Reply:
        from gitmem.capture.evidence import check_quote_in_file

        store = self.store()
        path = self._require_transcript(store, transcript)
        result = check_quote_in_file(quote, path, None, self.repo)
        verdict = Trust.VERBATIM if result.verbatim else "NOT verbatim"
        Ledger(store.local_dir).record([result.reason])  # a failure's reason shows a fragment
        said = f"{verdict} in {path.name}: {result.reason}"
        out = QuoteOut(verbatim=result.verbatim, reason=result.reason, transcript=str(path))
        return Reply(said, out)

    def item(self, item_id: str) -> str:
        """The resource ``gitmem://item/<id>``: the item as a tool shows it, checked now,
        with its history, as JSON."""
        import json

        from gitmem.agents.viewer.content import item_of

        store = self.store()
        view = item_of(store, self.home, item_id)
        item = from_brief_item(view.line, None)
        Ledger(store.local_dir).record([view.line.text])
        document = {**item.model_dump(mode="json"), "history": view.history}
        return json.dumps(document, ensure_ascii=False, indent=2, default=str) + "\n"

    def _transcript(self, store: Store, given: str | None) -> Path | None:
        """The transcript named (relative to the working tree), which must lie in it or in
        an agent host's transcript folder; else this working tree's newest agent
        transcript, else None.

        Raises:
            InputError: a named transcript outside those folders.
        """
        from gitmem.capture.sessions import find_agent_transcripts

        workdir = Path(store.repo.workdir or store.common_dir)
        if given is not None:
            path = Path(given).expanduser()
            return allowed_transcript(path if path.is_absolute() else workdir / path, workdir)
        found = find_agent_transcripts(workdir)
        return found[0] if found else None

    def _require_transcript(self, store: Store, given: str | None) -> Path:
        path = self._transcript(store, given)
        if path is None:
            raise InputError(
                "no transcript given and none found for this working tree: give transcript=PATH"
            )
        return path
