"""A report's list that indexes numbered parts gives no item (issue 27, round 19;
docs/heuristic.md, "The outcome"): two or more of its items open with keys of one stem and
different numbers ("**auth-7.1** - …", "**auth-7.2** - …"; "R5: …", "R6: …"; "Line 40: …",
"Line 52: …"). Each entry names a part by its number; what came of the parts is said around
the list. Cases of their own, not copied from the labelled corpus."""

from __future__ import annotations

import pytest
from helpers.drafts import assert_verbatim, assistant, user

from gitmem.capture.extract.heuristic import extract

OUTCOME = "The importer now keeps symlinks as links instead of copying their targets."


@pytest.mark.parametrize(
    "index",
    [
        # the tasks of an epic, by their tracker ids
        "1. **imp-3.1** - link detection in the walker\n"
        "2. **imp-3.2** - writing links back on restore\n"
        "3. **imp-3.3** - tests for dangling links\n",
        # a commit's requirements, by number (a diffstat line among them)
        "- 4 files changed, +80 / -12\n"
        "- R5: `read_links()` helper\n"
        "- R6: `write_links()` moved to the restore step\n",
        # the lines of the code read
        "- Line 40: `os.readlink(path)` - reads the link itself\n"
        "- Line 52: `os.symlink(target, dest)` - writes it back\n",
        # a key in parentheses after it, numbered steps of one stem
        "- Step 1 (walk): links are detected\n- Step 2 (restore): links are written back\n",
    ],
)
def test_a_list_of_numbered_parts_gives_no_report_item(index: str) -> None:
    messages = [
        user("the importer copies what symlinks point to"),
        assistant(f"{OUTCOME}\n\n{index}"),
    ]
    drafts = extract(messages)
    assert [d.quote for d in drafts] == [OUTCOME], index
    assert_verbatim(drafts, messages)


@pytest.mark.parametrize(
    "items",
    [
        # keys without a number
        "- **Walker**: detects links with `os.path.islink`\n"
        "- **Restore**: writes them back with `os.symlink`\n",
        # one numbered key only
        "- R5: `read_links()` helper\n- The restore step writes links back\n",
        # numbered keys of different stems
        "- Python 3.12: links restored\n- Windows 11: links copied, as before\n",
        # a number in the middle of the text is no key
        "- Keeps 2 kinds of links: relative and absolute\n- Keeps 3 modes on restore\n",
    ],
)
def test_a_list_that_indexes_nothing_is_read_as_before(items: str) -> None:
    messages = [
        user("the importer copies what symlinks point to"),
        assistant(f"{OUTCOME}\n\n{items}"),
    ]
    quotes = [d.quote for d in extract(messages)]
    assert quotes[0] == OUTCOME
    assert len(quotes) == 2, items  # the list's first item, as any list gives


def test_numbered_parts_under_an_open_loop_heading_are_what_is_left() -> None:
    reply = (
        f"{OUTCOME}\n\n"
        "### Next steps\n"
        "- **imp-3.4** - restore links on Windows\n"
        "- **imp-3.5** - document the symlink policy\n"
    )
    quotes = [d.quote for d in extract([user("the importer copies links"), assistant(reply)])]
    assert "**imp-3.4** - restore links on Windows" in quotes
    assert "**imp-3.5** - document the symlink policy" in quotes
