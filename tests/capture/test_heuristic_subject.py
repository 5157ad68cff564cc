"""A report's unit that opens without its subject takes it from the paragraph before
(issue 27: an item's text names what it is about; docs/heuristic.md, "Subjects"). Cases
of their own, not copied from the labelled corpus."""

from __future__ import annotations

from helpers.drafts import assert_verbatim, assistant, user

from gitmem.capture.extract.heuristic import explain, extract
from gitmem.core.transcript import Message

NAMED = "The thumbnail cache now keys entries by a hash of the image bytes."
PRONOUN = "This is more accurate than the file's modification time, which changes on checkout."


def _session(report: str) -> list[Message]:
    return [user("thumbnails go stale after a branch switch, can you fix it?"), assistant(report)]


def _report_quotes(messages: list[Message]) -> list[str]:
    found = explain(messages, session_items=40)  # every item, not only a session's strongest
    return [d.quote or "" for d, rule in found if rule.startswith("report")]


def test_a_pronoun_unit_quotes_the_sentence_that_names_its_subject() -> None:
    messages = _session(f"Fixed the stale thumbnails. {NAMED}\n\n{PRONOUN}")
    quotes = _report_quotes(messages)
    assert f"{NAMED}\n\n{PRONOUN}" in quotes
    assert PRONOUN not in quotes
    texts = [d.text for d, _ in explain(messages, session_items=40)]
    assert any(t.startswith("The thumbnail cache") and "more accurate" in t for t in texts)
    assert_verbatim(extract(messages), messages)


def test_a_subjectless_verb_takes_only_the_last_sentence_before() -> None:
    before = "Uploads failed on flaky networks. The uploader now retries with backoff."
    after = "Is capped at three attempts, then reports the error."
    messages = _session(f"{before}\n\n{after}")
    joined = "The uploader now retries with backoff.\n\nIs capped at three attempts"
    assert any(q.startswith(joined) for q in _report_quotes(messages))
    assert_verbatim(extract(messages), messages)


def test_a_unit_with_its_own_subject_is_quoted_alone() -> None:
    own = "The old cache was keyed by path, so a checkout left stale entries behind."
    messages = _session(f"Fixed the stale thumbnails. {NAMED}\n\n{own}")
    assert own in _report_quotes(messages)


def test_after_a_paragraph_of_one_sentence_both_stay_items() -> None:
    # That paragraph is an item of its own, which would hold the joined quote and stand
    # for both: what the second says would be lost.
    assert _report_quotes(_session(f"{NAMED}\n\n{PRONOUN}")) == [NAMED, PRONOUN]


def test_no_join_over_a_list_code_a_question_a_lead_in_or_too_long() -> None:
    cases = [
        f"Fixed it. {NAMED}\n\n- one\n- two\n\n{PRONOUN}",  # a list stands between
        f"Fixed it. {NAMED}\n\n```\ncache.get(key)\n```\n\n{PRONOUN}",  # code stands between
        f"{NAMED} Should it hash the bytes?\n\n{PRONOUN}",  # a question asks
        f"{NAMED} The key changed as follows:\n\n{PRONOUN}",  # a lead-in
        f"Fixed it. {NAMED[:-1]}{' and every rendition size' * 6}.\n\n{PRONOUN}",  # too long
        f"Fixed it. {NAMED}\n\n- {PRONOUN}",  # a list's item is a point of its own
    ]
    for report in cases:
        quotes = _report_quotes(_session(report))
        assert not any(q.endswith(PRONOUN) and q != PRONOUN for q in quotes), report


def test_a_marked_sentence_whose_object_refers_back_quotes_the_sentence_before() -> None:
    # "I haven't tested it": "it" is what the sentence before did, with its values.
    done = "Added a retry wrapper to `fetch()` with max_attempts=3 and a 2 s backoff."
    pending = "I haven't tested it against the staging API yet."
    messages = _session(f"{done} {pending}")
    quotes = [d.quote for d in extract(messages)]
    assert f"{done} {pending}" in quotes
    assert_verbatim(extract(messages), messages)


def test_a_marked_sentence_that_names_its_own_object_stands_alone() -> None:
    done = "Added a retry wrapper to `fetch()` with max_attempts=3."
    pending = "I haven't tested the uploader on Windows yet."
    quotes = [d.quote for d in extract(_session(f"{done} {pending}"))]
    assert pending in quotes
    assert f"{done} {pending}" not in quotes
