"""Two forms of a user's decision phrase (issue 27, round 16; docs/heuristic.md, *Markers*):
"actually" opens a turn of course as "so" or "ok" does ("actually lets go with the API key
approach you recommended"), and "let's leave X out / as is / alone / for now" chooses as
"let's keep" or "let's drop" does. Cases of their own, not copied from the labelled corpus."""

from __future__ import annotations

import pytest
from helpers.drafts import assert_verbatim, assistant, user

from gitmem.capture.extract.heuristic import explain, extract
from gitmem.core.items import Kind

OFFER = "Two ways to sign the webhook: a shared secret or mTLS. I'd recommend the shared secret."


def _decisions(said: str) -> list[str]:
    messages = [user("sign the webhook calls"), assistant(OFFER), user(said), assistant("Done.")]
    drafts = extract(messages)
    assert_verbatim(drafts, messages)
    return [d.quote or "" for d in drafts if d.kind == Kind.DECISION]


@pytest.mark.parametrize(
    "said",
    [
        "actually lets go with the shared secret approach you recommended",
        "Actually, let's not rotate the secret on every deploy.",
        "Let's leave mTLS out for now, but keep the branch around.",
        "let's leave the retry count as is",
        "let's leave the old endpoint alone",
    ],
)
def test_a_users_decision_in_these_forms_is_a_decision(said: str) -> None:
    assert _decisions(said) == [said]


@pytest.mark.parametrize(
    "said",
    [
        "Actually, let me check the logs first.",  # narration of the next step
        "Actually the parser is fine.",  # a statement, no decision phrase
        "lets leave a comment on the PR",  # "leave" that chooses nothing
        "let's leave it",  # names nothing
    ],
)
def test_what_these_forms_do_not_reach(said: str) -> None:
    assert _decisions(said) == []


def test_the_assistants_actually_lets_is_read_as_its_lets_always_was() -> None:
    messages = [
        user("sign the webhook calls"),
        assistant("Actually, let's go with the shared secret: mTLS needs a proxy we don't run."),
        user("ok"),
        assistant("Done."),
    ]
    rules = [rule for _, rule in explain(messages)]
    assert rules == ["decision-start"]
