"""gitmem review RANGE: the memory of a branch, on real git — what a reviewer sees and
what is left out, the badges and degraded items, a comment that fits, hostile text."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from helpers import commit, git, tamper
from helpers.capturing import capture_text
from helpers.history import redate_memory

from gitmem.brief.review.render import COMMENT_LIMIT, MARKER, md_text
from gitmem.hooks.capturing import post_rewrite
from gitmem.store.repo import Store

SAID = "We agreed on this, and it is recorded here for the review."
AGREED = "We agreed on this: the retries stay as they are"


def remember(gm: Any, repo: Path, text: str, session: str, **extra: Any) -> str:
    """Capture one inferred item (or a verbatim one with quote=) in *session* at HEAD; its
    id."""
    item = {"kind": extra.pop("kind", "decision"), "text": text, "trust": "inferred", **extra}
    if "quote" in item:
        item["trust"] = "verbatim"
    path = repo.parent / f"{session}-{abs(hash(text))}.md"
    said = f"{SAID}\n{extra.get('quote', '')}\n"
    return str(capture_text(gm, path, said, [item], session=session)["items"][0]["id"])


def branch_history(gm: Any, repo: Path) -> dict[str, str]:
    """main with memory of its own, a feature branch of two commits with memory from
    two sessions (one resolved), and the feature session's capture on another branch."""
    ids: dict[str, str] = {}
    ids["main"] = remember(gm, repo, "Main line only decision", "s-main")
    ids["file"] = remember(gm, repo, "The app entry point stays in src/app.py", "s-old")
    ids["unrelated"] = remember(gm, repo, "Unrelated docs note", "s-old", kind="fact")
    git(repo, "checkout", "-q", "-b", "feature")
    ids["before"] = remember(gm, repo, "Plan made before the first commit", "s-feat")
    commit(repo, "change the app", "src/app.py", "change the app\n")
    ids["first"] = remember(gm, repo, "Keep the retries as they are", "s-feat", quote=AGREED)
    ids["other"] = remember(gm, repo, "Second session on the branch", "s-other", kind="open_loop")
    commit(repo, "add util", "src/util.py", "add util\n")
    ids["resolved"] = remember(gm, repo, "Temporary flag to remove", "s-feat", kind="open_loop")
    assert gm("resolve", ids["resolved"][:8], "--note", "removed").exit_code == 0
    git(repo, "checkout", "-q", "main")
    git(repo, "checkout", "-q", "-b", "side")
    commit(repo, "side work", "side.txt", "side work\n")
    ids["elsewhere"] = remember(gm, repo, "Same session on another branch", "s-feat")
    git(repo, "checkout", "-q", "feature")
    return ids


def review_json(gm: Any, *args: str) -> dict[str, Any]:
    result = gm("review", "main..feature", "--format", "json", *args)
    assert result.exit_code == 0, result.stderr
    document = result.json()
    assert isinstance(document, dict)
    return document


def test_the_range_commits_and_sessions_are_in_and_the_rest_is_out(
    gm: Any, initialised: Path
) -> None:
    ids = branch_history(gm, initialised)
    document = review_json(gm)
    by_id = {item["id"]: item for item in document["items"]}
    captured = {ids[k] for k in ("before", "first", "other", "resolved")}
    assert {i for i, item in by_id.items() if item["reason"] == "captured"} == captured
    assert {i for i, item in by_id.items() if item["reason"] == "file"} == {ids["file"]}
    assert not {ids["main"], ids["elsewhere"], ids["unrelated"]} & set(by_id)
    assert by_id[ids["resolved"]]["lifecycle"] == "resolved"
    assert by_id[ids["first"]]["trust"] == "verbatim"
    assert by_id[ids["first"]]["quote"] == AGREED
    assert by_id[ids["file"]]["files"] == ["src/app.py"]
    assert document["commits"] == 2 and document["files"] == 2
    assert sorted(document["sessions"]) == ["s-feat", "s-other"]
    assert document["checkpoints"] == 4 and document["failed"] == 0


def test_the_markdown_groups_by_part_and_section_with_the_badges(
    gm: Any, initialised: Path
) -> None:
    ids = branch_history(gm, initialised)
    text = gm("review", "main..feature").stdout
    assert text.startswith(MARKER + "\n<gitmem-context>\n")
    assert text.rstrip().endswith("</gitmem-context>")
    captured, _, about = text.partition("#### Earlier memory about the files this range changes")
    assert "#### Captured in this range" in captured and "**Decisions**" in captured
    assert f'- [✓ verbatim] Keep the retries as they are — "{AGREED}" (`{ids["first"][:8]}`)' in (
        captured
    )
    assert f"Temporary flag to remove [resolved] (`{ids['resolved'][:8]}`)" in captured
    assert "src/app.py" in about and "The app entry point" in about
    assert "Main line only" not in text and "another branch" not in text


def test_a_rebased_branch_keeps_its_memory(gm: Any, initialised: Path) -> None:
    ids = branch_history(gm, initialised)
    before = git(initialised, "rev-list", "main..feature").split()
    commit(
        initialised, "main moves on", "main.txt", "main moves on\n"
    )  # on feature? no: go to main first
    git(initialised, "reset", "-q", "--hard", "HEAD~1")
    git(initialised, "checkout", "-q", "main")
    commit(initialised, "main moves on", "main.txt", "main moves on\n")
    git(initialised, "checkout", "-q", "feature")
    git(initialised, "rebase", "-q", "main")
    after = git(initialised, "rev-list", "main..feature").split()
    pairs = initialised.parent / "rewritten"
    pairs.write_text(
        "".join(f"{o} {n}\n" for o, n in zip(reversed(before), reversed(after), strict=True))
    )
    post_rewrite(Store.discover(initialised), "rebase", str(pairs))
    found = {item["id"] for item in review_json(gm)["items"]}
    assert {ids["first"], ids["other"], ids["resolved"]} <= found


def test_degraded_items_of_the_range_stay_visible(gm: Any, initialised: Path) -> None:
    ids = branch_history(gm, initialised)
    store = Store.discover(initialised)
    document = review_json(gm)
    first = next(i for i in document["items"] if i["id"] == ids["first"])
    tamper.edit_record(store, first["checkpoint"], b"We agreed on this", b"We never agreed")
    other = next(i for i in document["items"] if i["id"] == ids["other"])
    tamper.edit_record(store, other["checkpoint"], b"alice@example.com", b"alice@example.org")
    document = review_json(gm)
    by_id = {item["id"]: item for item in document["items"]}
    assert by_id[ids["first"]]["degraded_reason"].startswith("item edited")
    assert by_id[ids["first"]]["quote"] is None and by_id[ids["first"]]["trust"] != "verbatim"
    assert by_id[ids["other"]]["degraded_reason"].startswith("record edited")
    # the failed checkpoint carries memory from outside the range: it stays out
    assert not {ids["main"], ids["unrelated"]} & set(by_id)
    assert [i["text"] for i in document["items"]].count("Keep the retries as they are") == 1
    assert document["failed"] == 1 and document["warnings"]
    text = gm("review", "main..feature").stdout
    line = next(line for line in text.splitlines() if "Keep the retries" in line)
    assert "[⚠ verbatim withheld: item edited]" in line and '"' not in line
    assert "#### Warnings" in text and "**1 FAILED**" in text
    assert "Main line only" not in text


@pytest.mark.slow
def test_the_comment_fits_and_says_what_was_cut(gm: Any, initialised: Path) -> None:
    git(initialised, "checkout", "-q", "-b", "feature")
    commit(initialised, "big", "big.py", "big\n")
    quote = "We agreed on this, and it is recorded here"
    for n in range(40):
        remember(gm, initialised, f"Long inferred item {n} " + "word " * 500, f"s{n}")
    remember(gm, initialised, "A verbatim one " + "x" * 3000, "s-v", quote=quote)
    text = gm("review", "main..feature", "--limit", "500").stdout
    assert len(text) <= COMMENT_LIMIT
    note = re.search(r"_… (\d+) more item\(s\) not shown", text)
    assert note is not None and int(note.group(1)) > 0
    shown = [line for line in text.splitlines() if line.startswith("- [")]
    assert len(shown) + int(note.group(1)) == 41
    for line in shown:  # whole items only: no line was cut
        assert line.endswith("`)")
    assert "--format json --limit N" in text
    few = gm("review", "main..feature", "--limit", "3").stdout
    assert len([line for line in few.splitlines() if line.startswith("- [")]) == 3
    assert "38 more item(s) not shown" in few


def test_hostile_text_renders_as_its_characters(gm: Any, initialised: Path) -> None:
    git(initialised, "checkout", "-q", "-b", "feature")
    commit(initialised, "a", "a.py", "a\n")
    hostile = (
        "<script>alert(1)</script> ![x](https://evil.example/p.png) [click](javascript:x) "
        "@octocat *bold* | table | $x$ <!-- hide --> &amp; `code`"
    )
    remember(gm, initialised, hostile, "s-h")
    text = gm("review", "main..feature").stdout
    line = next(line for line in text.splitlines() if "alert" in line)
    assert md_text(hostile) in line and "`@`octocat" in line and "\\*bold\\*" in line
    assert "\\<script\\>" in line and "\\<\\!--" in line and "\\!\\[x\\]" in line
    # every markup character of the text is escaped: none is left once the escapes go
    bare = re.sub(r"\\.", "", md_text(hostile)).replace("`@`", "")
    assert not set(bare) & set("\\`*_[]<>!|~&$")
    unescaped = re.sub(r"\\(.)", r"\1", md_text(hostile)).replace("`@`", "@")
    assert unescaped == hostile  # nothing lost, nothing added


def test_memory_as_of_a_moment_reviews_what_was_known_then(gm: Any, initialised: Path) -> None:
    ids = branch_history(gm, initialised)
    count = len(git(initialised, "rev-list", "refs/gitmem/memory").split())
    dates = [f"2026-07-{n + 1:02d}T10:00:00Z" for n in range(count)]
    redate_memory(initialised, dates)
    then = review_json(gm, "--as-of", "2026-07-05T12:00")  # before the branch's 2nd commit
    found = {item["id"] for item in then["items"]}
    assert ids["first"] in found and ids["resolved"] not in found
    assert then["as_of"]["how"] == "time"
    assert (
        "as of 2026-07-05T12:00:00Z"
        in gm("review", "main..feature", "--as-of", "2026-07-05T12:00").stdout
    )


@pytest.mark.parametrize(
    "args",
    [
        ("review", "no-such..feature"),
        ("review", "--all"),
        ("review", "main..feature", "--format", "text"),
        ("review", "main..feature", "--limit", "0"),
        ("review", "main..feature", "--as-of", "nonsense"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    gm: Any, initialised: Path, args: tuple[str, ...]
) -> None:
    git(initialised, "branch", "feature")
    result = gm(*args)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("gitmem: ") and result.stderr.count("\n") == 1


def test_an_empty_range_says_so(gm: Any, initialised: Path) -> None:
    remember(gm, initialised, "Main line only decision", "s-main")
    git(initialised, "branch", "feature")
    text = gm("review", "main..feature").stdout
    assert "No memory was captured in this range" in text
    assert review_json(gm)["items"] == []


def test_review_is_read_only(gm: Any, initialised: Path) -> None:
    branch_history(gm, initialised)
    before = git(initialised, "for-each-ref")
    gm("review", "main..feature")
    gm("review", "main..feature", "--format", "json")
    assert git(initialised, "for-each-ref") == before


def test_a_session_on_the_branch_before_its_first_commit_is_in_even_if_it_never_committed(
    gm: Any, initialised: Path
) -> None:
    """A session that planned on the new branch and stopped before any commit (another
    session made the commits) belongs to the branch's review; the same kind of capture
    made on main at that commit does not."""
    repo = initialised
    main_only = remember(gm, repo, "Said on main at the fork point", "s-main-fork")
    git(repo, "checkout", "-q", "-b", "feature")
    planned = remember(gm, repo, "Plan for the branch, made before any commit", "s-planner")
    commit(repo, "the work", "src/work.py", "work\n")
    worked = remember(gm, repo, "The work is done", "s-worker")
    ids = {i["id"] for i in review_json(gm)["items"]}
    assert {planned, worked} <= ids
    assert main_only not in ids
