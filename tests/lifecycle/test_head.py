"""The first brief after a clone of a large memory: read from the newest checkpoints
(lifecycle/head.py), every rendered line checked from the git objects as always, the
brief saying it is partial until the whole index, built in the background, is there."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from helpers.capturing import capture_text
from helpers.polling import wait_for
from helpers.tamper import edit_record, overwrite_object, resign_with_untrusted_key

from gitmem.brief.emit import make_brief
from gitmem.hooks.indexing import build_index
from gitmem.lifecycle import head, index_build
from gitmem.lifecycle.index import INDEX_FILE, Index, index_key
from gitmem.store.layout import content_path
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots

pytestmark = pytest.mark.slow

TRANSCRIPT = "We agreed: deploys stop on Fridays.\nThe parser handles port 137.\n"


def grown(gm: Any, repo: Path, sessions: int, resolving: bool = False) -> list[Any]:
    """*sessions* captures, each a verbatim decision of its own, the older ones carried
    (or, *resolving*, each resolved once the next capture is made: nothing carried)."""
    captured: list[Any] = []
    for n in range(sessions):
        text = f"We agreed: module {n} stays in src/m{n}.py.\n"
        quote = f"module {n} stays in src/m{n}.py"
        item = {
            "kind": "decision",
            "text": f"Module {n} stays",
            "trust": "verbatim",
            "quote": quote,
        }
        if resolving and captured:
            assert gm("resolve", captured[-1]["items"][0]["id"][:12]).exit_code == 0
        captured.append(capture_text(gm, repo.parent / f"s{n}.md", text, [item]))
    return captured


@pytest.fixture
def large(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """A store of more than six records is "large", a head is three checkpoints at
    least; the background builds this brief starts (their argv), not run."""
    started: list[list[str]] = []
    monkeypatch.setattr(index_build, "LARGE", 6)
    monkeypatch.setattr(head, "HEAD_CHECKPOINTS", 3)
    monkeypatch.setattr(head, "spawn_detached", lambda argv: started.append(list(argv)))
    return started


def cold(store: Store) -> None:
    """As a fresh clone: no index."""
    (store.local_dir / INDEX_FILE).unlink(missing_ok=True)


def test_a_first_brief_reads_the_newest_checkpoints_and_says_it_is_partial(
    gm: Any, initialised: Path, home: Path, large: list[list[str]]
) -> None:
    store = Store.discover(initialised)
    grown(gm, initialised, 6, resolving=True)
    cold(store)
    first = gm("brief")
    assert first.exit_code == 0, first.stderr
    assert "the newest 3 of 6 checkpoint(s) (PARTIAL" in first.stdout.splitlines()[1]
    assert "all 3 receipts verified" in first.stdout
    assert "Module 5 stays" in first.stdout and "Module 4 stays" not in first.stdout
    assert [(Path(argv[1]), argv[2:]) for argv in large] == [(initialised, ["hook", "index"])]
    assert not (store.local_dir / INDEX_FILE).exists()  # the brief built nothing itself
    document = json.loads(gm("brief", "--format", "json").stdout)
    assert document["partial"] == {"read": 3, "stored": 6}
    # The whole index, once built (what `gitmem hook index` does), answers whole again.
    build_index(store)
    whole = gm("brief")
    assert "PARTIAL" not in whole.stdout and "from 6 checkpoint(s)" in whole.stdout
    assert "partial" not in json.loads(gm("brief", "--format", "json").stdout)


def test_the_items_a_head_shows_are_what_the_whole_index_shows_for_a_single_writer(
    gm: Any, initialised: Path, home: Path, large: list[list[str]]
) -> None:
    """One writer, every open item carried by the newest checkpoint: the head finds
    the checkpoint that stored each of them, so their lines (quotes, badges) are the
    whole brief's."""
    store = Store.discover(initialised)
    grown(gm, initialised, 6)
    whole = make_brief(store, home, world_check=False)
    cold(store)
    partial = make_brief(store, home, world_check=False)
    assert partial.stored == 6 and whole.stored is None
    assert [(i.id, i.trust, i.quote, i.carried) for i in partial.items] == [
        (i.id, i.trust, i.quote, i.carried) for i in whole.items
    ]


WHOLE_STORE = {"orphan-item", "stray-path", "unexpected-entry"}
"""Notices only a walk of the whole store finds (the index's): a head cannot say them."""


def shown(brief: Any) -> tuple[Any, ...]:
    """What a brief says: each line's item, trust, quote and degradation; each warning
    (but what only the whole store's index knows)."""
    lines = sorted((i.id, i.trust, i.quote, i.degraded_label) for i in brief.items)
    warnings = sorted((w.code, w.message) for w in brief.warnings if w.code not in WHOLE_STORE)
    return tuple(lines), tuple(warnings)


@pytest.mark.parametrize(
    "tamper", ["item rewritten in place", "item edited", "checkpoint edited", "forged signature"]
)
def test_a_tampered_rendered_record_is_caught_by_a_head_brief(
    gm: Any,
    initialised: Path,
    home: Path,
    large: list[list[str]],
    tamper: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The newest checkpoint or its item tampered with: the head's brief says exactly
    what the brief of the whole index says (a line degraded, or its record failed)."""
    store = Store.discover(initialised)
    captured = grown(gm, initialised, 6)
    newest = captured[-1]
    if tamper == "item rewritten in place":  # the ref does not move
        path = content_path("items", newest["items"][0]["id"])
        overwrite_object(store, path, b"Module 5", b"Module 9")
    elif tamper == "item edited":  # in a commit of its own, at the same path
        edit_record(store, newest["checkpoint"], b"Module 5", b"Module 9")
    elif tamper == "checkpoint edited":
        edit_record(store, newest["checkpoint"], b'"s5.md"', b'"x5.md"')
    else:
        resign_with_untrusted_key(store, newest["checkpoint"], b"Module 5", b"Module 9")
    cold(store)
    partial = make_brief(store, home, world_check=False)
    assert partial.stored == 6  # read from the head
    with monkeypatch.context() as whole_index:
        whole_index.setattr(index_build, "LARGE", 10_000)
        cold(store)
        whole = make_brief(store, home, world_check=False)
    assert whole.stored is None
    assert shown(partial) == shown(whole)
    assert any(i.degraded_label for i in whole.items) or whole.failed


def test_a_head_is_not_read_while_the_index_is_whole_or_close(
    gm: Any, initialised: Path, home: Path, large: list[list[str]]
) -> None:
    store = Store.discover(initialised)
    grown(gm, initialised, 6)
    make_brief(store, home, world_check=False)  # the index is whole (built by the captures)
    capture_text(gm, initialised.parent / "n.md", TRANSCRIPT, [{"kind": "fact", "text": "N"}])
    brief = make_brief(store, home, world_check=False)
    assert brief.stored is None and not large  # a capture behind: brought up, not a head
    index = Index.open(store, load_trust_roots(home, store))
    assert index.tip == store.tip()
    index.close()


def test_the_background_build_is_started_for_real(
    gm: Any, initialised: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The brief's detached `gitmem hook index` builds the whole index (a real process:
    it builds it at once, its own store not being large to it)."""
    store = Store.discover(initialised)
    grown(gm, initialised, 6)
    cold(store)
    monkeypatch.setattr(index_build, "LARGE", 6)
    monkeypatch.setattr(head, "HEAD_CHECKPOINTS", 3)
    assert "PARTIAL" in gm("brief").stdout

    key = index_key(store, load_trust_roots(home, store))

    def whole() -> bool:
        # the build writes the tip, then (a transaction later) the key that makes the
        # index whole for these roots: a brief between the two still reads the head
        meta = head._peek(store)
        return meta.get("tip") == store.tip() and meta.get("key") == key

    wait_for(whole)
    assert "PARTIAL" not in gm("brief").stdout


def test_a_commit_that_adds_more_than_a_head_holds_gives_its_newest_only(
    gm: Any,
    initialised: Path,
    home: Path,
    large: list[list[str]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One commit adding eight checkpoints (an import's batch; a teammate's history may
    hold larger ones) against a head of three: the head holds the three created last,
    and never asks git for every record of that commit at once."""
    monkeypatch.setattr(head, "HEAD_MOST", 3)
    monkeypatch.setattr(head, "CHUNK", 2)
    folder = tmp_path / "sessions"
    folder.mkdir()
    for n in range(8):
        said = folder / f"s{n}.md"
        said.write_text(f"**user:** where?\n\n**assistant:** We decided: module {n} stays.\n")
        os.utime(said, (1_700_000_000 + n, 1_700_000_000 + n))
    assert gm("import", str(folder)).exit_code == 0
    store = Store.discover(initialised)
    assert len(list(store.repo.walk(store.repo.references["refs/gitmem/memory"].target))) == 1
    asked: list[int] = []
    real = Store.read_paths

    def read_paths(self: Store, paths: Any, tip: Any = None) -> dict[str, bytes]:
        paths = list(paths)
        asked.append(sum(p.startswith("checkpoints/") for p in paths))
        return real(self, paths, tip)

    monkeypatch.setattr(Store, "read_paths", read_paths)
    cold(store)
    window = head.read_head(store, load_trust_roots(home, store))
    stored = {content_path("checkpoints", a): a for a in store.addresses("checkpoints")}
    created = {stored[p]: json.loads(data)["created"] for p, data in real(store, stored).items()}
    assert window.read == 3 and window.stored == 8
    held = {a for a, kind, _, _ in window.window.records() if kind == "checkpoint"}
    assert held == set(sorted(created, key=created.__getitem__)[-3:])
    assert max(asked) <= 3  # a chunk, or the three kept: never the eight
    window.window.close()


def test_status_and_doctor_do_not_wait_for_the_index_of_a_large_clone(
    gm: Any, initialised: Path, home: Path, large: list[list[str]]
) -> None:
    """After a clone of a large memory the index is built in the background: status and
    doctor count what the store holds from its tree and say so, rather than build the
    whole index in the foreground; once it is built they read it again."""
    store = Store.discover(initialised)
    grown(gm, initialised, 6, resolving=True)
    cold(store)
    done = gm("status", "--json")
    assert done.exit_code == 0, done.stderr
    counted = json.loads(done.stdout)["store"]
    assert counted["read_model"] == "building" and counted["current_items"] is None
    assert counted["records"] == store.count("checkpoints") + store.count("events") > 6
    assert counted["items"] == store.count("items") and counted["tip"] == store.tip()
    assert "being built in the background" in gm("status").stdout
    assert "being built in the background" in gm("doctor").stdout
    assert not (store.local_dir / INDEX_FILE).exists()  # neither built it
    assert large and all(argv[2:] == ["hook", "index"] for argv in large)
    build_index(store)
    whole = json.loads(gm("status", "--json").stdout)["store"]
    assert whole["read_model"] == "current" and whole["current_items"] == 1
    assert whole["records"] == counted["records"] and whole["failed_records"] == 0
