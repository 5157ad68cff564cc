"""A sync costs what moved: one new checkpoint a teammate pushed is checked, merged and
indexed alone, however much history the clone already holds (the records checked are
counted: the new ones, not the history)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers.clones import Clone, make_clone, make_remote

from gitmem.core.integrity import TrustRoots
from gitmem.lifecycle import index_build, late
from gitmem.store import treediff

pytestmark = pytest.mark.slow


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The address of every record checked under trust roots from now on."""
    seen: list[str] = []
    real = TrustRoots.check

    def counting(self: TrustRoots, address: str, *args: Any, **kwargs: Any) -> Any:
        seen.append(address)
        return real(self, address, *args, **kwargs)

    monkeypatch.setattr(TrustRoots, "check", counting)
    return seen


def teammates(tmp_path: Path, sessions: int) -> tuple[Clone, Clone]:
    """Alice with *sessions* captures, all synced to Bob, who trusts her and has read his
    memory (his index is up to date)."""
    remote = make_remote(tmp_path)
    alice, bob = make_clone(tmp_path, remote, "alice"), make_clone(tmp_path, remote, "bob")
    alice.commit_file(".gitmem/allowed_signers", f"{alice.export_key()}\n{bob.export_key()}\n")
    bob.git("pull", "-q")
    for n in range(sessions):
        alice.capture(f"module {n} stays in src/m{n}.py")
    alice.ok("sync")
    bob.ok("sync")
    bob.ok("brief")
    return alice, bob


def test_a_sync_of_one_checkpoint_checks_only_what_it_brings(
    tmp_path: Path, checked: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = teammates(tmp_path, 12)
    before = bob.records()
    newest = alice.capture("the parser ships on friday")
    alice.ok("sync")
    replayed_all: list[int] = []
    real = index_build._replay_all
    monkeypatch.setattr(index_build, "_replay_all", lambda db: replayed_all.append(1) or real(db))
    opened = _count_folders_compared(monkeypatch)
    checked.clear()
    bob.ok("sync")
    by_sync = list(checked)
    brought = bob.records() - before  # (`gitmem log`, which checks every record)
    assert newest in brought and len(before) > 3 * len(brought)
    assert sorted(by_sync) == sorted(brought)  # what the sync accepted: the new records only
    # what the fetch added was found by opening the folders that differ, not every tree:
    # per comparison the root, its top folders and one fan-out folder per path added
    assert opened and all(n <= 1 + 5 + added for n, added in opened)
    opened.clear()
    checked.clear()
    shown = bob.ok("brief").stdout
    assert '"the parser ships on friday"' in shown  # (the line is its quote: core/shown.restates)
    # the index checks the new records once (the brief checks what it renders again)
    assert set(brought) <= set(checked)
    assert len(set(checked) - brought) <= shown.count("\n- [")  # the origins it renders
    assert not replayed_all  # and it replays the new records onto what it holds
    assert all(n <= 1 + 5 + added for n, added in opened)  # its catching up too


def test_a_teammates_older_capture_is_replayed_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob captures after Alice, then syncs her capture, dated before his: it carries
    what his carries, and is replayed in place, not with the whole history again; the
    index equals a rebuild."""
    alice, bob = teammates(tmp_path, 4)
    alice.capture("the parser ships on friday")
    bob.capture("the upload retries twice")
    bob.ok("brief")
    alice.ok("sync")
    refused: list[int] = []
    real = late.replay_late
    monkeypatch.setattr(
        index_build,
        "replay_late",
        lambda *args: real(*args) or refused.append(1) or False,
    )
    bob.ok("sync")
    advanced = bob.brief()
    assert not refused
    (bob.path / ".git" / "gitmem" / "memory.sqlite").unlink()
    assert bob.brief() == advanced


def _count_folders_compared(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """(folders compared, paths added) of each tree comparison from now on."""
    seen: list[tuple[int, int]] = []
    compare = treediff._compare

    def counting(old: Any, new: Any, prefix: str, added: list[str], entries: Any) -> bool:
        if not prefix:  # a comparison's root
            seen.append((0, 0))
        seen[-1] = (seen[-1][0] + 1, seen[-1][1])
        other = compare(old, new, prefix, added, entries)
        if not prefix:
            seen[-1] = (seen[-1][0], len(added))
        return other

    monkeypatch.setattr(treediff, "_compare", counting)
    return seen
