"""A decision an earlier session made, that a later session turns away from: flagged to
verify, with the sentence that says so, never dropped in silence."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from helpers.capturing import capture, session_file

from gitmem.capture.extract.lastword import decision_turns, turned_away, user_turns
from gitmem.core.items import Draft
from gitmem.core.transcript import Message

CHOSE = "The session cache now uses Redis (`cache/redis.py`)."
REDIS = {"kind": "decision", "text": "The session cache uses Redis", "trust": "verbatim"}


def decision_after(
    gm: Any, repo: Path, lines: list[tuple[str, str]], items: list[dict[str, Any]], day: int = 3
) -> dict[str, Any]:
    """The brief's Redis decision after a later session of *lines* (and *items*)."""
    first = [("user", "Use Redis for the session cache."), ("assistant", CHOSE)]
    when = datetime(2026, 11, 2, 10, tzinfo=UTC)
    capture(gm, session_file(repo.parent, "s1", first, when), [{**REDIS, "quote": CHOSE}])
    later = datetime(2026, 11, day, 10, tzinfo=UTC)
    capture(gm, session_file(repo.parent, "s2", lines, later), items)
    brief = gm("brief", "--format", "json").json()
    (item,) = [i for i in brief["items"] if i["text"] == REDIS["text"]]
    assert gm("verify").exit_code == 0
    return dict(item)


def test_a_later_user_turning_away_flags_the_decision(gm: Any, initialised: Path) -> None:
    said = "Decision: drop Redis, the session cache moves to Postgres."
    item = decision_after(gm, initialised, [("user", said), ("assistant", "Done.")], [])
    assert item["contradiction"] == f"state changed: turned away from in a later session: {said}"
    assert f"turned away from in a later session: {said}" in gm("brief").stdout


def test_a_later_decision_turning_away_flags_it(gm: Any, initialised: Path) -> None:
    moved = "We keep the session cache in Postgres instead of Redis."
    new = {"kind": "decision", "text": "Session cache in Postgres", "trust": "verbatim"}
    lines = [("user", "Move the cache."), ("assistant", moved)]
    item = decision_after(gm, initialised, lines, [{**new, "quote": moved}])
    assert item["contradiction"] == (f"state changed: turned away from in a later session: {moved}")


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("Should we drop Redis for the session cache?", 3),  # a question
        ("Drop the Redis warm-up script from CI.", 3),  # another decision sharing a word
        ("Keep Redis for the session cache.", 3),  # no turning away
        ("Decision: drop Redis, the session cache moves to Postgres.", 1),  # an older session
    ],
)
def test_a_question_another_subject_or_an_older_session_flags_nothing(
    gm: Any, initialised: Path, said: str, day: int
) -> None:
    item = decision_after(gm, initialised, [("user", said)], [], day=day)
    assert item["contradiction"] is None


def test_what_turns_away_is_read_as_the_session_s_last_word_reads_it() -> None:
    redis = Draft("decision", "Use Redis for the session cache", "verbatim", CHOSE, {})
    said = [
        Message("assistant", "Noted."),
        Message("user", "Stop using Redis for the session cache. Thanks!"),
    ]
    assert turned_away(redis, user_turns(said)) == "Stop using Redis for the session cache."
    assert (
        turned_away(
            redis, user_turns([Message("assistant", "Stop using Redis for the session cache.")])
        )
        is None
    )
    moved = Draft(
        "decision",
        "Cache in Postgres",
        "verbatim",
        "the session cache lives in Postgres instead of Redis",
        {},
    )
    assert turned_away(redis, decision_turns([moved])) == moved.quote
    assert turned_away(moved, decision_turns([redis])) is None
