"""`gitmem verify` over a large store: read once a part at a time, signatures on two
cores (the same report as on one), each item blob checked once; `verify --since REV`
checks only what is new since REV, and plain `verify` still checks everything."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from helpers.capturing import capture_text
from helpers.tamper import add_entry, edit_record, overwrite_object, remove_path

from gitmem.store import checking, checkjobs, parallel
from gitmem.store.layout import content_path
from gitmem.store.repo import Store

pytestmark = pytest.mark.slow


def grown(gm: Any, repo: Path, start: int, count: int) -> list[Any]:
    """*count* captures, each a verbatim decision of its own (the older ones carried)."""
    captured = []
    for n in range(start, start + count):
        text = f"We agreed: module {n} stays in src/m{n}.py.\n"
        quote = f"module {n} stays in src/m{n}.py"
        said = [
            {"kind": "decision", "text": f"Module {n} stays", "trust": "verbatim", "quote": quote}
        ]
        captured.append(capture_text(gm, repo.parent / f"s{n}.md", text, said))
    return captured


def verified(gm: Any, *args: str) -> tuple[int, dict[str, Any]]:
    done = gm("verify", "--json", *args)
    return done.exit_code, json.loads(done.stdout)


def test_since_checks_only_what_is_new_and_plain_verify_everything(
    gm: Any, initialised: Path
) -> None:
    store = Store.discover(initialised)
    old = grown(gm, initialised, 0, 3)
    since = store.tip()
    assert since is not None
    new = grown(gm, initialised, 3, 2)
    # An old record and a new one edited in place (git no longer reads their objects
    # as stored), and a new item edited in a commit of its own.
    overwrite_object(
        store, content_path("checkpoints", old[0]["checkpoint"]), b'"s0.md"', b'"x0.md"'
    )
    edit_record(store, new[1]["checkpoint"], b"Module 4", b"Module 9")
    code, everything = verified(gm)
    code_since, recent = verified(gm, "--since", since)
    assert code == code_since == 3
    paths = {p["path"] for p in everything["problems"]}
    recent_paths = {p["path"] for p in recent["problems"]}
    edited = content_path("items", new[1]["items"][0]["id"])
    assert edited in paths and edited in recent_paths
    assert recent_paths < paths  # the old record's damage is before REV
    assert recent["since"] == since and "since" not in everything
    assert recent["records"] < everything["records"]
    assert "new since" in gm("verify", "--since", since).stdout


def test_since_a_rev_that_names_nothing_is_bad_input(gm: Any, initialised: Path) -> None:
    grown(gm, initialised, 0, 1)
    done = gm("verify", "--since", "no-such-rev")
    assert done.exit_code == 2 and "no such commit" in done.stderr


def test_verify_on_two_cores_reports_what_one_core_reports(
    gm: Any, initialised: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store.discover(initialised)
    captured = grown(gm, initialised, 0, 6)
    edit_record(store, captured[2]["checkpoint"], b'"s2.md"', b'"x2.md"')
    edit_record(store, captured[4]["checkpoint"], b"Module 4", b"Module 7")
    # what a helper now reads for itself: receipts, item blobs, objects git cannot read
    remove_path(store, content_path("receipts", captured[1]["checkpoint"]))
    add_entry(store, content_path("receipts", captured[0]["checkpoint"]), b"x", 0o120000)
    remove_path(store, content_path("items", captured[3]["items"][0]["id"]))
    item = content_path("items", captured[5]["items"][0]["id"])
    overwrite_object(store, item, b"Module 5", b"Module 8")
    one = verified(gm)
    found = {p["problem"] for p in one[1]["problems"]}
    assert {"receipt missing", "item missing", "record edited"} <= found
    items_checked: list[str] = []
    real_check_item = checkjobs.check_item
    monkeypatch.setattr(
        checkjobs, "check_item", lambda a, d: items_checked.append(a) or real_check_item(a, d)
    )
    forks: list[int] = []
    real_fork = os.fork
    monkeypatch.setattr(os, "fork", lambda: forks.append(1) or real_fork())
    monkeypatch.setattr(parallel, "MIN_FORK", 2)
    monkeypatch.setattr(parallel, "CHUNK", 2)
    monkeypatch.setattr(checking, "CHUNK", 5)
    two = verified(gm)
    assert two == one and one[0] == 3
    if parallel._worth_forking(10):
        # one helper per phase (records, then quotes) serves every chunk of that phase
        assert len(forks) == 2
    # each item blob checked once, however many checkpoints carry it
    assert sorted(items_checked) == sorted(set(items_checked))


def test_an_object_changed_in_place_is_reported_as_edited_where_it_lies(
    gm: Any, initialised: Path
) -> None:
    """verify reads the store without libgit2 hashing each object again (its own SHA-256
    of every blob does that): a record and an item whose loose objects were rewritten
    under their git names are each reported as edited, at their own path, and outside
    verify git refuses to read them as before."""
    store = Store.discover(initialised)
    captured = grown(gm, initialised, 0, 2)
    record = content_path("checkpoints", captured[0]["checkpoint"])
    item = content_path("items", captured[1]["items"][0]["id"])
    overwrite_object(store, record, b'"s0.md"', b'"x0.md"')
    overwrite_object(store, item, b"Module 1", b"Module 7")
    code, report = verified(gm)
    found = {(p["path"], p["problem"]) for p in report["problems"]}
    assert code == 3
    assert (record, "record edited") in found and (item, "item edited") in found
    assert Store.discover(initialised).read_path(item) is None
