"""Fuzz over the index's file (.git/gitmem/memory.sqlite): random bit flips, cuts and
zeroed runs at fixed seeds. Whatever the damage, opening and reading the index answers
(rebuilding the file once when it is damaged) or says in one line why it cannot; never
another exception, never an internal error. The big run is benchmarks/stress_fuzz.py."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from helpers.capturing import capture_text
from helpers.hostile import DAMAGES, damaged

from gitmem.core.errors import GitmemError
from gitmem.lifecycle.index import INDEX_FILE, Index
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots

SEED = 29
CASES = 100
TRANSCRIPT = "We agreed: deploys stop on Fridays.\nTODO: check the parser on port 137.\n"


def read_everything(store: Store, home: Path) -> tuple[int, int]:
    """Every read the commands make, through a freshly opened index: (current items,
    checkpoints)."""
    index = Index.open(store, load_trust_roots(home, store))
    try:
        state = index.state(current_only=True)
        checkpoints, _, _ = index.counts()
        index.totals()
        index.failed()
        index.failed_items()
        index.strays()
        index.search("parser", 5)
        index.readable(list(state.items))
        return len(state.items), checkpoints
    finally:
        index.close()


@pytest.fixture
def spoilable(gm: Any, initialised: Path, home: Path) -> tuple[Store, bytes, tuple[int, int]]:
    """A store of three captures, its sound index's bytes and what reading them gives."""
    for n in range(3):
        text = f"Decision {n}: the parser keeps module {n}"
        item = {"kind": "decision", "text": text}
        capture_text(gm, initialised.parent / f"{n}.md", TRANSCRIPT, [item])
    store = Store.discover(initialised)
    answer = read_everything(store, home)
    path = store.local_dir / INDEX_FILE
    return store, path.read_bytes(), answer


def spoil(store: Store, data: bytes) -> None:
    path = store.local_dir / INDEX_FILE
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    path.write_bytes(data)


def test_any_damage_to_the_index_is_rebuilt_or_refused_in_one_line(
    spoilable: tuple[Store, bytes, tuple[int, int]], home: Path
) -> None:
    store, good, answer = spoilable
    rng = random.Random(SEED)
    seen: dict[str, int] = dict.fromkeys(DAMAGES, 0)
    for _ in range(CASES):
        kind, data = damaged(good, rng)
        seen[kind] += 1
        spoil(store, data)
        try:
            _, checkpoints = read_everything(store, home)
        except GitmemError as e:
            assert "\n" not in str(e), kind
            continue
        assert checkpoints == answer[1], kind  # the shape every writer keeps caught it
    assert all(seen.values()), seen


def test_a_schema_byte_that_is_not_utf8_is_rebuilt_by_every_command(
    spoilable: tuple[Store, bytes, tuple[int, int]], gm: Any, initialised: Path
) -> None:
    """The stress run's case: the journal-mode pragma failed with a decoding error, and
    brief, recall, status and capture exited 70 every time."""
    store, good, _ = spoilable
    at = good.index(b"CREATE TABLE")
    spoilt = good[: at + 2] + b"\xce" + good[at + 3 :]
    for command in (("brief",), ("recall", "parser"), ("status",), ("log", "--json")):
        spoil(store, spoilt)
        result = gm(*command)
        assert result.exit_code == 0, (command, result.stderr)
        assert "internal error" not in result.stderr
    spoil(store, spoilt)
    result = gm("capture", "--transcript", str(initialised.parent / "0.md"))
    assert result.exit_code == 0, result.stderr
    assert "Decision 2: the parser keeps module 2" in gm("brief").stdout


COMMAND_CASES = 16


@pytest.mark.slow
def test_the_commands_over_a_randomly_damaged_index_answer(
    spoilable: tuple[Store, bytes, tuple[int, int]], gm: Any, initialised: Path
) -> None:
    """Random bit flips, cuts and zeroed runs (seed :data:`SEED`) under brief, recall,
    status and capture: each rebuilds the index and answers, never exit 70."""
    store, good, _ = spoilable
    rng = random.Random(SEED)
    commands = (
        ("brief",),
        ("recall", "parser"),
        ("status",),
        ("capture", "--transcript", str(initialised.parent / "2.md")),
    )
    for _ in range(COMMAND_CASES):
        kind, data = damaged(good, rng)
        for command in commands:
            spoil(store, data)
            result = gm(*command)
            assert result.exit_code == 0, (kind, command, result.stderr)
            assert "internal error" not in result.stderr, (kind, command)
        assert "Decision 2: the parser keeps module 2" in gm("brief").stdout, kind


def test_an_index_that_fails_even_rebuilt_is_a_one_line_error(
    spoilable: tuple[Store, bytes, tuple[int, int]], home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, _, _ = spoilable
    index = Index.open(store, load_trust_roots(home, store))
    try:
        monkeypatch.setattr(index, "_one", lambda sql: (_ for _ in ()).throw(ValueError("bad")))
        with pytest.raises(GitmemError, match="cannot be read even after a rebuild") as caught:
            index.counts()
        assert "\n" not in str(caught.value)
    finally:
        index.close()
