"""An open loop an earlier session left, that a later session reports done: flagged to
verify, with the sentence that says so, never closed in silence."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pygit2
import pytest
from helpers.capturing import brief_json, capture, claude_line, session_file
from hypothesis import given, settings
from hypothesis import strategies as st

from gitmem.capture.closing import side_run_of
from gitmem.capture.extract.loops import subject
from gitmem.capture.extract.reports import (
    all_done_sentence,
    called_off,
    final_reply,
    reported_done,
)
from gitmem.core.transcript import Message, said_text

LOOP = "TODO: benchmark the parser cache before the release."


def session(folder: Path, name: str, text: str, day: int) -> Path:
    """A plain-text session whose time (its file's) is day *day* of November 2026."""
    path = folder / f"{name}.md"
    path.write_text(text)
    when = 1_793_527_200 + day * 86_400  # 2026-11-01T10:00:00Z and on
    os.utime(path, (when, when))
    return path


def loop_then(gm: Any, repo: Path, text: str, day: int = 2) -> dict[str, Any]:
    """The brief's open loop after a session of *text* on day *day* (the loop's is 1)."""
    loop = {"kind": "open_loop", "text": "Benchmark the parser cache", "trust": "verbatim"}
    loop["quote"] = "benchmark the parser cache before the release"
    capture(gm, session(repo.parent, "s1", LOOP + "\n", 1), [loop], session="s1")
    capture(gm, session(repo.parent, "s2", text, day), [], session="s2")
    brief = gm("brief", "--format", "json").json()
    (item,) = [i for i in brief["items"] if i["kind"] == "open_loop"]
    assert gm("verify").exit_code == 0
    return dict(item)


def test_a_later_session_that_reports_the_loop_done_flags_it(gm: Any, initialised: Path) -> None:
    said = "Update: the parser cache benchmark is done, 2.3x faster than before."
    item = loop_then(gm, initialised, f"{said}\n")
    assert item["contradiction"] == f"state changed: reported done in a later session: {said}"
    text = gm("brief").stdout
    assert "VERIFY BEFORE TRUSTING" in text and f"reported done in a later session: {said}" in text


def test_a_later_session_whose_user_calls_the_loop_off_flags_it(gm: Any, initialised: Path) -> None:
    loop = {"kind": "open_loop", "text": "Benchmark the parser cache", "trust": "verbatim"}
    loop["quote"] = "benchmark the parser cache before the release"
    capture(gm, session(initialised.parent, "s1", LOOP + "\n", 1), [loop], session="s1")
    off = "Skip the parser cache benchmark, the release is cancelled."
    later = [
        ("s2", [("user", "Don't skip the parser cache benchmark.")], None),
        (
            "s3",
            [("user", off), ("assistant", "Understood.")],
            f"called off in a later session: {off}",
        ),
    ]
    for day, (name, lines, flagged) in enumerate(later, start=3):
        when = datetime(2026, 11, day, 10, tzinfo=UTC)
        capture(gm, session_file(initialised.parent, name, lines, when), [], session=name)
        brief = gm("brief", "--format", "json").json()
        (item,) = [i for i in brief["items"] if i["kind"] == "open_loop"]
        assert item["contradiction"] == (flagged and f"state changed: {flagged}"), name


def test_a_loop_someone_reopened_is_not_flagged_again(gm: Any, initialised: Path) -> None:
    said = "Update: the parser cache benchmark is done, 2.3x faster than before."
    item = loop_then(gm, initialised, f"{said}\n")
    assert item["contradiction"] is not None
    reopened = gm("reverify", item["id"], "--transcript", str(initialised.parent / "s1.md"))
    assert reopened.exit_code == 0, reopened.stderr
    # the same later session, captured again as it goes on, says it again
    again = session(initialised.parent, "s2", f"{said}\nAnd the docs are updated.\n", 3)
    docs = {"kind": "fact", "text": "Docs updated", "trust": "verbatim"}
    capture(gm, again, [{**docs, "quote": "the docs are updated"}], session="s2")
    (loop,) = [i for i in gm("brief", "--format", "json").json()["items"] if i["id"] == item["id"]]
    assert loop["contradiction"] is None


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Is the parser cache benchmark done?\n", 2),  # a question
        ("The parser cache is slow before the release.\n", 2),  # no completion word
        ("The parser cache benchmark is done.\n", 0),  # an older session, imported after
        ("The login bug is fixed.\n", 2),  # done, but another loop
    ],
)
def test_a_question_a_mention_or_an_older_session_flags_nothing(
    gm: Any, initialised: Path, text: str, day: int
) -> None:
    assert loop_then(gm, initialised, text, day)["contradiction"] is None


def test_the_sentence_must_name_most_of_the_loop() -> None:
    loops = [("a", "Benchmark the parser cache before the release"), ("b", "Fix the login bug")]
    said = [
        Message("user", "Also fixed the typo in the README."),
        Message("assistant", "Done: the parser cache benchmark ran before the release cut."),
    ]
    assert reported_done(loops, said) == {
        "a": "Done: the parser cache benchmark ran before the release cut."
    }
    # a tool's output is not what the session said
    tool = [Message("tool_result", "Fixed the login bug.")]
    assert reported_done(loops, tool) == {}


def test_a_loop_with_an_id_is_closed_by_a_report_that_names_it() -> None:
    loops = [
        ("a", "**proj-gqc.6** (in_progress): close the review session, then tests and push"),
        ("b", "PR #60 awaiting review, rebased on #58"),
    ]
    assert reported_done(loops, [Message("assistant", "gqc.6 done and pushed.")]) == {
        "a": "gqc.6 done and pushed."
    }
    # another id, a report of one of two ids, and what is still to be done close nothing
    for said in (
        "gqc.5 done and pushed.",
        "PR #60 is merged.",
        "Next, what still needs to be done for gqc.6.",
        "gqc.6 is not done yet.",
        "gqc.5 is done, and gqc.6 is still to be done.",
    ):
        assert reported_done(loops, [Message("assistant", said)]) == {}, said
    said = "PR #60 merged after #58 landed."
    assert reported_done(loops, [Message("assistant", said)]) == {"b": said}


def test_a_pull_request_is_one_id_however_it_is_written() -> None:
    # a loop that links its draft PR, closed by the later word that the PR was merged
    loops = [
        ("draft", "Draft PR open: https://github.com/acme/orpheus/pull/14"),
        ("notes", "Review the release notes in PR 15"),
    ]
    for said, closed in (
        ("There's a merged PR #14 on origin/main that's not in my local.", {"draft"}),
        ("https://github.com/acme/orpheus/pull/14 is merged.", {"draft"}),
        ("acme/orpheus#14 merged, and PR 15 was closed.", {"draft", "notes"}),
        ("Opened PR #14 for review.", set()),
        ("PR #14 is not merged yet.", set()),
        ("Merged PR #16.", set()),
        ("Once PR #14 is merged, tag the release.", set()),
        ("If PR 15 is closed by then, say so; PR #14 got merged.", {"draft"}),
    ):
        found = reported_done(loops, [Message("user", "go on"), Message("assistant", said)])
        assert found.keys() == closed, said


def test_a_condition_reports_nothing_done() -> None:
    loops = [("a", "Benchmark the parser cache before the release")]
    for said in (
        "When the parser cache benchmark is done, ship the release.",
        "As soon as the parser cache benchmark is finished we tag it.",
        "Tag it; once the benchmark of the parser cache is done, ship.",
    ):
        assert reported_done(loops, [Message("assistant", said)]) == {}, said
    said = "If you wondered: the parser cache benchmark is done."
    assert reported_done(loops, [Message("assistant", said)]) == {"a": said}


def test_a_loops_condition_is_not_what_closes_it() -> None:
    # the pull request a loop waits on is its condition: the loop is closed by what it says
    # to do, not by the condition coming true
    loops = [
        ("tag", "Once PR #14 is merged, tag the release"),
        ("deploy", "Deploy the parser cache to staging as soon as CI for PR 15 is green"),
        ("merge", "Merge PR #20 when CI is green"),
        ("check", "Check if the parser cache build passes on arm64"),
    ]
    for said, closed in (
        ("PR #14 is merged.", set()),
        ("CI for PR 15 is green and PR 15 merged.", set()),
        ("Tagged the release: v1.4 is out (tag release done).", {"tag"}),
        ("Deployed: the parser cache is on staging, done.", {"deploy"}),
        ("PR #20 merged.", {"merge"}),
        ("The parser cache build passes on arm64, checked: done.", {"check"}),
    ):
        found = reported_done(loops, [Message("user", "go on"), Message("assistant", said)])
        assert found.keys() == closed, said


def test_a_loop_is_read_without_its_conditions() -> None:
    assert subject("Once PR #14 is merged, tag the release.").split() == [
        ",",
        "tag",
        "the",
        "release.",
    ]
    assert "PR #14" not in subject("Tag the release once PR #14 is merged.")
    assert "PR #14" not in subject("Tag the release — once PR #14 is merged — and announce it")
    assert "announce" in subject("Tag the release — once PR #14 is merged — and announce it")
    # "if" within a clause asks whether: it is what is to be checked
    assert subject("Check if the build passes on CI") == "Check if the build passes on CI"
    # a loop that is all condition is read whole
    assert subject("Once merged.") == "Once merged."
    # the case of the condition's word does not matter, nor does a casefold that grows
    assert "#14" not in subject("STRAßE: ONCE PR #14 IS MERGED, tag it")


def test_a_report_in_another_language_closes_the_loop_it_names() -> None:
    # words of Chinese, Japanese and Korean are not cut by spaces: the report and the loop
    # share pairs of their characters; a report of what is still not done closes nothing
    cases = [
        ("给订单表添加索引", "订单表的索引已经添加完成。", "订单表的索引还没有添加。"),
        (
            "READMEのインストール手順を更新する",
            "READMEのインストール手順を更新しました。",
            "READMEのインストール手順はまだ更新していません。",
        ),
        (
            "결제 모듈에 재시도 로직 추가",
            "결제 모듈에 재시도 로직 추가를 완료했습니다.",
            "결제 모듈의 재시도 로직은 아직 추가하지 않았습니다.",
        ),
        (
            "Actualizar la documentación de la API",
            "Hecho: la documentación de la API está actualizada.",
            "La documentación de la API todavía no está hecha.",
        ),
    ]
    for loop, done, not_yet in cases:
        other = "Lint ist erledigt."  # a report of another thing
        said = [Message("assistant", f"{other}\n{not_yet}")]
        assert reported_done([("a", loop)], said) == {}, not_yet
        said.append(Message("assistant", f"Gut. {done}"))
        assert reported_done([("a", loop)], said) == {"a": done}, done


def test_a_secret_in_the_report_is_masked_in_the_note_and_never_stored(
    gm: Any, initialised: Path
) -> None:
    token = "ghp_" + "1234567890abcdefghij" * 2
    said = f"The parser cache benchmark is done: its token {token} is rotated."
    item = loop_then(gm, initialised, f"{said}\n")
    assert item["contradiction"].startswith("state changed: reported done in a later session")
    assert token not in item["contradiction"] and "[redacted:" in item["contradiction"]
    repo = pygit2.Repository(str(initialised))
    tip = repo.references["refs/gitmem/memory"].peel(pygit2.Commit)
    stored = [repo[e.id].data for e in _blobs(repo, tip.tree)]
    assert stored and not any(token.encode() in data for data in stored)


def _blobs(repo: pygit2.Repository, tree: pygit2.Tree) -> list[pygit2.Object]:
    found: list[pygit2.Object] = []
    for entry in tree:
        found += _blobs(repo, entry) if isinstance(entry, pygit2.Tree) else [entry]
    return found


# -- a side run's loops, and the final word of its session -----------------------------

PARENT = "p-42"
SIDE_LOOP = "Still needs: the toggle handler and the panel attributes for the debug view."


def side_run_then(gm: Any, folder: Path, final: str, parent: str = PARENT) -> dict[str, Any]:
    """The brief's open loop after a compaction of session *parent* left it in a file of its
    own, then *parent*'s transcript, whose final reply is *final*, was captured."""
    when = datetime(2026, 11, 3, 10, tzinfo=UTC)
    side = folder / "agent-acompact-7.jsonl"
    side.write_text(
        claude_line(SIDE_LOOP, "assistant", PARENT, when, isSidechain=True, agentId="acompact-7")
    )
    loop = {"kind": "open_loop", "text": "Add the toggle handler and the panel attributes"}
    loop |= {"trust": "verbatim", "quote": "the toggle handler and the panel attributes"}
    assert capture(gm, side, [loop])["session"] == f"{PARENT}/agent-acompact-7"
    lines = [
        ("user", "Carry on with the debug view."),
        ("assistant", "Wired it up."),
        ("user", "ok"),
    ]
    lines.append(("assistant", final))
    main = session_file(folder, parent, lines, when + timedelta(hours=1))
    capture(gm, main, [], session=parent)
    (item,) = [i for i in brief_json(gm)["items"] if i["kind"] == "open_loop"]
    assert gm("verify").exit_code == 0
    return dict(item)


def test_a_side_runs_loop_is_flagged_when_its_session_ends_all_done(
    gm: Any, initialised: Path
) -> None:
    final = "Committed and pushed. All done — the entire debug view epic is complete."
    item = side_run_then(gm, initialised.parent, final)
    said = "All done — the entire debug view epic is complete."
    assert (
        item["contradiction"] == f"state changed: reported done at the end of its session: {said}"
    )


@pytest.mark.parametrize(
    ("final", "parent"),
    [
        ("Wired the toggle. The panel attributes are next.", PARENT),  # not all done
        ("Is it all done? Not yet: the panel attributes are next.", PARENT),  # a question
        ("All done — the entire debug view epic is complete.", "p-43"),  # another session
    ],
)
def test_a_side_runs_loop_stays_unless_its_own_session_ends_all_done(
    gm: Any, initialised: Path, final: str, parent: str
) -> None:
    assert side_run_then(gm, initialised.parent, final, parent)["contradiction"] is None


def test_which_sessions_are_side_runs_of_which() -> None:
    assert side_run_of(f"{PARENT}/agent-a7", PARENT)
    assert not side_run_of(f"{PARENT}2/agent-a7", PARENT)  # another session's
    assert not side_run_of(f"{PARENT}/agentx", PARENT)
    assert not side_run_of(PARENT, PARENT) and not side_run_of("p-43", PARENT)


def test_the_all_done_sentence_is_the_sessions_own() -> None:
    said = [Message("user", "go"), Message("assistant", "Pushed. All done, nothing left.")]
    assert all_done_sentence(said) == "All done, nothing left."
    assert all_done_sentence([*said, Message("assistant", "One more: the docs.")]) is None
    # a tool's output the reply shows, as a terminal does, is not what the session said
    shown = Message("assistant", "Reviewed.\n  ⎿  All done, nothing left.")
    assert all_done_sentence([shown]) is None


def test_the_final_word_is_the_sessions_not_an_exchange_the_host_started() -> None:
    notification = "<task-notification>\n<task-id>b76</task-id>\n</task-notification>"
    messages = [
        Message("user", "Finish the epic."),
        Message("assistant", "All done. The epic is complete and pushed."),
        Message("user", notification),
        Message("assistant", "Background task completed successfully: the tests pass."),
    ]
    assert final_reply(messages) == 1
    assert all_done_sentence(messages) == "All done."
    # the user's own turn after it: the reply to it is the final word
    asked = [*messages, Message("user", "And the docs?"), Message("assistant", "Updating them.")]
    assert final_reply(asked) == 5 and all_done_sentence(asked) is None
    assert final_reply([Message("user", notification)]) is None


# -- the same session captured again as it goes on ---------------------------------------

TODO = "TODO: benchmark the retry queue under load before the release."


def captured_twice(gm: Any, folder: Path, before: list[str], later: list[str]) -> dict[str, Any]:
    """The brief's open loop after session s-9 was captured with *before* then TODO said
    (the loop given as its item), and again once it had gone on with *later* (user and
    assistant in turn, the user first)."""
    when = datetime(2026, 11, 5, 10, tzinfo=UTC)
    said = [("assistant", text) for text in before] + [("user", "go on"), ("assistant", TODO)]
    loop = {
        "kind": "open_loop",
        "text": "Benchmark the retry queue under load",
        "trust": "verbatim",
    }
    capture(gm, session_file(folder, "s-9", said, when), [loop | {"quote": TODO}])
    roles = ("user", "assistant")
    said += [(roles[n % 2], text) for n, text in enumerate(later)]
    capture(gm, session_file(folder, "s-9", said, when), [])
    (item,) = [i for i in brief_json(gm)["items"] if i["kind"] == "open_loop"]
    assert gm("verify").exit_code == 0
    return dict(item)


@pytest.mark.parametrize(
    ("later", "flagged"),
    [
        (
            ["run it", "The retry queue load benchmark is done before the release: 2.3x."],
            "reported done later in its session: The retry queue load benchmark is done "
            "before the release: 2.3x.",
        ),
        (
            ["Skip the retry queue load benchmark, the release is cancelled.", "Understood."],
            "called off later in its session: Skip the retry queue load benchmark, the "
            "release is cancelled.",
        ),
        (
            ["wrap up", "Pushed the branch. All done."],
            "reported done at the end of its session: All done.",
        ),
        (["and the docs?", "Updated the docs; the retry queue benchmark is next."], None),
    ],
)
def test_a_loop_the_same_session_closes_later_is_flagged(
    gm: Any, initialised: Path, later: list[str], flagged: str | None
) -> None:
    item = captured_twice(gm, initialised.parent, [], later)
    assert item["contradiction"] == (flagged and f"state changed: {flagged}")


def test_what_the_session_said_before_the_loop_closes_it_not(gm: Any, initialised: Path) -> None:
    old = "The retry queue load benchmark is done before the release: 2.3x."
    item = captured_twice(gm, initialised.parent, [old], ["and now?", "Looking at the docs."])
    assert item["contradiction"] is None


def test_a_report_closes_only_the_loops_said_before_it() -> None:
    loops = [("a", "Benchmark the retry queue under load before the release.")]
    said = [
        Message("assistant", TODO),
        Message("assistant", "The retry queue load benchmark is done before the release."),
    ]
    assert reported_done(loops, said, {"a": 0}) == {"a": said[1].text}
    assert reported_done(loops, said, {"a": 1}) == {}
    assert reported_done(loops, said) == {"a": said[1].text}  # another session's: anywhere


def test_what_only_might_have_been_done_reports_nothing() -> None:
    loops = [("a", "Push the parser cache changes to the release branch")]
    for hypothetical in (
        "A human could have done the parser cache changes on the release branch.",
        "We should have pushed the parser cache changes to the release branch.",
        "The parser cache changes would have been pushed to the release branch.",
    ):
        assert reported_done(loops, [Message("assistant", hypothetical)]) == {}, hypothetical
    done = "I have pushed the parser cache changes to the release branch."
    assert reported_done(loops, [Message("assistant", done)]) == {"a": done}


def test_a_commit_reports_its_loop_done() -> None:
    loops = [("a", "Commit the parser cache changes to the release branch")]
    said = "Committed the parser cache changes to the release branch."
    assert reported_done(loops, [Message("assistant", said)]) == {"a": said}


WORDS = ["the", "retry", "queue", "benchmark", "done", "release", "skip", "all", "not", "is", "?"]


@settings(max_examples=200, derandomize=True, database=None, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["user", "assistant", "tool_result"]),
            st.lists(st.sampled_from(WORDS), max_size=12),
        ),
        max_size=8,
    ),
    st.integers(min_value=-1, max_value=8),
)
def test_a_loop_is_closed_only_by_what_comes_after_its_place(
    said: list[tuple[str, list[str]]], place: int
) -> None:
    messages = [Message(role, " ".join(words) + ".") for role, words in said]
    loops = [("a", "Benchmark the retry queue before the release")]
    for closing in (reported_done, called_off):
        found = closing(loops, messages, {"a": place})
        if found:
            later = [said_text(m) for m in messages[place + 1 :]]
            assert any(found["a"] in text for text in later)
        assert set(found) <= set(closing(loops, messages))  # a place only ever narrows
