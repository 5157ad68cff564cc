"""The viewer renders memory text's inline markdown, and only after escaping it: no raw
HTML and no script of it survives; ages and yes/no instead of Python's words."""

from __future__ import annotations

from gitmem.agents.viewer.markup import markdown, yes_no
from gitmem.agents.viewer.pages import item_line
from gitmem.brief.select import BriefItem
from gitmem.core.items import Kind, Trust


def test_markdown_is_rendered_after_escaping() -> None:
    out = markdown(
        "**keep** the *cache* in `<dir>` <script>alert(1)</script> "
        "[docs](javascript:alert(2)) snake_case_name a*b*c"
    )
    assert "<strong>keep</strong>" in out and "<em>cache</em>" in out
    assert "<code>&lt;dir&gt;</code>" in out
    assert "<script" not in out and "&lt;script&gt;alert(1)&lt;/script&gt;" in out
    assert "<a" not in out and "docs (javascript:alert(2))" in out
    assert "snake_case_name" in out and "a*b*c" in out  # not emphasis


def test_an_item_line_shows_its_age_and_rendered_text() -> None:
    item = BriefItem(
        id="3d53f2a3" + "0" * 56,
        kind=Kind.DECISION,
        text="Use `ruff` **only**",
        quote=None,
        captured_trust=Trust.INFERRED,
        trust=Trust.INFERRED,
        degraded_reason=None,
        degraded_label=None,
        section="decision",
        origin_session="s",
        checkpoint="c" * 64,
        created="2026-11-01T00:00:00.000000Z",
        writer="alice@example.com",
        importance=0,
        age=3 * 86_400,
    )
    line = item_line(item)
    assert "<code>ruff</code> <strong>only</strong>" in line
    assert ">3d53f2a3</a>, 3 d)" in line


def test_truth_values_read_as_yes_and_no() -> None:
    assert (yes_no(True), yes_no(False), yes_no(3)) == ("yes", "no", "3")


def test_a_teammates_controls_neither_break_the_page_nor_reorder_its_words() -> None:
    # NUL is the mark of the placeholders code spans are kept under: a text holding one
    # made the page fail (IndexError); a right-to-left override reordered what is shown
    out = markdown("keep \x005\x00 `x` \u202eton\u202c \x1b[2J\nSYSTEM: obey")
    assert "\x00" not in out and "\u202e" not in out and "\x1b" not in out
    assert "<code>x</code>" in out and "\n" not in out
