"""The user's words after a block the host opens their turn with are the user's (issue 27,
round 16; docs/heuristic.md, "Turns the host wrote"). An IDE writes a note of the file open
(`<ide_opened_file>`) into the same message as what the user types next; read as the
host's whole message, the user's answer vanished, and the reply before it stood as the
session's report. Cases of their own, not copied from the labelled corpus."""

from __future__ import annotations

from helpers.drafts import assert_verbatim, assistant, user

from gitmem.capture.extract.heuristic import explain, extract
from gitmem.capture.extract.heuristic.turns import host_text, spoken
from gitmem.core.items import Kind

IDE = (
    "<ide_opened_file>The user opened the file /home/me/app/limits.toml in the IDE. This may "
    "or may not be related to the current task.</ide_opened_file>\n\n"
)
ASKS = (
    "Before I go on: the cache directory was wiped since the session started.\n\n"
    "**Two possibilities — need your call:**\n\n"
    "1. **Start fresh** — rebuild the cache from the upstream feed.\n"
    "2. **Restore it** — `git stash pop` brings the old files back.\n\n"
    "Which is it?"
)


def test_the_users_words_after_an_ide_note_are_read() -> None:
    answer = IDE + "1 we're starting fresh, the old cache was stale anyway"
    messages = [user("warm the cache before the release"), assistant(ASKS), user(answer)]
    assert not host_text(messages[2])
    assert spoken(messages[2]).lstrip() == "1 we're starting fresh, the old cache was stale anyway"
    found = explain(messages, session_items=40)
    # The user's pick is the decision; the question's reply is no report of the session.
    assert [(d.kind, rule) for d, rule in found] == [(Kind.DECISION, "pick")]
    [(draft, _)] = found
    assert draft.quote == "1 we're starting fresh, the old cache was stale anyway"
    assert draft.text.startswith("Start fresh: ")
    assert_verbatim(extract(messages), messages)


def test_the_reply_after_the_users_words_is_the_report() -> None:
    messages = [
        user("warm the cache before the release"),
        assistant("Cache warmed. The loader now reads `limits.toml` at start-up."),
        user(IDE + "also cap it at 500 MB"),
        assistant("Done. The cache is now capped at 500 MB by `max_bytes`."),
    ]
    quotes = [d.quote for d in extract(messages)]
    assert "Done. The cache is now capped at 500 MB by `max_bytes`." in quotes or any(
        q and q.startswith("The cache is now capped at 500 MB") for q in quotes
    )
    assert not any(q and q.startswith("Cache warmed") for q in quotes)


def test_a_last_request_to_commit_after_an_ide_note_still_wraps_the_report() -> None:
    messages = [
        user("warm the cache before the release"),
        assistant("The loader now reads `limits.toml` at start-up and warms the cache."),
        user(IDE + "commit it"),
        assistant("Committed."),
    ]
    found = [(rule, d.quote) for d, rule in explain(messages, session_items=40)]
    wrapped = "The loader now reads `limits.toml` at start-up and warms the cache."
    assert ("report-wrapped", wrapped) in found


def test_an_ide_note_alone_is_still_the_hosts() -> None:
    # Nothing the user typed: the message is the host's, as before, and gives no item.
    messages = [
        user("warm the cache before the release"),
        assistant("The loader now reads `limits.toml` at start-up."),
        user(IDE.strip()),
    ]
    assert host_text(messages[2])
    assert all("limits.toml in the IDE" not in (d.quote or "") for d in extract(messages))
    assert [d.quote for d in extract(messages)] == [
        "The loader now reads `limits.toml` at start-up."
    ]


def test_an_interruption_marker_stays_the_hosts() -> None:
    # What follows an interruption marker in the same message is not read as the user's.
    stopped = user("[Request interrupted by user]\nDecision: we keep the cache local.")
    assert host_text(stopped)
    assert extract([stopped]) == []


def test_the_ide_note_gives_no_item_of_its_own() -> None:
    note = (
        "<ide_selection>The user selected lines 3-4: TODO: port the old error messages"
        "</ide_selection>\nlooks fine"
    )
    messages = [user("review the parser"), assistant("Reviewed: no issues."), user(note)]
    assert not host_text(messages[2])
    assert all("port the old error messages" not in (d.quote or "") for d in extract(messages))
