"""A list that a line leads in to by naming the change it is part of holds that change's
parts, not the outcome (issue 27, round 16; docs/heuristic.md, "The outcome"): a lead-in
that opens with the verb of the change ("Added two entries under **Fixes** in the release
notes:", "Updated the README in two places:") or a label that is only that verb ("**Removed:**",
"**New files:**"). Cases of their own, not copied from the labelled corpus."""

from __future__ import annotations

import pytest
from helpers.drafts import assert_verbatim, assistant, user

from gitmem.capture.extract.heuristic import extract

OUTCOME = "The importer now keeps symlinks as links instead of copying their targets."
PARTS = (
    "- `read_links()` in `importer/walk.py` - reads each link with `os.readlink`\n"
    "- `write_links()` - writes them back with `os.symlink`\n"
)


@pytest.mark.parametrize(
    "lead",
    [
        "Added two entries under **Fixes** in the 0.9 release notes:",
        "Updated `docs/importer.md` in two places:",
        "I added two helpers to `importer/walk.py`:",
        "**Removed:**",
        "**Simplified:**",
        "New files:",
        "**Removed from `importer/walk.py`:**",
    ],
)
def test_a_list_under_a_line_that_names_the_change_gives_no_report_item(lead: str) -> None:
    messages = [
        user("the importer copies what symlinks point to"),
        assistant(f"{OUTCOME}\n\n{lead}\n{PARTS}"),
    ]
    drafts = extract(messages)
    assert [d.quote for d in drafts] == [OUTCOME], lead
    assert_verbatim(drafts, messages)


def test_the_lead_in_alone_gives_no_item_either() -> None:
    # A report that is only the change's lead-in and its parts: nothing to carry from it.
    messages = [
        user("add the two fixes to the release notes"),
        assistant(
            "Added two entries under **Bug fixes** in the 0.9 release notes:\n"
            "- The crash on empty archives (a guard before `unpack`)\n"
            "- The new `max-depth` option that bounds the walk\n"
        ),
    ]
    assert extract(messages) == []


@pytest.mark.parametrize(
    ("lead", "item"),
    [
        # What the change's name does not lead in to: still read, as before.
        ("Changes made to `importer/walk.py`:", "Links are now read with `os.readlink`"),
        ("Two notes:", "**Symlinks to folders** are kept as links too"),
        ("What's left:", "Windows junctions are still copied, not linked"),
        ("Added a guard, but two cases are still open:", "Junctions on Windows still copy"),
    ],
)
def test_a_list_of_notes_what_is_left_or_a_named_change_is_still_read(lead: str, item: str) -> None:
    messages = [
        user("the importer copies what symlinks point to"),
        assistant(f"The importer keeps symlinks now.\n\n{lead}\n- {item}\n"),
    ]
    assert item in [d.quote for d in extract(messages)], lead
