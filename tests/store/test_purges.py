"""Only a purge by a key the reader trusts counts: an untrusted one is listed, not obeyed."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from helpers import Result, run
from helpers.capturing import capture

from gitmem.brief.emit import make_brief
from gitmem.core.receipts import Ed25519Signer
from gitmem.lifecycle.purge import plan_purge, run_purge
from gitmem.lifecycle.workspace import Workspace
from gitmem.store.keys import Identity
from gitmem.store.repo import Store


def test_a_purge_by_an_untrusted_key_changes_nothing_for_readers(
    initialised: Path, home: Path, tmp_path: Path
) -> None:
    def gm(*args: str, input: str | None = None) -> Result:
        return run("-C", str(initialised), *args, input=input)

    transcript = tmp_path / "s.md"
    transcript.write_text("Alice said: we keep the cache local for the whole release.\n")
    items = [
        {
            "kind": "decision",
            "text": "Keep the cache local",
            "trust": "verbatim",
            "quote": "we keep the cache local for the whole release",
        }
    ]
    done = capture(gm, transcript, items)
    target = done["items"][0]["id"]

    store = Store.discover(initialised)
    mallory = Identity("mallory@example.net", Ed25519Signer.generate(), tmp_path / "unused")
    ws = Workspace(store, home, identity=mallory)
    result = run_purge(ws, plan_purge(ws, [target[:8]], None), datetime.now(UTC))

    report: Any = gm("verify", "--json").json()
    (missing,) = report["problems"]
    assert missing["problem"] == "item missing"
    assert (
        f"purge event {result.event[:12]} lists it, but its key is not trusted" in missing["detail"]
    )
    assert [u["path"] for u in report["untrusted"]] == [
        f"events/{result.event[:2]}/{result.event[2:]}.json"
    ]
    brief = make_brief(store, home)
    (shown,) = brief.items
    assert shown.id == target and shown.degraded_label == "item missing" and brief.purged == ()
