"""Precision rules of the heuristic extractor (issue 27, ninth round; docs/heuristic.md):
each with cases of its own, not copied from the labelled corpus."""

from __future__ import annotations

from pathlib import Path

from helpers import Gm, git
from helpers.capturing import capture
from helpers.drafts import assert_verbatim, assistant, user

from gitmem.capture.extract.heuristic import explain, extract
from gitmem.core.claims import forge_numbers, project_of, same_repository
from gitmem.core.transcript import Message

# --- a PR or issue of another project is not the session's -----------------------------

UPSTREAM = "The same crash was reported upstream in https://github.com/pallets/click/issues/2410."
TRACKED = "The root cause is tracked in pallets/click#2411."
OWN = "Draft PR #12: https://github.com/acme/exporter/pull/12"


def _exporter_session() -> list[Message]:
    return [
        user("the export crashes on empty folders, can you fix it?"),
        assistant(f"Fixed: the export skips empty folders.\n\n{UPSTREAM}\n\n{OWN}\n\n{TRACKED}"),
    ]


def test_another_projects_pr_or_issue_is_no_forge_item_of_this_one() -> None:
    messages = _exporter_session()
    forge = [d.quote for d, rule in explain(messages, project="acme/exporter") if rule == "forge"]
    assert forge == [OWN]
    assert_verbatim(extract(messages, project="acme/exporter"), messages)


def test_without_a_project_every_pr_and_issue_still_counts() -> None:
    forge = [d.quote for d, rule in explain(_exporter_session()) if rule == "forge"]
    assert forge == [UPSTREAM, OWN, TRACKED]


def test_a_bare_number_and_a_link_to_the_project_itself_are_its_own() -> None:
    project = "gitlab.example.com/tools/exporter"
    assert forge_numbers("see #31 and PR #32", project) == {31, 32}
    assert forge_numbers("https://gitlab.example.com/tools/exporter/-/merge_requests/7", project)
    assert forge_numbers("Tools/Exporter#9", project) == {9}
    assert not forge_numbers("https://gitlab.example.com/tools/importer/-/issues/7", project)


def test_a_remotes_url_names_the_project_as_a_reference_does() -> None:
    assert project_of("git@github.com:Acme/exporter.git") == "Acme/exporter"
    assert project_of("https://github.com/acme/exporter/") == "acme/exporter"
    assert project_of("ssh://git@gitlab.example.com:2222/tools/sub/exporter.git") == (
        "gitlab.example.com/tools/sub/exporter"
    )
    assert project_of("work-github:acme/exporter.git") == "work-github/acme/exporter"
    for local in ("/srv/git/exporter.git", "../exporter", "file:///srv/git/exporter", "", None):
        assert project_of(local) is None
    assert same_repository("acme/exporter", "work-github/Acme/Exporter")
    assert not same_repository("acme/importer", "acme/exporter")
    assert not same_repository("exporter", "acme/exporter")


def test_a_capture_reads_its_project_from_the_repositorys_remote(
    initialised: Path, gm: Gm, tmp_path: Path
) -> None:
    git(initialised, "remote", "add", "origin", "git@github.com:acme/exporter.git")
    transcript = tmp_path / "session.md"
    transcript.write_text(f"{UPSTREAM}\n\n{OWN}\n\n{TRACKED}\n")
    quotes = [item["quote"] for item in capture(gm, transcript)["items"]]
    assert quotes == [OWN]


# --- a user's labelled question asks the assistant ------------------------------------


def test_a_users_labelled_question_is_no_open_question() -> None:
    for asked in (
        "question: does the importer keep the file modes?",
        "Question: what happens to the lock file if I press ctrl+c during the sync",
        "Open question: is the retry budget per host or global?",
    ):
        messages = [
            user(f"{asked}\n\nThe sync looks fine otherwise."),
            assistant("It keeps them: the importer copies the mode bits with each blob."),
        ]
        quotes = [d.quote for d in extract(messages)]
        assert not any(asked.split(": ", 1)[1][:20] in (q or "") for q in quotes), quotes


def test_the_assistants_labelled_question_still_counts() -> None:
    asked = "Open question: is the retry budget per host or global?"
    messages = [user("add retries to the uploader"), assistant(f"Retries are in.\n\n{asked}")]
    drafts = extract(messages)
    assert ("uncertainty", asked) in [(d.kind, d.quote) for d in drafts]
    assert_verbatim(drafts, messages)


# --- a choice in a list item is one change of a list of the work done -------------------


def test_a_choice_in_a_list_item_is_not_marked_as_one() -> None:
    listed = "Used `RETRY_LIMIT` instead of the literal `3`"
    messages = [
        user("tidy up the uploader"),
        assistant(f"Changes to the uploader:\n\n- {listed}\n- Dropped the unused `backoff` import"),
    ]
    assert not any(listed in (d.quote or "") for d, rule in explain(messages) if rule == "choice")


def test_a_choice_a_paragraph_reports_still_counts() -> None:
    said = "Resolved the flaky upload test by using a fake clock instead of sleeping."
    messages = [user("the upload test is flaky"), assistant(f"Done.\n\n{said}")]
    drafts = extract(messages)
    assert ("decision", said) in [(d.kind, d.quote) for d in drafts]
    assert_verbatim(drafts, messages)


# --- narration after an acknowledgement is narration -----------------------------------


def test_an_acknowledgement_before_narration_gives_nothing() -> None:
    for reply in (
        "Good point, let me check the retry budget.",
        "You're right — I'll drop the cache flag.",
        "Great catch! Let me fix the parser.",
        "Fair question; let me look at the lock file first.",
    ):
        messages = [user("isn't the retry budget per host?"), assistant(reply)]
        assert extract(messages) == [], reply


def test_an_acknowledgement_before_a_statement_leaves_the_statement() -> None:
    said = "The parser drops the last token when the input ends in a comma."
    messages = [user("why is the last field missing?"), assistant(f"Good catch. {said}")]
    assert [d.quote for d in extract(messages)] == [said]


# --- how things were before the change no longer holds --------------------------------


def test_a_before_state_is_not_the_reports_statement() -> None:
    after = "**After:** counts only the lines the commit changed (12 of 4,310)"
    for before in (
        "**Before:** counted every line of the touched files",
        "Old: counted every line of the touched files",
        "**Before** (line counter): counted every line of the touched files",
    ):
        messages = [
            user("the line count is far too high"),
            assistant(f"{before}\n{after.replace('counts', 'Counts')}"),
        ]
        drafts = extract(messages)
        assert [d.quote for d in drafts] == [after.replace("counts", "Counts")], before
        assert_verbatim(drafts, messages)


# --- a list the work done leads in to holds its parts, not the outcome -------------------


def test_a_list_a_lead_in_says_is_done_gives_no_report_item() -> None:
    outcome = "The importer now keeps symlinks as links instead of copying their targets."
    for lead in (
        "All 3 subtasks completed:",
        "Here's what I changed:",
        "The `import` command now:",
        "Both fixes done and pushed:",
    ):
        messages = [
            user("the importer copies what symlinks point to"),
            assistant(
                f"{outcome}\n\n{lead}\n"
                "1. **Reads links with `os.readlink`** - no longer follows them\n"
                "2. **Writes them back with `os.symlink`**"
            ),
        ]
        drafts = extract(messages)
        assert [d.quote for d in drafts] == [outcome], lead
        assert_verbatim(drafts, messages)


def test_a_list_of_notes_or_of_what_is_left_is_still_read() -> None:
    for lead, item in (
        ("Two notes:", "**Symlinks to folders** are kept as links too"),
        ("What's left:", "Windows junctions are still copied, not linked"),
    ):
        messages = [
            user("the importer copies what symlinks point to"),
            assistant(f"The importer keeps symlinks now.\n\n{lead}\n- {item}\n"),
        ]
        assert item in [d.quote for d in extract(messages)], lead
