"""A user's pick among the options the reply before offered is a decision in the user's
words (issue 27, part 3; docs/heuristic.md, "A pick among options"). Cases of their own,
not copied from the labelled corpus."""

from __future__ import annotations

from helpers.drafts import assert_verbatim, assistant, user

from gitmem.capture.extract.heuristic import explain, extract
from gitmem.core.items import Kind

OFFER = (
    "The rate limiter can live in two places. Which do you prefer?\n\n"
    "1. **Nginx limit_req** - one config block, no code\n"
    "2. **Middleware in the app** - per-user limits, needs Redis\n"
)


def _choices(messages: list) -> list:
    return [d for d, rule in explain(messages, session_items=40) if rule == "pick"]


def test_a_pick_that_opens_with_an_options_label_is_a_decision_named_by_its_option() -> None:
    pick = "1, but make it sixty requests per minute per client"
    messages = [
        user("add rate limiting to the public API"),
        assistant(OFFER),
        user(pick),
        assistant("Done. The limiter is in place and the tests pass."),
    ]
    [draft] = _choices(messages)
    assert draft.kind == Kind.DECISION
    assert draft.quote == pick
    assert draft.text.startswith("Nginx limit_req: ")
    assert draft in extract(messages)
    assert_verbatim(extract(messages), messages)


def test_a_pick_said_as_option_n_or_go_with_n() -> None:
    for pick in ("Option 2, and keep the limits in the settings file", "let's go with 2 then"):
        messages = [user("add rate limiting"), assistant(OFFER), user(pick)]
        [draft] = _choices(messages)
        assert draft.quote == pick
        assert draft.text.startswith("Middleware in the app: ")


def test_a_bare_label_whose_option_cannot_be_named_gives_no_item() -> None:
    # An option's name that adds a number the quote lacks is not put in the text.
    offer = "Which do you prefer?\n\n1. Limit to 60 per minute\n2. Limit to 120 per minute\n"
    messages = [user("add rate limiting"), assistant(offer), user("Option 1")]
    assert _choices(messages) == []


def test_no_pick_without_options_offered_or_a_question() -> None:
    steps = (
        "To finish the limiter we'd need to:\n\n1. Add the config block\n2. Reload nginx\n\n"
        "That is all."
    )
    replies = [
        "The limiter is in place; one config block covers every route.",  # no list
        steps,  # a list of steps, nothing asked
    ]
    for reply in replies:
        messages = [user("add rate limiting"), assistant(reply), user("2 and then commit it")]
        assert _choices(messages) == []


def test_a_line_of_the_users_own_list_or_a_line_quoted_back_is_no_pick() -> None:
    for said in (
        "1. keep the old endpoint for a release\n2. log every rejected request",
        "2. Middleware in the app - why would it need Redis?",
        "3 and also the docs",  # no option 3
        "a fix for the login page first",  # the article, not option (a)
    ):
        messages = [user("add rate limiting"), assistant(OFFER), user(said)]
        assert _choices(messages) == []


def test_a_pick_of_two_options_keeps_the_users_words_without_one_options_name() -> None:
    pick = "1 and 2, the middleware only for the admin routes"
    messages = [user("add rate limiting"), assistant(OFFER), user(pick)]
    [draft] = _choices(messages)
    assert draft.text == pick


def test_a_pick_that_ends_the_session_is_the_decision_not_a_request_left_open() -> None:
    pick = "2, with the limits read from the settings file"
    messages = [user("add rate limiting"), assistant(OFFER), user(pick)]
    assert [(d.kind, d.quote) for d in extract(messages)] == [(Kind.DECISION, pick)]


def test_a_pick_another_marker_also_reads_is_one_item_that_names_the_option() -> None:
    pick = "let's go with option 2 then"
    messages = [
        user("add rate limiting"),
        assistant(OFFER),
        user(pick),
        assistant("Done. The limiter is in place and the tests pass."),
    ]
    picked = [d for d in extract(messages) if d.quote == pick]
    assert [d.text for d in picked] == ["Middleware in the app: let's go with option 2 then"]


INLINE_OFFER = (
    "Options: (1) a token bucket in Redis, (2) the caddy rate_limit module, (3) an in-app "
    "sliding window. I recommend caddy: the API already sits behind it."
)


def test_a_pick_by_the_options_name_is_a_decision_named_by_its_option() -> None:
    pick = "Go with caddy. But allow bursts of 20."
    messages = [user("we need rate limiting, what do you suggest?"), assistant(INLINE_OFFER)]
    [draft] = _choices([*messages, user(pick), assistant("Done: caddy limits each client.")])
    assert draft.kind == Kind.DECISION
    assert draft.quote == pick
    assert draft.text.startswith("the caddy rate_limit module: ")


def test_a_pick_by_name_after_a_list_of_options() -> None:
    for pick in ("yeah let's do the middleware then", "okay, let's try middleware"):
        [draft] = _choices([user("add rate limiting"), assistant(OFFER), user(pick)])
        assert draft.quote == pick
        assert draft.text.startswith("Middleware in the app: ")


def test_a_label_among_options_offered_inside_a_line() -> None:
    offer = "We could (a) keep the cache warm on deploy, or (b) drop it. Which do you prefer?"
    [draft] = _choices([user("the cache is slow"), assistant(offer), user("b, please")])
    assert draft.text.startswith("drop it: ")


def test_no_pick_by_a_name_two_options_share_or_none_has() -> None:
    offer = (
        "Which cache do you prefer?\n\n1. **Redis cache** - shared, needs a server\n"
        "2. **In-process cache** - per worker, nothing to run\n"
    )
    for said in ("go with the cache", "let's use postgres instead", "let's do it tomorrow"):
        assert _choices([user("add a cache"), assistant(offer), user(said)]) == []


def test_no_pick_by_a_request_that_quotes_a_line_of_the_reply() -> None:
    offer = (
        "Which fix do you prefer?\n\n1. **Retry in `fetch()`** - three attempts\n"
        "2. **Fail fast** - surface the error to the caller\n"
    )
    said = "let's do Add a cache layer in fetch() before the retries"
    assert _choices([user("fetch is flaky"), assistant(offer), user(said)]) == []
