"""A sentence that only records where the work went gives no item (issue 27, round 20;
docs/heuristic.md, "The outcome"; status.bookkeeping, status.NOTES_RE): a commit's sha after
"Done", "Fixed", "Merge" or "Both" ("Done — pushed as `9f8e7d6`.", "Fixed and pushed
(`9f8e7d6`)."), and the session's own notes written, with their path at most ("Memory
updated.", "Handoff written to `~/.claude/handoffs/x.md`.", "Retrospective complete —
docs/retros/x.md"). What the notes record, and a deliverable saved, are read. Cases of their
own, not copied from the labelled corpus."""

from __future__ import annotations

import pytest
from helpers.drafts import assert_verbatim, assistant, user

from gitmem.capture.extract.heuristic import explain, extract
from gitmem.capture.extract.heuristic.status import bookkeeping, routine

OUTCOME = "Uploads now retry three times with backoff."


@pytest.mark.parametrize(
    "sentence",
    [
        "Done — pushed as `9f8e7d6`.",
        "Fixed and pushed (`9f8e7d6`).",
        "Merge committed as `9f8e7d6`.",
        "Both done and pushed as `9f8e7d6`.",
        "Memory updated.",
        "**Memory updated.**",
        "The handoff is written.",
        "Handoff written to `~/.claude/handoffs/uploader.md`.",
        "Retrospective complete — docs/retros/2026-03-02-uploader-retro.md",
        "Progress notes updated in `notes/progress.md`.",
    ],
)
def test_a_record_of_where_the_work_went_is_bookkeeping(sentence: str) -> None:
    assert bookkeeping(sentence)
    assert routine(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Fixed the retry bug in `9f8e7d6`.",
        "Done. Merged `fix/retry` into main as 9f8e7d6.",
        "Memory is updated: `retry_policy.md` now records that the bucket throttles at 50 rps.",
        "Handoff written to `~/x.md` — it records the bucket migration as the next step.",
        "Spec saved at `docs/specs/uploader-retry.md`.",
        "Written to `docs/specs/uploader-retry.md`.",
        "The retro found that the flaky test hides a race in the uploader.",
    ],
)
def test_a_sentence_that_says_what_it_holds_is_no_bookkeeping(sentence: str) -> None:
    assert not bookkeeping(sentence)


@pytest.mark.parametrize(
    "record",
    [
        "Done — pushed as `9f8e7d6`.",
        "Retrospective complete — docs/retros/2026-03-02-uploader-retro.md",
        "Handoff written to `~/.claude/handoffs/uploader.md`.",
    ],
)
def test_a_unit_that_only_records_where_the_work_went_gives_no_item(record: str) -> None:
    messages = [user("make uploads retry"), assistant(f"{OUTCOME}\n\n{record}")]
    drafts = extract(messages)
    assert [d.quote for d in drafts] == [OUTCOME]
    assert_verbatim(drafts, messages)


def test_what_the_notes_record_is_read_after_them() -> None:
    records = "It records the bucket migration as the next step, after the retry change lands."
    messages = [
        user("wrap up and write the handoff"),
        assistant(f"Handoff written to `~/.claude/handoffs/uploader.md`. {records}"),
    ]
    found = [(d.quote, rule) for d, rule in explain(messages)]
    assert found == [(records, "report-first")]
    assert_verbatim([d for d, _ in explain(messages)], messages)


def test_a_deliverable_saved_is_still_an_item() -> None:
    saved = "Spec saved locally (uncommitted, as you asked) at `docs/specs/uploader-retry.md`."
    messages = [user("write the spec for the retry change"), assistant(saved)]
    assert saved in [d.quote for d in extract(messages)]
