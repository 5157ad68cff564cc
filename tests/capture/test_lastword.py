"""The session's last word wins, whatever the extractor: each rule with its own cases, and
the cases it must leave alone."""

from __future__ import annotations

from pytest import MonkeyPatch

from gitmem.capture.extract import lastword
from gitmem.capture.extract.lastword import last_word
from gitmem.capture.extract.reports import Report
from gitmem.core.items import Draft
from gitmem.core.transcript import Message


def said(kind: str, text: str, quote: str) -> Draft:
    return Draft(kind, text, "verbatim", quote, {})


def kept(drafts: list[Draft], messages: list[Message]) -> list[str]:
    return [d.text for d in last_word(drafts, messages)]


def test_the_same_claim_said_twice_is_one_item_the_later() -> None:
    messages = [
        Message("user", "Decision: keep the parser in src/parser.py."),
        Message("assistant", "Agreed, we keep the parser in src/parser.py."),
    ]
    early = said("decision", "Keep the parser in src/parser.py", "keep the parser in src/parser.py")
    late = said(
        "decision", "Keep the parser in src/parser.py", "we keep the parser in src/parser.py"
    )
    assert last_word([late, early], messages) == [late]


def test_a_changed_value_supersedes_the_earlier_one() -> None:
    messages = [
        Message("user", "The retry limit is 3 for now."),
        Message("user", "We raised it: the retry limit is 30."),
    ]
    early = said("fact", "The retry limit is 3", "The retry limit is 3")
    late = said("fact", "The retry limit is 30", "the retry limit is 30")
    assert kept([early, late], messages) == ["The retry limit is 30"]


def test_an_answer_the_user_overrode_two_messages_later_is_dropped() -> None:
    messages = [
        Message("assistant", "Which HTTP client should the importer use?"),
        Message("user", "Decision: use httpx for the importer."),
        Message("assistant", "Done, httpx is wired in."),
        Message("user", "Actually, let's use requests instead of httpx."),
    ]
    answer = said("decision", "Use httpx for the importer", "use httpx for the importer")
    assert kept([answer], messages) == []
    assert kept([answer], messages[:3]) == ["Use httpx for the importer"]
    asked = Message("user", "Actually, should we use requests instead of httpx?")
    assert kept([answer], [*messages[:3], asked]) == ["Use httpx for the importer"]


def test_a_changed_plan_drops_the_plan_it_replaced() -> None:
    messages = [
        Message("user", "We decided to store sessions in Postgres."),
        Message("user", "We switched from Postgres to SQLite for sessions."),
    ]
    plan = said("decision", "Store sessions in Postgres", "store sessions in Postgres")
    change = said(
        "decision", "Store sessions in SQLite", "We switched from Postgres to SQLite for sessions"
    )
    assert kept([plan, change], messages) == ["Store sessions in SQLite"]


def test_a_recaps_open_loop_later_reported_done_is_closed() -> None:
    messages = [
        Message(
            "assistant", "Summary so far.\nNext steps:\n- write the sync command\n- add retries"
        ),
        Message("assistant", "Done: the sync command is written and tested."),
    ]
    sync = said("open_loop", "Write the sync command", "write the sync command")
    retries = said("open_loop", "Add retries to the fetcher", "add retries")
    assert kept([sync, retries], messages) == ["Add retries to the fetcher"]


def test_a_loop_named_by_its_id_is_closed_by_a_report_of_that_id() -> None:
    # the report is one sentence though its id and a path hold dots ("gqc.6", "a.py")
    messages = [
        Message("assistant", "Next:\n- **proj-gqc.6** (in_progress): close the review session"),
        Message("assistant", "gqc.6 done and pushed, see src/review.py for the handler."),
    ]
    loop = said("open_loop", "proj-gqc.6: close the review session", "close the review session")
    assert kept([loop], messages) == []
    for report in ("gqc.5 done and pushed.", "Next, gqc.6 is still to be done."):
        other = [messages[0], Message("assistant", report)]
        assert kept([loop], other) == ["proj-gqc.6: close the review session"], report


def test_a_session_that_ends_all_done_closes_every_loop_before_it() -> None:
    messages = [
        Message("assistant", "TODO: migrate the schema.\nTODO: update the changelog."),
        Message("user", "go on"),
        Message("assistant", "All done. The entire epic is complete."),
    ]
    loops = [
        said("open_loop", "Migrate the schema", "TODO: migrate the schema."),
        said("open_loop", "Update the changelog", "TODO: update the changelog."),
    ]
    assert kept(loops, messages) == []
    assert kept(loops, messages[:2]) == ["Migrate the schema", "Update the changelog"]
    # a final reply that asks, says not yet, or shows a tool's output saying it closes none
    for final in (
        "Is it all done? I will check the changelog next.",
        "Not all done yet: the changelog is next.",
        "Ran the checks.\n  ⎿  All done, everything is complete.",
    ):
        assert kept(loops, [*messages[:2], Message("assistant", final)]) == [
            "Migrate the schema",
            "Update the changelog",
        ], final


def test_what_no_later_statement_reverses_stays() -> None:
    messages = [
        Message("user", "TODO: fix test 3.\nTODO: fix test 4."),
        Message("user", "Decision: push the release branch tonight."),
        Message("user", "Decision: do not push to main."),
        Message("assistant", "Done: the docs are updated."),
        Message("user", "Is the parser done?"),
    ]
    drafts = [
        said("open_loop", "Fix test 3", "fix test 3."),
        said("open_loop", "Fix test 4", "fix test 4."),
        said("decision", "Push the release branch tonight", "push the release branch tonight"),
        said("decision", "Do not push to main", "do not push to main"),
        Draft("belief", "The parser is slow", "inferred", None, {}),
    ]
    assert kept(drafts, messages) == [d.text for d in drafts]


def test_a_user_undoing_a_decision_reverses_it() -> None:
    decision = said(
        "decision", "Use Redis for the session cache", "Let's use Redis for the session cache."
    )
    first = [
        Message("user", "Let's use Redis for the session cache."),
        Message("assistant", "Done: the session cache is in Redis now."),
    ]
    for undo in (
        "Revert the Redis session cache, it broke the login.",
        "Please remove Redis from the session cache again.",
        "Don't use Redis for the session cache after all.",
        "Get rid of Redis in the session cache.",
        "Roll back Redis for the sessions, the cache is flaky.",
    ):
        assert kept([decision], [*first, Message("user", undo)]) == [], undo
    for other in (
        "Revert the last commit on the session page.",  # another thing undone
        "Remove the debug logging from the session cache.",
        "Don't use Redis for the rate limiter.",  # Redis, but another decision
        "Should we revert the Redis session cache?",
    ):
        assert kept([decision], [*first, Message("user", other)]) == [decision.text], other


def test_a_user_turning_away_from_a_word_of_another_decision_leaves_it() -> None:
    # The user's later sentences turn away from "only" and "commit", words the earlier
    # decisions hold, but they speak of other things: nothing is reversed.
    messages = [
        Message("user", "We should only run explain on unique commits."),
        Message("assistant", "Decision: metadata must not include the commit SHA."),
        Message("user", "Show the whole output, not only the summary. Replace the commit hook."),
    ]
    drafts = [
        said(
            "decision",
            "Run explain only on unique commits",
            "We should only run explain on unique commits.",
        ),
        said(
            "decision",
            "Metadata must not include the commit SHA",
            "metadata must not include the commit SHA.",
        ),
    ]
    assert kept(drafts, messages) == [d.text for d in drafts]


def test_a_user_turning_away_from_the_decision_itself_reverses_it() -> None:
    messages = [
        Message("user", "We should only run explain on unique commits."),
        Message("assistant", "Done."),
        Message(
            "user", "Thanks. On second thought, run explain on every commit, not only unique ones."
        ),
    ]
    rule = said(
        "decision",
        "Run explain only on unique commits",
        "We should only run explain on unique commits.",
    )
    assert kept([rule], messages) == []


def test_a_later_decision_turning_away_from_a_shared_word_leaves_the_earlier() -> None:
    messages = [
        Message("user", "Decision: keep the pricing table sorted by date."),
        Message("user", "Decision: render the changelog as bullets instead of the table."),
    ]
    table = said(
        "decision",
        "Keep the pricing table sorted by date",
        "keep the pricing table sorted by date.",
    )
    bullets = said(
        "decision",
        "Render the changelog as bullets instead of the table",
        "render the changelog as bullets instead of the table.",
    )
    assert kept([table, bullets], messages) == [table.text, bullets.text]


REDIS_SESSION = [
    Message("user", "Decision: cache the rendered pages for five minutes."),
    Message("user", "Let's use Redis for the session cache. Keep the session TTL at 30 minutes."),
    Message("assistant", "OK, I'll set up Redis for the session cache with that TTL."),
]
"""Decisions a replacement may reach: the pages, Redis (said twice), the TTL."""
REDIS_DRAFTS = [
    said(
        "decision",
        "Cache rendered pages for five minutes",
        "cache the rendered pages for five minutes.",
    ),
    said("decision", "Use Redis for the session cache", "Let's use Redis for the session cache."),
    said("decision", "Keep the session TTL at 30 minutes", "Keep the session TTL at 30 minutes."),
    said(
        "decision",
        "Set up Redis for the session cache",
        "I'll set up Redis for the session cache with that TTL.",
    ),
]


def test_a_replacement_that_names_nothing_drops_the_choice_it_replaced() -> None:
    # "instead" with nothing after it, "scratch that": what is replaced is the latest
    # choice about the same subject, said once by the user and once more in the reply;
    # the pages (another subject) and the TTL (another choice) stay.
    stays = [REDIS_DRAFTS[0].text, REDIS_DRAFTS[2].text]
    for replacement in (
        "Actually, scratch that, use the in-process LRU cache instead.",
        "On second thought, go with an in-process LRU for the session cache.",
    ):
        messages = [*REDIS_SESSION, Message("user", replacement)]
        assert kept(REDIS_DRAFTS, messages) == stays, replacement
        made = said("decision", "Use an in-process LRU cache", replacement)
        assert kept([*REDIS_DRAFTS, made], messages) == [*stays, made.text], replacement


def test_a_replacement_made_a_decision_replaces_whoever_says_it() -> None:
    messages = [*REDIS_SESSION, Message("assistant", "We'll use the in-process LRU cache instead.")]
    made = said(
        "decision", "Use the in-process LRU cache", "We'll use the in-process LRU cache instead."
    )
    assert kept([*REDIS_DRAFTS, made], messages) == [
        REDIS_DRAFTS[0].text,
        REDIS_DRAFTS[2].text,
        made.text,
    ]


def test_what_is_not_a_replacement_of_that_choice_leaves_it() -> None:
    everything = [d.text for d in REDIS_DRAFTS]
    for later in (
        Message("user", "Should we use the in-process LRU cache instead?"),  # a question
        Message("user", "Write the changelog in Markdown instead."),  # another subject
        Message("assistant", "I tried the in-process LRU cache instead."),  # no one's decision
        Message("user", "Use the LRU cache instead of a dict for the parser."),  # names a thing
    ):
        assert kept(REDIS_DRAFTS, [*REDIS_SESSION, later]) == everything, later.text
    # said before the choice, a replacement replaces nothing of it
    before = [
        Message("user", "Scratch that, use the in-process LRU cache instead."),
        *REDIS_SESSION,
    ]
    assert kept(REDIS_DRAFTS, before) == everything


def test_a_loop_reported_done_in_another_language_is_closed() -> None:
    messages = [
        Message("assistant", "下一步：给订单表添加索引。然后更新文档。"),
        Message("user", "继续"),
        Message("assistant", "订单表的索引已经添加完成。文档还没有更新。"),
    ]
    index = said("open_loop", "给订单表添加索引", "给订单表添加索引。")
    docs = said("open_loop", "更新文档", "然后更新文档。")
    assert kept([index, docs], messages) == ["更新文档"]
    assert kept([index, docs], messages[:2]) == ["给订单表添加索引", "更新文档"]


def test_a_proposal_the_user_rejects_is_dropped() -> None:
    proposal = "I'll switch the importer to httpx for async support."
    switch = said("decision", "Switch the importer to httpx", proposal)
    for rejection in ("No, keep requests. We don't need async.", "Nope.", "No — not like that."):
        messages = [Message("assistant", proposal), Message("user", rejection)]
        assert kept([switch], messages) == [], rejection
    for answer in ("No problem, go ahead.", "No need to ask, just do it.", "Noted, thanks."):
        messages = [Message("assistant", proposal), Message("user", answer)]
        assert kept([switch], messages) == [switch.text], answer
    # "No." answers the question the reply ends with, not its decision
    asked = Message("assistant", f"{proposal} Should I also update the docs?")
    assert kept([switch], [asked, Message("user", "No.")]) == [switch.text]
    # what the user said before the proposal rejects nothing of it
    first = [Message("user", "No, not yet."), Message("assistant", proposal)]
    assert kept([switch], first) == [switch.text]


def test_a_rejection_reaches_only_the_decisions_it_names_in_a_long_reply() -> None:
    plan = [
        said("decision", "Serve the API on port 8000", "Serve the API on port 8000."),
        said("decision", "Store uploads in S3", "Store uploads in S3."),
        said("decision", "Run migrations at startup", "Run migrations at startup."),
    ]
    reply = Message("assistant", "Plan:\n" + "\n".join(d.quote or "" for d in plan))
    named = [reply, Message("user", "No, the port must be 8080.")]
    assert kept(plan, named) == [plan[1].text, plan[2].text]
    # a bare "No." to a reply of more than two decisions: it is not said which
    assert kept(plan, [reply, Message("user", "No.")]) == [d.text for d in plan]
    assert kept(plan[:2], [reply, Message("user", "No.")]) == []


def test_a_loop_the_user_calls_off_is_closed() -> None:
    report = Message(
        "assistant", "Next steps:\n- Update the docs for the new flag\n- Run the k6 load test"
    )
    loops = [
        said("open_loop", "Update the docs for the new flag", "Update the docs for the new flag"),
        said("open_loop", "Run the k6 load test", "Run the k6 load test"),
    ]
    for off in (
        "Skip the k6 load test, we don't need it for this release.",
        "No need to run the k6 load test.",
        "Don't bother with the k6 load test.",
    ):
        assert kept(loops, [report, Message("user", off)]) == [loops[0].text], off
    for not_off in (
        "Don't skip the k6 load test.",
        "Should we skip the k6 load test?",
        "Skip the flaky upload test for now.",  # another loop's words
    ):
        assert kept(loops, [report, Message("user", not_off)]) == [d.text for d in loops], not_off
    # only the user calls a loop off
    said_by_agent = Message("assistant", "I'll skip the k6 load test.")
    assert kept(loops, [report, said_by_agent]) == [d.text for d in loops]


def test_what_nobody_said_has_no_last_word() -> None:
    # a file the agent read, and a reminder the host wrote into the user's turn, never
    # supersede, reverse or close what the session said
    messages = [
        Message("user", "The retry limit is 3 for every uploader job."),
        Message("user", "Use httpx for the client. TODO: write the uploader tests."),
        Message("tool_result", "Note: the retry limit is 30 for every uploader job."),
        Message("tool_result", "uploader tests written and fixed"),
        Message("user", "<system-reminder>We switched from httpx to requests.</system-reminder>"),
        Message("assistant", "Reading on."),
    ]
    early = said("fact", "The retry limit is 3", "The retry limit is 3 for every uploader job.")
    late = said("fact", "The retry limit is 30", "the retry limit is 30 for every uploader job.")
    client = said("decision", "Use httpx for the client", "Use httpx for the client.")
    loop = said("open_loop", "Write the uploader tests", "TODO: write the uploader tests.")
    assert kept([early, late, client, loop], messages) == [
        "The retry limit is 3",
        "The retry limit is 30",  # kept as it is, with no place (its quote will fail)
        "Use httpx for the client",
        "Write the uploader tests",
    ]


def test_only_what_is_said_after_an_item_is_read_for_it(monkeypatch: MonkeyPatch) -> None:
    """A report or a user's turning away before every item it could close or reverse is
    not read: a long session costs its messages after its items, not all of them."""
    read: list[str] = []
    real_fold, real_reports = lastword.fold, lastword.reports_in

    def fold(text: str) -> str:
        read.append(text)
        return real_fold(text)

    def reports_in(said: str, by_user: bool) -> list[Report]:
        read.append(said)
        return real_reports(said, by_user)

    monkeypatch.setattr(lastword, "fold", fold)
    monkeypatch.setattr(lastword, "reports_in", reports_in)
    early = [Message("user", "Done: fixed the cache. No, drop the parser.")] * 50
    loop = said("open_loop", "Wire the retry queue", "TODO: wire the retry queue")
    closing = Message("assistant", "Done: wired the retry queue.")
    messages = [*early, Message("assistant", "TODO: wire the retry queue"), closing]
    assert kept([loop], messages) == []
    assert read == [closing.text]  # no decision: no user's message is folded
    read.clear()
    kept_loop = [*early, Message("assistant", "TODO: wire the retry queue")]
    assert kept([loop], kept_loop) == ["Wire the retry queue"]
    assert read == []


def test_a_statement_in_the_same_message_neither_closes_nor_reverses() -> None:
    """Only a later message has the last word, right after the item's as much as far on."""
    loop = said("open_loop", "Wire the retry queue", "TODO: wire the retry queue")
    both = Message("user", "TODO: wire the retry queue. Done: wired the retry queue.")
    later = Message("assistant", "Done: wired the retry queue.")
    assert kept([loop], [both]) == ["Wire the retry queue"]
    assert kept([loop], [both, later]) == []
    assert kept([loop], [both, Message("user", "ok"), later]) == []
    decision = said("decision", "Use httpx for the importer", "use httpx for the importer")
    chose = Message("user", "Let's use httpx for the importer.")
    away = Message("user", "No, use requests instead of httpx for the importer.")
    assert kept([decision], [chose]) == ["Use httpx for the importer"]
    assert kept([decision], [chose, away]) == []
    assert kept([decision], [chose, Message("assistant", "ok"), away]) == []


def test_the_final_message_is_read_for_all_done_only_when_a_loop_may_close(
    monkeypatch: MonkeyPatch,
) -> None:
    calls: list[int] = []
    real = lastword.final_all_done

    def final_all_done(messages: list[Message]) -> int | None:
        calls.append(len(messages))
        return real(messages)

    monkeypatch.setattr(lastword, "final_all_done", final_all_done)
    messages = [
        Message("user", "Let's use httpx for the importer."),
        Message("assistant", "TODO: wire the retry queue. All done, everything is complete."),
    ]
    decision = said("decision", "Use httpx for the importer", "use httpx for the importer")
    loop = said("open_loop", "Wire the retry queue", "TODO: wire the retry queue")
    assert kept([], messages) == [] and kept([decision], messages) == [decision.text]
    assert calls == []
    assert kept([decision, loop], messages) == [decision.text, loop.text]
    assert calls == [2]


def test_a_proposal_the_user_rejects_by_naming_its_thing_is_dropped() -> None:
    suggestion = "I'd suggest Redis, since we run four replicas."
    redis = said("decision", "Use Redis for the rate limiter", suggestion)
    lru = said("decision", "Add an LRU in front of the store", "Add an LRU in front of it.")
    reply = Message("assistant", f"{suggestion} Add an LRU in front of it.")
    for rejection in (
        "Actually no Redis, ops won't run another service.",
        "no Redis. Keep it in Postgres.",
        "Hmm, no redis please",
    ):
        assert kept([redis, lru], [reply, Message("user", rejection)]) == [lru.text], rejection
    # it rejects only what it names, even after a question, and asks nothing
    asked = Message("assistant", f"{suggestion} Should I add an LRU in front of it?")
    assert kept([redis], [asked, Message("user", "No Redis.")]) == []
    for answer in (
        "No Memcached either, Redis is fine.",
        "no redis cluster needed?",
        "No need for Redis docs.",
        "Actually no problem, go with Redis.",
    ):
        assert kept([redis], [reply, Message("user", answer)]) == [redis.text], answer


def test_one_statement_read_twice_keeps_the_reading_its_quote_supports() -> None:
    sentence = (
        "Also we decided initials are rendered from the first letter of the first and last "
        "name, uppercase, never from the email."
    )
    messages = [Message("user", sentence), Message("assistant", "Noted.")]
    whole = said(
        "decision",
        "Initials come from the first letters of the first and last name, never the email",
        sentence[5:],
    )
    fragment = said("decision", "Initials are taken from the email", "never from the email")
    assert kept([whole, fragment], messages) == [whole.text]
    assert kept([fragment, whole], messages) == [whole.text]
    # both supported: the one that quotes more
    short = said("decision", "Never from the email", "never from the email")
    assert kept([whole, short], messages) == [whole.text]


# ------------------------- said in other words (benchmarks/lastword_attacks.py)


def _decided(first: str, later: str, decision: str | None = None) -> list[str]:
    """What stays of the decision the user's *first* message states (its own words, or
    *decision*) once the user says *later*, a reply between them."""
    draft = said("decision", decision or first.rstrip("."), first)
    messages = [Message("user", first), Message("assistant", "Done."), Message("user", later)]
    return kept([draft], messages)


def test_a_replacement_in_other_words_drops_the_choice_it_replaces() -> None:
    for first, later in (
        (
            "Use a plain dict to cache resolved hostnames.",
            "Let's go with an LRU cache for the hostnames after all.",
        ),
        (
            "Use tabs for indentation in the generated files.",
            "I changed my mind: spaces for indentation in the generated files.",
        ),
        (
            "Store the event timestamps as local time.",
            "Scrap that, store the event timestamps in UTC.",
        ),
        ("Switch the logger to structlog.", "hmm, revert the logger to what we had before."),
        (
            "Use SQLite for the prototype.",
            "Thinking about it more, use Postgres for the prototype.",
        ),
        (
            "Retry the uploader with exponential backoff.",
            "Switch the uploader retries to a fixed 2 second delay.",
        ),
        ("License the package under MIT.", "Hmm, make the package license Apache-2.0 actually."),
        (
            "Deploy the API to Heroku and the worker to Fly.",
            "New plan: deploy both the API and the worker to Fly.",
        ),
        ("Wir nutzen Kafka für die Events.", "Planänderung: wir nutzen RabbitMQ für die Events."),
    ):
        assert _decided(first, later) == [], later


def test_what_replaces_nothing_of_that_choice_leaves_it() -> None:
    first = "Use Postgres for the analytics store."
    for later in (
        "I changed my mind about the logo colour, make it blue.",  # another subject
        "If the analytics store gets slow, use ClickHouse instead.",  # on a condition
        "Actually, the tokenizer tests live in tests/unit.",  # no choice of the store
        "Switch the CI image to Ubuntu 24.04.",
        "Should we use ClickHouse for the analytics store instead?",
    ):
        assert _decided(first, later) == [first.rstrip(".")], later


def test_a_thing_turned_away_from_in_other_words_reverses_the_decision() -> None:
    for first, later in (
        ("Let's use Redis for the job queue.", "Forget Redis, the job queue can live in Postgres."),
        (
            "Use Celery for the background email jobs.",
            "Ditch Celery for the email jobs, cron is enough.",
        ),
        (
            "Keep the v1 routes for the old mobile clients.",
            "Kill the v1 routes, the old mobile clients are gone.",
        ),
        (
            "Implement OAuth sign-in.",
            "Let's do API keys for sign-in for now, OAuth can come later.",
        ),
        (
            "Use Tailwind for the dashboard.",
            "Plain CSS modules for the dashboard, Tailwind is overkill.",
        ),
        ("Let's use MongoDB for the audit log.", "Postgres for the audit log, forget Mongo."),
        ("Usa Redis para la caché de sesiones.", "Mejor no uses Redis para la caché de sesiones."),
        (
            "Migrate the CI to GitHub Actions this sprint.",
            "We're postponing the CI migration to GitHub Actions.",
        ),
    ):
        assert _decided(first, later) == [], later


def test_a_turning_away_that_is_negated_conditional_or_someone_elses_leaves_it() -> None:
    first = "Use Redis for the session cache."
    for later in (
        "Don't remove Redis from the session cache when you refactor.",
        "If we ever drop Redis, the session cache needs a new home.",
        "Once the new cluster is up, remove Redis from the session cache.",
        "The docs say to drop Redis for the session cache, but we'll keep it.",
        "Bob wants to drop Redis for the session cache; we keep it.",
        "Forget Redis for the rate limiter, an in-memory counter is enough.",
    ):
        assert _decided(first, later) == [first.rstrip(".")], later


def test_the_opposite_of_what_a_decision_did_to_a_thing_reverses_it() -> None:
    for first, later in (
        ("Remove the legacy CSV export.", "On reflection, keep the CSV export; customers use it."),
        ("Migrate the build from webpack to Vite.", "Let's stick with webpack for the build."),
        ("Split the monolith into three services.", "Let's keep the monolith and modularize it."),
        ("Enable the new checkout flow for all users.", "Disable the new checkout flow again."),
        ("Pin numpy to 1.26 in the lock file.", "Unpin numpy again, the 2.0 wheels are out."),
        ("Drop the retry on 404 responses.", "Bring back the retry on 404 responses."),
    ):
        assert _decided(first, later) == [], later
    for first, later in (
        (
            "Migrate the build from webpack to Vite.",
            "Let's stick with Vite for the build.",
        ),  # its choice
        (
            "Replace the retry loop with tenacity.",
            "Keep the retry loop tests green while you refactor.",
        ),
        ("Disable telemetry by default.", "Enable verbose logging in CI."),
        ("Add an index on users.email.", "Remove the unused index on users.created_at."),
    ):
        assert _decided(first, later) == [first.rstrip(".")], later


def test_a_decision_negated_in_its_own_words_is_reversed() -> None:
    for first, later in (
        ("Drop Python 3.8 support.", "Don't drop 3.8 yet; the rest is fine."),
        (
            "Run the migration automatically at startup.",
            "Don't run the migration automatically at startup.",
        ),
        (
            "We'll support Python 3.8 in the next release.",
            "We're not going to support Python 3.8 in the next release.",
        ),
    ):
        assert _decided(first, later) == [], later
    for first, later in (
        (
            "Use Redis for the session cache.",
            "Don't use Redis for the rate limiter.",
        ),  # another use
        ("Use Redis for the session cache.", "We will not store sessions in cookies."),
        ("Use SQLite for the tests.", "Don't use SQLite in production."),
    ):
        assert _decided(first, later) == [first.rstrip(".")], later


def test_a_no_that_approves_or_answers_a_question_rejects_nothing() -> None:
    proposal = "I'll switch the importer to httpx for async support."
    switch = said("decision", "Switch the importer to httpx", proposal)
    for answer in ("No, that's fine, go ahead.", "Nope, nothing to add, ship it."):
        assert kept([switch], [Message("assistant", proposal), Message("user", answer)]) == [
            switch.text
        ], answer
    asked = Message("assistant", f"Shall I also bump the version? {proposal}")
    assert kept([switch], [asked, Message("user", "No.")]) == [switch.text]


def test_a_thing_named_then_refused_rejects_only_its_decision() -> None:
    reply = Message(
        "assistant", "I'll add request logging to the gateway, and add a Prometheus exporter."
    )
    logging = said(
        "decision", "Add request logging to the gateway", "I'll add request logging to the gateway"
    )
    exporter = said("decision", "Add a Prometheus exporter", "add a Prometheus exporter.")
    for answer in (
        "Logging yes. The Prometheus exporter, no, we use Datadog.",
        "Logging yes. Prometheus exporter, not now.",
    ):
        assert kept([logging, exporter], [reply, Message("user", answer)]) == [logging.text], answer


def _closed(loop: str, report: str, by: str = "assistant") -> bool:
    draft = said("open_loop", loop, loop)
    return kept([draft], [Message("assistant", loop), Message(by, report)]) == []


def test_a_loop_reported_done_in_other_words_is_closed() -> None:
    for loop, report in (
        ("Update the README with the new flags", "README updated with the new flags."),
        ("Rotate the staging API key", "I rotated the staging API key myself."),
        ("Fix the flaky upload test", "The flaky upload test is gone now, 50 runs green."),
        (
            "Deploy the new billing service to staging",
            "The new billing service is live on staging.",
        ),
        ("Add an index on orders.created_at", "The index on orders.created_at is in place."),
        (
            "Investigate the memory leak in the worker",
            "Found the memory leak: the worker never closed its cursors.",
        ),
        (
            "The nightly build fails on the arm64 runner",
            "The nightly build no longer fails on the arm64 runner.",
        ),
        (
            "Write a migration for the new email column",
            "The migration for the new email column is in.",
        ),
        ("Fix test_login", "Fixed test_login; test_signup still fails."),  # one name
        ("Changelog für 2.1 schreiben", "Changelog für 2.1 ist geschrieben."),
        ("déployer le service de facturation", "Le service de facturation est déployé."),
    ):
        assert _closed(loop, report), report


def test_a_report_of_part_of_it_or_of_what_is_to_come_closes_nothing() -> None:
    for loop, report in (
        ("Port the csv, json and xml exporters", "2 of 3 exporters ported: csv and json are done."),
        (
            "Migrate all 12 cron jobs to the scheduler",
            "Migrated 9 of the 12 cron jobs to the scheduler.",
        ),
        (
            "Fix the lint errors in the cli package",
            "Most of the lint errors in the cli package are fixed.",
        ),
        (
            "Update the docs for the export command",
            "The docs for the export command are updated, except the examples.",
        ),
        (
            "Translate the UI strings to German and French",
            "German UI strings translated; French is still open.",
        ),
        ("Fix test_signup", "Fixed test_login; test_signup still fails."),
        ("Fix the flaky upload test", "I'll have the flaky upload test fixed by tomorrow."),
        (
            "Merge the feature branch into main",
            "Nothing from the feature branch is merged into main yet.",
        ),
        ("Fix the flaky upload test", "The flaky upload test isn't gone, it just didn't run."),
        ("Fix tests", "Fixed tests."),  # one word any report may name
    ):
        assert not _closed(loop, report), report


def test_a_session_that_ends_all_done_in_other_words_closes_its_loops() -> None:
    loops = [
        said("open_loop", "Bump the SDK", "bump the SDK"),
        said("open_loop", "Tag the release", "tag the release"),
    ]
    first = [
        Message("assistant", "TODO:\n- bump the SDK\n- tag the release"),
        Message("user", "go"),
    ]
    for final in (
        "All four items are done.",
        "Everything from the plan is implemented and pushed.",
        "Bumped it. That wraps up everything on the list.",
    ):
        assert kept(loops, [*first, Message("assistant", final)]) == [], final
    for final in (
        "The tests are all done, the release still has to be tagged.",
        "All done except tagging the release.",
    ):
        assert kept(loops, [*first, Message("assistant", final)]) == [d.text for d in loops], final


def test_a_replacement_speaks_of_its_clause_and_the_next_one() -> None:
    for first, later in (
        (
            "Ship the bundle as ESM only.",
            "The bundle needs CommonJS too after all, ship both formats.",
        ),
        ("Write the CLI with argparse.", "I'd prefer click for the CLI, argparse is too verbose."),
        (
            "Add a cache layer in front of the pricing API.",
            "The cache layer is no longer needed, the pricing API got fast.",
        ),
    ):
        assert _decided(first, later) == [], later
    for first, later in (
        # "rename … to" replaces in its clause, not in the list's other instructions
        (
            "Use 2 spaces for YAML indentation.",
            "A few things: rename utils.py to helpers.py, drop the unused imports, "
            "and keep YAML at 2 spaces.",
        ),
        ("Deploy to staging first.", "Actually, also check the staging logs."),  # chooses nothing
        ("Use Redis for the session cache.", "I'd rather not touch Redis today."),
    ):
        assert _decided(first, later) == [first.rstrip(".")], later


def test_a_turning_away_said_of_a_narrower_case_or_only_tried_leaves_the_decision() -> None:
    for first, later in (
        (
            "Use Redis for the session cache.",
            "Don't use Redis for the session cache in tests; use fakeredis there.",
        ),
        (
            "Use Redis for the session cache.",
            "The README says: do not use Redis for the session cache in production.",
        ),
        (
            "Use Postgres for the orders table.",
            "Migration output:\nERROR: failed to drop table orders: lock timeout",
        ),
    ):
        assert _decided(first, later) == [first.rstrip(".")], later


def test_an_all_done_leaves_open_what_its_own_message_says_is_still_to_do() -> None:
    loops = [
        said("open_loop", "Update the docs", "TODO: update the docs."),
        said("open_loop", "Bump the chart", "TODO: bump the chart."),
    ]
    first = [
        Message("assistant", "TODO: update the docs.\nTODO: bump the chart."),
        Message("user", "go"),
    ]
    final = Message("assistant", "All done with the refactor; the docs still need updating.")
    assert kept(loops, [*first, final]) == ["Update the docs"]
    assert kept(loops, [*first, Message("assistant", "We're all set.")]) == []


def test_a_question_tools_later_answer_replaces_the_earlier_one() -> None:
    asked = 'User has answered your questions: "{}"="{}". You can now continue.'
    decision = said(
        "decision", "Use SQLite for the prototype", "Going with SQLite for the prototype."
    )
    messages = [
        Message("answer", asked.format("Which database should the prototype use?", "SQLite")),
        Message("assistant", "Going with SQLite for the prototype."),
        Message("assistant", "Keep SQLite for the prototype?"),
    ]
    later = asked.format("Keep SQLite for the prototype?", "No, switch the prototype to Postgres")
    assert kept([decision], [*messages, Message("answer", later)]) == []
    # the question it repeats is not the user's word
    again = asked.format("Drop SQLite for the prototype?", "Keep it")
    assert kept([decision], [*messages, Message("answer", again)]) == [decision.text]


def test_what_a_thing_does_is_no_choice_and_no_longer_wanting_one_is() -> None:
    assert _decided(
        "Use a dataclass for the Config object.",
        "The test uses a dict instead of the Config object, fix the test.",
    ) == ["Use a dataclass for the Config object"]
    assert (
        _decided(
            "Let's add a dark mode toggle to the settings page.",
            "We don't want the dark mode toggle anymore.",
        )
        == []
    )


def test_a_no_to_a_thing_in_a_later_clause_rejects_only_its_decision() -> None:
    reply = Message(
        "assistant", "I'll add an index on orders.user_id and add a cache for the totals."
    )
    index = said(
        "decision", "Add an index on orders.user_id", "I'll add an index on orders.user_id"
    )
    cache = said("decision", "Add a cache for the totals", "add a cache for the totals.")
    assert kept([index, cache], [reply, Message("user", "Only the index, no cache.")]) == [
        index.text
    ]
    assert kept([index, cache], [reply, Message("user", "Fine, no problem.")]) == [
        index.text,
        cache.text,
    ]


def test_a_report_of_work_begun_or_almost_done_closes_nothing_and_a_next_step_stays() -> None:
    for loop, report in (
        (
            "Migrate the settings page to the new form library",
            "The settings page is almost migrated to the new form library.",
        ),
        ("Write the upgrade guide", "Started the upgrade guide, the outline is written."),
    ):
        assert not _closed(loop, report), report
    loop = said(
        "open_loop", "Add caching to the pricing API", "TODO: add caching to the pricing API."
    )
    messages = [
        Message("assistant", "TODO: add caching to the pricing API."),
        Message("user", "go on"),
    ]
    final = Message("assistant", "All done. Next, you may want to add caching to the pricing API.")
    assert kept([loop], [*messages, final]) == [loop.text]


def test_a_rejection_names_its_first_clause_in_any_form_of_the_word() -> None:
    reply = Message("assistant", "I'll bump the job timeout to 60s and split the job into batches.")
    bump = said("decision", "Bump the job timeout to 60s", "I'll bump the job timeout to 60s")
    split = said("decision", "Split the job into batches", "split the job into batches.")
    answer = Message("user", "No, not the timeout bump, batching alone.")
    assert kept([bump, split], [reply, answer]) == [split.text]
    vendor = said("decision", "Vendor the library", "I'll vendor the library.")
    proposal = Message("assistant", "I'll vendor the library.")
    for rejection in ("Not vendoring, do the submodule.", "Nein, kein Vendoring.", "Non, pas ça."):
        assert kept([vendor], [proposal, Message("user", rejection)]) == [], rejection
    for answer_ in ("Not yet sure, go ahead for now.", "Not bad, go ahead."):
        assert kept([vendor], [proposal, Message("user", answer_)]) == [vendor.text], answer_


def test_a_count_in_words_is_part_of_it_and_a_verb_kept_as_a_noun_reverses_nothing() -> None:
    assert not _closed(
        "Fix the three failing e2e tests", "Fixed two of the e2e tests, one is left."
    )
    assert _decided(
        "Move the config loader to its own module.",
        "Undo the formatting changes in the config loader, keep the move.",
    ) == ["Move the config loader to its own module"]
    assert (
        _decided(
            "Use Celery for the email jobs.", "Swap out Celery for the email jobs, cron is enough."
        )
        == []
    )


def test_what_a_thing_is_swapped_for_is_no_narrower_case() -> None:
    first = "Use SQLAlchemy for the data layer."
    assert _decided(first, "Let's swap SQLAlchemy for plain psycopg in the data layer.") == []
    assert _decided(first, "Swap SQLAlchemy for psycopg in the reporting scripts.") == [
        "Use SQLAlchemy for the data layer"
    ]
