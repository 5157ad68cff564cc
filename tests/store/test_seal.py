"""seal(): one way to sign, address and place a record, for memory and releases alike;
and the capture pipeline built on it (build, then append)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from gitmem.capture.checkpoint import build_checkpoint
from gitmem.capture.prepare import prepare
from gitmem.capture.run import Context, capture_transcript
from gitmem.capture.transcripts import parse_transcript
from gitmem.core.canonical import sha256_hex
from gitmem.core.errors import TrustError
from gitmem.core.items import Draft, Kind, Trust
from gitmem.core.receipts import Ed25519Signer, verify
from gitmem.core.records import EVENT_LIKELY_SUPERSEDED, EVENT_RESOLVE, NAMESPACE
from gitmem.lifecycle.replay import replay
from gitmem.store.keys import init_identity, load_identity, write_private_key
from gitmem.store.layout import content_path
from gitmem.store.repo import Store
from gitmem.store.seal import new_event, seal
from gitmem.team.release.records import NAMESPACE as RELEASE_NAMESPACE
from gitmem.team.release.signing import held_key

NOW = datetime(2026, 11, 1, tzinfo=UTC)
TRANSCRIPT = parse_transcript(b"We decided to keep the parser in src/parser.py for now.\n", "t.md")
DRAFT = Draft("decision", "Keep the parser", "verbatim", "keep the parser in src/parser.py", {})


def test_a_sealed_event_is_its_canonical_bytes_at_their_hash_signed_in_its_namespace(
    home: Path,
) -> None:
    identity = init_identity(home, "alice@example.com", None).identity
    event = new_event(identity, EVENT_RESOLVE, "0123456789abcdef", "s", NOW, None, {"note": "done"})
    sealed = seal(event, identity.sign, NAMESPACE)
    assert sealed.data == event.canonical_bytes()
    assert sealed.address == sha256_hex(sealed.data)
    assert [e.path for e in sealed.entries] == [
        content_path("events", sealed.address),
        content_path("receipts", sealed.address),
    ]
    assert verify(sealed.data, sealed.receipt, NAMESPACE).public_key == identity.signer.public_key
    with pytest.raises(TrustError, match="namespace"):
        verify(sealed.data, sealed.receipt, RELEASE_NAMESPACE)


def test_a_held_key_seals_release_records_in_the_release_namespace(
    home: Path, tmp_path: Path
) -> None:
    identity = init_identity(home, "alice@example.com", None).identity
    signer = Ed25519Signer.generate()
    key_file = tmp_path / "maintainer"
    write_private_key(key_file, signer, "maintainer")
    event = new_event(identity, "release-approval", None, "release", NOW, "0" * 40)
    sealed = seal(event, held_key("file", key_file, {}).sign, RELEASE_NAMESPACE)
    assert verify(sealed.data, sealed.receipt, RELEASE_NAMESPACE).public_key == signer.public_key
    with pytest.raises(TrustError, match="namespace"):
        verify(sealed.data, sealed.receipt, NAMESPACE)


def test_building_a_checkpoint_writes_nothing_and_its_entries_store_it(
    initialised: Path, home: Path
) -> None:
    store = Store.discover(initialised)
    identity = load_identity(home)
    built = build_checkpoint(
        prepare(TRANSCRIPT, {}, None), [DRAFT], "s1", identity, NOW, store.head_commit()
    )
    assert store.tip() is None
    assert [i.quote_verified for i in built.new] == [True]
    store.append(built.entries, built.message, identity.principal)
    contents = store.read()
    assert {r.address for r in contents.records} == {built.address}
    assert contents.snapshots == {built.snapshot_hash}


def test_a_context_keeps_its_memory_current_across_captures(initialised: Path, home: Path) -> None:
    ctx = Context.open(Store.discover(initialised), home)
    memory = ctx.memory()
    first = capture_transcript(ctx, TRANSCRIPT, None, source="test", drafts=[DRAFT], session="s1")
    (item,) = first.items
    assert ctx.memory() is memory and memory.items[item.id].current
    other = parse_transcript(b"Something else entirely.\n", "u.md")
    second = capture_transcript(ctx, other, None, source="test", drafts=[], session="s2")
    assert second.carried == 1  # carried from the memory the context kept, not reloaded


def test_a_capture_reads_only_the_current_items_and_keeps_them_current(
    initialised: Path, home: Path
) -> None:
    store = Store.discover(initialised)
    ctx = Context.open(store, home)
    first = capture_transcript(ctx, TRANSCRIPT, None, source="test", drafts=[DRAFT], session="s1")
    (item,) = first.items
    resolved = Context.open(store, home)
    resolved.write(EVENT_RESOLVE, resolved.item(item.id[:8]), {"note": "done"})
    later = Context.open(store, home)
    assert item.id not in later.current().items  # resolved: nothing a capture needs
    assert item.id in later.memory().items  # the full memory still has its story
    fresh = Context.open(store, home)
    current = fresh.current()
    other = parse_transcript(b"Something new to keep.\n", "v.md")
    new = Draft(Kind.DECISION, "Keep the new thing", Trust.INFERRED, None, {})
    done = capture_transcript(fresh, other, None, source="test", drafts=[new], session="s3")
    (added,) = done.items
    assert fresh.current() is current and current.items[added.id].current


def test_a_capture_marks_every_value_it_likely_supersedes_in_one_event(home: Path) -> None:
    """Two subjects given new values in one capture: one signed event names both pairs
    (not one record each), and replaying it marks each earlier value by its own newer one."""
    identity = init_identity(home, "alice@example.com", None).identity
    said = b"Set the retry limit to 3. Set the cache size to 64.\n"
    first_drafts = [
        Draft("fact", "Set the retry limit to 3", "verbatim", "Set the retry limit to 3", {}),
        Draft("fact", "Set the cache size to 64", "verbatim", "Set the cache size to 64", {}),
    ]
    first = build_checkpoint(
        prepare(parse_transcript(said, "a.md"), {}, None), first_drafts, "s1", identity, NOW, None
    )
    state = replay(first.records)
    later = b"Set the retry limit to 30. Set the cache size to 640.\n"
    later_drafts = [
        Draft("fact", "Set the retry limit to 30", "verbatim", "Set the retry limit to 30", {}),
        Draft("fact", "Set the cache size to 640", "verbatim", "Set the cache size to 640", {}),
    ]
    second = build_checkpoint(
        prepare(parse_transcript(later, "b.md"), {}, None),
        later_drafts,
        "s2",
        identity,
        NOW + timedelta(hours=1),
        None,
        state=state,
    )
    (event,) = [e for e in second.events if e.record.event == EVENT_LIKELY_SUPERSEDED]
    old = {i.text: i.address for i in first.new}
    new = {i.text: i.address for i in second.new}
    assert event.record.item is None
    assert event.record.extra["items"] == {
        old["Set the retry limit to 3"]: {"by": new["Set the retry limit to 30"]},
        old["Set the cache size to 64"]: {"by": new["Set the cache size to 640"]},
    }
    after = replay(second.records, onto=state)
    for text, address in old.items():
        assert after.items[address].likely_superseded_by == new[text + "0"]
