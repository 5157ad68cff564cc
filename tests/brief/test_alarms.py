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
