"""`verify` and `log` over whole stores, including records a trusted writer got wrong."""

from __future__ import annotations

from pathlib import Path

from helpers import tamper

from gitmem.brief.emit import make_brief
from gitmem.brief.select import NO_VERIFIED_QUOTE
from gitmem.core.canonical import sha256_hex
from gitmem.core.items import Item, Kind, Trust
from gitmem.core.receipts import sign
from gitmem.core.records import NAMESPACE, Checkpoint, Source
from gitmem.store.keys import Identity, init_identity
from gitmem.store.layout import content_path
from gitmem.store.repo import Entry, Store
from gitmem.store.verify import verify_store
from gitmem.team.checkers import load_checkers

SNAPSHOT = b"We agreed to ship the parser on friday after review.\n"


def write_signed(
    store: Store, identity: Identity, item: Item, snapshot: bytes | None = SNAPSHOT
) -> Checkpoint:
    """Store a checkpoint exactly as given, validly signed: what a buggy tool could write."""
    source = (
        None if snapshot is None else Source(sha256_hex(snapshot), "text", "t.md", len(snapshot))
    )
    checkpoint = Checkpoint(
        session="s",
        writer=identity.principal,
        key=identity.signer.public_key.fingerprint(),
        created="2026-11-01T00:00:00Z",
        commit=None,
        source=source,
        items=(item.address,),
    )
    data = checkpoint.canonical_bytes()
    entries = [
        Entry(content_path("items", item.address), item.canonical_bytes()),
        Entry(content_path("checkpoints", sha256_hex(data)), data),
        Entry(content_path("receipts", sha256_hex(data)), sign(data, identity.signer, NAMESPACE)),
    ]
    if snapshot is not None:
        entries.append(Entry(content_path("snapshots", sha256_hex(snapshot)), snapshot))
    store.append(entries, "m", identity.principal)
    return checkpoint


def item(quote: str | None, verified: bool) -> Item:
    return Item(
        kind=Kind.DECISION,
        text="Ship the parser on friday",
        trust=Trust.VERBATIM,
        origin_session="s",
        quote=quote,
        quote_verified=verified,
    )


def setup(repo: Path, home: Path) -> tuple[Store, Identity]:
    return Store.discover(repo), init_identity(home, "alice@example.com", None).identity


def test_a_clean_store_has_no_problems(repo: Path, home: Path) -> None:
    store, identity = setup(repo, home)
    write_signed(store, identity, item("ship the parser on friday", True))
    report = verify_store(store, load_checkers(home, store).for_ref)
    assert report.ok and report.records == 1 and report.snapshots == 1


def test_a_signed_quote_missing_from_its_snapshot_is_reported(repo: Path, home: Path) -> None:
    store, identity = setup(repo, home)
    write_signed(store, identity, item("ship the parser on monday", True))
    report = verify_store(store, load_checkers(home, store).for_ref)
    assert [p.problem for p in report.problems] == ["quote not in snapshot"]


def test_verbatim_without_a_verified_quote_never_shows_as_verbatim(repo: Path, home: Path) -> None:
    store, identity = setup(repo, home)
    write_signed(store, identity, item(None, False), snapshot=None)
    (shown,) = make_brief(store, home, world_check=False).items
    assert shown.trust == "untagged" and shown.degraded_label == NO_VERIFIED_QUOTE


def test_edited_or_missing_snapshots_are_reported(repo: Path, home: Path) -> None:
    store, identity = setup(repo, home)
    write_signed(store, identity, item("ship the parser on friday", True))
    tamper.remove_path(store, content_path("snapshots", sha256_hex(SNAPSHOT)))
    problems = {p.problem for p in verify_store(store, load_checkers(home, store).for_ref).problems}
    assert problems == {"snapshot missing", "history removed"}


def test_a_snapshot_edited_in_place_is_reported(repo: Path, home: Path) -> None:
    store, identity = setup(repo, home)
    write_signed(store, identity, item("ship the parser on friday", True))
    path = content_path("snapshots", sha256_hex(SNAPSHOT))
    tamper.remove_path(store, path)
    store.append([Entry(path, SNAPSHOT.replace(b"friday", b"monday"))], "m", "mallory")
    problems = {p.problem for p in verify_store(store, load_checkers(home, store).for_ref).problems}
    assert {"snapshot edited", "quote not in snapshot"} <= problems


def test_an_item_blob_no_checkpoint_names_is_reported(repo: Path, home: Path) -> None:
    store, identity = setup(repo, home)
    write_signed(store, identity, item("ship the parser on friday", True))
    stray = Item(Kind.FACT, "planted", Trust.VERBATIM, "s", quote="planted", quote_verified=True)
    store.append([Entry(content_path("items", stray.address), stray.canonical_bytes())], "m", "m")
    problems = [p.problem for p in verify_store(store, load_checkers(home, store).for_ref).problems]
    assert problems == ["orphan item"]
    assert [i.text for i in make_brief(store, home, world_check=False).items] == [
        "Ship the parser on friday"
    ]  # an unvouched blob is never memory


def test_a_missing_item_blob_is_reported_and_shown_degraded(repo: Path, home: Path) -> None:
    store, identity = setup(repo, home)
    signed = item("ship the parser on friday", True)
    write_signed(store, identity, signed)
    tamper.remove_path(store, content_path("items", signed.address))
    problems = {p.problem for p in verify_store(store, load_checkers(home, store).for_ref).problems}
    assert problems == {"item missing", "history removed"}
    (shown,) = make_brief(store, home, world_check=False).items
    assert shown.degraded_label == "item missing" and shown.quote is None


def test_a_signed_record_not_in_canonical_form_is_reported_as_decode_says(
    repo: Path, home: Path
) -> None:
    """verify parses each record once and checks its form by encoding what it parsed: a
    record signed and addressed as its bytes, but not canonical, is still refused, with
    the sentence a decode of its bytes gives."""
    store, identity = setup(repo, home)
    checkpoint = write_signed(store, identity, item("ship the parser on friday", True))
    address = tamper.store_uncanonical_copy(
        store, sha256_hex(checkpoint.canonical_bytes()), identity.signer
    )
    report = verify_store(store, load_checkers(home, store).for_ref)
    assert [(p.path, p.problem, p.detail) for p in report.problems] == [
        (
            content_path("checkpoints", address),
            "record unreadable",
            "record is valid JSON but not canonical JSON",
        )
    ]


def test_verify_tells_how_it_goes_stage_by_stage(repo: Path, home: Path) -> None:
    store, identity = setup(repo, home)
    for n in range(3):
        write_signed(store, identity, item(f"ship the parser on friday {n}", False), None)
    told: list[tuple[str, int]] = []
    report = verify_store(
        store, load_checkers(home, store).for_ref, None, lambda *said: told.append(said)
    )
    assert report.ok
    stages = [stage for stage, _ in told]
    assert stages[0] == "content" and stages[-1] == "history"
    assert stages.index("history") > max(i for i, s in enumerate(stages) if s == "content")
    # every record and item blob checked was counted (three checkpoints, three items)
    assert max(n for stage, n in told if stage == "content") == 6
