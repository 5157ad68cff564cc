"""Options a closing reply offers are not its outcome (lists.offered_lists): a list the
paragraph before leads in to with a question, or one the paragraph after asks the reader
to choose from ("Which is it?", "Which approach do you prefer?"), holds candidates; none of
its items is a report unit. A list followed by an offer to go on ("Want me to commit
these?") is what was done, and is read."""

from __future__ import annotations

from helpers.drafts import assistant, user

from gitmem.capture.extract.heuristic import explain

OPTIONS = (
    "The branch was reset since the session started.\n\n"
    "**Two possibilities — need your call:**\n\n"
    "1. **The reset was intentional** — you want a greenfield build, and I drop the parity phase.\n"
    "2. **The reset was unintentional** — `git reset --hard 83e1d15` restores the commits.\n\n"
)


def _quotes(reply: str) -> list[str]:
    return [d.quote or "" for d, _ in explain([user("Rewrite the plan."), assistant(reply)])]


def test_the_options_a_question_after_the_list_asks_about_give_no_item() -> None:
    found = _quotes(OPTIONS + "Which is it?")
    assert not any("reset was intentional" in q or "83e1d15" in q for q in found)


def test_the_options_a_question_before_the_list_leads_in_to_give_no_item() -> None:
    reply = (
        "Which execution approach do you want?\n\n"
        "1. **Subagent-driven** - a fresh subagent per task, reviewed between tasks.\n"
        "2. **Parallel session** - a new session runs the plan in batches.\n"
    )
    assert not any("Subagent-driven" in q or "Parallel session" in q for q in _quotes(reply))


def test_a_list_of_changes_before_an_offer_to_commit_is_read() -> None:
    reply = (
        "The hook tests are sturdier now.\n\n"
        "1. **Session ID**: now uses a proper UUID (`uuidgen`) instead of a timestamp\n"
        "2. **Cleanup**: the temp dir is removed even when a test fails\n\n"
        "Would you like me to commit these changes?"
    )
    found = _quotes(reply)
    assert any("proper UUID" in q for q in found)
