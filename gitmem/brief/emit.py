"""Produce a brief as a command does: read, verify, replay, world-check, render, and
remember what was shown.

The store is never written. What was shown is added to the local emission ledger, so
that an agent echoing it later (with or without the ``<gitmem-context>`` tags) can
never use it as evidence.
"""

from __future__ import annotations

from pathlib import Path

from gitmem.brief.budget import DEFAULT_BUDGET, MIN_BUDGET
from gitmem.brief.render import render_json, render_markdown, render_text
from gitmem.brief.select import (
    Brief,
    BriefWarning,
    FailedItem,
    FailedRecord,
    WorldProbe,
    WorldView,
    build_brief,
    withhold_quotes,
)
from gitmem.core.canonical import sha256_hex
from gitmem.core.claims import WorldStatus
from gitmem.core.errors import FormatError, InputError
from gitmem.core.items import Item, parse_item
from gitmem.core.quotes import check_quotes
from gitmem.core.records import Checkpoint, Record
from gitmem.core.transcript import MESSAGES, parse_snapshot
from gitmem.core.types import Sha256Hex
from gitmem.lifecycle.memory import VerifiedMemory, load
from gitmem.lifecycle.replay import ItemState, MemoryState, QuoteSource
from gitmem.store.ledger import Ledger, shown_texts
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots

WORLD_BUDGET_SECONDS = 0.5


def make_brief(store: Store, home: Path, world_check: bool = True) -> Brief:
    """Verify every record in full (no cache), replay, and probe the world.

    Raises:
        GitError: the memory ref cannot be read.
    """
    roots = load_trust_roots(home, store)
    memory = load(store, roots)
    notices = [BriefWarning("trust-branch", notice) for notice in roots.notices]
    notices += [
        BriefWarning("trust-root", f"{root.source}: {problem}", root.source)
        for root in roots.signers
        for problem in root.problems
    ]
    notices += [
        BriefWarning("stray-path", f"{stray} does not belong in the memory store layout", stray)
        for stray in memory.contents.strays
    ]
    brief = build_brief(
        memory.state,
        memory.checks,
        sum(1 for r in memory.contents.records if r.type == "checkpoint"),
        [
            FailedRecord(stored.path, stored.type, check, _named_items(memory, check.record))
            for stored, check in memory.failed()
        ],
        notices,
        world_probe(store) if world_check else None,
        _failed_items(memory),
    )
    return withhold_quotes(brief, quote_failures(store, memory.state, brief))


def _named_items(memory: VerifiedMemory, record: Record | None) -> tuple[Item, ...]:
    """The items a failed checkpoint names, as their blobs read (trusted for nothing)."""
    if not isinstance(record, Checkpoint):
        return ()
    found = (_readable(memory, address) for address in record.named)
    return tuple(item for item in found if item is not None)


def _failed_items(memory: VerifiedMemory) -> list[FailedItem]:
    """Item blobs that genuine checkpoints name but that are missing, edited or unreadable."""
    failed: list[FailedItem] = []
    for address, check in memory.checks.items():
        record = check.record
        if not check.ok or not isinstance(record, Checkpoint):
            continue
        for named in record.named:
            verdict = memory.items[named]
            if not verdict.ok and named not in memory.state.items:
                failed.append(
                    FailedItem(
                        named,
                        verdict.problem or "item failed",
                        verdict.detail,
                        address,
                        record,
                        _readable(memory, named),
                    )
                )
    return list({f.address: f for f in failed}.values())


def _readable(memory: VerifiedMemory, address: Sha256Hex) -> Item | None:
    data = memory.contents.items.get(address)
    if data is None:
        return None
    try:
        return parse_item(data)
    except FormatError:
        return None


def quote_failures(store: Store, state: MemoryState, brief: Brief) -> dict[str, str]:
    """Every rendered verbatim quote checked again against the stored snapshot it was
    verified on (each snapshot read, hash-checked and folded once): item id → why it
    failed. A missing or edited snapshot fails every quote it should hold. Raises
    GitError when the ref cannot be read."""
    wanted: dict[QuoteSource, list[tuple[str, str]]] = {}
    failures: dict[str, str] = {}
    for item in brief.items:
        if item.quote is None:
            continue
        source = state.items[item.id].quote_source if item.id in state.items else None
        if source is None:
            failures[item.id] = "no stored snapshot is named for it"
        else:
            wanted.setdefault(source, []).append((item.id, item.quote))
    for source, quotes in wanted.items():
        messages, why = _snapshot_messages(store, source)
        if messages is None:
            failures.update((ident, why) for ident, _ in quotes)
            continue
        for (ident, _), check in zip(
            quotes, check_quotes([q for _, q in quotes], messages), strict=True
        ):
            if not check.verbatim:
                failures[ident] = check.reason
    return failures


def _snapshot_messages(store: Store, source: QuoteSource) -> tuple[list[str] | None, str]:
    digest = Sha256Hex(source.snapshot)
    data = store.read_snapshot(digest)
    if data is None:
        return None, f"its snapshot {digest[:12]}… is not stored"
    if sha256_hex(data) != digest:
        return None, f"its snapshot {digest[:12]}… was edited"
    formats = [source.format] if source.format else [MESSAGES, "text"]
    for fmt in formats:
        try:
            return parse_snapshot(data, source.name, fmt).texts(), ""
        except InputError:
            continue
    return None, f"its snapshot {digest[:12]}… cannot be read"


def emit_brief(
    store: Store, home: Path, fmt: str, budget: int | None, world_check: bool = True
) -> str:
    """The rendered brief in *fmt* (text, markdown, json), never longer than *budget*
    bytes (None: the default; 0: no limit).

    Raises:
        InputError: a budget below :data:`MIN_BUDGET` (other than 0).
        GitError: the memory ref cannot be read.
    """
    limit = DEFAULT_BUDGET if budget is None else budget
    if limit < 0 or 0 < limit < MIN_BUDGET:
        raise InputError(f"budget must be 0 (no limit) or at least {MIN_BUDGET} bytes")
    result = make_brief(store, home, world_check)
    if fmt == "json":
        output = render_json(result, limit)
    elif fmt == "markdown":
        output = render_markdown(result, limit)
    else:
        output = render_text(result, limit)
    Ledger(store.local_dir).record(shown_texts(result.items))
    return output


def world_probe(store: Store) -> WorldProbe:
    """Probe items' checkable claims against this repository, within one time budget."""
    from gitmem.brief.worldcheck import WorldChecker, claims_of, resolve_hint

    checker = WorldChecker(store.repo, budget_seconds=WORLD_BUDGET_SECONDS)

    def probe(state: ItemState) -> WorldView | None:
        item = state.item
        claims = claims_of(f"{item.text}\n{state.quote or ''}", item.extra.get("claims"))
        if not claims:
            return None
        check = checker.check(claims)
        hint = resolve_hint(item.id, check) if check.status == WorldStatus.CONTRADICTED else None
        return WorldView(check.status, check.summary, hint)

    return probe
