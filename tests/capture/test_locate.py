"""Where a model's quote stands in the session: as written, respelt as the session wrote
it, or found in a message read without a link's target or an emoji
(:mod:`gitmem.capture.locate`). What verifies is always the transcript's own span, held
to every rule a quote is."""

from __future__ import annotations

import unicodedata

import pytest

from gitmem.capture.checkpoint import build_items
from gitmem.capture.locate import reading
from gitmem.core.items import Draft, Item, Kind, Trust
from gitmem.core.transcript import Message, Transcript, plain_transcript

SNAPSHOT = "0" * 64


def session(*messages: Message) -> Transcript:
    return plain_transcript("", "s").with_messages(messages)


def captured(
    transcript: Transcript, kind: Kind, text: str, quote: str, message: int | None = None
) -> Item:
    draft = Draft(kind, text, Trust.VERBATIM, quote, {}, message=message)
    (item,) = build_items([draft], transcript, "s", SNAPSHOT)
    return item


def said(transcript: Transcript) -> str:
    return "\n".join(m.text for m in transcript.messages)


DASHED = session(
    Message("user", "Keep the retry limit at 3 — it's enough for the flaky API."),
    Message("assistant", "Run it with --verbose -- and nothing else -- on CI."),
)


@pytest.mark.parametrize(
    ("quote", "verbatim"),
    [
        ("retry limit at 3 -- it's enough for the flaky API", True),  # "—" in ASCII
        ("retry limit at 3 — it's enough for the flaky API", True),
        ("with --verbose -- and nothing else -- on CI", True),  # the session's own hyphens
        ("retry limit at 3 -- it's enough for every API", False),  # the words still count
    ],
)
def test_a_dash_written_as_two_hyphens_is_the_same_dash(quote: str, verbatim: bool) -> None:
    item = captured(DASHED, Kind.DECISION, "Keep the retry limit at 3", quote)
    assert (item.trust == Trust.VERBATIM) is verbatim
    if verbatim:
        # what is stored is the transcript's own span, its dash as said
        assert item.quote is not None and item.quote in "\n".join(m.text for m in DASHED.messages)


RESPELT = session(
    Message("user", "- The cache is stale after deploys\n- Retries are capped at 3"),
    Message(
        "assistant",
        "Root cause: `ValueError` → `VoiceNotFoundError` in 0.8.\n"
        "The parser is fast enough unless the corpus grows.",
    ),
)


@pytest.mark.parametrize(
    ("quote", "kind", "verbatim"),
    [
        ("The cache is stale after deploys.", Kind.FACT, True),  # a stop the line did not have
        ("Root cause: `ValueError` -> `VoiceNotFoundError` in 0.8", Kind.FACT, True),  # "→"
        ("The cache is stale after restarts.", Kind.FACT, False),  # the words still count
        ("Retries are capped at 3.", Kind.FACT, True),
        ("Retries are capped at 30.", Kind.FACT, False),  # nor "3." for "30."
    ],
)
def test_a_quote_as_a_model_respells_it_is_checked_as_said(
    quote: str, kind: Kind, verbatim: bool
) -> None:
    item = captured(RESPELT, kind, quote.rstrip("."), quote)
    assert (item.trust == Trust.VERBATIM) is verbatim, item.quote_reason
    if verbatim:
        # what is stored is the transcript's own span, as said
        assert item.quote is not None and item.quote in "\n".join(m.text for m in RESPELT.messages)
        assert not item.quote.endswith(".") and "->" not in item.quote


LINKED = session(
    Message("user", "How do we retry the upload?"),
    Message(
        "assistant",
        "See [the retry policy](https://example.org/docs/retry.md#policy) for the backoff: "
        "uploads retry 3 times with jitter.\n"
        "Don't use [Redis](https://redis.io) for the upload queue.\n"
        "The CLI now reads <https://example.org/config.toml> at start.\n"
        "Deploy is done 🎉 and verified on staging.\n"
        "CI on main ❌ passes the lint step.\n"
        "The migration ⚠️ runs in 4 minutes on the replica.\n"
        "Release status: ☐ published to PyPI.\n"
        "Throughput went from 3🚀5 runs a day.",
    ),
    Message("user", "Should we move the queue to [SQS](https://aws.amazon.com/sqs/)?"),
)


TABLED = session(
    Message(
        "assistant",
        "Status:\n\n| Step | State |\n|---|:--:|\n"
        "| [ENT-109](https://linear.app/x/ENT-109) Text output | Backlog |\n"
        "| PR #236 merged | done |\n\n"
        "Options:\n\n| Option | Notes |\n|---|---|\n| Use Redis for the cache | fast |\n\n"
        "Next:<br>rotate the deploy keys<br/>before Friday.",
    ),
)


@pytest.mark.parametrize(
    ("transcript", "quote", "kind", "stored"),
    [
        # a link's markdown dropped: the span stored holds the link, target and all
        (
            LINKED,
            "See the retry policy for the backoff: uploads retry 3 times with jitter.",
            Kind.FACT,
            "See [the retry policy](https://example.org/docs/retry.md#policy) for the backoff: "
            "uploads retry 3 times with jitter.",
        ),
        # a quote that starts inside a link's text takes the whole link
        (
            LINKED,
            "retry policy for the backoff",
            Kind.FACT,
            "[the retry policy](https://example.org/docs/retry.md#policy) for the backoff",
        ),
        (
            LINKED,
            "The CLI now reads https://example.org/config.toml at start.",
            Kind.FACT,
            "The CLI now reads <https://example.org/config.toml> at start.",
        ),
        # an emoji between words dropped
        (
            LINKED,
            "Deploy is done and verified on staging.",
            Kind.FACT,
            "Deploy is done 🎉 and verified on staging.",
        ),
        # a table row's pipes dropped
        (TABLED, "PR #236 merged done", Kind.FACT, "PR #236 merged | done"),
        # the link kept, the pipes dropped
        (
            TABLED,
            "[ENT-109](https://linear.app/x/ENT-109) Text output Backlog",
            Kind.OPEN_LOOP,
            "[ENT-109](https://linear.app/x/ENT-109) Text output | Backlog",
        ),
        # a line break tag read as a space
        (
            TABLED,
            "rotate the deploy keys before Friday.",
            Kind.OPEN_LOOP,
            "rotate the deploy keys<br/>before Friday.",
        ),
    ],
)
def test_what_a_model_leaves_out_of_a_quote_is_found_and_stored_as_said(
    transcript: Transcript, quote: str, kind: Kind, stored: str
) -> None:
    item = captured(transcript, kind, quote, quote)
    assert item.trust == Trust.VERBATIM, item.quote_reason
    assert item.quote == stored
    assert item.quote in said(transcript)


@pytest.mark.parametrize(
    "quote",
    [
        "use Redis for the upload queue",  # its negation still counts
        "CI on main passes the lint step.",  # a cross mark is never read away
        "The migration runs in 4 minutes on the replica.",  # nor a warning
        "Release status: published to PyPI.",  # nor a box left unticked
        "Throughput went from 35 runs a day.",  # nor an emoji that parts two numbers
        "we move the queue to SQS",  # a question is still a question
        "See the retry policy for the timeout:",  # the words still count
    ],
)
def test_a_quote_read_past_a_link_or_an_emoji_is_held_to_every_rule(quote: str) -> None:
    item = captured(LINKED, Kind.DECISION, quote, quote)
    assert item.trust != Trust.VERBATIM, item.quote
    assert item.quote is None


def test_a_quote_found_only_as_another_message_reads_is_not_verbatim() -> None:
    quote = "See the retry policy for the backoff"
    assert captured(LINKED, Kind.FACT, quote, quote, message=1).trust == Trust.VERBATIM
    item = captured(LINKED, Kind.FACT, quote, quote, message=0)
    assert item.trust != Trust.VERBATIM
    assert item.quote is None


def test_a_link_in_tool_output_is_not_what_the_session_said() -> None:
    tool = session(
        Message("user", "What does the README say?"),
        Message("tool_result", "Install with [pipx](https://pipx.pypa.io) first."),
    )
    item = captured(tool, Kind.FACT, "Install with pipx", "Install with pipx first.")
    assert item.trust != Trust.VERBATIM


ESCAPED = session(
    Message(
        "assistant",
        "Keep build & test in one job.\n"
        "Decided:\n- ship the wheel\n- skip the sdist\n"
        "Le café ferme le lundi, on déploie le mardi.\n"
        "Parse with `json.loads(text)` — never `eval(text)`.",
    ),
)


@pytest.mark.parametrize(
    ("quote", "verbatim"),
    [
        ("Keep build &amp; test in one job.", True),  # HTML entities
        ("Keep build &amp; test in two jobs.", False),
        ("Decided:\\n- ship the wheel\\n- skip the sdist", True),  # JSON escaped twice
        ("Decided:\\n- ship the wheel\\n- ship the sdist", False),
        (unicodedata.normalize("NFD", "Le café ferme le lundi"), True),  # accents decomposed
        ("Parse with `json.loads(text)` -- never `eval(text)`.", True),
    ],
)
def test_a_quote_spelt_as_a_model_escapes_it_is_checked_as_said(quote: str, verbatim: bool) -> None:
    item = captured(ESCAPED, Kind.FACT, "What the session said", quote)
    assert (item.trust == Trust.VERBATIM) is verbatim, item.quote_reason
    if verbatim:
        assert item.quote is not None and item.quote in said(ESCAPED)


@pytest.mark.parametrize(
    ("quote", "stored"),
    [
        ("Map old → new in the config.", "Map old -> new in the config"),
        ("Reload the config — then restart.", "Reload the config -- then restart."),
    ],
)
def test_a_session_written_in_ascii_takes_a_quote_with_the_typographic_marks(
    quote: str, stored: str
) -> None:
    ascii_session = session(
        Message("assistant", "Map old -> new in the config\nReload the config -- then restart.")
    )
    item = captured(ascii_session, Kind.DECISION, "What to do", quote)
    assert item.trust == Trust.VERBATIM, item.quote_reason
    assert item.quote == stored


def test_a_respelt_quote_cut_from_its_condition_gives_way_to_its_sentence() -> None:
    # its condition still counts: what is badged is the whole sentence, condition and all
    item = captured(RESPELT, Kind.FACT, "The parser is fast enough", "The parser is fast enough.")
    assert item.trust == Trust.VERBATIM, item.quote_reason
    assert item.quote == item.text == "The parser is fast enough unless the corpus grows."
    assert item.extra["summary"] == "The parser is fast enough"


def test_a_reading_maps_every_character_back_to_the_message() -> None:
    message = 'a [b c](https://x.y/z) d 🎉 e <https://q.r/s> f ✅ g ✅h [i](j "k") ❌ l'
    read = reading(message)
    assert read is not None
    assert read.text == "a b c d e https://q.r/s f g ✅h i ❌ l"
    assert len(read.starts) == len(read.ends) == len(read.text)
    for start in range(len(read.text)):
        for end in range(start + 1, len(read.text) + 1):
            own = read.own(message, start, end)
            assert own and own in message  # a span of the message's own text
    assert reading("plain ascii text with no link") is None


@pytest.mark.parametrize(
    ("said", "quote"),
    [
        # a reflowed list, its markers inline, and a dash respelt
        (
            "Plan:\n1. Ship the wheel — today\n2. Skip the sdist",
            "1. Ship the wheel -- today 2. Skip the sdist",
        ),
        # a script that does not space its words
        (
            "結論：キャッシュはデプロイ後に古くなる — 再起動が必要",
            "キャッシュはデプロイ後に古くなる -- 再起動が必要",
        ),
        # look-alike letters and invisible characters, read as the session's reader reads them
        ("We ship on Fr\u0456day \u2014 n\u200bot before.", "We ship on Friday -- not before."),
        # a fragment that is only a number
        ("Retries are capped — at most 37.", "Retries are capped -- at most … 37."),
        # numbers in every shape
        (
            "Version 2.5.1 ships — 37,500 rows, 10 % faster.",
            "Version 2.5.1 ships -- 37,500 rows, 10 % faster.",
        ),
    ],
)
def test_a_respelt_quote_is_never_passed_over_before_it_is_checked(said: str, quote: str) -> None:
    item = captured(session(Message("assistant", said)), Kind.FACT, "What was said", quote)
    assert item.trust == Trust.VERBATIM, item.quote_reason
    assert item.quote is not None
    assert all(part in said for part in item.quote.split(" … "))


def test_a_row_of_a_table_of_options_read_without_its_pipes_still_decides_nothing() -> None:
    item = captured(TABLED, Kind.DECISION, "Use Redis", "Use Redis for the cache fast")
    assert item.trust == Trust.INFERRED
    assert item.quote is None
