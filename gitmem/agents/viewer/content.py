"""What the viewer's pages show, gathered from the same functions the commands use.

The brief is :func:`gitmem.brief.emit.make_brief` (no budget: a page can hold it all),
the search is :func:`gitmem.agents.recall.recall`, an item's history is
:func:`gitmem.lifecycle.show.show`. An item's own line on its page is checked by the
brief's code (:func:`gitmem.brief.emit.verified_brief`), so a tampered record is
degraded there exactly as in the brief, and its quote is never shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gitmem.brief.emit import IndexFindings, make_brief, verified_brief
from gitmem.brief.select import Brief, BriefItem
from gitmem.core.errors import InputError
from gitmem.lifecycle.replay import MemoryState
from gitmem.lifecycle.show import FORGOTTEN, show
from gitmem.lifecycle.workspace import Workspace
from gitmem.store.ledger import Ledger, shown_texts
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots


@dataclass(frozen=True)
class ItemView:
    line: BriefItem
    """The item as the brief renders it, checked now."""
    history: dict[str, Any] | None
    """``gitmem show``'s report; None for an item of a record that failed (nothing about
    it is replayed)."""


def brief_of(store: Store, home: Path, as_of: str | None) -> Brief:
    """The brief, remembered in the emission ledger as the command's is (someone may
    paste it to an agent).

    Raises:
        InputError: *as_of* names no moment of this repository.
        GitError: the memory ref cannot be read.
    """
    brief = make_brief(store, home, world_check=True, as_of=as_of)
    Ledger(store.local_dir).record(shown_texts(brief.items))
    return brief


def item_of(store: Store, home: Path, prefix: str) -> ItemView:
    """One item: its brief line, verified now, and its whole history.

    Raises:
        InputError: no item, or more than one, has an id starting with *prefix*.
        GitError: the memory ref cannot be read.
    """
    ws = Workspace(store, home)
    try:
        state = ws.item(prefix)
    except InputError:
        degraded = _failed_item(store, home, prefix)
        if degraded is None:
            raise
        return ItemView(degraded, None)
    brief = verified_brief(
        store,
        ws.roots,
        MemoryState({state.id: state}, None),
        IndexFindings(1),
        None,
        only_current=False,
    )
    (line,) = brief.items
    history = show(store, home, state.id)
    if history["forgotten"]:
        line = line._replace(text=FORGOTTEN, quote=None)  # never its text, anywhere
    if line.degraded_label is not None:
        history = {**history, "quote": None}  # a failed check shows no quote anywhere
    return ItemView(line, history)


def _failed_item(store: Store, home: Path, prefix: str) -> BriefItem | None:
    """The degraded item of a failed record whose id starts with *prefix*, as the brief
    shows it."""
    found = [
        i
        for i in make_brief(store, home, world_check=False).items
        if i.degraded_label is not None and i.id.startswith(prefix)
    ]
    return found[0] if len(found) == 1 else None


def roots_of(store: Store, home: Path) -> dict[str, Any]:
    """The trust roots this viewer decides with: the trust branch, each root's keys, the
    revocations and what is wrong with any of them. Raises nothing."""
    roots = load_trust_roots(home, store)
    return {
        "branch": roots.branch,
        "roots": [
            {
                "source": root.source,
                "keys": [
                    {
                        "principals": ",".join(entry.principals),
                        "fingerprint": entry.key.fingerprint(),
                        "namespaces": ",".join(entry.namespaces or ("any",)),
                        "valid_after": entry.valid_after,
                        "valid_before": entry.valid_before,
                    }
                    for entry in root.entries
                ],
                "problems": list(root.problems),
            }
            for root in roots.signers
        ],
        "revoked": len(roots.revoked.keys),
        "revocation_problems": list(roots.revoked.problems),
        "notices": list(roots.notices),
    }
