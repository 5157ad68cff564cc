"""Produce a brief as a command does: read, verify, render, and remember what was shown.

The store is never written. What was shown is added to the local emission ledger, so
that an agent echoing it later (with or without the ``<gitmem-context>`` tags) can
never use it as evidence.
"""

from __future__ import annotations

from pathlib import Path

from gitmem.brief import Brief, build_brief
from gitmem.ledger import Ledger
from gitmem.render import DEFAULT_BUDGET, render_json, render_markdown, render_text
from gitmem.roots import load_roots
from gitmem.store import Store


def emit_brief(store: Store, home: Path, fmt: str, budget: int | None) -> str:
    """The rendered brief in *fmt* (text, markdown, json)."""
    result = build_brief(store.read(), load_roots(home, store))
    limit = DEFAULT_BUDGET if budget is None else budget
    if fmt == "json":
        output = render_json(result) + "\n"
    elif fmt == "markdown":
        output = render_markdown(result, limit)
    else:
        output = render_text(result, limit)
    Ledger(store.local_dir).record(_shown_texts(result))
    return output


def _shown_texts(result: Brief) -> list[str]:
    texts: list[str] = []
    for item in result.items:
        texts.append(item.text)
        if item.quote:
            texts.append(item.quote)
    return texts
