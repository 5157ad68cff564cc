"""A session captured again, its transcript grown, is its own last word: what it said
before and no longer gives ages out, with its reason (docs/lifecycle.md, "Ageing").
Cases of our own."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from helpers.capturing import brief_json, capture, decision, session_file
from helpers.record_values import T0, at, checkpoint, event, item, snapshot

from gitmem.core.records import EVENT_REOPEN
from gitmem.lifecycle.carry import NOT_GIVEN_AGAIN, plan
from gitmem.lifecycle.replay import replay

STEP = item("Then updated the README to match.", quote="Then updated the README to match.")
RULE = item("Keep the parser in src/parser.py.", quote="Keep the parser in src/parser.py.")
GUESS = item("The cache is probably cold", kind="belief", trust="inferred")


def holding(*quotes: str) -> Any:
    return lambda quote: quote in quotes


def test_a_later_capture_that_still_says_it_but_no_longer_gives_it_retires_it() -> None:
    state = replay([checkpoint(STEP, RULE, created=at(0))])
    later = item(RULE.text, quote=RULE.quote)  # the rule is given again, the step is not
    result = plan(
        state,
        [later],
        "s1",
        snapshot("s1-grown"),
        T0 + timedelta(hours=1),
        holds=holding(STEP.quote, RULE.quote),
    )
    assert [(s.id, why) for s, why in result.aged_out] == [(STEP.id, NOT_GIVEN_AGAIN)]
    assert RULE.id in {i.id for i in result.items} | set(result.carried)


def test_what_the_transcript_no_longer_holds_is_not_retired_by_it() -> None:
    # a transcript of the same session id that does not hold the quote (another file of
    # the session) says nothing about it; nor does a capture that is not asked
    state = replay([checkpoint(STEP, created=at(0))])
    for holds in (holding(), None):
        result = plan(state, [], "s1", snapshot("s1-x"), T0 + timedelta(hours=1), holds=holds)
        assert result.aged_out == () and result.carried == (STEP.address,)


def test_another_session_a_side_run_or_an_item_without_a_quote_is_kept() -> None:
    state = replay([checkpoint(STEP, GUESS, created=at(0))])
    for session in ("s2", "s1/agent-a12"):
        result = plan(
            state,
            [],
            session,
            snapshot(session),
            T0 + timedelta(hours=1),
            holds=holding(STEP.quote),
        )
        assert result.aged_out == (), session
    result = plan(state, [], "s1", snapshot("s1-y"), T0 + timedelta(hours=1), holds=holding())
    assert result.aged_out == ()  # the inferred belief has no quote to look for


def test_an_item_someone_reopened_or_another_session_saw_again_is_kept() -> None:
    reopened = replay(
        [checkpoint(STEP, created=at(0)), event(EVENT_REOPEN, STEP.id, created=at(0, minutes=5))]
    )
    result = plan(
        reopened, [], "s1", snapshot("s1-z"), T0 + timedelta(hours=1), holds=holding(STEP.quote)
    )
    assert result.aged_out == ()
    seen = replay([checkpoint(STEP, created=at(0)), checkpoint(STEP, session="s2", created=at(1))])
    result = plan(
        seen, [], "s1", snapshot("s1-w"), T0 + timedelta(days=2), holds=holding(STEP.quote)
    )
    assert result.aged_out == ()  # its last sighting is another session's


def test_a_session_captured_at_every_turn_shows_its_last_word(
    initialised: Path, gm: Any, tmp_path: Path
) -> None:
    when = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
    first = [
        ("user", "Add the exporter. DECISION: use httpx for the HTTP client."),
        ("assistant", "TODO: write the exporter tests."),
    ]
    done = capture(gm, session_file(tmp_path, "s1", first, when))
    (httpx,) = [i["id"] for i in done["items"] if i["kind"] == "decision"]
    grown = [
        *first,
        ("user", "No. DECISION: use requests instead of httpx for the HTTP client."),
        ("assistant", "Switched the client to requests."),
    ]
    path = session_file(tmp_path, "s1", grown, when)
    capture(gm, path)
    shown = {i["id"]: (i["kind"], i["text"]) for i in brief_json(gm)["items"]}
    # the session's last word, as one capture of the grown transcript gives it
    assert httpx not in shown
    assert any(k == "decision" and "requests instead of httpx" in t for k, t in shown.values())
    assert ("open_loop", "Write the exporter tests.") in shown.values()  # still open
    # never silently: the item says why it stopped being carried, and can come back
    said = gm("show", httpx)
    assert said.exit_code == 0 and "its session was captured again" in said.stdout
    assert gm("reverify", httpx, "--transcript", str(path)).exit_code == 0
    assert httpx in {i["id"] for i in brief_json(gm)["items"]}


def test_what_an_agent_tells_adds_to_its_session_and_retires_nothing(
    initialised: Path, gm: Any, tmp_path: Path
) -> None:
    # items an agent gives (--items, the MCP tool) are what it adds, not its whole reading
    when = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
    said = [("user", "Keep the cache local. Ship the parser on Friday.")]
    path = session_file(tmp_path, "s1", said, when)
    one = capture(gm, path, [decision("Keep the cache local", "Keep the cache local.")])
    two = capture(gm, path, [decision("Ship the parser on Friday", "Ship the parser on Friday.")])
    shown = {i["id"] for i in brief_json(gm)["items"]}
    assert {one["items"][0]["id"], two["items"][0]["id"]} <= shown
