"""The heuristic's last word over many candidates: each one is compared only with the
earlier ones it could say again, close or replace, so a transcript that marks thousands of
things costs what it marks, and a far earlier item is still found."""

from __future__ import annotations

import random

import pytest

from gitmem.capture.extract.heuristic import READ, extract, lastword
from gitmem.capture.extract.heuristic.lastword import COMPARED, last_word
from gitmem.capture.extract.heuristic.select import Candidate
from gitmem.core.items import Kind
from gitmem.core.transcript import Message

_NOUNS = ("parser", "cache", "index", "ledger", "router", "queue", "socket", "schema")
_ADJS = ("amber", "brisk", "cobalt", "dusky", "ember", "fallow", "gilded", "hazel")


def item(kind: Kind, text: str, message: int, quote: str | None = None) -> Candidate:
    return Candidate(kind, text, quote or text, 2, {}, (message, 0, 0), False)


def unrelated(n: int) -> str:
    """A statement that shares no content word with any other *n*."""
    return f"The {_ADJS[n % 8]}{n} {_NOUNS[n // 8 % 8]}{n} was measured on host{n}"


def test_a_loop_closed_after_hundreds_of_other_items_is_still_closed() -> None:
    loop = item(Kind.OPEN_LOOP, "Migrate the billing ledger to SQLite", 0)
    between = [item(Kind.FACT, unrelated(n), 1 + n) for n in range(3 * COMPARED)]
    closed = item(Kind.FACT, "The billing ledger migration to SQLite is done", 3 * COMPARED + 1)
    kept = last_word([loop, *between, closed])
    assert loop not in kept and closed in kept and len(kept) == 3 * COMPARED + 1


def test_a_short_quote_said_again_far_later_inside_a_longer_one_is_one_item() -> None:
    short = item(Kind.DECISION, "Ship it", 0, quote="ship it")
    between = [item(Kind.FACT, unrelated(n), 1 + n) for n in range(3 * COMPARED)]
    again = item(Kind.DECISION, "We ship it on Friday", 3 * COMPARED + 1, quote="we ship it")
    kept = last_word([short, *between, again])
    assert short not in kept and len(kept) == 3 * COMPARED + 1


def test_each_item_is_compared_with_a_bounded_number_of_earlier_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = 0
    real = lastword._undone_by

    def counted(*args: object) -> bool:
        nonlocal calls
        calls += 1
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(lastword, "_undone_by", counted)
    # Thousands of open loops that all share their words, each followed by a report of
    # other work done that may close any of them.
    items = []
    for n in range(1_500):
        items.append(item(Kind.OPEN_LOOP, f"TODO benchmark module {n} on corpus", 2 * n))
        items.append(item(Kind.FACT, f"Release notes of tool{n} are done", 2 * n + 1))
    assert len(last_word(items)) == 3_000  # no report is about a loop: every loop stays
    assert 1_500 <= calls <= 1_500 * COMPARED


def test_what_can_undo_nothing_is_compared_with_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether an item can close or replace anything is worked out once for it: thousands
    of loops, facts and decisions that neither report work done nor replace a choice
    are never compared with what came before them to find one to undo."""
    calls = 0

    def counted(*args: object) -> bool:
        nonlocal calls
        calls += 1
        return False

    monkeypatch.setattr(lastword, "_undone_by", counted)
    kinds = (Kind.OPEN_LOOP, Kind.FACT, Kind.DECISION)
    items = [item(kinds[n % 3], f"Keep module {n} on the corpus runner", n) for n in range(3_000)]
    assert len(last_word(items)) == 3_000
    assert calls == 0


def test_a_transcript_marking_many_thousands_of_things_keeps_the_strongest() -> None:
    lines = [f"TODO: benchmark module {n} against the corpus." for n in range(5_000)]
    assert len(lines) > READ
    lines.append("Decision: we keep the parser in src/parser.py for the release.")
    drafts = extract([Message("user", "\n".join(lines))], max_items=10)
    assert len(drafts) == 10
    assert any(d.kind == Kind.DECISION and "parser" in d.text for d in drafts)


def _earlier_by_scan(
    kept: dict[int, object], found: dict[str, list[int]], loose: list[int], keys: list[str]
) -> list[int]:
    """The earlier items as the last word first found them: each key's newest kept items
    (at most COMPARED new ones a key, in its newest 4 * COMPARED), then the newest
    COMPARED of all."""
    pool: set[int] = set()
    for numbers in (*(found.get(key, []) for key in keys), loose):
        taken = 0
        for at in reversed(numbers[-4 * COMPARED :]):
            if at in kept and at not in pool:
                pool.add(at)
                taken += 1
                if taken == COMPARED:
                    break
    return sorted(pool)[-COMPARED:]


@pytest.mark.parametrize("seed", range(60))
def test_the_earlier_items_are_the_newest_kept_that_share_a_key(seed: int) -> None:
    """Read newest first down to the oldest of the newest found, the keys' lists give the
    same earlier items as a scan of each list's window."""
    rng = random.Random(seed)
    numbers = rng.randrange(1, 12 * COMPARED)
    keep = rng.choice((0.002, 0.02, 0.6, 0.95))  # few kept: most said again and let go
    kept: dict[int, object] = {n: None for n in range(numbers) if rng.random() < keep}
    names = [f"w{k}" for k in range(rng.randrange(1, 20))]
    found: dict[str, list[int]] = {}
    loose: list[int] = []
    share = rng.random()
    for n in range(numbers):
        for name in names:
            if rng.random() < share:
                found.setdefault(name, []).append(n)
        if rng.random() < 0.05:
            loose.append(n)
    keys = [*rng.sample(names, rng.randrange(1, len(names) + 1)), "w-none"]
    nothing: frozenset[str] = frozenset()
    facts = lastword._Facts("", nothing, False, nothing, nothing, frozenset(keys), False)
    wanted = _earlier_by_scan(kept, found, loose, keys)
    assert lastword._earlier(kept, found, loose, facts) == wanted  # type: ignore[arg-type]
