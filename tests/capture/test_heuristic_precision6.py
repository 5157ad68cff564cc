"""Precision rules of the heuristic extractor (issue 27, eighth round; docs/heuristic.md):
each with cases of its own, not copied from the labelled corpus."""

from __future__ import annotations

from helpers.drafts import assert_verbatim, assistant, kinds_and_quotes, user

from gitmem.capture.extract.heuristic import extract
from gitmem.capture.extract.heuristic.sentences import split_sentences

# --- a sentence ends before a capital of any script, or a letter of a script without case --


def test_a_sentence_ends_before_a_letter_of_a_script_without_case() -> None:
    for text in (
        "빌드가 통과했습니다. 배포는 내일 합니다.",
        "ビルドは成功しました. 明日デプロイします.",
        "Сборка прошла. Тесты зелёные.",
        "La compilation passe. Élodie déploie demain.",
    ):
        spans = split_sentences(text, 0)
        assert len(spans) == 2, text
        assert text[spans[1][0] :].rstrip(".") == text.split(". ", 1)[1].rstrip(".")


def test_an_abbreviation_or_a_lowercase_word_still_runs_on() -> None:
    assert len(split_sentences("캐시를 쓰세요, e.g. 디스크 캐시.", 0)) == 1
    assert len(split_sentences("Сборка прошла. потом тесты.", 0)) == 1


# --- a count of checks ("27/27 passed", "11 of 12 green") is routine status ----------------


def test_a_count_of_passing_checks_opens_no_item() -> None:
    statement = "The cache now expires after ten minutes instead of never."
    for count in ("12/12 passing (3 new).", "11 of 12 green.", "42 passed, 0 failed.", "9/9 ✓."):
        messages = [
            user("make the cache expire"),
            assistant(f"{count} {statement}\n\nThe expiry is set in `cache.py`."),
        ]
        drafts = extract(messages)
        assert statement in [d.quote for d in drafts], (count, kinds_and_quotes(drafts))
        assert not any(count in (d.quote or "") for d in drafts)
        assert_verbatim(drafts, messages)


def test_a_report_unit_of_a_count_alone_gives_nothing() -> None:
    messages = [
        user("run the suite again"),
        assistant("27/27 통과 (기존 23 + 신규 4).\n\nThe flaky upload test is quarantined."),
    ]
    assert [d.quote for d in extract(messages)] == ["The flaky upload test is quarantined."]


def test_a_fraction_that_says_something_stays() -> None:
    finding = "2/3 of the uploads fail on Windows when the path has a space."
    messages = [user("why do uploads fail?"), assistant(finding)]
    assert [d.quote for d in extract(messages)] == [finding]


# --- a report unit too short to name what it is about is no item ---------------------------


def test_a_report_unit_of_a_few_words_that_names_nothing_is_no_item() -> None:
    for short in ("APPROVED", "Ready to ship.", "Stepping back now.", "배포 준비 완료."):
        messages = [
            user("review the parser change"),
            assistant(f"{short}\n\nThe tokenizer keeps its depth counter across lines now."),
        ]
        quotes = [d.quote for d in extract(messages)]
        assert quotes == ["The tokenizer keeps its depth counter across lines now."], short


def test_a_short_unit_that_names_a_thing_stays() -> None:
    for short in ("Renamed `cfg.load`.", "Pinned httpx 0.27.", "Moved to src/cache."):
        messages = [user("tidy up"), assistant(f"{short}\n\nNothing else changed.")]
        assert short in [d.quote for d in extract(messages)], short


# --- a document the user pasted after their own words is not their words ------------------


def test_a_document_pasted_under_a_heading_gives_no_item() -> None:
    pasted = (
        "this draft is only context, not the readme\n\n"
        "# Release notes\n\n"
        "Never ship on Fridays. We decided to use SQLite for the cache.\n\n"
        "- [ ] Add metrics to the uploader\n\n"
        "## Known issues\n\nTODO: port the old error messages"
    )
    messages = [user(pasted), assistant("Noted: the draft stays out of the README.")]
    drafts = extract(messages)
    quotes = [d.quote or "" for d in drafts]
    assert not any(
        word in quote for quote in quotes for word in ("Fridays", "SQLite", "metrics", "port")
    ), quotes
    assert_verbatim(drafts, messages)


def test_the_users_words_before_a_pasted_document_still_count() -> None:
    messages = [
        user(
            "we should only deploy from main.\n\n"
            "## Roadmap (pasted)\n\n- [ ] Add metrics\n- Never page on weekends"
        ),
        assistant("Noted; the roadmap is for later."),
    ]
    drafts = extract(messages)
    found = kinds_and_quotes(drafts)
    assert ("decision", "we should only deploy from main.") in found
    assert not any("metrics" in q or "weekends" in q for _, q in found if q), found


def test_a_heading_in_fenced_code_or_at_the_start_is_the_users_own() -> None:
    fenced = "```bash\n# install\npip install tokparse\n```\nnever run it as root."
    opening = "## Rules\n\nNever push to main without a review."
    for text, rule in (
        (fenced, "never run it as root."),
        (opening, "Never push to main without a review."),
    ):
        messages = [user(text), assistant("Understood.")]
        assert ("decision", rule) in kinds_and_quotes(extract(messages)), text


# --- a PR's bare link says nothing the reply does not say of that PR -----------------------


def test_a_bare_link_yields_to_what_the_reply_says_of_that_pr() -> None:
    said = "PR #41 carries the parser fix; merge it once CI is green"
    messages = [
        user("put the parser fix up for review"),
        assistant(f"Pushed.\n\n- {said}\n\nPR: https://github.com/acme/parser/pull/41"),
        user("thanks, now update the changelog"),
        assistant("The changelog lists the parser fix under 0.3."),
    ]
    drafts = extract(messages)
    quotes = [d.quote or "" for d in drafts]
    assert said in quotes, quotes
    assert not any("pull/41" in quote for quote in quotes), quotes
    assert_verbatim(drafts, messages)


def test_a_bare_link_alone_is_still_the_prs_item() -> None:
    link = "**PR:** https://github.com/acme/parser/pull/41"
    messages = [user("open a PR for the parser fix"), assistant(f"Pushed.\n\n{link}")]
    assert link in [d.quote for d in extract(messages)]


def test_a_pr_the_reply_does_not_link_is_still_named_in_passing() -> None:
    messages = [
        user("fix the tokenizer"),
        assistant(
            "The fix builds on PR #40 from last week.\n\nPR: https://github.com/acme/parser/pull/41"
        ),
        user("ok, and the docs?"),
        assistant("The docs now describe the `--depth` flag."),
    ]
    assert not any("#40" in (d.quote or "") for d in extract(messages))


# --- a user's request that opens with its verb is answered by the session ------------------


def test_a_users_request_that_opens_with_its_verb_is_no_open_loop() -> None:
    for request in (
        "Review the current uncommitted changes and list the risks.",
        "check out main, pull the latest..get rid of uncommitted changes",
        "Fix the upload test, it still fails on Windows.",
        "please clean up the unstaged files",
    ):
        messages = [user(request), assistant("Done: the risks are both in `upload.py`.")]
        drafts = extract(messages)
        assert not any(d.kind == "open_loop" for d in drafts), (request, kinds_and_quotes(drafts))


def test_a_users_request_names_a_pr_without_making_it_an_item() -> None:
    messages = [
        user("Review only the correction patch for PR #226."),
        assistant("Reviewed: the patch is sound."),
    ]
    assert not any("#226" in (d.quote or "") for d in extract(messages))


def test_a_users_report_of_what_still_fails_stays_an_open_loop() -> None:
    report = "the upload test still fails on Windows"
    messages = [user(report), assistant("Looking into it now.")]
    assert ("open_loop", report) in kinds_and_quotes(extract(messages))


def test_a_noun_that_looks_like_a_verb_opens_a_statement_not_a_request() -> None:
    for report in ("Test coverage is still missing for the upload path", "Update: it still fails"):
        messages = [user(report), assistant("Noted.")]
        assert ("open_loop", report) in kinds_and_quotes(extract(messages)), report
    report = "Adding the flag still fails on Windows"
    assert ("open_loop", report) in kinds_and_quotes(extract([user(report), assistant("Noted.")]))


# --- an answer in JSON is written for a program, not a reader ------------------------------


def test_a_json_answer_gives_no_report_item() -> None:
    for answer in (
        '{"verdict": "neutral", "impact_summary": "The cache now expires after ten minutes."}',
        '[\n  {"title": "[P2] Batch the ancestry checks", "file": "lineage.py"}\n]',
    ):
        messages = [user("Assess this diff and answer in JSON."), assistant(answer)]
        assert extract(messages) == [], answer


def test_a_report_that_quotes_json_inline_is_still_read() -> None:
    statement = 'The config now defaults to `{"retries": 3}` instead of no retries.'
    messages = [user("set a retry default"), assistant(statement)]
    assert [d.quote for d in extract(messages)] == [statement]


def test_a_long_paste_before_a_heading_is_read_up_to_it() -> None:
    log = "".join(f"line {n} of the log\n" for n in range(20_000))
    text = (
        "the upload still fails, log below\n\n```\n# not a heading\n```\n"
        f"{log}\n# Runbook\n\nNever restart the worker."
    )
    messages = [user(text), assistant("Noted.")]
    quotes = [d.quote for d in extract(messages)]
    assert "the upload still fails, log below" in quotes
    assert "Never restart the worker." not in quotes
