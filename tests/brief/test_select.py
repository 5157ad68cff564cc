"""Selection and rendering on real stores: sections, degrade, budget."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from gitmem.brief.budget import SHORTENED
from gitmem.brief.emit import make_brief
from gitmem.brief.render import item_lines, render_text
from gitmem.brief.select import Brief
from gitmem.capture.run import Context, capture_transcript
from gitmem.capture.transcripts import parse_transcript
from gitmem.core.items import Draft
from gitmem.store.keys import init_identity
from gitmem.store.repo import Entry, Store

TRANSCRIPT = parse_transcript(
    b"We decided to keep the parser module in src/parser.py for now.\n"
    b"The team believes the flaky test comes from the clock.\n",
    "t.md",
)


def draft(text: str, kind: str = "decision", quote: str | None = None, **extra: object) -> Draft:
    return Draft(
        kind=kind,
        text=text,
        trust="verbatim" if quote else "inferred",
        quote=quote,
        extra=dict(extra),
    )


def setup(repo: Path, home: Path, *drafts: Draft, session: str = "s1") -> Store:
    store = Store.discover(repo)
    init_identity(home, "alice@example.com", None)
    capture_transcript(
        Context.open(store, home),
        TRANSCRIPT,
        None,
        source="test",
        drafts=list(drafts),
        session=session,
        again=True,
        now=datetime(2026, 11, 1, tzinfo=UTC),
    )
    return store


def brief(store: Store, home: Path) -> Brief:
    return make_brief(store, home, world_check=False)


def test_sections_follow_external_state_claims_and_text(repo: Path, home: Path) -> None:
    store = setup(
        repo,
        home,
        draft("Keep the parser module", quote="keep the parser module in src/parser.py"),
        draft("Flaky test is the clock", kind="belief", external_state=False),
        draft("Staging needs an owner", kind="belief", external_state=True),
        draft("Check the flag", kind="fact", claims=[{"type": "file-exists", "path": "x"}]),
        draft("PR #9 is open", kind="open_loop"),
    )
    sections = {i.text: i.section for i in brief(store, home).items}
    assert sections == {
        "Keep the parser module": "verify",  # its quote names a file
        "Flaky test is the clock": "belief",
        "Staging needs an owner": "verify",
        "Check the flag": "verify",
        "PR #9 is open": "verify",
    }


def test_degraded_lines_never_quote_and_never_show_a_check(repo: Path, home: Path) -> None:
    store = setup(
        repo, home, draft("Keep the parser", quote="keep the parser module in src/parser.py")
    )
    (home / "allowed_signers").write_text("")
    result = brief(store, home)
    (item,) = result.items
    assert item.trust == "untagged" and item.quote is None and item.status == "QUARANTINED"
    expected = f"- [⚠ verbatim withheld: untrusted key] Keep the parser ({item.id[:8]})"
    assert item_lines(item) == [expected]
    assert result.failed == 1 and result.warnings[0].code == "untrusted key"


def test_a_genuine_copy_wins_over_a_degraded_one(repo: Path, home: Path) -> None:
    d = draft("Keep the parser", quote="keep the parser module in src/parser.py")
    store = setup(repo, home, d)
    setup(repo, home, d)  # same session, same item id: a second, later checkpoint
    store.append([Entry("receipts/ab/" + "c" * 62 + ".sig", b"")], "noise", "m")
    result = brief(store, home)
    assert len(result.items) == 1 and result.items[0].trust == "verbatim"


def test_stray_paths_are_warned_about(repo: Path, home: Path) -> None:
    store = setup(repo, home)
    store.append([Entry("README", b"hello")], "stray", "m")
    assert [w.code for w in brief(store, home).warnings] == ["stray-path"]


def test_malformed_trust_root_lines_are_warned_about(repo: Path, home: Path) -> None:
    store = setup(repo, home)
    with (home / "allowed_signers").open("a") as f:
        f.write("bob valid-after=20250101 ssh-ed25519 AAAA\n")
    warnings = brief(store, home).warnings
    assert [w.code for w in warnings] == ["trust-root"]
    assert "line 2" in warnings[0].message


def test_budget_keeps_rank_order_and_reports_the_rest(repo: Path, home: Path) -> None:
    drafts = [draft(f"Decision number {n} " + "x" * 80, importance=n) for n in range(20)]
    store = setup(repo, home, *drafts)
    text = render_text(brief(store, home), budget=2000)
    assert len(text.encode()) <= 2000
    shown = [line for line in text.splitlines() if line.startswith("- [")]
    assert 0 < len(shown) < 20
    assert "Decision number 19 " in shown[0]  # the most important first
    assert f"{20 - len(shown)} more item(s) not shown" in text


def test_budget_never_cuts_a_verbatim_quote_and_shortens_inferred_text(
    repo: Path, home: Path
) -> None:
    quote = "keep the parser module in src/parser.py"
    long_belief = "The flaky test comes from the clock " + "because of drift " * 30
    store = setup(
        repo,
        home,
        draft("Keep the parser", quote=quote, importance=3),
        draft(long_belief.strip(), kind="belief", importance=2),
    )
    full = render_text(brief(store, home), budget=0)
    for budget in range(900, 1700, 37):
        text = render_text(brief(store, home), budget=budget)
        assert len(text.encode()) <= budget
        for line in text.splitlines():
            if "Keep the parser" in line:
                assert f'"{quote}"' in line and line in full.splitlines()
            if "flaky test" in line and line not in full.splitlines():
                assert line.rstrip().endswith(f"{SHORTENED} ({line[-9:-1]})") or SHORTENED in line
    tight = render_text(brief(store, home), budget=1100)
    assert SHORTENED in tight
