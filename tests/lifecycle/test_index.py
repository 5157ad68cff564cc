"""The index (.git/gitmem/memory.sqlite): kept current incrementally as the memory
ref moves, always equal to a rebuild from scratch, rebuilt when deleted or corrupt, and
never trusted for what the brief renders."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pygit2
import pytest
from helpers.capturing import capture_text
from helpers.tamper import (
    add_entry,
    edit_record,
    overwrite_object,
    resign_with_untrusted_key,
    store_uncanonical_copy,
)

from gitmem.brief.emit import make_brief
from gitmem.core.items import Trust
from gitmem.core.records import EVENT_STATUS
from gitmem.lifecycle.codec import encode_state
from gitmem.lifecycle.index import INDEX_FILE, Index
from gitmem.lifecycle.replay import MemoryState
from gitmem.store.keys import load_identity
from gitmem.store.layout import content_path, receipt_path
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots
from gitmem.store.seal import write_event

TRANSCRIPT = "We agreed: deploys stop on Fridays.\nThe parser handles port 137.\n"
FRIDAYS = {"kind": "decision", "text": "No deploys on Fridays"}


def snapshot(store: Store, home: Path) -> tuple[bool, dict[str, Any], tuple[int, int, Any]]:
    index = Index.open(store, load_trust_roots(home, store))
    try:
        state = index.state()
        return index.rebuilt, encoded(state), index.counts()
    finally:
        index.close()


def encoded(state: MemoryState) -> dict[str, Any]:
    """Every item state as the index stores it, with the content of the events it names
    (the index names them by address)."""
    return {
        a: {**encode_state(s), "event_records": [e.to_dict() for _, e in s.events]}
        for a, s in state.items.items()
    }


def history(gm: Any, repo: Path, home: Path) -> Store:
    """Captures, a resolve, a supersede, a forget, and a status event dated in the past
    (as a sync brings), the index read after each step."""
    store = Store.discover(repo)
    first = capture_text(gm, repo.parent / "a.md", TRANSCRIPT, [FRIDAYS])
    snapshot(store, home)
    second = capture_text(
        gm,
        repo.parent / "b.md",
        TRANSCRIPT,
        [
            {"kind": "fact", "text": "The parser handles port 137", "trust": "inferred"},
            {"kind": "open_loop", "text": "Check the parser on port 138"},
        ],
    )
    snapshot(store, home)
    keep, loop = (i["id"] for i in second["items"])
    assert gm("resolve", loop[:8], "--note", "done").exit_code == 0
    snapshot(store, home)
    newer = capture_text(
        gm,
        repo.parent / "c.md",
        TRANSCRIPT,
        [{"kind": "decision", "text": "Deploys stop Fri noon"}],
    )
    assert gm("supersede", first["items"][0]["id"][:8], newer["items"][0]["id"][:8]).exit_code == 0
    assert gm("forget", keep[:8]).exit_code == 0
    snapshot(store, home)
    earlier = datetime.now(UTC) - timedelta(days=3)
    extra = {"to": "STALE", "from": "INFERRED", "reason": "not seen again"}
    write_event(store, load_identity(home), EVENT_STATUS, loop, "s", earlier, extra)
    return store


def test_an_advanced_index_equals_a_rebuild(gm: Any, initialised: Path, home: Path) -> None:
    store = history(gm, initialised, home)
    rebuilt, advanced, counts = snapshot(store, home)
    assert not rebuilt  # every step advanced the file, none rebuilt it
    (store.local_dir / INDEX_FILE).unlink()
    again, fresh, fresh_counts = snapshot(store, home)
    assert again and advanced == fresh and counts == fresh_counts
    assert len(fresh) == 4 and sum(s["forgotten"] for s in fresh.values()) == 1


def test_an_item_is_an_orphan_only_until_a_record_names_it(
    gm: Any, initialised: Path, home: Path
) -> None:
    """An item blob pushed before the checkpoint naming it (a teammate's push cut in two)
    is reported as no record's until that checkpoint arrives; the index advanced over it
    then reports it no more, exactly as a rebuild would."""
    store = Store.discover(initialised)
    capture_text(gm, initialised.parent / "a.md", TRANSCRIPT, [FRIDAYS])
    port = {"kind": "fact", "text": "The parser handles port 137", "trust": "inferred"}
    capture_text(gm, initialised.parent / "b.md", TRANSCRIPT, [port])
    tip = store.repo.get(str(store.tip()))
    assert isinstance(tip, pygit2.Commit)
    parent = tip.parents[0]
    added = store.added_since(str(parent.id)) or []
    items = [p for p in added if p.startswith("items/")]
    assert len(items) == 1
    staged = pygit2.Index()
    staged.read_tree(parent.tree)
    for path in items:
        staged.add(pygit2.IndexEntry(path, tip.tree[path].id, pygit2.enums.FileMode.BLOB))
    who = pygit2.Signature("bob", "bob@example.net")
    first = store.repo.create_commit(
        None, who, who, "items first", staged.write_tree(store.repo), [parent.id]
    )
    rest = store.repo.create_commit(None, who, who, "then the record", tip.tree.id, [first])
    orphan = "".join(items[0].removesuffix(".json").split("/")[1:])
    store.repo.references[store.ref].set_target(first, "items first")
    assert orphans_seen(store, home)[1] == (orphan,)
    store.repo.references[store.ref].set_target(rest, "then the record")
    assert orphans_seen(store, home) == (False, ())
    (store.local_dir / INDEX_FILE).unlink()
    assert orphans_seen(store, home) == (True, ())


def orphans_seen(store: Store, home: Path) -> tuple[bool, tuple[str, ...]]:
    """(whether opening the index rebuilt it, the item blobs it says no record names)."""
    index = Index.open(store, load_trust_roots(home, store))
    try:
        return index.rebuilt, index.orphans()
    finally:
        index.close()


def test_a_deleted_or_corrupt_index_is_rebuilt(gm: Any, initialised: Path, home: Path) -> None:
    store = Store.discover(initialised)
    capture_text(gm, initialised.parent / "a.md", TRANSCRIPT, [FRIDAYS])
    _, before, _ = snapshot(store, home)
    path = store.local_dir / INDEX_FILE
    path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    rebuilt, after, _ = snapshot(store, home)
    assert rebuilt and after == before
    path.unlink()
    assert gm("brief").exit_code == 0 and path.is_file()
    assert "No deploys on Fridays" in gm("brief").stdout


def three_decisions(gm: Any, repo: Path) -> Store:
    """Three captures of one decision each, "Decision N: the parser keeps module N"."""
    for n in range(3):
        text = f"Decision {n}: the parser keeps module {n}"
        capture_text(gm, repo.parent / f"{n}.md", TRANSCRIPT, [{"kind": "decision", "text": text}])
    return Store.discover(repo)


def index_pages(path: Path) -> tuple[bytearray, int, int]:
    """The index file's bytes (its write-ahead log checkpointed into it first), its page
    size, and the number of the meta table's page."""
    import sqlite3

    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        (meta_page,) = db.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'meta'"
        ).fetchone()
        (size,) = db.execute("PRAGMA page_size").fetchone()
    db.close()
    return bytearray(path.read_bytes()), int(size), int(meta_page)


def test_an_index_damaged_behind_a_sound_key_is_rebuilt_by_the_command_that_finds_it(
    gm: Any, initialised: Path, home: Path
) -> None:
    """Pages garbled everywhere but the header and the meta table: the index opens, its
    key matches, and SQLite only notices on the pages a command reads. That command
    rebuilds the file and answers; no traceback, no "internal error"."""

    store = three_decisions(gm, initialised)
    _, before, _ = snapshot(store, home)
    path = store.local_dir / INDEX_FILE
    data, size, meta_page = index_pages(path)
    for page in range(1, len(data) // size):  # page 1 (the header) is at index 0
        if page + 1 != meta_page:
            data[page * size + 8 : page * size + 400] = b"\x5a" * 392
    path.write_bytes(bytes(data))
    for command in (("brief",), ("recall", "parser"), ("status",), ("brief",)):
        result = gm(*command)
        assert result.exit_code == 0, (command, result.stderr)
        assert "internal error" not in result.stderr
    assert "Decision 2: the parser keeps module 2" in gm("brief").stdout
    assert "Decision 0" in gm("recall", "parser").stdout
    rebuilt, after, _ = snapshot(store, home)
    assert not rebuilt and after == before  # healed once, then sound


@pytest.mark.parametrize("tear", ["pages never written", "cut short"])
def test_a_torn_fresh_index_is_rebuilt(gm: Any, initialised: Path, home: Path, tear: str) -> None:
    """A rebuild's file is not synced: a power cut can leave its key and its meta page on
    disk but not the rest, which then reads as zeros or lies past the file's end. The
    next commands rebuild it and answer as before."""
    store = three_decisions(gm, initialised)
    path = store.local_dir / INDEX_FILE
    path.unlink()
    _, before, _ = snapshot(store, home)  # a fresh rebuild, as a first brief makes
    data, size, meta_page = index_pages(path)
    if tear == "cut short":
        data = data[: max(2, meta_page) * size]
    else:
        for page in range(1, len(data) // size):
            if page + 1 != meta_page:
                data[page * size : (page + 1) * size] = bytes(size)
    path.write_bytes(bytes(data))
    for command in (("brief",), ("recall", "parser"), ("status",)):
        result = gm(*command)
        assert result.exit_code == 0, (command, result.stderr)
        assert "internal error" not in result.stderr
    assert "Decision 2: the parser keeps module 2" in gm("brief").stdout
    rebuilt, after, _ = snapshot(store, home)
    assert not rebuilt and after == before


def test_rows_that_no_longer_decode_are_rebuilt_by_the_command_that_reads_them(
    gm: Any, initialised: Path, home: Path
) -> None:
    """Damage that keeps every table's row count (a state's text garbled, a blob's bytes
    cut): the command that reads those rows rebuilds the file and answers from it."""
    import sqlite3

    store = Store.discover(initialised)
    capture_text(gm, initialised.parent / "a.md", TRANSCRIPT, [FRIDAYS])
    _, before, _ = snapshot(store, home)
    path = store.local_dir / INDEX_FILE
    for damage in (
        'UPDATE states SET state = \'{"v": 4, "item"\' WHERE current = 1',
        "UPDATE blobs SET data = substr(data, 1, 10)",
        "UPDATE states SET state = '{\"v\": 99}' WHERE current = 1",  # JSON, not a state
    ):
        with sqlite3.connect(path) as db:
            db.execute(damage)
        db.close()
        result = gm("brief")
        assert result.exit_code == 0 and "No deploys on Fridays" in result.stdout, damage
        rebuilt, after, _ = snapshot(store, home)
        assert not rebuilt and after == before, damage  # the brief rebuilt it, once


@pytest.mark.parametrize("writes", [False, True], ids=["read", "written"])
def test_an_index_of_another_shape_under_a_sound_key_is_rebuilt(
    gm: Any, initialised: Path, home: Path, writes: bool
) -> None:
    """A file whose tables are not the ones this version makes, under its key (edited,
    or written by another build): here the full-text table as it was before it kept
    ``last_seen``, with the same rows. A command that reads it, and one that writes it,
    rebuild the file and answer; no "internal error", and no index kept in memory
    instead of the file, command after command."""
    import sqlite3

    store = three_decisions(gm, initialised)
    assert gm("brief").exit_code == 0  # the index is up to date: reading it is all
    path = store.local_dir / INDEX_FILE
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT rowid, text, quote, address FROM recall").fetchall()
        db.execute("DROP TABLE recall")
        db.execute("CREATE VIRTUAL TABLE recall USING fts5(text, quote, address UNINDEXED)")
        db.executemany("INSERT INTO recall (rowid, text, quote, address) VALUES (?,?,?,?)", rows)
    db.close()
    if writes:
        capture_text(
            gm,
            initialised.parent / "c.md",
            TRANSCRIPT,
            [{"kind": "decision", "text": "The cache lives in /var"}],
        )
    result = gm("recall", "parser")
    assert result.exit_code == 0, result.stderr
    assert "internal error" not in result.stderr
    assert "Decision 0: the parser keeps module 0" in result.stdout
    with sqlite3.connect(path) as db:
        columns = [row[1] for row in db.execute("PRAGMA table_info(recall)")]
    db.close()
    assert "last_seen" in columns  # the file itself was rebuilt


def test_other_trust_roots_rebuild_the_index(gm: Any, initialised: Path, home: Path) -> None:
    store = Store.discover(initialised)
    capture_text(gm, initialised.parent / "a.md", TRANSCRIPT, [FRIDAYS])
    snapshot(store, home)
    (home / "allowed_signers").unlink()  # the writer's own key is no longer trusted
    rebuilt, states, _ = snapshot(store, home)
    assert rebuilt and states == {}  # records by an untrusted key replay nothing


def test_a_warm_index_never_hides_an_edited_rendered_item(
    gm: Any, initialised: Path, home: Path
) -> None:
    store = Store.discover(initialised)
    quote = "deploys stop on Fridays"
    items = [
        {"kind": "decision", "text": "Deploys stop on Fridays", "trust": "verbatim", "quote": quote}
    ]
    captured = capture_text(gm, initialised.parent / "a.md", TRANSCRIPT, items)
    (shown,) = make_brief(store, home, world_check=False).items
    assert shown.trust == Trust.VERBATIM  # the index is warm now
    # The git object behind the item is rewritten in place: the ref does not move, so
    # the index has nothing new to read; the brief checks what it renders anyway.
    path = content_path("items", captured["items"][0]["id"])
    overwrite_object(store, path, b"Deploys stop", b"Deploys go")
    (shown,) = make_brief(store, home, world_check=False).items
    assert shown.trust == Trust.UNTAGGED and shown.quote is None
    assert shown.degraded_label is not None
    assert "⚠" in gm("brief").stdout


def test_a_warm_index_never_hides_an_edited_checkpoint(
    gm: Any, initialised: Path, home: Path
) -> None:
    store = Store.discover(initialised)
    items = [{"kind": "decision", "text": "No deploys on Fridays", "quote": "Fridays"}]
    captured = capture_text(gm, initialised.parent / "a.md", TRANSCRIPT, items)
    make_brief(store, home, world_check=False)
    data = store.read_path(content_path("checkpoints", captured["checkpoint"]))
    assert data is not None
    overwrite_object(
        store, content_path("checkpoints", captured["checkpoint"]), b'"a.md"', b'"x.md"'
    )
    (shown,) = make_brief(store, home, world_check=False).items
    assert shown.trust == Trust.UNTAGGED and shown.degraded_label is not None


def test_an_edited_item_a_failed_checkpoint_also_names_stays_visible(
    gm: Any, initialised: Path, home: Path
) -> None:
    """An item blob edited in a new commit, and a later checkpoint that carries it edited
    too: the item is shown degraded (never dropped) by the advanced index and by a
    rebuild alike, whichever checkpoint naming it the index reads last."""
    store = Store.discover(initialised)
    quote = "deploys stop on Fridays"
    items = [
        {"kind": "decision", "text": "Deploys stop on Fridays", "trust": "verbatim", "quote": quote}
    ]
    first = capture_text(gm, initialised.parent / "a.md", TRANSCRIPT, items)
    later = capture_text(
        gm,
        initialised.parent / "b.md",
        TRANSCRIPT,
        [{"kind": "fact", "text": "Port 137 is parsed"}],
    )
    make_brief(store, home, world_check=False)  # the index is warm
    edit_record(store, first["checkpoint"], b"Deploys stop", b"Deploys go")
    make_brief(store, home, world_check=False)
    edit_record(store, later["checkpoint"], b"alice@example.com", b"alice@example.org")

    def shown() -> dict[str, str | None]:
        return {i.id: i.degraded_label for i in make_brief(store, home, world_check=False).items}

    advanced = shown()
    assert advanced[first["items"][0]["id"]] == "item edited"
    (store.local_dir / INDEX_FILE).unlink()
    assert shown() == advanced


def test_the_index_knows_which_sessions_sighted_an_item(
    gm: Any, initialised: Path, home: Path
) -> None:
    capture_text(gm, initialised.parent / "a.md", TRANSCRIPT, [FRIDAYS])
    store = Store.discover(initialised)
    session = str(gm("log", "--json").json()[0]["session"])
    index = Index.open(store, load_trust_roots(home, store))
    try:
        assert index.sighted_in(session)
        assert not index.sighted_in(session[:-1])  # a prefix is another session
        assert not index.sighted_in("commit-000000000000")
    finally:
        index.close()


def test_a_rebuild_on_two_cores_is_the_rebuild_on_one(
    gm: Any, initialised: Path, home: Path, monkeypatch: Any
) -> None:
    """Record checks in a forked child, beside a replay of the records expected to hold,
    give the index a one-process rebuild gives: with a record signed by a key the roots
    do not list (never expected to hold), one naming a listed key whose receipt is
    another record's, and one signed by that key but not in canonical form (both expected
    to hold, and failing: what holds is replayed again)."""
    import pygit2

    from gitmem.lifecycle import index_build
    from gitmem.store import parallel
    from gitmem.store.keys import load_identity

    store = history(gm, initialised, home)
    captured = capture_text(
        gm, initialised.parent / "d.md", TRANSCRIPT, [{"kind": "fact", "text": "Port 137 is open"}]
    )
    resign_with_untrusted_key(store, captured["checkpoint"], b"137", b"138")
    first = capture_text(
        gm, initialised.parent / "e.md", TRANSCRIPT, [{"kind": "fact", "text": "Port 21 is shut"}]
    )
    second = capture_text(
        gm, initialised.parent / "f.md", TRANSCRIPT, [{"kind": "fact", "text": "Port 22 is open"}]
    )
    other_receipt = store.read_path(receipt_path(first["checkpoint"]))
    assert other_receipt is not None
    add_entry(store, receipt_path(second["checkpoint"]), other_receipt, pygit2.enums.FileMode.BLOB)
    spaced = store_uncanonical_copy(store, first["checkpoint"], load_identity(home).signer)
    forks: list[int] = []
    real_fork = os.fork

    def fork() -> int:
        pid = real_fork()
        forks.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", fork)
    replays: list[int] = []
    real_replayed = index_build._replayed

    def replayed(*args: Any) -> Any:
        replays.append(len(args[0]))
        return real_replayed(*args)

    monkeypatch.setattr(index_build, "_replayed", replayed)

    def rebuilt() -> tuple[dict[str, Any], Any, Any]:
        (store.local_dir / INDEX_FILE).unlink(missing_ok=True)
        index = Index.open(store, load_trust_roots(home, store))
        try:
            state = encoded(index.state())
            failed = sorted((f.path, f.check.problem, f.writer) for f in index.failed())
            return state, index.counts(), failed
        finally:
            index.close()

    one = rebuilt()
    assert not forks and len(replays) == 1  # a handful of records: no child
    monkeypatch.setattr(parallel, "MIN_FORK", 2)
    if not parallel._worth_forking(10):
        return  # one core here: nothing to compare
    two = rebuilt()
    assert len(forks) == 1
    # the replay of what was expected to hold had two records too many: replayed again
    assert replays[1:] == [replays[0] + 2, replays[0]]
    assert two == one
    failed = {path: (problem, writer) for path, problem, writer in one[2]}
    assert len(failed) == 3  # the forged checkpoint, the wrong receipt, the spaced copy
    assert failed[content_path("checkpoints", second["checkpoint"])][0] == "receipt invalid"
    # the spaced copy parses as JSON here, but a record not in canonical form is unread:
    # no writer is taken from it
    assert failed[content_path("checkpoints", spaced)] == ("record unreadable", None)
    # neither of those checkpoints is replayed anywhere
    assert not any(
        sighting[0] in (second["checkpoint"], spaced)
        for s in one[0].values()
        for sighting in s["sightings"]
    )


def test_a_rebuild_that_dies_midway_leaves_a_file_the_next_command_rebuilds(
    gm: Any, initialised: Path, home: Path, monkeypatch: Any
) -> None:
    """A fresh index is written without a journal (its pages once, not twice): a rebuild
    that fails halfway leaves a file without its key, which the next open rebuilds."""
    import pytest

    from gitmem.lifecycle import index_build

    store = history(gm, initialised, home)
    _, before, counts = snapshot(store, home)
    (store.local_dir / INDEX_FILE).unlink()

    def dies(*args: Any) -> None:
        raise OSError("killed")

    with monkeypatch.context() as patched:
        patched.setattr(index_build, "_write_whole", dies)
        with pytest.raises(OSError, match="killed"):
            snapshot(store, home)
    assert (store.local_dir / INDEX_FILE).is_file()  # what the dead rebuild left
    rebuilt, after, after_counts = snapshot(store, home)
    assert rebuilt and after == before and after_counts == counts


KILLED_BEFORE_THE_KEY = """
import os, signal, sys
from pathlib import Path
from gitmem.lifecycle import index_build
from gitmem.lifecycle.index import Index
from gitmem.store.repo import Store
from gitmem.store.roots import load_trust_roots

real = index_build.set_meta
def set_meta(db, values):
    if "key" in values:  # everything else is in the file: die as kill -9 does
        os.kill(os.getpid(), signal.SIGKILL)
    real(db, values)
index_build.set_meta = set_meta
store = Store.discover(Path.cwd())
Index.open(store, load_trust_roots(Path(sys.argv[1]), store))
"""


def test_a_rebuild_killed_before_its_key_is_written_is_rebuilt_by_the_next_open(
    gm: Any, initialised: Path, home: Path
) -> None:
    """Without a journal a commit is not atomic, so the key is written last, on its own:
    a process killed (SIGKILL) with everything else in the file leaves no key, and the
    next open rebuilds rather than trusting what it finds."""
    import signal
    import sqlite3
    import subprocess
    import sys

    store = history(gm, initialised, home)
    _, before, counts = snapshot(store, home)
    (store.local_dir / INDEX_FILE).unlink()
    done = subprocess.run(
        [sys.executable, "-c", KILLED_BEFORE_THE_KEY, str(home)], cwd=initialised, check=False
    )
    assert done.returncode == -signal.SIGKILL
    left = sqlite3.connect(store.local_dir / INDEX_FILE)
    try:
        meta = dict(left.execute("SELECT key, value FROM meta").fetchall())
        assert "key" not in meta and meta["tip"]  # the rest was written
        assert left.execute("SELECT COUNT(*) FROM states").fetchone()[0] > 0
    finally:
        left.close()
    rebuilt, after, after_counts = snapshot(store, home)
    assert rebuilt and after == before and after_counts == counts
