"""A report's paragraph right after a fenced code block or a table that tells the reader how
to run what it shows gives no item (issue 27, round 19; docs/heuristic.md, "The outcome"):
an English imperative of operating a tool or "you can …", a Japanese or Korean polite
imperative that ends the sentence. The block is what the reader uses; the instruction says
nothing that stands once it is followed. Cases of their own, not copied from the labelled
corpus."""

from __future__ import annotations

import pytest
from helpers.drafts import assert_verbatim, assistant, user

from gitmem.capture.extract.heuristic import extract

OUTCOME = "The release branch is tagged `v2.3.0` and the changelog is updated."
CODE = "```bash\ngit push origin main --tags\n```"
TABLE = "| step | state |\n|---|---|\n| tag | done |\n| push | waiting |"


@pytest.mark.parametrize(
    ("block", "instruction"),
    [
        (CODE, "Run it from the repository root when you are ready."),
        (CODE, "Then run `make publish` to upload the wheels."),
        (CODE, "You can add `--dry-run` to see what would be pushed."),
        (TABLE, "Use `task list` to see what is left."),
        (CODE, "`!` 프리픽스로 실행하세요. 태그 푸시가 릴리스 파이프라인을 트리거합니다."),
        (CODE, "その後、必要に応じてタグを確認してください。"),
    ],
)
def test_an_instruction_after_a_block_gives_no_report_item(block: str, instruction: str) -> None:
    messages = [
        user("tag the release"),
        assistant(f"{OUTCOME} Push the tag:\n\n{block}\n\n{instruction}"),
    ]
    drafts = extract(messages)
    assert all(instruction[:12] not in (d.quote or "") for d in drafts), instruction
    assert [d.quote for d in drafts] == [f"{OUTCOME} Push the tag:"]
    assert_verbatim(drafts, messages)


@pytest.mark.parametrize(
    ("block", "statement"),
    [
        # a statement after the block, not an instruction
        (CODE, "The tag build publishes to PyPI once CI passes."),
        (TABLE, "The push is waiting on branch protection: a maintainer has to approve it."),
        # a rule of the tool, not how to run it
        (CODE, "You must push the tag after the release commit, or the build runs on the old one."),
    ],
)
def test_a_statement_after_a_block_is_read(block: str, statement: str) -> None:
    messages = [
        user("tag the release"),
        assistant(f"{OUTCOME} Push the tag:\n\n{block}\n\n{statement}"),
    ]
    assert statement in [d.quote for d in extract(messages)]


def test_an_instruction_not_after_a_block_is_read_as_before() -> None:
    # "Try restarting …" after a paragraph: what the reader does next, with what to expect.
    instruction = "Restart the app — the new skills should now be discoverable."
    messages = [user("the skills do not show up"), assistant(f"{OUTCOME}\n\n{instruction}")]
    assert instruction in [d.quote for d in extract(messages)]


def test_a_lead_in_above_the_block_is_read_as_before() -> None:
    lead = "The commit is on a detached HEAD. To bring it into jj:"
    messages = [user("commit it"), assistant(f"{lead}\n\n{CODE}\n\nRun it when you are ready.")]
    quotes = [d.quote for d in extract(messages)]
    assert lead in quotes
    assert all("Run it" not in (q or "") for q in quotes)
