"""What sync quarantined, counted as the brief and status print it: exact, or a bound
when older entries were let go (store/quarantine.py)."""

from __future__ import annotations

from pathlib import Path

from helpers import Gm

from gitmem.core.canonical import sha256_hex
from gitmem.store.layout import content_path
from gitmem.store.quarantine import KEPT, quarantine
from gitmem.store.repo import MEMORY_REF, RELEASES_REF, Entry, Store


def stray_paths(store: Store, count: int, ref: str = MEMORY_REF) -> list[str]:
    """*count* item paths appended to *ref* (their bytes hash to nothing they name)."""
    paths = [content_path("items", sha256_hex(b"%d" % n)) for n in range(count)]
    store.at(ref).append([Entry(p, b"junk") for p in paths], "junk", "mallory")
    return paths


def entries(paths: list[str]) -> list[dict[str, str]]:
    return [{"path": p, "problem": "item edited", "detail": "d", "author": "m"} for p in paths]


def test_a_flood_over_what_the_file_keeps_is_counted_as_a_bound(initialised: Path, gm: Gm) -> None:
    # The file keeps the newest 500: a sync that quarantined 600 paths was reported as
    # exactly "500 path(s)" by the brief and by status.
    store = Store.discover(initialised)
    quarantine(store.local_dir, "origin", entries(stray_paths(store, KEPT + 100)))
    brief = gm("brief", "--budget", "0").stdout
    assert f"{KEPT}+ path(s) a sync took from origin fail their checks" in brief
    status = gm("status").stdout
    assert f"quarantined: {KEPT}+ path(s)" in status


def test_paths_quarantined_from_the_releases_ref_are_counted(initialised: Path, gm: Gm) -> None:
    # The brief looked every quarantined path up in the memory ref's tree only: a path
    # quarantined from refs/gitmem/releases was left out of its count.
    store = Store.discover(initialised)
    mine = stray_paths(store, 2)
    quarantine(store.local_dir, "origin", entries(mine))
    theirs = stray_paths(store, 3, RELEASES_REF)[2:]
    quarantine(store.local_dir, "origin", entries(theirs), RELEASES_REF)
    brief = gm("brief", "--budget", "0").stdout
    assert "3 path(s) a sync took from origin fail their checks" in brief
    assert "quarantined: 3 path(s)" in gm("status").stdout
