"""An untrusted purge that needs no rewrite: a purge event appended on top of the remote,
signed by a key no root of the reader trusts. Sync takes the record (shown degraded) but
applies nothing: every item it names stays, in the brief, the tree and the local files."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from helpers.clones import make_clone, make_remote
from helpers.grep import SECRET, files_holding

from gitmem.core.purge import Purge
from gitmem.core.records import EVENT_PURGE
from gitmem.core.types import Sha256Hex
from gitmem.store.keys import load_identity
from gitmem.store.repo import MEMORY_REF, Store
from gitmem.store.seal import write_event


def test_an_untrusted_purge_event_on_a_fast_forward_removes_nothing(tmp_path: Path) -> None:
    remote = make_remote(tmp_path)
    alice, bob = make_clone(tmp_path, remote, "alice"), make_clone(tmp_path, remote, "bob")
    bob.trust(alice)
    secret = alice.capture_secret()
    alice.ok("sync")
    bob.ok("sync")
    assert secret in {i["id"] for i in bob.brief()["items"]}
    ledger = files_holding(bob.path / ".git" / "gitmem", SECRET.encode())
    assert ledger

    carol = make_clone(tmp_path, remote, "carol")  # bob trusts no key of hers
    carol.ok("sync")
    write_event(
        Store.discover(carol.path),
        load_identity(carol.home),
        EVENT_PURGE,
        None,
        "human",
        datetime.now(UTC),
        Purge(items=(Sha256Hex(secret),)).to_extra(),
    )
    # Pushed as an append (carol's own sync would apply her purge and force it).
    carol.git("push", "-q", "origin", f"{MEMORY_REF}:{MEMORY_REF}")

    synced: Any = bob.gm("sync", "--json").json()
    (memory,) = [r for r in synced["refs"] if r["ref"] == MEMORY_REF]
    assert memory["purged"] == [] and memory["untrusted"] == 1 and not memory["forced"]
    assert bob.tip() == carol.tip()  # the record is taken, degraded
    assert secret in {i["id"] for i in bob.brief()["items"]}
    path = f"items/{secret[:2]}/{secret[2:]}.json"
    assert bob.git("ls-tree", "-r", "--name-only", MEMORY_REF).count(path) == 1
    assert files_holding(bob.path / ".git" / "gitmem", SECRET.encode()) == ledger
    shown = bob.ok("show", secret[:8]).stdout
    assert "purged by" not in shown and "Staging password rotates" in shown
