"""World-check: each probe confirmed and contradicted, against real repositories in temp
folders, and forge CLIs replaced by tiny fake programs put first on PATH (real
subprocesses, fake programs, no mocks)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pygit2
import pytest
from helpers import commit, git

from gitmem.brief.worldcheck import (
    BUDGET_SPENT,
    CLAIM_TYPES,
    MAX_CLAIMS,
    Claim,
    Probe,
    WorldChecker,
    aggregate,
    claims_of,
    resolve_hint,
)
from gitmem.brief.worldcheck import checker as worldcheck_checker
from gitmem.brief.worldcheck import probes as worldcheck_probes
from gitmem.brief.worldcheck.forge import ForgeAnswer, NoForge

# -- helpers ---------------------------------------------------------------------------


def head(repo: Path, rev: str = "HEAD") -> str:
    return git(repo, "rev-parse", rev).strip()


def checker(repo: Path, budget: float = 0.5, **kw: Any) -> WorldChecker:
    kw.setdefault("forge", NoForge())
    return WorldChecker(pygit2.Repository(str(repo)), budget_seconds=budget, **kw)


def probe(repo: Path, claim_type: str, **fields: Any) -> Probe:
    check = checker(repo).check([Claim(claim_type, fields)])
    assert len(check.probes) == 1
    return check.probes[0]


@pytest.fixture
def bindir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder first on PATH, for fake forge CLIs."""
    path = tmp_path / "bin"
    path.mkdir()
    monkeypatch.setenv("PATH", f"{path}{os.pathsep}{os.environ['PATH']}")
    return path


def fake(bindir: Path, name: str, body: str) -> Path:
    script = bindir / name
    script.write_text("#!/bin/sh\n" + body)
    script.chmod(0o755)
    return script


def logging_fake(bindir: Path, name: str, answer: str, status: int = 0) -> Path:
    """A fake CLI that logs its arguments, folder, prompt settings and stdin, then answers."""
    log = bindir / f"{name}.log"
    fake(
        bindir,
        name,
        f'stdin=$(cat)\necho "$* | $(pwd) | $GH_PROMPT_DISABLED $GIT_TERMINAL_PROMPT'
        f' $GLAB_NO_PROMPT | [$stdin]" >> "{log}"\n'
        f"echo '{answer}'\nexit {status}\n",
    )
    return log


def calls(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


# -- file-exists -------------------------------------------------------------------


def test_file_present_at_head_is_confirmed(repo: Path) -> None:
    sha = commit(repo, "add src/a.py", "src/a.py")
    found = probe(repo, "file-exists", path="src/a.py")
    assert found.outcome == "confirmed"
    assert found.detail == f"src/a.py is in HEAD ({sha[:7]})"


def test_deleted_file_is_contradicted_naming_the_commit_that_removed_it(repo: Path) -> None:
    commit(repo, "add src/a.py", "src/a.py")
    commit(repo, "add other.txt", "other.txt")
    git(repo, "rm", "-q", "src/a.py")
    git(repo, "commit", "-q", "-m", "drop the old parser")
    removed = head(repo)
    commit(repo, "add later.txt", "later.txt")
    found = probe(repo, "file-exists", path="src/a.py")
    assert found.outcome == "contradicted"
    assert found.detail == (
        f"src/a.py is not in HEAD ({head(repo)[:7]}): removed in {removed[:7]} "
        "“drop the old parser”"
    )
    assert found.change == f"src/a.py removed in {removed[:7]}"


def test_file_never_committed_is_contradicted_as_not_in_head(repo: Path) -> None:
    found = probe(repo, "file-exists", path="src/missing.py")
    assert (found.outcome, found.change) == ("contradicted", "src/missing.py not in HEAD")
    assert found.detail == f"src/missing.py is not in HEAD ({head(repo)[:7]})"


def test_uncommitted_file_in_the_working_tree_is_neither(repo: Path) -> None:
    (repo / "new.py").write_text("x\n")
    found = probe(repo, "file-exists", path="new.py")
    assert found.outcome is None
    assert "in the working tree, not committed" in found.detail


def test_file_claim_on_an_unborn_head_cannot_be_checked(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    git(empty, "init", "-q", "-b", "main")
    found = probe(empty, "file-exists", path="a.py")
    assert (found.outcome, found.detail) == (None, "HEAD has no commit yet")


# -- branch-exists -----------------------------------------------------------------


def test_local_branch_is_confirmed_and_a_missing_one_contradicted(repo: Path) -> None:
    git(repo, "branch", "fix/tokenizer")
    found = probe(repo, "branch-exists", branch="fix/tokenizer")
    assert found.outcome == "confirmed"
    assert found.detail == f"branch fix/tokenizer exists ({head(repo)[:7]})"
    gone = probe(repo, "branch-exists", branch="fix/other")
    assert (gone.outcome, gone.change) == ("contradicted", "no branch fix/other")
    assert "remote-tracking" in gone.detail


def test_branch_only_on_a_remote_is_confirmed(repo: Path) -> None:
    git(repo, "remote", "add", "origin", "https://github.com/acme/parser.git")
    git(repo, "update-ref", "refs/remotes/origin/feat", "HEAD")
    found = probe(repo, "branch-exists", branch="feat")
    assert found.outcome == "confirmed"
    assert "as origin/feat" in found.detail
    # Named with its remote, too.
    assert probe(repo, "branch-exists", branch="origin/feat").outcome == "confirmed"


# -- branch-merged -----------------------------------------------------------------


def merged_and_unmerged(repo: Path) -> None:
    git(repo, "checkout", "-q", "-b", "done")
    commit(repo, "add done.txt", "done.txt")
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-ff", "-m", "merge done", "done")
    git(repo, "checkout", "-q", "-b", "wip")
    commit(repo, "add wip.txt", "wip.txt")
    git(repo, "checkout", "-q", "main")


def test_merged_branch_is_confirmed_against_the_default_branch(repo: Path) -> None:
    merged_and_unmerged(repo)
    found = probe(repo, "branch-merged", branch="done")
    assert found.outcome == "confirmed"
    assert found.detail == f"branch done ({head(repo, 'done')[:7]}) is merged into main"


def test_unmerged_branch_is_contradicted(repo: Path) -> None:
    merged_and_unmerged(repo)
    found = probe(repo, "branch-merged", branch="wip")
    assert found.outcome == "contradicted"
    assert found.detail.startswith(f"branch wip ({head(repo, 'wip')[:7]}) is not merged into main")
    assert found.change == "branch wip not merged into main"


def test_merged_is_measured_against_the_remote_default_branch_and_into(repo: Path) -> None:
    merged_and_unmerged(repo)
    git(repo, "branch", "-m", "main", "trunk")
    git(repo, "remote", "add", "origin", "https://github.com/acme/parser.git")
    git(repo, "update-ref", "refs/remotes/origin/trunk", "trunk")
    git(repo, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk")
    found = probe(repo, "branch-merged", branch="done")
    assert (found.outcome, found.detail.rsplit(" ", 1)[1]) == ("confirmed", "trunk")
    # "into" names the target: wip is not in done.
    found = probe(repo, "branch-merged", branch="wip", into="done")
    assert found.outcome == "contradicted"
    assert "not merged into done" in found.detail
    unknown = probe(repo, "branch-merged", branch="wip", into="nowhere")
    assert (unknown.outcome, unknown.detail) == (
        None,
        "branch nowhere not found to compare wip with",
    )


def test_merged_claim_about_a_deleted_branch_cannot_be_checked(repo: Path) -> None:
    found = probe(repo, "branch-merged", branch="deleted-after-merge")
    assert found.outcome is None
    assert "is gone" in found.detail


# -- commit-exists -----------------------------------------------------------------


def test_commit_full_and_abbreviated_is_confirmed(repo: Path) -> None:
    sha = commit(repo, "Fix tokenizer depth counter", "a.txt")
    for given in (sha, sha[:7], sha[:12].upper()):
        found = probe(repo, "commit-exists", sha=given)
        assert found.outcome == "confirmed", given
        assert found.detail == f"commit {sha[:7]} exists “Fix tokenizer depth counter”"


def test_missing_commit_and_a_blob_are_contradicted(repo: Path) -> None:
    missing = probe(repo, "commit-exists", sha="0123456789abcdef0123456789abcdef01234567")
    assert missing.outcome == "contradicted"
    assert missing.change == "commit 0123456789abcdef0123456789abcdef01234567 not found"
    assert probe(repo, "commit-exists", sha="0123abc").outcome == "contradicted"
    blob = git(repo, "rev-parse", "HEAD:README.md").strip()
    found = probe(repo, "commit-exists", sha=blob)
    assert (found.outcome, found.detail) == ("contradicted", f"{blob} is a blob, not a commit")


# -- forge: pr-state and issue-state through a fake CLI ------------------------------


def pr_claim(number: int = 12, state: str = "open", **more: Any) -> Claim:
    return Claim("pr-state", {"number": number, "state": state, **more})


def with_remote(repo: Path, url: str = "git@github.com:acme/parser.git") -> Path:
    git(repo, "remote", "add", "origin", url)
    return repo


def test_pr_state_matching_the_forge_is_confirmed(repo: Path, bindir: Path) -> None:
    log = logging_fake(bindir, "gh", '{"state":"MERGED"}')
    check = checker(with_remote(repo), forge=None).check([pr_claim(state="merged")])
    assert check.status == "confirmed"
    assert check.probes[0].detail == "PR #12 is merged, says gh"
    # Asked in the repository, prompts off, stdin closed (empty, not waiting).
    assert calls(log) == [f"pr view 12 --json state | {repo} | 1 0 true | []"]


def test_pr_state_not_matching_the_forge_is_contradicted(repo: Path, bindir: Path) -> None:
    logging_fake(bindir, "gh", '{"state":"MERGED"}')
    check = checker(with_remote(repo), forge=None).check([pr_claim(214, "open")])
    assert check.status == "contradicted"
    assert check.summary == "PR #214 is merged, not open, says gh."
    assert check.probes[0].change == "PR #214 merged"


def test_closed_claim_is_confirmed_by_a_merged_pr_but_not_the_reverse(
    repo: Path, bindir: Path
) -> None:
    logging_fake(bindir, "gh", '{"state":"CLOSED"}')
    wc = checker(with_remote(repo), forge=None)
    assert wc.check([pr_claim(1, "closed")]).status == "confirmed"
    assert wc.check([pr_claim(1, "merged")]).status == "contradicted"


def test_issue_state_and_repo_are_passed_to_gh(repo: Path, bindir: Path) -> None:
    log = logging_fake(bindir, "gh", '{"state":"CLOSED"}')
    claim = Claim("issue-state", {"number": 45, "state": "open", "repo": "acme/parser"})
    check = checker(repo, forge=None).check([claim])
    assert check.summary == "issue #45 is closed, not open, says gh."
    assert calls(log)[0].startswith("issue view 45 --json state --repo acme/parser |")


def test_gitlab_remote_asks_glab_about_the_merge_request(repo: Path, bindir: Path) -> None:
    log = logging_fake(bindir, "glab", '{"iid":7,"state":"opened"}')
    check = checker(with_remote(repo, "https://gitlab.com/acme/parser.git"), forge=None).check(
        [pr_claim(7, "merged")]
    )
    assert check.status == "contradicted"
    assert check.probes[0].detail == "MR !7 is open, not merged, says glab"
    assert calls(log)[0].startswith("mr view 7 --output json |")
    assert resolve_hint("3d53f2a3", check) == (
        "`gitmem resolve 3d53f2a3 --note 'MR !7 open'` or `gitmem reverify 3d53f2a3 --evidence …`"
    )


def test_gh_absent_gives_none_quietly(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    wc = checker(with_remote(repo), forge=None)
    nothing = tmp_path / "nothing"
    nothing.mkdir()
    monkeypatch.setenv("PATH", str(nothing))
    check = wc.check([pr_claim()])
    assert check.status is None
    assert check.probes[0].detail == "PR #12: gh is not installed"


def test_failing_gh_gives_none_and_is_not_asked_again(repo: Path, bindir: Path) -> None:
    log = logging_fake(bindir, "gh", "To get started with GitHub CLI, please run:", status=4)
    wc = checker(with_remote(repo), forge=None)
    first = wc.check([pr_claim(1)])
    second = wc.check([pr_claim(2), Claim("file-exists", {"path": "README.md"})])
    assert first.status is None
    assert first.probes[0].detail == "PR #1: gh exited with status 4"
    assert second.status == "confirmed"
    assert second.probes[0].detail == "PR #2: not asked again (gh exited with status 4)"
    assert len(calls(log)) == 1


def test_unreadable_answer_gives_none(repo: Path, bindir: Path) -> None:
    logging_fake(bindir, "gh", '{"state":"WEIRD"}')
    check = checker(with_remote(repo), forge=None).check([pr_claim()])
    assert check.status is None
    assert "without a known state" in check.probes[0].detail


def test_no_remote_and_no_repo_does_not_run_the_forge(repo: Path, bindir: Path) -> None:
    log = logging_fake(bindir, "gh", '{"state":"OPEN"}')
    check = checker(repo, forge=None).check([pr_claim()])
    assert check.probes[0].detail == "PR #12: the repository has no remote to ask about"
    assert calls(log) == []


HUNG = 600
"""How long the hung program would run if it were waited for: far past any test's run, so
only a checker that waits for it can see it finish."""


def test_hanging_gh_is_killed_within_the_budget(repo: Path, bindir: Path) -> None:
    # No clock is read: a program killed at the budget never writes "finished", and one
    # waited for would (after HUNG seconds); each run of it leaves a line in "runs".
    pidfile, finished, runs = bindir / "pid", bindir / "finished", bindir / "runs"
    body = (
        f'echo run >> "{runs}"\n(sleep {HUNG}; touch "{finished}") &\necho $! > "{pidfile}"\nwait\n'
    )
    fake(bindir, "gh", body)
    wc = checker(with_remote(repo), budget=0.5, forge=None)
    check = wc.check([pr_claim(), Claim("file-exists", {"path": "README.md"})])
    assert check.status == "confirmed"  # the file; the PR could not be checked
    assert check.probes[0].outcome is None
    assert check.probes[0].detail.startswith("PR #12: gh did not answer within")
    # The forge call had the budget less the local reserve, and spent it.
    assert wc.remaining <= 0.5 * 0.1 + 0.01
    # The whole process group went, the program's own child included (polled until it is
    # reaped, however long a loaded machine takes; a child left running is a failure).
    while alive(int(pidfile.read_text())) and not finished.exists():
        time.sleep(0.01)
    assert not finished.exists()
    # Later items: local probes still run in the reserve; the forge is not asked again.
    later = wc.check([pr_claim(13), Claim("branch-exists", {"branch": "main"})])
    assert later.status == "confirmed"
    assert later.probes[0].outcome is None
    # One budget for both checks (this test's own wait for the kill above is not theirs):
    # what is left of it is the local reserve, too little for a forge call.
    assert later.probes[0].detail == BUDGET_SPENT
    assert runs.read_text().splitlines() == ["run"]


# -- the budget, the cache, never raising ----------------------------------------------


class Clock:
    """The checker's clock, moved only by what a test says takes time: the budget's
    arithmetic, whatever the load on the machine."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fixed = Clock()
    monkeypatch.setattr(worldcheck_checker, "time", fixed)
    monkeypatch.setattr(worldcheck_probes, "time", fixed)
    return fixed


class CountingForge:
    def __init__(
        self, state: str | None = "open", sleep: float = 0.0, clock: Clock | None = None
    ) -> None:
        self.asked: list[tuple[str, int, str | None, float]] = []
        self.answer, self.sleep, self.clock = state, sleep, clock

    def state(self, kind: str, number: int, repo: str | None, timeout: float) -> ForgeAnswer:
        self.asked.append((kind, number, repo, timeout))
        if self.clock is not None:  # the call takes *sleep* seconds of the checker's clock
            self.clock.now += self.sleep
        return ForgeAnswer(self.answer, "fake", None if self.answer else "offline")


def test_the_budget_is_shared_across_items_then_spent(repo: Path, clock: Clock) -> None:
    forge = CountingForge(sleep=0.1, clock=clock)
    wc = checker(repo, budget=0.3, forge=forge)
    items = [[pr_claim(n), Claim("file-exists", {"path": "README.md"})] for n in range(6)]
    results = [wc.check(claims) for claims in items]
    # Each forge call gets what is left, less a reserve for the local probes; three
    # calls spend the budget, after which nothing new is probed and the cached file
    # probe still answers.
    assert len(forge.asked) == 3
    assert [round(a[3], 6) for a in forge.asked] == [0.27, 0.17, 0.07]
    assert [r.probes[0].detail for r in results[3:]] == [BUDGET_SPENT] * 3
    assert all(r.status == "confirmed" for r in results)
    # Once spent, every new claim is answered "not checked", and nothing runs.
    wc.spent = wc.budget
    late = wc.check([Claim("branch-exists", {"branch": f"b{n}"}) for n in range(50)])
    assert late.status is None
    assert {p.detail for p in late.probes} == {BUDGET_SPENT}
    assert wc.remaining == 0


def test_answers_are_cached_per_claim(repo: Path) -> None:
    forge = CountingForge()
    wc = checker(repo, forge=forge)
    for _ in range(3):
        assert wc.check([pr_claim(5), pr_claim(5, repo="acme/parser")]).status == "confirmed"
    assert [(k, n, r) for k, n, r, _ in forge.asked] == [("pr", 5, None), ("pr", 5, "acme/parser")]


def test_a_zero_budget_checks_nothing(repo: Path) -> None:
    check = checker(repo, budget=0).check([Claim("file-exists", {"path": "README.md"})])
    assert (check.status, check.probes[0].detail) == (None, BUDGET_SPENT)


def test_check_never_raises(repo: Path) -> None:
    class Broken:
        def state(self, kind: str, number: int, repo: str | None, timeout: float) -> ForgeAnswer:
            raise RuntimeError("boom")

    check = checker(repo, forge=Broken()).check([pr_claim()])
    assert (check.status, check.probes[0].detail) == (None, "could not check: boom")


def test_checking_writes_nothing(repo: Path) -> None:
    merged_and_unmerged(repo)
    before = (git(repo, "for-each-ref"), git(repo, "count-objects", "-v"), git(repo, "status"))
    claims = [
        Claim("file-exists", {"path": "gone.py"}),
        Claim("branch-merged", {"branch": "wip"}),
        Claim("commit-exists", {"sha": "abcdef1"}),
    ]
    checker(repo).check(claims)
    after = (git(repo, "for-each-ref"), git(repo, "count-objects", "-v"), git(repo, "status"))
    assert after == before
    assert not (repo / ".git" / "gitmem").exists()


# -- status aggregation --------------------------------------------------------------


def test_one_contradiction_wins_over_any_number_of_confirmations() -> None:
    a, b, c = (Claim("file-exists", {"path": p}) for p in ("a", "b", "c"))
    confirmed, unknown = Probe(a, "confirmed", "a is in HEAD"), Probe(c, None, "?")
    contradicted = Probe(b, "contradicted", "b is not in HEAD", "b not in HEAD")
    mixed = aggregate([confirmed, contradicted, unknown])
    assert (mixed.status, mixed.summary) == ("contradicted", "b is not in HEAD.")
    assert aggregate([confirmed, unknown]).status == "confirmed"
    assert aggregate([unknown]).status is None
    assert aggregate([]).status is None
    assert mixed.to_json()["probes"][1] == {
        "claim": {"type": "file-exists", "path": "b"},
        "outcome": "contradicted",
        "detail": "b is not in HEAD",
    }


def test_resolve_hint_notes_what_changed() -> None:
    claim = pr_claim(214)
    check = aggregate(
        [Probe(claim, "contradicted", "PR #214 is merged, not open", "PR #214 merged")]
    )
    assert resolve_hint("3d53f2a3", check) == (
        "`gitmem resolve 3d53f2a3 --note 'PR #214 merged'` or "
        "`gitmem reverify 3d53f2a3 --evidence …`"
    )
    odd = aggregate([Probe(claim, "contradicted", "x", "branch `it's` gone")])
    assert "--note 'branch '\"'\"'it'\"'\"'s'\"'\"' gone'" in resolve_hint("ab", odd)
    assert resolve_hint("ab", aggregate([])).startswith("`gitmem resolve ab` or")


# -- claims_of -----------------------------------------------------------------------


def dicts(claims: tuple[Claim, ...]) -> list[dict[str, Any]]:
    return [c.to_dict() for c in claims]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("PR #12 was merged.", [{"type": "pr-state", "number": 12, "state": "merged"}]),
        (
            "pull request #3 is awaiting review",
            [{"type": "pr-state", "number": 3, "state": "open"}],
        ),
        ("MR !7 was closed.", [{"type": "pr-state", "number": 7, "state": "closed"}]),
        ("Issue #45 is closed now.", [{"type": "issue-state", "number": 45, "state": "closed"}]),
        ("I added `src/a.py` for the parser.", [{"type": "file-exists", "path": "src/a.py"}]),
        ("`docs/x.md` exists.", [{"type": "file-exists", "path": "docs/x.md"}]),
        ("README.md is in the repo.", [{"type": "file-exists", "path": "README.md"}]),
        ("`.env.example` is committed.", [{"type": "file-exists", "path": ".env.example"}]),
        ("Pushed to branch `fix/x`.", [{"type": "branch-exists", "branch": "fix/x"}]),
        (
            "Branch `fix/x` was merged into `main`.",
            [{"type": "branch-merged", "branch": "fix/x", "into": "main"}],
        ),
        ("See commit 3f9c2ab for it.", [{"type": "commit-exists", "sha": "3f9c2ab"}]),
        (
            "PR #12 was merged. PR #13 is open.",
            [
                {"type": "pr-state", "number": 12, "state": "merged"},
                {"type": "pr-state", "number": 13, "state": "open"},
            ],
        ),
    ],
)
def test_detected_claims(text: str, expected: list[dict[str, Any]]) -> None:
    assert dicts(claims_of(text, None)) == expected


@pytest.mark.parametrize(
    "text",
    [
        "PR #12 will be merged once CI passes.",
        "PR #12 is not merged yet.",
        "PR #12 and PR #13 were merged.",  # which one?
        "Make sure `src/a.py` exists.",
        "Does `src/a.py` exist?",
        "Node.js exists on the runner.",
        "`ruff` exists on the runner.",
        "The parser lives in src/parser.py",
        "Let's create branch `fix/x`.",
        "PR #12 from branch `fix/x` was merged.",  # the PR carries it; the branch may be gone
        "The commit message says defaced.",
    ],
)
def test_nothing_is_claimed_without_a_plain_assertion(text: str) -> None:
    assert [c for c in claims_of(text, None) if c.type != "pr-state"] == []
    if "PR #12 from" not in text:
        assert claims_of(text, None) == ()


def test_a_file_named_with_a_branch_is_not_claimed_at_head() -> None:
    assert dicts(claims_of("Added `src/a.py` on branch `feat/y`.", None)) == [
        {"type": "branch-exists", "branch": "feat/y"}
    ]


def test_declared_claims_are_validated_and_win_over_detected_ones() -> None:
    declared = [
        {"type": "pr-state", "number": 12, "state": "MERGED"},
        {"type": "pr-state", "number": 12, "state": "merged"},  # a duplicate
        {"type": "file-exists", "path": "./src/a.py"},
        {"type": "commit-exists", "sha": "ABCDEF1"},
        {"type": "branch-exists", "branch": "refs/heads/fix/x"},
        {"type": "branch-merged", "branch": "wip", "into": "main"},
        {"type": "issue-state", "number": 4, "state": "open", "repo": "gitlab.example/a/b"},
        # Malformed: each is ignored.
        {"type": "file-exists", "path": "/etc/passwd"},
        {"type": "file-exists", "path": "../outside.py"},
        {"type": "file-exists", "path": ".git/config"},
        {"type": "file-exists", "path": "a.py", "ref": "other"},  # a field we do not know
        {"type": "pr-state", "number": True, "state": "open"},
        {"type": "pr-state", "number": "12", "state": "open"},
        {"type": "issue-state", "number": 4, "state": "merged"},
        {"type": "commit-exists", "sha": "abc"},
        {"type": "branch-exists", "branch": "a..b"},
        {"type": "deploy-done"},
        {"path": "a.py"},
        "file-exists a.py",
        None,
    ]
    found = claims_of("PR #12 is open. I added `src/b.py`.", declared)
    assert dicts(found) == [
        {"type": "pr-state", "number": 12, "state": "merged"},
        {"type": "file-exists", "path": "src/a.py"},
        {"type": "commit-exists", "sha": "abcdef1"},
        {"type": "branch-exists", "branch": "fix/x"},
        {"type": "branch-merged", "branch": "wip", "into": "main"},
        {"type": "issue-state", "number": 4, "state": "open", "repo": "gitlab.example/a/b"},
        # Detected, about something no declared claim covers; "PR #12 is open" is not.
        {"type": "file-exists", "path": "src/b.py"},
    ]
    assert {c.type for c in found} <= set(CLAIM_TYPES)


def test_declared_that_is_not_a_list_is_ignored_and_claims_are_capped() -> None:
    assert claims_of("", {"type": "file-exists", "path": "a.py"}) == ()
    assert claims_of(None, None) == ()  # type: ignore[arg-type]
    many = [{"type": "file-exists", "path": f"f{n}.py"} for n in range(50)]
    assert len(claims_of("", many)) == MAX_CLAIMS


def test_claims_are_values() -> None:
    fields = {"path": "a.py"}
    claim = Claim("file-exists", fields)
    fields["path"] = "b.py"
    assert claim == Claim("file-exists", {"path": "a.py"})
    assert len({claim, Claim("file-exists", {"path": "a.py"})}) == 1
    with pytest.raises(TypeError):
        claim.fields["path"] = "c.py"  # type: ignore[index]
