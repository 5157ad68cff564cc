"""git run by gitmem: a walk of the memory's whole history holds a bounded part of the
object database (delta bases, mapped pack windows), whatever the size of the store, and
settings the caller gives git in the environment stay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers.capturing import capture_text

from gitmem.store import history
from gitmem.store.git import BOUNDED, run_git
from gitmem.store.repo import Store


def _setting(store: Store, key: str, bounded: bool) -> str:
    return run_git(store, "config", "--get", key, bounded=bounded).stdout.strip()


def test_a_bounded_git_holds_no_more_than_the_bounds(initialised: Path) -> None:
    store = Store.discover(initialised)
    for key, value in BOUNDED.items():
        assert _setting(store, key, bounded=True) == value
        assert _setting(store, key, bounded=False) == ""  # git's own default otherwise


def test_settings_given_in_the_environment_stay(
    initialised: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIT_CONFIG_COUNT", "1")
    monkeypatch.setenv("GIT_CONFIG_KEY_0", "gitmem.probe")
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", "kept")
    store = Store.discover(initialised)
    assert _setting(store, "gitmem.probe", bounded=True) == "kept"
    assert _setting(store, "core.packedGitLimit", bounded=True) == BOUNDED["core.packedGitLimit"]


def test_the_walks_of_the_whole_history_are_bounded(
    gm: Any, initialised: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    said = [{"kind": "decision", "text": "Deploys stop on Fridays"}]
    capture_text(gm, initialised.parent / "s.md", "We agreed: deploys stop on Fridays.\n", said)
    started: list[tuple[str, bool]] = []
    start = history.start_git

    def recording(store: Store, *args: str, bounded: bool = False) -> Any:
        started.append((args[0], bounded))
        return start(store, *args, bounded=bounded)

    monkeypatch.setattr(history, "start_git", recording)

    def running(store: Store, *args: str, timeout: float = 600, bounded: bool = False) -> Any:
        return recording(store, *args, bounded=bounded).finish(timeout)

    monkeypatch.setattr(history, "run_git", running)
    store = Store.discover(initialised)
    assert history.history_problems(store) == []
    assert history.introduced(store, store.added_since(store.tip() or "") or ["items"])
    assert gm("verify").exit_code == 0
    assert started and all(bounded for _, bounded in started)
    assert {command for command, _ in started} == {"log"}
