"""The first unit of a long closing reply read whole is no item (issue 27, round 23;
docs/heuristic.md, "The outcome"; ``report.WRITE_UP_CHARS``). A reply of a few long
paragraphs (a review, a research summary, findings one by one) opens on the scene ("The
probe didn't load because …. Here is the real picture:", "My proposal was three gaps; all
applied."), not on the outcome; its next unit is the report's first. A short reply's first
unit is its outcome and stays. Cases of their own, not copied from the labelled corpus."""

from __future__ import annotations

from helpers.drafts import assert_verbatim, assistant, user

from gitmem.capture.extract.heuristic import explain, extract
from gitmem.capture.extract.heuristic.report import SHORT_REPORT, WRITE_UP_CHARS

SCENE = (
    "The plugin folder symlink did not load because the editor never scans "
    "`~/.editor/plugins/` on this version, so I went looking for the real load path."
)
FINDING = (
    "The parser rejects a tab before a list marker, which is why the indented steps of "
    "the importer fall through to plain text and lose their numbering on every import."
)
DETAIL = (
    "**The cache key ignored the locale.** Two callers asked for the same manifest under "
    "different cultures and got one entry back, because the key was built from the file "
    "name alone; it now carries the culture as well, and both lookups agree."
)
OFFER = "Want me to open a PR with the parser fix and the two regression tests?"


def _padding(n: int) -> str:
    # Paragraphs that say how the work went (narration: never an item) to lengthen a reply.
    return "\n\n".join(
        f"Let me also note that I read the importer module and its tests once more, part {k}; "
        "nothing there changes what is said here, and the steps above are what I ran."
        for k in range(n)
    )


def _reply(*units: str, pad: int = 0) -> str:
    return "\n\n".join([*units, *([_padding(pad)] if pad else [])])


def test_a_long_reply_read_whole_gives_no_item_for_its_first_unit() -> None:
    text = _reply(SCENE, FINDING, DETAIL, OFFER, pad=8)
    assert len(text) > WRITE_UP_CHARS
    messages = [user("why does the importer lose the numbering?"), assistant(text)]
    quotes = [d.quote for d in extract(messages)]
    assert SCENE not in quotes
    assert FINDING in quotes
    assert OFFER in quotes
    assert_verbatim(extract(messages), messages)


def test_the_next_unit_is_then_the_reports_first() -> None:
    text = _reply(SCENE, FINDING, DETAIL, pad=8)
    messages = [user("why does the importer lose the numbering?"), assistant(text)]
    families = {d.quote: rule for d, rule in explain(messages)}
    assert families.get(FINDING) == "report-first"


def test_a_short_reply_keeps_its_first_unit() -> None:
    text = _reply(SCENE, FINDING, OFFER)
    assert len(text) <= WRITE_UP_CHARS
    messages = [user("why does the importer lose the numbering?"), assistant(text)]
    families = {d.quote: rule for d, rule in explain(messages)}
    assert families.get(SCENE) == "report-first"
    assert FINDING in families


def test_only_the_closing_reply_is_read_as_a_report() -> None:
    # The same long reply mid-session is not the report: nothing of it is read as one.
    text = _reply(SCENE, FINDING, DETAIL, pad=8)
    messages = [
        user("why does the importer lose the numbering?"),
        assistant(text),
        user("thanks, now bump the version to 2.1.0"),
        assistant("Bumped the version to 2.1.0 in `pyproject.toml` and the changelog."),
    ]
    quotes = [d.quote for d in extract(messages)]
    assert SCENE not in quotes and FINDING not in quotes


def test_the_limit_is_above_a_typical_short_report() -> None:
    # Four plain paragraphs of a closing summary stay under the limit.
    assert len(_reply(SCENE, FINDING, DETAIL, OFFER)) < WRITE_UP_CHARS
    assert SHORT_REPORT >= 4


def test_a_write_up_that_opens_with_a_titled_finding_keeps_it() -> None:
    # "**Title** — …": the first of the findings a write-up lists, not its scene.
    titled = (
        "**Trade-off** — the first checkpoint after a restart covers the whole retention "
        "window, so it is larger; that is a one-time cost for correctness."
    )
    text = _reply(titled, FINDING, DETAIL, pad=8)
    assert len(text) > WRITE_UP_CHARS
    messages = [user("what did the restart fix cost?"), assistant(text)]
    families = {d.quote: rule for d, rule in explain(messages)}
    assert families.get(titled) == "report-first"
