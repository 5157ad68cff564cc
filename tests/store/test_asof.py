"""--as-of TIME|REV: which commit of the memory ref stood at a moment, on real git."""

from __future__ import annotations

import json
import os
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from helpers import GIT_ENV, git
from helpers.capturing import capture_text
from helpers.history import DATES, redate_memory

from gitmem.core.errors import InputError
from gitmem.store.asof import PinnedStore, parse_moment, resolve_as_of
from gitmem.store.repo import Entry, Store


def three_commits(gm: Any, repo: Path) -> list[str]:
    for n in range(3):
        item = {"kind": "decision", "text": f"decision number {n}", "trust": "inferred"}
        capture_text(gm, repo.parent / f"t{n}.md", f"we decided thing {n}\n", [item])
    return redate_memory(repo, DATES)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-07-01", datetime(2026, 7, 1, tzinfo=UTC)),
        ("2026-07-01T14:30", datetime(2026, 7, 1, 14, 30, tzinfo=UTC)),
        ("2026-07-01 14:30:05", datetime(2026, 7, 1, 14, 30, 5, tzinfo=UTC)),
        ("2026-07-01T14:30:00Z", datetime(2026, 7, 1, 14, 30, tzinfo=UTC)),
        ("2026-07-01T16:30:00+02:00", datetime(2026, 7, 1, 14, 30, tzinfo=UTC)),
    ],
)
def test_iso_dates_and_times_are_moments_in_utc(text: str, expected: datetime) -> None:
    assert parse_moment(text) == expected


@pytest.mark.parametrize("text", ["main", "v1.2", "HEAD~3", "refs/gitmem/memory", "20260701"])
def test_revisions_are_not_moments(text: str) -> None:
    assert parse_moment(text) is None


def test_a_date_that_names_no_day_is_refused() -> None:
    with pytest.raises(InputError, match="not a valid date"):
        parse_moment("2026-13-01")


def test_a_time_picks_the_newest_memory_commit_at_or_before_it(gm: Any, initialised: Path) -> None:
    first, second, third = three_commits(gm, initialised)
    store = Store.discover(initialised)
    assert resolve_as_of(store, "2026-07-02T09:59:59Z").commit == first
    assert resolve_as_of(store, "2026-07-02T10:00:00Z").commit == second
    assert resolve_as_of(store, "2026-07-02").commit == first  # midnight, UTC
    assert resolve_as_of(store, "2026-07-02T12:00:00+02:00").commit == second
    assert resolve_as_of(store, "2030-01-01").commit == third
    before = resolve_as_of(store, "2026-06-30")
    assert before.commit is None and before.how == "time"
    assert before.label().endswith("(no memory yet)")


def test_a_memory_revision_is_that_commit(gm: Any, initialised: Path) -> None:
    first, second, _ = three_commits(gm, initialised)
    store = Store.discover(initialised)
    moment = resolve_as_of(store, "refs/gitmem/memory~1")
    assert (moment.commit, moment.how) == (second, "memory commit")
    assert moment.time.startswith("2026-07-02T10:00:00")
    assert resolve_as_of(store, first[:10]).commit == first


def test_a_code_revision_stands_for_its_commit_time(gm: Any, initialised: Path) -> None:
    _, second, _ = three_commits(gm, initialised)
    env = {**os.environ, **GIT_ENV, "GIT_COMMITTER_DATE": "2026-07-02T15:00:00Z"}
    subprocess.run(
        ["git", "-C", str(initialised), "commit", "-q", "--allow-empty", "-m", "release"],
        check=True,
        env=env,
    )
    git(initialised, "tag", "v1.2")
    moment = resolve_as_of(Store.discover(initialised), "v1.2")
    assert (moment.commit, moment.how) == (second, "code commit")
    assert moment.to_json()["spec"] == "v1.2"
    json.dumps(moment.to_json())  # serialisable as it stands


@pytest.mark.parametrize("spec", ["no-such-branch", "--all", "", "x" * 300])
def test_what_names_no_moment_is_refused(gm: Any, initialised: Path, spec: str) -> None:
    three_commits(gm, initialised)
    with pytest.raises(InputError):
        resolve_as_of(Store.discover(initialised), spec)


def test_a_pinned_store_reads_that_commit_and_cannot_be_written(gm: Any, initialised: Path) -> None:
    first, _, third = three_commits(gm, initialised)
    store = Store.discover(initialised)
    pinned = PinnedStore(store, first)
    assert pinned.tip() == first and len(pinned.read().records) == 1
    assert len(store.read().records) == 3
    with pytest.raises(InputError, match="read-only"):
        pinned.append([Entry("items/aa/bb.json", b"{}")], "x", "mallory")
    assert not pinned.compare_and_swap(first, first, "x")
    assert store.tip() == third
