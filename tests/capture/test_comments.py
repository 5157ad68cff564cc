"""A decision is not quoted from only the comment of a line of code in a fenced block
(gitmem.capture.comments, through build_items and a captured transcript file)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gitmem.capture.checkpoint import build_items
from gitmem.capture.comments import CODE_COMMENT, in_comment
from gitmem.capture.transcripts import load_transcript
from gitmem.core.items import Draft, Item, Kind, Trust
from gitmem.core.transcript import Message, plain_transcript

SNAPSHOT = "0" * 64


def captured(message: str, quote: str, kind: Kind = Kind.DECISION) -> Item:
    transcript = plain_transcript("", "s").with_messages(
        (Message("user", "How does the cache work?"), Message("assistant", message))
    )
    (item,) = build_items(
        [Draft(kind, quote, Trust.VERBATIM, quote, {})], transcript, "s", SNAPSHOT
    )
    return item


@pytest.mark.parametrize(
    ("message", "quote"),
    [
        (
            "Like this:\n```python\n# we drop Redis for the cache\nCACHE = {}\n```",
            "we drop Redis for the cache",
        ),
        (
            "```go\nvar cache = map[string]int{} // we drop Redis for the cache\n```",
            "we drop Redis for the cache",
        ),
        (
            "```sql\n-- we keep the sessions table unlogged\nSELECT 1;\n```",
            "we keep the sessions table unlogged",
        ),
        (
            "```js\n/* we drop Redis for the cache,\n * and keep the map */\n```",
            "we drop Redis for the cache,\n * and keep the map",
        ),
        ("```python\nx = 1\n# We drop Redis for the cache\n```", "We drop Redis for the cache"),
    ],
)
def test_a_decision_quoted_from_only_a_code_comment_is_not_verbatim(
    message: str, quote: str
) -> None:
    item = captured(message, quote)
    assert item.trust == Trust.INFERRED and item.quote_reason == CODE_COMMENT


@pytest.mark.parametrize(
    ("message", "quote", "kind"),
    [
        (
            "```go\nAgentLines int // Lines added by the agent\n```",
            "AgentLines int // Lines added by the agent",
            Kind.DECISION,
        ),
        ("```\n# we drop Redis for the cache\n```", "we drop Redis for the cache", Kind.DECISION),
        (
            "```markdown\n# We drop Redis for the cache\n```",
            "We drop Redis for the cache",
            Kind.DECISION,
        ),
        (
            "```python\n# the cache expires after 5 minutes\n```",
            "the cache expires after 5 minutes",
            Kind.FACT,
        ),
        (
            "We drop Redis for the cache.\n```python\n# cache = redis\n```",
            "We drop Redis for the cache",
            Kind.DECISION,
        ),
        (
            "```bash\ngit commit -m 'Rejected: UUID prefixes'\n```",
            "Rejected: UUID prefixes",
            Kind.DECISION,
        ),
    ],
)
def test_code_with_its_comment_prose_blocks_and_facts_stand(
    message: str, quote: str, kind: Kind
) -> None:
    assert captured(message, quote, kind).trust == Trust.VERBATIM


def test_a_comment_is_read_where_the_quote_starts_and_on_each_line_it_goes_on() -> None:
    message = "```python\nx = 1  # keep the retries at three\nretries = 3\n```"
    start = message.index("keep")
    assert in_comment(message, start, start + len("keep the retries at three"))
    assert not in_comment(message, start, message.index("= 3"))
    assert not in_comment(message, 10, 15)  # "x = 1": code


def test_a_captured_session_file_keeps_no_badge_on_a_comment(tmp_path: Path) -> None:
    path = tmp_path / "session.json"
    said = "Sketch:\n```python\n# we drop Redis for the cache\nCACHE: dict[str, bytes] = {}\n```"
    path.write_text(
        json.dumps(
            [
                {"role": "user", "content": "What about Redis?"},
                {"role": "assistant", "content": said},
            ]
        ),
        encoding="utf-8",
    )
    transcript = load_transcript(path)
    quote = "we drop Redis for the cache"
    (item,) = build_items(
        [Draft(Kind.DECISION, quote, Trust.VERBATIM, quote, {})], transcript, "s", SNAPSHOT
    )
    assert item.trust == Trust.INFERRED and item.extra["unverified_quote"] == quote
