"""An ask's result as agents read it (text in ``<gitmem-context>``) or as JSON, and the
emission ledger entry for what was shown. A withheld answer is never shown."""

from __future__ import annotations

import json
from pathlib import Path

from gitmem.agents.ask import EXIT_CODES, SUPPORTED_ANSWER
from gitmem.agents.ask.result import AskResult, Citation
from gitmem.agents.ask.run import CLI_SESSION, ask
from gitmem.core.quotes import wrap_context
from gitmem.core.shown import shown_quote_line, shown_text_line
from gitmem.store.ledger import Ledger
from gitmem.store.repo import Store


def emit_ask(
    store: Store,
    home: Path,
    question: str,
    as_json: bool = False,
    session: str = CLI_SESSION,
    record: bool = True,
    reuse_window: int | None = None,
) -> tuple[str, int]:
    """Ask, render, and remember in the ledger what was shown; returns the output and
    the outcome's exit code.

    Raises:
        As :func:`gitmem.agents.ask.run.ask`.
    """
    result = ask(store, home, question, session, record=record, reuse_window=reuse_window)
    output = json.dumps(result.to_json(), ensure_ascii=False, indent=2) + "\n"
    if not as_json:
        output = render_text(result)
    Ledger(store.local_dir).record(shown_texts(result))
    return output, EXIT_CODES[result.outcome]


def render_text(result: AskResult) -> str:
    lines = [f"gitmem ask: {result.outcome} — {result.reason}."]
    lines.append(f"Question: {shown_text_line(result.question)}")
    if result.outcome == SUPPORTED_ANSWER and result.mode == "model":
        lines.append(f"Answer: {shown_text_line(result.answer or '')}")
        lines += [f"Source: {_cite(c, result.head)}" for c in result.citations]
    elif result.outcome == SUPPORTED_ANSWER:
        lines.append("Matches (verbatim, as written in the source):")
        lines += [f"- {_cite(c, result.head)}" for c in result.citations]
    elif result.withheld is not None:
        lines.append("Answer withheld (the proposal is kept in the signed event, for review).")
    lines += _recorded(result)
    return wrap_context(lines)


def _recorded(result: AskResult) -> list[str]:
    info = result.record
    if info is None:
        return (
            [f"Recorded as signed event {result.event[:12]} (`gitmem log`)."]
            if result.event
            else []
        )
    if info.reused:
        what = "signed event" if info.kind == "signed" else "local record"
        return [
            f"Reused {what} {info.address[:12]} of {info.created}: the same question over "
            "the same sources, within the reuse window (`ask.reuse_window`)."
        ]
    if info.kind == "signed":
        return [f"Recorded as signed event {info.address[:12]} (`gitmem log`)."]
    return [
        f"Kept as local record {info.address[:12]} (--no-record: not signed, not shared; "
        ".git/gitmem/ask/)."
    ]


def _cite(citation: Citation, head: str | None) -> str:
    if citation.kind == "memory":
        item = citation.path.removeprefix("memory:")
        return (
            f"memory item {item[:8]} (verbatim, checkpoint {citation.blob[:12]}): "
            f'"{shown_quote_line(citation.quote)}"'
        )
    lines = (
        f"line {citation.start}"
        if citation.start == citation.end
        else f"lines {citation.start}-{citation.end}"
    )
    at = f" at HEAD {head[:12]}" if head else ""
    # a file's line may hold anything: a terminal's escapes, a bidirectional control, a tag
    said = shown_text_line(citation.quote)
    return f'{shown_text_line(citation.path)}, {lines} (blob {citation.blob[:12]}{at}): "{said}"'


def shown_texts(result: AskResult) -> list[str]:
    texts = [c.quote for c in result.citations]
    if result.answer:
        texts.append(result.answer)
    return texts
