"""verify, the brief and purge ask one question of a stored quote — does it still hold
against its stored snapshot? — and answer it with one rule for reading the snapshot's
format (the one its record names; nothing guessed). They agree on every edge case."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from gitmem.brief.emit import make_brief
from gitmem.core.canonical import sha256_hex
from gitmem.core.items import Item, Kind, Trust
from gitmem.core.quotes import QUOTE_NOT_IN_SNAPSHOT, check_stored_quotes
from gitmem.core.records import NAMESPACE, Checkpoint, Source, format_time
from gitmem.core.transcript import Message, render_snapshot
from gitmem.lifecycle.purge import plan_purge
from gitmem.lifecycle.workspace import Workspace
from gitmem.store.keys import init_identity
from gitmem.store.layout import content_path
from gitmem.store.repo import Entry, Store
from gitmem.store.verify import verify_store
from gitmem.team.checkers import load_checkers

QUOTE = "We will not deploy on Fridays, ever."
SAID = f"{QUOTE} The staging code is ZZTOP-4411."
PLAIN = SAID.encode()
MESSAGES = render_snapshot("claude", [Message("user", SAID)]).encode()

CASES = [
    # (recorded format, snapshot bytes, does the quote hold)
    ("text", PLAIN, True),
    ("claude", MESSAGES, True),
    ("text", MESSAGES, True),  # gitmem's encoding read as plain text still holds the words
    ("", PLAIN, False),  # the record names no format
    ("future-format", PLAIN, False),  # a format this version does not know
    ("claude", PLAIN, False),  # the format disagrees with the bytes
    ("codex", b"\xff\xfe not UTF-8", False),
]


def store_with(repo: Path, home: Path, fmt: str, snapshot: bytes) -> tuple[Store, Item]:
    """One checkpoint, validly signed by the trusted writer, whose verbatim item's quote
    is QUOTE, with *snapshot* stored as its source in format *fmt*."""
    identity = init_identity(home, "alice@example.com", None).identity
    store = Store.discover(repo)
    digest = sha256_hex(snapshot)
    item = Item(Kind.DECISION, "No Friday deploys", Trust.VERBATIM, "s1", digest, QUOTE, True)
    record = Checkpoint(
        "s1",
        identity.principal,
        identity.signer.public_key.fingerprint(),
        format_time(datetime(2026, 11, 1, tzinfo=UTC)),
        None,
        Source(digest, fmt, "t.md", len(snapshot)),
        (item.address,),
    )
    data = record.canonical_bytes()
    address = sha256_hex(data)
    store.append(
        [
            Entry(content_path("snapshots", digest), snapshot),
            Entry(content_path("items", item.address), item.canonical_bytes()),
            Entry(content_path("checkpoints", address), data),
            Entry(content_path("receipts", address), identity.sign(data, NAMESPACE)),
        ],
        message="test",
        author=identity.principal,
    )
    return store, item


@pytest.mark.parametrize(("fmt", "snapshot", "holds"), CASES)
def test_verify_brief_and_purge_agree_on_a_stored_quote(
    repo: Path, home: Path, fmt: str, snapshot: bytes, holds: bool
) -> None:
    store, item = store_with(repo, home, fmt, snapshot)
    path = content_path("items", item.address)

    report = verify_store(store, load_checkers(home, store).for_ref)
    verify_holds = not [p for p in report.problems if p.path == path]

    (shown,) = make_brief(store, home, world_check=False).items
    brief_holds = shown.trust == Trust.VERBATIM and shown.degraded_label is None

    # A purge of words the snapshot holds but the quote does not: the item goes only
    # when its quote does not hold against the redacted copy.
    if snapshot.startswith(b"\xff"):
        purge_holds = holds  # nothing to find in bytes that are not text
    else:
        plan = plan_purge(Workspace(store, home), [], "ZZTOP-4411")
        purge_holds = item.address not in plan.purge.items

    assert (verify_holds, brief_holds, purge_holds) == (holds, holds, holds)
    if not holds:
        assert report.exit_code() == 3
        assert shown.quote is None and "✓" not in (shown.degraded_label or "")


def test_one_rule_reads_the_snapshot() -> None:
    digest = sha256_hex(PLAIN)
    (ok,) = check_stored_quotes([QUOTE], PLAIN, "text", digest)
    assert ok.problem is None
    (edited,) = check_stored_quotes([QUOTE], PLAIN + b"!", "text", digest)
    assert edited.problem == QUOTE_NOT_IN_SNAPSHOT and "was edited" in edited.reason
    (nameless,) = check_stored_quotes([QUOTE], PLAIN, None)
    assert nameless.problem == QUOTE_NOT_IN_SNAPSHOT and "names no transcript format" in (
        nameless.reason
    )
    (missing,) = check_stored_quotes([QUOTE], None, "text", digest)
    assert missing.problem == "snapshot missing" and "is not stored" in missing.reason
    (stitched,) = check_stored_quotes(
        ["Fridays, ever. Then we"],
        render_snapshot("claude", [Message("user", QUOTE), Message("user", "Then we")]).encode(),
        "claude",
    )
    assert stitched.problem == QUOTE_NOT_IN_SNAPSHOT  # a quote lies inside one message
