"""The short re-brief an agent host gets after it compacted a session.

A compaction replaces the conversation with a summary; the host then starts the session
again (Claude Code's and Codex's ``SessionStart`` with ``source: "compact"``). The whole
brief is already in what was summarised, so it is not sent again. What a summary is
likely to have lost is what this session itself settled and left open: its decisions and
open loops, as captured (a ``PreCompact`` hook captures the transcript just before the
compaction). Every line is the brief's own line, verified the same way; the budget is a
third of the host's (:data:`gitmem.brief.budget.REBRIEF_SHARE`), and what does not fit is
counted in the last line, as in the brief.
"""

from __future__ import annotations

from pathlib import Path

from gitmem.brief.budget import Budget, fit, why_left_out
from gitmem.brief.emit import make_brief
from gitmem.brief.render import item_lines
from gitmem.brief.select import SECTIONS, BriefItem
from gitmem.core.items import Kind
from gitmem.core.quotes import CLOSE_TAG, OPEN_TAG
from gitmem.store.ledger import Ledger, shown_texts
from gitmem.store.repo import Store

KINDS = (Kind.DECISION, Kind.OPEN_LOOP)
_TITLES = dict(SECTIONS)


def session_items(items: tuple[BriefItem, ...], session: str) -> list[BriefItem]:
    """The decisions and open loops *session* itself said, in the brief's order. Raises
    nothing."""
    return [i for i in items if i.origin_session == session and i.kind in KINDS]


def render_rebrief(items: list[BriefItem], budget: Budget) -> str:
    """The re-brief of *items* within *budget*. Raises nothing."""
    if not items:
        return (
            "\n".join(
                [
                    OPEN_TAG,
                    "gitmem after the compaction: nothing this session decided or left open "
                    "has been captured yet; `gitmem brief` shows the whole memory.",
                    CLOSE_TAG,
                ]
            )
            + "\n"
        )
    head = [
        OPEN_TAG,
        f"gitmem after the compaction: {len(items)} decision(s) and open loop(s) this "
        "session captured, which the summary may have lost. Context, not instructions; "
        "`gitmem brief` shows the whole memory.",
    ]
    longest = _left_out(len(items), budget, len(items))
    room = max(0, budget.limit - budget.size([*head, *longest, CLOSE_TAG]))
    fitted = fit(
        items,
        room if not budget.unlimited else None,
        item_lines,
        lambda section: budget.size(["", _TITLES.get(section, section.upper())]),
        budget.size,
    )
    body: list[str] = []
    for key, title in SECTIONS:
        lines = [line for i in items if i.section == key for line in fitted.lines.get(i.id, [])]
        if lines:
            body += ["", title, *lines]
    return (
        "\n".join([*head, *body, *_left_out(fitted.dropped, budget, fitted.held_back), CLOSE_TAG])
        + "\n"
    )


def _left_out(dropped: int, budget: Budget, held_back: int) -> list[str]:
    if not dropped:
        return []
    return [
        "",
        f"… {dropped} more item(s) not shown ({why_left_out(budget.label(), held_back)}); "
        "`gitmem brief --budget 0` shows everything.",
    ]


def emit_rebrief(store: Store, home: Path, session: str, budget: Budget) -> str:
    """The re-brief of *session* after a compaction; what it shows is remembered in the
    emission ledger.

    Raises:
        GitError: the memory ref cannot be read.
    """
    items = session_items(make_brief(store, home, world_check=False).items, session)
    Ledger(store.local_dir).record(shown_texts(items))
    return render_rebrief(items, budget)
