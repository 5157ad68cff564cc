"""The brief re-checks every rendered verbatim quote against its own stored snapshot: a
record signed by a trusted key still earns no ✓ for a quote its transcript never held."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from gitmem.agents.recall import recall
from gitmem.brief.emit import emit_brief, make_brief
from gitmem.brief.select import TEXT_NOT_SUPPORTED
from gitmem.core.canonical import sha256_hex
from gitmem.core.items import Item, Kind, Trust
from gitmem.core.records import NAMESPACE, Checkpoint, Source, format_time
from gitmem.store.keys import init_identity
from gitmem.store.layout import content_path
from gitmem.store.repo import Entry, Store

SNAPSHOT = b"We will not deploy on Fridays, ever.\n"


def signed_checkpoint(
    repo: Path,
    home: Path,
    quote: str,
    store_snapshot: bool = True,
    text: str = "Fridays: no deploys",
) -> Store:
    """A checkpoint by the trusted writer whose item (*text*) claims a verified *quote*."""
    identity = init_identity(home, "alice@example.com", None).identity
    store = Store.discover(repo)
    digest = sha256_hex(SNAPSHOT)
    item = Item(Kind.DECISION, text, Trust.VERBATIM, "s1", digest, quote, True, "found")
    record = Checkpoint(
        "s1",
        identity.principal,
        identity.signer.public_key.fingerprint(),
        format_time(datetime(2026, 11, 1, tzinfo=UTC)),
        None,
        Source(digest, "text", "t.md", len(SNAPSHOT)),
        (item.address,),
    )
    data = record.canonical_bytes()
    address = sha256_hex(data)
    entries = [
        Entry(content_path("items", item.address), item.canonical_bytes()),
        Entry(content_path("checkpoints", address), data),
        Entry(content_path("receipts", address), identity.sign(data, NAMESPACE)),
    ]
    if store_snapshot:
        entries.insert(0, Entry(content_path("snapshots", digest), SNAPSHOT))
    store.append(entries, message="test", author=identity.principal)
    return store


def test_a_quote_its_transcript_holds_keeps_its_badge(repo: Path, home: Path) -> None:
    store = signed_checkpoint(repo, home, "We will not deploy on Fridays, ever.")
    (item,) = make_brief(store, home, world_check=False).items
    assert item.trust == Trust.VERBATIM and item.degraded_label is None


def test_a_fabricated_quote_by_a_trusted_key_is_withheld(repo: Path, home: Path) -> None:
    store = signed_checkpoint(repo, home, "We deploy on Fridays")
    (item,) = make_brief(store, home, world_check=False).items
    assert item.trust == Trust.UNTAGGED and item.quote is None
    assert item.degraded_label == "quote not in its transcript"
    text = emit_brief(store, home, "text", None, world_check=False)
    line = next(line for line in text.splitlines() if "Fridays: no deploys" in line)
    assert "[⚠ verbatim withheld: quote not in its transcript]" in line
    assert '"' not in line and "✓" not in line
    assert "1 quote(s) not in their transcripts, WITHHELD" in text.splitlines()[1]


def test_a_missing_snapshot_withholds_the_quote(repo: Path, home: Path) -> None:
    store = signed_checkpoint(
        repo, home, "We will not deploy on Fridays, ever.", store_snapshot=False
    )
    (item,) = make_brief(store, home, world_check=False).items
    assert item.degraded_label == "quote not in its transcript"
    assert "is not stored" in (item.degraded_reason or "")


def test_a_text_its_genuine_quote_does_not_support_is_shown_as_the_quote(
    repo: Path, home: Path
) -> None:
    """A trusted writer (another gitmem, a teammate) stored a text that reverses its
    genuine quote: the brief shows the quote, the transcript's words, and says why."""
    quote = "We will not deploy on Fridays, ever."
    store = signed_checkpoint(repo, home, quote, text="We deploy on Fridays")
    brief = make_brief(store, home, world_check=False)
    (item,) = brief.items
    assert (item.text, item.quote, item.trust) == (quote, quote, Trust.VERBATIM)
    (warning,) = [w for w in brief.warnings if w.code == TEXT_NOT_SUPPORTED]
    assert warning.detail == 'the quote says "not" but the item\'s text has no negation'
    text = emit_brief(store, home, "text", None, world_check=False)
    assert "We deploy on Fridays" not in text
    assert f'[✓ verbatim] "{quote}"' in text
    (hit,) = recall(store, home, ["Fridays"]).hits
    assert (hit.text, hit.quote) == (quote, quote)


def test_a_text_its_quote_supports_is_shown(repo: Path, home: Path) -> None:
    store = signed_checkpoint(repo, home, "We will not deploy on Fridays, ever.")
    brief = make_brief(store, home, world_check=False)
    assert brief.items[0].text == "Fridays: no deploys"
    assert not [w for w in brief.warnings if w.code == TEXT_NOT_SUPPORTED]
