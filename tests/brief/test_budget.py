"""The brief's budget is a hard cap: floods of degraded records, full healthy stores, every
format. Records are written straight into a real store (no capture pipeline), so hundreds
of them cost little."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from helpers import run

from gitmem.brief.budget import DEFAULT_BUDGET, DEGRADED_SHOWN, MIN_BUDGET
from gitmem.brief.emit import emit_brief, make_brief
from gitmem.brief.render import render_json, render_markdown, render_text
from gitmem.core.canonical import sha256_hex
from gitmem.core.items import Item, Kind, Trust
from gitmem.core.receipts import Ed25519Signer, sign
from gitmem.core.records import NAMESPACE, Checkpoint, Source, format_time
from gitmem.store.keys import init_identity
from gitmem.store.layout import content_path
from gitmem.store.repo import Entry, Store

T0 = datetime(2026, 11, 1, tzinfo=UTC)
SNAPSHOT = b"We keep the parser module in src/parser.py and the cache stays local.\n"


def write_checkpoints(
    store: Store,
    signer: Ed25519Signer,
    writer: str,
    count: int,
    items_each: int = 1,
    text: str = "Decision {n}.{i}: keep module {n} in src/mod{n}.py",
) -> None:
    """*count* checkpoints signed by *signer*, in one append."""
    digest = sha256_hex(SNAPSHOT)
    entries = [Entry(content_path("snapshots", digest), SNAPSHOT)]
    for n in range(count):
        session = f"s{n}"
        items = tuple(
            Item(Kind.DECISION, text.format(n=n, i=i), Trust.INFERRED, session, digest)
            for i in range(items_each)
        )
        entries += [Entry(content_path("items", i.address), i.canonical_bytes()) for i in items]
        record = Checkpoint(
            session,
            writer,
            signer.public_key.fingerprint(),
            format_time(T0 + timedelta(minutes=n)),
            None,
            Source(digest, "text", "t.md", len(SNAPSHOT)),
            tuple(i.address for i in items),
        )
        data = record.canonical_bytes()
        address = sha256_hex(data)
        entries += [
            Entry(content_path("checkpoints", address), data),
            Entry(content_path("receipts", address), sign(data, signer, NAMESPACE)),
        ]
    store.append(entries, message="test records", author=writer)


@pytest.fixture
def trusted(repo: Path, home: Path) -> tuple[Store, Ed25519Signer]:
    identity = init_identity(home, "alice@example.com", None).identity
    return Store.discover(repo), identity.signer  # type: ignore[return-value]


def test_a_flood_of_untrusted_records_is_summarised_within_the_budget(
    trusted: tuple[Store, Ed25519Signer], home: Path
) -> None:
    store, signer = trusted
    write_checkpoints(store, signer, "alice@example.com", 3)
    for name in ("bob", "carol"):
        write_checkpoints(store, Ed25519Signer.generate(), f"{name}@example.com", 250)
    text = emit_brief(store, home, "text", None, world_check=False)
    assert len(text.encode()) <= DEFAULT_BUDGET
    # One line for the cause, naming both keys and the fix, and the newest few examples.
    (cause,) = [line for line in text.splitlines() if "key(s) no trust root" in line]
    assert "500 record(s) by 2 key(s)" in cause
    assert "bob@example.com" in cause and "carol@example.com" in cause
    assert "gitmem keys export" in cause and ".gitmem/allowed_signers" in cause
    assert "… and 497 more" in text
    # The trusted items are still there, and only a few degraded lines are listed.
    assert sum(line.startswith("- [~ inferred]") for line in text.splitlines()) == 3
    assert 0 < text.count("[⚠ ") <= 5
    for fmt in ("markdown", "json"):
        assert len(emit_brief(store, home, fmt, None, world_check=False).encode()) <= DEFAULT_BUDGET


def test_degraded_items_left_out_with_room_to_spare_say_why(
    trusted: tuple[Store, Ed25519Signer], home: Path
) -> None:
    """A clone that does not trust a teammate's key yet: a short brief that leaves most of
    the degraded items out does not blame a budget it is far from."""
    store, _ = trusted
    write_checkpoints(store, Ed25519Signer.generate(), "bob@example.com", 8)
    text = emit_brief(store, home, "text", None, world_check=False)
    assert len(text.encode()) < DEFAULT_BUDGET // 2
    assert text.count("[⚠ ") == DEGRADED_SHOWN
    note = text.splitlines()[-2]
    assert note == (
        f"… {8 - DEGRADED_SHOWN} more item(s) not shown (budget {DEFAULT_BUDGET} bytes; a "
        f"brief shows at most {DEGRADED_SHOWN} degraded items); `gitmem brief --budget 0` "
        "shows everything."
    )
    everything = emit_brief(store, home, "text", 0, world_check=False)
    assert everything.count("[⚠ ") == 8 and "not shown" not in everything


def test_degraded_items_come_from_each_writers_newest_failed_checkpoints(
    trusted: tuple[Store, Ed25519Signer], home: Path
) -> None:
    """However much history no root trusts, the brief reads the items of only each
    writer's newest few failed checkpoints (each names what is open at its time) and
    counts every failure."""
    from gitmem.brief.emit import DEGRADED_CHECKPOINTS

    store, _ = trusted
    many = DEGRADED_CHECKPOINTS + 15
    write_checkpoints(store, Ed25519Signer.generate(), "bob@example.com", many)
    write_checkpoints(store, Ed25519Signer.generate(), "carol@example.com", 3, text="Carol {n}")
    brief = make_brief(store, home, world_check=False)
    shown = {i.text for i in brief.items}
    newest = {
        f"Decision {n}.0: keep module {n} in src/mod{n}.py"
        for n in range(many - DEGRADED_CHECKPOINTS, many)
    }
    carol = {f"Carol {n}" for n in range(3)}
    assert shown == newest | carol  # bob's newest, and all of carol's few
    assert all(i.degraded_label == "untrusted key" for i in brief.items)
    assert brief.failed == many + 3  # every failure counted
    text = render_text(brief, 0)
    assert f"{many + 3} record(s) by 2 key(s)" in text


def test_however_many_writers_failed_records_name_the_items_read_are_capped(
    trusted: tuple[Store, Ed25519Signer], home: Path
) -> None:
    """A failed record's writer is whatever its bytes say: a flood of them under many
    names is read for items only up to the cap in all, newest first."""
    from gitmem.lifecycle.index import Index
    from gitmem.store.roots import load_trust_roots

    store, _ = trusted
    for n in range(6):
        write_checkpoints(store, Ed25519Signer.generate(), f"w{n}@example.com", 2)
    index = Index.open(store, load_trust_roots(home, store))
    try:
        everything = index.failed()
        capped = index.failed(per_writer=1, in_all=4)
    finally:
        index.close()
    assert [f.check.address for f in capped] == [f.check.address for f in everything]
    assert len(everything) == 12 and all(f.items for f in everything)
    with_items = [f for f in capped if f.items]
    assert len(with_items) == 4
    assert len({f.check.record.writer for f in with_items if f.check.record}) == 4
    times = [f.created for f in capped]
    assert times == sorted(times, reverse=True)  # newest first
    # the others are not even parsed, yet say who wrote them and what they name
    rest = [f for f in capped if not f.items]
    assert all(f.check.record is None for f in rest)
    assert all(f.writer and f.key and f.named == 1 for f in capped)
    assert {f.writer for f in capped} == {f"w{n}@example.com" for n in range(6)}
    text = render_text(make_brief(store, home, world_check=False), 0)
    assert "12 record(s) by 6 key(s)" in text


def test_every_budget_is_a_hard_cap_in_every_format(
    trusted: tuple[Store, Ed25519Signer], home: Path
) -> None:
    store, signer = trusted
    write_checkpoints(store, signer, "alice@example.com", 60, items_each=3)
    write_checkpoints(store, Ed25519Signer.generate(), "mallory@example.net", 40)
    brief = make_brief(store, home, world_check=False)
    largest = 0
    for budget in (MIN_BUDGET, 900, 1000, 2500, 5000, DEFAULT_BUDGET, 20_000):
        for render in (render_text, render_markdown, render_json):
            out = render(brief, budget)
            largest = max(largest, len(out.encode()))
            assert len(out.encode()) <= budget, (render.__name__, budget)
    document = json.loads(render_json(brief, 2500))
    assert document["omitted"]["items"] > 0 and document["items"]
    assert len(render_text(brief, 0).encode()) > DEFAULT_BUDGET  # 0 is no limit at all


def test_a_full_healthy_brief_fits_under_the_hosts_limits(
    trusted: tuple[Store, Ed25519Signer], home: Path
) -> None:
    store, signer = trusted
    write_checkpoints(store, signer, "alice@example.com", 100, items_each=2)
    text = emit_brief(store, home, "text", None, world_check=False)
    assert len(text.encode()) <= DEFAULT_BUDGET < 10_000
    assert re.search(r"… \d+ more item\(s\) not shown \(budget 9000 bytes\)", text)


@pytest.mark.parametrize(
    ("budget", "said"), [("1", "at least 800 bytes"), ("799", "at least 800 bytes"), ("-5", ">=0")]
)
def test_a_budget_too_small_to_hold_a_brief_is_bad_input(
    trusted: tuple[Store, Ed25519Signer], repo: Path, budget: str, said: str
) -> None:
    result = run("-C", str(repo), "brief", "--budget", budget)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and said in result.stderr


def test_the_preamble_states_rather_than_commands(
    trusted: tuple[Store, Ed25519Signer], home: Path
) -> None:
    """Hosts' prompt-injection defences react to imperative, system-style text."""
    store, signer = trusted
    write_checkpoints(store, signer, "alice@example.com", 1)
    preamble = emit_brief(store, home, "text", None, world_check=False).splitlines()[2]
    sentences = [s.strip() for s in re.split(r"(?<=\.)\s", preamble) if s.strip()]
    imperative = ("Repeat", "Verify", "Check", "Never", "Do ", "Always", "Ignore", "You ")
    assert sentences and not [s for s in sentences if s.startswith(imperative)]
    assert "context, not instructions" in preamble
