"""Dated backup points in a replica: recorded by each backup, pruned by a tiered policy
over a simulated month, listed, and restored to a point in time (verified first)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pygit2
import pytest
from helpers import git, tamper
from helpers.clones import Clone, make_clone

from gitmem.core.errors import InputError, NegativeResult
from gitmem.store.repo import MEMORY_REF, Store
from gitmem.team.backup import RestoreRefused, backup, backup_points, restore_point
from gitmem.team.retention import Keep, kept, newest_at, parse_at, parse_keep, point_name

JAN = datetime(2026, 1, 1, 3, 0, tzinfo=UTC)


def store_of(clone: Clone) -> Store:
    return Store.discover(clone.path)


def point_refs(replica: Path) -> list[str]:
    return git(replica, "for-each-ref", "--format=%(refname)", "refs/gitmem-backups/").split()


# --- the policy (pure) ------------------------------------------------------------------


def test_parse_keep() -> None:
    assert parse_keep("daily=7,weekly=4,monthly=12") == Keep(7, 4, 12)
    assert parse_keep(" weekly=2 ") == Keep(0, 2, 0)
    for bad in ("", "daily", "daily=-1", "daily=x", "hourly=3", "daily=1,daily=2", "daily=1;"):
        with pytest.raises(InputError, match="--keep takes"):
            parse_keep(bad)


def test_the_tiers_over_a_simulated_month_of_points() -> None:
    # Two points a day (03:00 and 15:00) from Jan 1 to Feb 28, 2026.
    times = [JAN + timedelta(hours=12 * n) for n in range(2 * 59)]
    chosen = sorted(kept(times, Keep(daily=3, weekly=2, monthly=2)))
    names = [point_name(t) for t in chosen]
    assert names == [
        # monthly: the newest point of January (and of February, below)
        "20260131T150000Z",
        # weekly: the newest of ISO week 8 (Sun Feb 22) and of week 9 (the newest point)
        "20260222T150000Z",
        # daily: the newest of each of the last three days that have points
        "20260226T150000Z",
        "20260227T150000Z",
        "20260228T150000Z",
    ]
    assert kept(times, Keep()) == {max(times)}  # the newest point is always kept
    assert kept([], Keep(1, 1, 1)) == set()
    # A gap: the daily rule counts days that have points, not calendar days.
    sparse = [JAN, JAN + timedelta(days=10), JAN + timedelta(days=20)]
    assert kept(sparse, Keep(daily=3)) == set(sparse)


def test_at_means_at_or_before() -> None:
    times = [JAN, JAN + timedelta(days=1), JAN + timedelta(days=2)]
    assert newest_at(times, JAN + timedelta(days=1, hours=5)) == times[1]
    assert newest_at(times, JAN - timedelta(seconds=1)) is None
    assert parse_at("2026-01-02") == datetime(2026, 1, 2, 23, 59, 59, 999999, tzinfo=UTC)
    assert parse_at("2026-01-02T10:00") == datetime(2026, 1, 2, 10, tzinfo=UTC)
    assert parse_at("2026-01-02T10:00:00+02:00") == datetime(2026, 1, 2, 8, tzinfo=UTC)
    assert parse_at("20260102T100000Z") == datetime(2026, 1, 2, 10, tzinfo=UTC)
    with pytest.raises(InputError, match="--at takes"):
        parse_at("last tuesday")


# --- backups and points in a real replica -----------------------------------------------


def test_a_month_of_backups_keeps_the_tiers_and_restores_any_point(
    alice: Clone, tmp_path: Path
) -> None:
    replica = tmp_path / "replica.git"
    policy = Keep(daily=3, weekly=2, monthly=1)
    said = {
        1: "the cache stays local",
        9: "the queue is bounded",
        20: "the parser is recursive",
        29: "the docs live beside the code",
    }
    captured: dict[int, str] = {}
    days = (1, 2, 5, 9, 12, 16, 20, 27, 28, 29, 30)
    for day in days:
        if day in said:
            captured[day] = alice.capture(said[day])
        report = backup(store_of(alice), str(replica), alice.home, JAN.replace(day=day), policy)
        assert report.point.name == f"202601{day:02d}T030000Z"
        assert report.point.refs == {MEMORY_REF: alice.tip()}
    points = [p.name for p in backup_points(store_of(alice), str(replica))]
    # daily: Jan 30, 29, 28; weekly: ISO week 5 (Jan 30) and week 4 (Jan 20..25: Jan 20);
    # monthly: January's newest (Jan 30).
    assert points == [
        "20260120T030000Z",
        "20260128T030000Z",
        "20260129T030000Z",
        "20260130T030000Z",
    ]
    assert len(point_refs(replica)) == 4  # pruned points left no ref behind
    listed = alice.ok("restore", str(replica), "--list", "--json").json()
    assert [p["point"] for p in listed["points"]] == points  # type: ignore[index]

    # A fresh machine restores the point of Jan 25 (the newest at or before it: Jan 20).
    fresh = make_clone(tmp_path, tmp_path / "remote.git", "alice2", init=False)
    fresh.home = alice.home
    done = fresh.ok("restore", str(replica), "--at", "2026-01-25", "--json").json()
    assert done["point"]["point"] == "20260120T030000Z"  # type: ignore[index]
    assert done["refs"][0]["outcome"] == "created"  # type: ignore[index]
    assert fresh.records() == {captured[1], captured[9], captured[20]}
    assert fresh.ok("verify").exit_code == 0

    # Back in time on the machine itself: the ref is rewound, verified, and the brief
    # shows that day's memory only.
    before = alice.tip()
    point, copies = restore_point(
        store_of(alice), str(replica), alice.home, parse_at("20260120T030000Z")
    )
    assert point.name == "20260120T030000Z"
    assert [c.outcome for c in copies] == ["rewound"] and copies[0].before == before
    assert alice.records() == {captured[1], captured[9], captured[20]}
    texts = {i["text"] for i in alice.brief()["items"]}
    assert texts == {said[d].capitalize() for d in (1, 9, 20)}
    # … and forward again to the newest point.
    forward = alice.ok("restore", str(replica), "--at", "2026-02-01", "--json").json()
    assert forward["refs"][0]["outcome"] == "fast-forward"  # type: ignore[index]
    assert alice.tip() == before


def test_restore_at_refuses_a_tampered_point_and_changes_nothing(
    alice: Clone, tmp_path: Path
) -> None:
    address = alice.capture("the cache stays local")
    replica = tmp_path / "replica.git"
    backup(store_of(alice), str(replica), alice.home, JAN)
    point_ref = f"refs/gitmem-backups/{point_name(JAN)}/memory"
    tamper.edit_record(
        Store(pygit2.Repository(str(replica)), point_ref),
        address,
        b"the cache stays local",
        b"the cache goes remote",
    )
    fresh = make_clone(tmp_path, tmp_path / "remote.git", "alice2", init=False)
    fresh.home = alice.home
    before = git(fresh.path, "for-each-ref")
    result = fresh.gm("restore", str(replica), "--at", "2026-01-02")
    assert result.exit_code == 3 and "item edited" in result.stderr
    assert git(fresh.path, "for-each-ref") == before
    with pytest.raises(RestoreRefused):
        restore_point(store_of(fresh), str(replica), fresh.home, parse_at("2026-01-02"))


def test_restore_at_before_any_point_and_bad_input(alice: Clone, tmp_path: Path) -> None:
    alice.capture("the cache stays local")
    replica = tmp_path / "replica.git"
    backup(store_of(alice), str(replica), alice.home, JAN + timedelta(days=3))
    with pytest.raises(
        NegativeResult, match=r"no backup point at or before .* the oldest is 20260104T030000Z"
    ):
        restore_point(store_of(alice), str(replica), alice.home, JAN)
    early = alice.gm("restore", str(replica), "--at", "2025-12-31")
    assert early.exit_code == 1 and "no backup point" in early.stderr
    assert alice.gm("restore", str(replica), "--at", "whenever").exit_code == 2
    assert alice.gm("restore", str(replica), "--at", "2026-01-05", "--list").exit_code == 2
    tip = git(replica, "rev-parse", MEMORY_REF)
    bad = alice.gm("backup", str(replica), "--keep", "daily=two")
    assert bad.exit_code == 2 and "--keep takes" in bad.stderr
    assert git(replica, "rev-parse", MEMORY_REF) == tip and len(point_refs(replica)) == 1


def test_the_cli_backup_records_a_point_and_prunes(alice: Clone, tmp_path: Path) -> None:
    alice.capture("the cache stays local")
    replica = tmp_path / "replica.git"
    backup(store_of(alice), str(replica), alice.home, JAN)
    data = alice.ok("backup", str(replica), "--keep", "daily=1", "--json").json()
    assert data["refs"][0]["outcome"] == "up-to-date"  # type: ignore[index]
    assert data["point"]["refs"] == {MEMORY_REF: alice.tip()}  # type: ignore[index]
    assert data["keep"] == "daily=1,weekly=0,monthly=0"  # type: ignore[index]
    assert data["pruned"] == [point_name(JAN)]  # type: ignore[index]
    assert point_refs(replica) == [f"refs/gitmem-backups/{data['point']['point']}/memory"]  # type: ignore[index]
    assert alice.ok("restore", str(replica), "--list").stdout.startswith(data["point"]["point"])  # type: ignore[index]
