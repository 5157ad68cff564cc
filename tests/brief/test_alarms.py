"""The brief's warnings summarised per cause (gitmem/brief/alarms.py)."""

from __future__ import annotations

from gitmem.brief.alarms import alarm_lines
from gitmem.brief.select import BriefWarning


def test_examples_of_a_store_warning_name_its_paths_not_an_empty_record() -> None:
    # Two strays a push left (a folder nested thousands deep, a top-level name) read
    # "·  by unknown writer" twice: the examples of a cause named records only.
    strays = [
        BriefWarning("stray-path", f"{p} does not belong in the memory store layout", p)
        for p in ("items/ab/d", "zz")
    ]
    lines = alarm_lines(strays, 3)
    assert lines[0].startswith("⚠ 2 × stray-path: items/ab/d does not belong")
    assert lines[1:] == ["  · items/ab/d", "  · zz"]


def test_examples_of_failed_records_name_record_writer_and_day() -> None:
    failed = [
        BriefWarning("record edited", "m", None, f"{n}" * 64, "mallory", "k", f"2026-11-0{n}")
        for n in (1, 2)
    ]
    lines = alarm_lines(failed, 3)
    assert lines[1:] == [
        "  · 222222222222 by mallory, 2026-11-02",
        "  · 111111111111 by mallory, 2026-11-01",
    ]


def test_records_by_untrusted_keys_count_keys_not_the_writers_they_claim() -> None:
    # A record's writer is whatever its bytes say: one key claiming three writers was
    # "3 record(s) by 3 key(s)".
    failed = [
        BriefWarning("untrusted key", "m", None, f"{n}" * 64, w, "SHA256:mallory", "2026-11-01")
        for n, w in enumerate(("alice", "bob", "carol"))
    ]
    (headline,) = alarm_lines(failed, 0)
    assert headline.startswith("⚠ 3 record(s) by 1 key(s) no trust root of this clone knows")
    assert "SHA256:mallory (alice, bob, carol)" in headline


def test_item_warnings_are_counted_as_items_not_records() -> None:
    # Three item blobs one checkpoint names, each edited, were "3 record(s) failed
    # verification (item edited)"; one record holds them all.
    edited = [
        BriefWarning("item edited", f"item {n}", None, "c" * 64, "alice", "k", "2026-11-01")
        for n in range(3)
    ]
    (headline,) = alarm_lines(edited, 0)
    assert headline.startswith("⚠ 3 item(s) of 1 record(s) failed verification (item edited)")
